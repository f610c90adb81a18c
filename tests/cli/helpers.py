"""Run the installed `paperbot` console script as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

# The console script installed next to this interpreter by `pip install -e .`.
PAPERBOT = shutil.which("paperbot", path=str(Path(sys.executable).parent)) or "paperbot"


def paperbot(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run `paperbot ARGS` in `cwd` with only the given PAPERBOT_/SLACK_ variables set."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
    return subprocess.run(
        [PAPERBOT, *args],
        cwd=cwd,
        env=clean | (env or {}),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
