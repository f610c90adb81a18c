"""How a paper is found by its title or its name: the keys stored beside them (ingest,
migrations) and the same keys of what people type (`/paper`, `paper:`, `/claims`, claim
addresses). Both sides are computed here, so they cannot drift apart.

A name is found however it is hyphenated or spaced (`X-Planner`, `xplanner`, `x planner`).
A paper without a name is found by the coined word its title opens with, as people call
it (`SelfSpec` for "SelfSpec: Self-Speculative Decoding …"); a plain word that opens
titles (`Position:`, `Survey:`) names no paper.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from storage import paper_keys
from storage.search_text import MAX_QUERY_TERMS, normalise

_NAME_GAPS = re.compile(r"[\s\-\u2010]+")
_TITLE_NAME = re.compile(r"\s*([^\W_]+(?:-[^\W_]+)*)\s*[:：]")
LONGEST_NAME = 40  # characters of a word read as a name
# The words of a search that may name a paper: not quoted, not excluded (`-word`).
_PLAIN_WORD = re.compile(r'"[^"]*"?|“[^”]*”?|(?<!\S)-\S*|(\S+)')
_AROUND = ",.;:!?'\"“”‘’()[]"  # punctuation typed around a name


def title_key(title: str) -> str:
    """An exact title, whatever its case, width and spacing."""
    return " ".join(normalise(title).split())


def name_key(name: str) -> str:
    """A name, whatever its case, width, hyphens and spaces."""
    return _NAME_GAPS.sub("", normalise(name))


def stored_keys(name: str | None, title: str | None) -> dict[str, str | None]:
    """The lookup keys stored for a paper (its `title_key` and `name_key` columns)."""
    return {
        "title_key": title_key(title) if title else None,
        "name_key": paper_name_key(name, title),
    }


def paper_name_key(name: str | None, title: str | None) -> str | None:
    """The name key stored for a paper: of its name, or else of its title's coined word."""
    called = name or title_name(title)
    return (name_key(called) or None) if called else None


def title_name(title: str | None) -> str | None:
    """The coined word a title opens with before a colon (`SelfSpec`, `LLaMA-Adapter`,
    `Ψ-Spec`, `GPT4o`): capitals past its first letter, a digit or a hyphen tell it from a
    word of the language."""
    match = _TITLE_NAME.match(title or "")
    if match is None or len(word := match.group(1)) > LONGEST_NAME:
        return None
    coined = any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)
    return word if coined or "-" in word else None


class Naming(NamedTuple):
    """A typed word that may name a paper, and the search without it."""

    how: str  # "arxiv" (key: the ID) or "name" (key: a name key)
    key: str
    rest: str


def namings(words: str) -> list[Naming]:
    """The words of a search that may name a paper (not quoted, not excluded, not too
    long), in the order typed: an arXiv ID or link, or a word holding a letter."""
    found = []
    for match in list(_PLAIN_WORD.finditer(words))[:MAX_QUERY_TERMS]:
        bare = (match.group(1) or "").strip(_AROUND)
        if not bare or len(bare) > LONGEST_NAME * 3:  # a link runs longer than a name
            continue
        arxiv_id = paper_keys.arxiv_id(bare)
        how, key = ("arxiv", arxiv_id) if arxiv_id else ("name", name_key(bare))
        if arxiv_id or (len(bare) <= LONGEST_NAME and any(c.isalpha() for c in key)):
            rest = " ".join((words[: match.start()] + words[match.end() :]).split())
            found.append(Naming(how, key, rest))
    return found
