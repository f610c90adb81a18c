"""The *Full review* modal: a paper's review as headed sections, in pages that keep to
Slack's limits, each page one click (*More*) from the next."""

from __future__ import annotations

from typing import Any

from bot import ids
from bot.blocks import (
    MAX_SECTION_TEXT,
    Block,
    Message,
    actions,
    button,
    clip_escaped,
    context,
    first_authors,
    header,
    section,
)
from storage.review import Review

MAX_MODAL_BLOCKS = 100  # Slack's limit for a modal
MAX_MODAL_TITLE = 24
PAGE_CHARS = 11_000  # one page of the modal, as Slack measures a message too
MAX_REVIEW_CHARS = 80_000  # read of one paper's review at most, whatever a digest carries
PIECE = MAX_SECTION_TEXT - 100


def pieces(text: str, limit: int = PIECE) -> list[str]:
    """`text` escaped, in pieces of at most `limit` characters, cut at a line break or a
    sentence end when one is near, never inside an escape. One pass over the text."""
    out: list[str] = []
    current: list[str] = []
    size = 0
    for char in text:
        piece = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char, char)
        if size + len(piece) > limit:
            joined = "".join(current)
            cut = max(joined.rfind("\n"), joined.rfind("。"), joined.rfind(". "))
            if cut < limit // 2:
                cut = len(joined) - 1
            out.append(joined[: cut + 1].rstrip())
            current, size = [joined[cut + 1 :]], len(joined) - cut - 1
        current.append(piece)
        size += len(piece)
    if "".join(current).strip():
        out.append("".join(current).strip())
    return [p for p in out if p]


def review_blocks(review: Review) -> list[Block]:
    """Every block of the review, in order: each section's heading, then its text."""
    blocks: list[Block] = []
    left = MAX_REVIEW_CHARS
    for heading, text in review.sections:
        if left <= 0:
            blocks.append(context("…the rest of this review is too long to show here."))
            break
        blocks.append(header(heading))
        blocks += [section(piece) for piece in pieces(text[:left])]
        left -= len(text)
    return blocks


def review_pages(review: Review) -> list[list[Block]]:
    """The review's blocks cut into pages of at most PAGE_CHARS characters of text and room
    for the top and the *More* button under Slack's block limit."""
    pages: list[list[Block]] = [[]]
    size = 0
    for block in review_blocks(review):
        length = len(str(block))
        if pages[-1] and (size + length > PAGE_CHARS or len(pages[-1]) >= MAX_MODAL_BLOCKS - 6):
            pages.append([])
            size = 0
        pages[-1].append(block)
        size += length
    return pages


def _top(review: Review, page: int, pages: int) -> list[Block]:
    ref = review.ref
    facts = [f"arXiv {ref.arxiv_id}" if ref.arxiv_id else "", first_authors(review.authors)]
    if pages > 1:
        facts.append(f"part {page} of {pages}")
    line = " · ".join(fact for fact in facts if fact)
    return [header(ref.label), *([context(clip_escaped(line, 600))] if line else [])]


def review_modal(review: Review | None, page: int = 1) -> dict[str, Any]:
    """The modal of one page of the review (or, for a paper gone from the store, a line
    saying so)."""
    view: dict[str, Any] = {
        "type": "modal",
        "title": {"type": "plain_text", "text": "Full review"[:MAX_MODAL_TITLE]},
        "close": {"type": "plain_text", "text": "Close"},
    }
    if review is None:
        return view | {"blocks": [section("That paper is no longer in the store.")]}
    pages = review_pages(review)
    if not review.sections:
        return view | {"blocks": [*_top(review, 1, 1), section("This paper has no review text.")]}
    page = min(max(page, 1), len(pages))
    blocks = [*_top(review, page, len(pages)), *pages[page - 1]]
    if page < len(pages):
        more = ids.review_value(review.ref.key, page + 1)
        blocks.append(actions(button(f"More (part {page + 1})", ids.FULL_REVIEW, more)))
    return view | {"blocks": blocks[:MAX_MODAL_BLOCKS]}


def review_opened(review: Review | None) -> Message:
    """What the command that opened the modal answers in the conversation."""
    if review is None:
        return Message("That paper is no longer in the store.")
    label = clip_escaped(review.ref.label, 200)
    return Message(
        f"Opened the full review of {label}.", [section(f"Opened the full review of *{label}*.")]
    )
