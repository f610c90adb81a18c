"""Action IDs of the buttons the bot renders, and their values: each value is encoded and
decoded next to each other here; a decoder checks what Slack sends back and returns None
for anything malformed or out of date."""

from __future__ import annotations

import json
import re

from storage.paper_keys import is_paper_key
from storage.search_text import MAX_QUERY_CHARS

SHOW_CLAIMS = "paper_show_claims"
OPEN_PAPER = "paper_open"
SHARE_PAPER = "paper_share"
NEXT_PAGE = "claims_next_page"
PAPER_NEXT_PAGE = "paper_next_page"
RUN_SUGGESTION = "search_suggestion"
REMOVE_SUBSCRIPTION = "subscription_remove"
FULL_REVIEW = "paper_full_review"
CLAIM_MENU = "claim_menu"  # a hit's menu: Related claims, Save the paper
SAVE_PAPER = "paper_save"
REMOVE_SAVED = "saved_remove"

_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")


_CHANNEL_ID = re.compile(r"[CGD][A-Z0-9]{2,20}")


def is_channel_id(value: str) -> bool:
    """A Slack channel ID, safe to put in a `<#…>` link."""
    return bool(_CHANNEL_ID.fullmatch(value))


def is_user_id(value: str) -> bool:
    """A Slack user ID, safe to put in a `<@…>` mention."""
    return bool(_USER_ID.fullmatch(value))


MAX_PAGE = 200
SEARCH_COMMANDS = ("/paper", "/claims")


def _encoded(value: dict[str, object]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _value(raw: object) -> dict[str, object] | None:
    if not isinstance(raw, str) or len(raw) > 2000:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def paper_value(key: str) -> str:
    return _encoded({"paper": key})


def paper_key(raw: object) -> str | None:
    """The paper key a button carries, if it is well formed."""
    value = _value(raw)
    key = value.get("paper") if value else None
    return key if isinstance(key, str) and is_paper_key(key) else None


def next_page_value(text: str, page: int) -> str:
    """The button to `page` of the search `text`. What a search may be fits a button's
    value even if every character is escaped in JSON."""
    return _encoded({"q": text[:MAX_QUERY_CHARS], "page": page})


def next_page(raw: object) -> tuple[str, int] | None:
    """The search text and page number a Next page button carries, if well formed."""
    value = _value(raw)
    if not value:
        return None
    text, page = value.get("q"), value.get("page")
    if not isinstance(text, str) or not isinstance(page, int) or not 1 < page <= MAX_PAGE:
        return None
    return text, page


def subscription_value(sub: int) -> str:
    return _encoded({"sub": sub})


def subscription_id(raw: object) -> int | None:
    """The subscription a Remove button carries, if well formed."""
    return _row_id(raw, "sub", below=2**31)


def suggestion_value(command: str, text: str) -> str:
    return _encoded({"c": command, "q": text[:MAX_QUERY_CHARS]})


def suggestion(raw: object) -> tuple[str, str] | None:
    """The command and corrected search a Did you mean button carries, if well formed."""
    value = _value(raw)
    if not value:
        return None
    command, text = value.get("c"), value.get("q")
    if command not in SEARCH_COMMANDS or not isinstance(text, str):
        return None
    if not text.strip() or len(text) > MAX_QUERY_CHARS:
        return None
    return str(command), text


MAX_REVIEW_PAGE = 50


def review_value(key: str, page: int = 1) -> str:
    return _encoded({"paper": key, "page": page})


def review_page(raw: object) -> tuple[str, int] | None:
    """The paper and page a Full review (or its More) button carries, if well formed."""
    key = paper_key(raw)
    value = _value(raw)
    page = value.get("page", 1) if value else None
    if key is None or not isinstance(page, int) or not 1 <= page <= MAX_REVIEW_PAGE:
        return None
    return key, page


def claim_value(claim: int) -> str:
    return _encoded({"claim": claim})


def claim_id(raw: object) -> int | None:
    """The claim a Related choice carries, if well formed."""
    return _row_id(raw, "claim", below=2**63)


def _row_id(raw: object, name: str, *, below: int) -> int | None:
    """The row id a value carries under `name`: a positive integer below the column's limit."""
    value = _value(raw)
    row = value.get(name) if value else None
    return row if isinstance(row, int) and not isinstance(row, bool) and 0 < row < below else None
