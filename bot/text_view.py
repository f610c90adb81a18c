"""Slack messages as plain text, for `paperbot ask` and `shell`."""

from __future__ import annotations

import json
import re
from typing import Any

_LINK = re.compile(r"<(https?://[^|>]+)\|([^>]*)>")
_MENTION = re.compile(r"<([@#])([A-Z0-9]+)>")


def unescape(text: str) -> str:
    text = _LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})", text)
    text = _MENTION.sub(r"\1\2", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _text(obj: dict[str, Any] | None) -> str:
    return unescape(obj.get("text", "")) if obj else ""


def _button(element: dict[str, Any]) -> str:
    return f"[{_text(element.get('text'))}]"


def as_text(payload: dict[str, Any]) -> str:
    view = payload.get("view")
    if isinstance(view, str):  # a form post carries the view as JSON
        try:
            view = json.loads(view)
        except ValueError:
            view = None
    if isinstance(view, dict):  # a modal or the Home tab: its title, then its blocks
        title = _text(view.get("title"))
        body = as_text({"blocks": view.get("blocks") or []})
        return f"[{title}]\n\n{body}" if title else body
    blocks = payload.get("blocks") or []
    if not blocks:
        return unescape(payload.get("text", ""))
    lines: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "header":
            title = _text(block.get("text"))
            lines += [title, "=" * min(len(title), 80)]
        elif kind == "section":
            text = _text(block.get("text"))
            accessory = block.get("accessory")
            if accessory and accessory.get("type") == "button":
                text += "  " + _button(accessory)
            elif accessory and accessory.get("type") == "overflow":
                choices = " | ".join(_text(o.get("text")) for o in accessory.get("options", []))
                text += f"  [⋯ {choices}]"
            lines.append(text)
        elif kind == "context":
            lines.append(" · ".join(_text(e) for e in block.get("elements", []) if _text(e)))
        elif kind == "actions":
            lines.append(" ".join(_button(e) for e in block.get("elements", [])))
        elif kind == "divider":
            lines.append("-" * 40)
        lines.append("")
    return "\n".join(lines).rstrip()
