"""The layers' dependencies point one way, bot → jobs → storage: storage imports neither
of the others, jobs do not import the bot, and only the bot talks to Slack."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "storage": ("bot", "jobs", "slack_sdk", "slack_bolt", "aiohttp"),
    "jobs": ("bot", "slack_sdk", "slack_bolt", "aiohttp"),
}


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / layer).rglob("*.py")
        for name in imported(path)
        if name.split(".")[0] in FORBIDDEN[layer]
    }
    assert not wrong, sorted(wrong)


def test_the_command_line_starts_without_search_and_embedding() -> None:
    """`paperbot ingest` forks its parse processes once the command line is imported: the
    search stack, numpy and usearch (a tenth of a second) load only in the commands that
    use them."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, bot.cli; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    heavy = {"numpy", "usearch", "storage.search", "storage.embedders", "jobs.embedding"}
    assert heavy.isdisjoint(loaded), sorted(heavy.intersection(loaded))
    assert "jobs.ingest" in loaded
