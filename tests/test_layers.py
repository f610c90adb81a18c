"""The layers' dependencies point one way, bot → jobs → storage: storage imports neither
of the others, jobs do not import the bot, and only the bot talks to Slack."""

from __future__ import annotations

import ast
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
