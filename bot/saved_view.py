"""The saved list: `/paper saved`, its BibTeX, and its part of the Home tab."""

from __future__ import annotations

from bot import ids
from bot.blocks import (
    Block,
    Message,
    _finish,
    button,
    clip_escaped,
    context,
    esc,
    section,
)
from storage.saved import MAX_SAVED, SavedItem

HOME_SAVED = 15  # saved papers the Home tab lists; `/paper saved` has them all
BIBTEX_PIECE = 2_400  # of BibTeX in one section (inside a code block, escaped)


def saved_items(items: list[SavedItem], *, limit: int | None = None) -> list[Block]:
    """One section a saved paper, with *Remove*; a paper gone from the store says so."""
    blocks: list[Block] = []
    for item in items[:limit]:
        label = clip_escaped(item.details.ref.label if item.details else item.label, 200)
        line = f"*{label}*"
        if item.arxiv_id:
            line += f" · arXiv {esc(item.arxiv_id)}"
        if item.details is None:
            line += "\n_no longer in the store_"
        line += f"\n_saved {item.saved_at:%Y-%m-%d}_"
        accessory = button("Remove", ids.REMOVE_SAVED, ids.paper_value(item.key))
        blocks.append({"type": "section", "text": section(line)["text"], "accessory": accessory})
    if limit is not None and len(items) > limit:
        blocks.append(context(f"…and {len(items) - limit} more: `/paper saved` lists them all."))
    return blocks


def saved_list(items: list[SavedItem], *, note: str = "") -> Message:
    """`note` is our own sentence, which may quote a paper's label (escaped here)."""
    blocks: list[Block] = [section(esc(note))] if note else []
    if not items:
        blocks.append(
            section("You have saved no paper yet: *Save* on a paper's card keeps it here.")
        )
        return _finish(note or "No saved papers.", blocks)
    blocks.append(
        context(f"{len(items)} saved (at most {MAX_SAVED}) · `/paper saved bibtex` for BibTeX")
    )
    blocks += saved_items(items)
    return _finish(note or f"{len(items)} saved papers", blocks)


def saved_bibtex(text: str, left_out: int) -> Message:
    notes = []
    if left_out:
        notes.append(f"{left_out} saved papers have no arXiv ID and are left out.")
    if not text:
        said = " ".join(["No saved paper has an arXiv ID.", *notes])
        return _finish(said, [section(esc(said))])
    pieces, current = [], ""
    for entry in text.split("\n\n"):
        entry = entry[:BIBTEX_PIECE]
        if current and len(current) + len(entry) + 2 > BIBTEX_PIECE:
            pieces.append(current)
            current = ""
        current = f"{current}\n\n{entry}" if current else entry
    pieces.append(current)
    blocks: list[Block] = [section(f"```{esc(piece)}```") for piece in pieces]
    notes.append("All of it: `paperbot export --saved <your user ID> --bibtex`.")
    return _finish("BibTeX of your saved papers", [context(" ".join(notes)), *blocks])
