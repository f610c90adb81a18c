"""Result sentences of an abstract: searchable beside the reviewed claims, never mixed up
with them (they are stored with source "abstract").

HuggingFace entries carry no numbered claims, but their abstracts state results: a number
("27.5%", "4B", "0.886") or a comparison ("outperforms", "better than"). Those sentences
are what someone searching claims wants to find too.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
_RESULT = re.compile(
    r"\d|\b(outperform\w*|surpass\w*|exceed\w*|beat\w*|better|worse|higher|lower|faster|"
    r"slower|fewer|improv\w*|reduc\w*|increas\w*|decreas\w*|boost\w*|gain\w*|"
    r"state[- ]of[- ]the[- ]art|sota|than)\b",
    re.IGNORECASE,
)
_MIN_CHARS = 25  # shorter pieces are sentence fragments, not findings


def result_sentences(abstract: str | None) -> list[str]:
    """The abstract's sentences that state a result, in order."""
    if not abstract:
        return []
    sentences = _SENTENCE_END.split(" ".join(abstract.split()))
    return [s for s in sentences if len(s) >= _MIN_CHARS and _RESULT.search(s)]
