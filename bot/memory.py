"""Long-lived data kept out of the garbage collector's full collections.

A full collection scans every container object the process holds. The bilingual
dictionary, the Slack app and the "Did you mean" vocabulary live as long as the process
(or until replaced) and hold no garbage, yet each full collection scanned them: 70-90 ms
at 10,000 papers, now and then, paid by whichever command was running. Frozen, they are
left out of those scans; they are still freed as usual when nothing refers to them.
"""

from __future__ import annotations

import gc


def settle(*, full: bool = False) -> None:
    """Freeze what is alive now. `full` first collects every generation (before serving);
    otherwise only the young ones, which is cheap (while serving)."""
    gc.collect(2 if full else 1)
    gc.freeze()
