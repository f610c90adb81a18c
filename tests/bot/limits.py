"""Slack's message limits, as a checker for what the bot sends."""

from __future__ import annotations

import json
from typing import Any

from bot import blocks as b


def limit_violations(payload: dict[str, Any]) -> list[str]:
    """Every way `payload` would be refused or cut by Slack; empty when it fits."""
    problems = []
    blocks = payload.get("blocks", [])
    if len(blocks) > b.MAX_BLOCKS:
        problems.append(f"{len(blocks)} blocks")
    if len(json.dumps(blocks, ensure_ascii=False)) > 13_000:
        problems.append("blocks longer than 13,000 characters in total")
    for block in blocks:
        kind = block["type"]
        if kind == "header" and len(block["text"]["text"]) > b.MAX_HEADER:
            problems.append("header too long")
        if kind == "section" and len(block["text"]["text"]) > b.MAX_SECTION_TEXT:
            problems.append("section text too long")
        if kind == "context" and len(block["elements"]) > b.MAX_CONTEXT_ELEMENTS:
            problems.append("too many context elements")
        elements = block.get("elements", []) if kind == "actions" else []
        elements += [block["accessory"]] if "accessory" in block else []
        for element in elements:
            if element["type"] == "overflow":
                options = element["options"]
                if not 2 <= len(options) <= 5:
                    problems.append("a menu needs 2 to 5 choices")
                for option in options:
                    if len(option["text"]["text"]) > b.MAX_BUTTON_LABEL:
                        problems.append("menu choice too long")
                    if len(option["value"]) > b.MAX_OPTION_VALUE:
                        problems.append("menu value too long")
                continue
            if len(element["text"]["text"]) > b.MAX_BUTTON_LABEL:
                problems.append("button label too long")
            if len(element.get("value", "")) > b.MAX_BUTTON_VALUE:
                problems.append("button value too long")
    return problems
