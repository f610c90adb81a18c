"""Telling that a paper in a new version of a file is a paper that file held before.

A paper without an arXiv ID is keyed by a hash of its most stable text. An edit to that
very text (a reworded quote or abstract) changes the key; the paper is still the one the
file held before when most of its sentences are unchanged. Papers the same file held,
and that no paper of the new version already claimed, are compared; a paper of another
file of the same name or title must share more than half of both sides' sentences, so two
different papers are never merged on a shared sentence, or the new one hold nearly all the
stored one's (at least three): a copy that had parts missing (its claims not yet extracted)
completed by the whole one.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence

_SENTENCE_END = re.compile(r"[.!?。！？；;\n]+(?:\s+|$)|[。！？；]")
_NOT_WORD = re.compile(r"[\W_]+")
_HELD_AT_LEAST = 3  # sentences of a stored copy in a new one of another file that completes it
_SHORTEST_NAME = 3  # a shorter name is in too many words to be taken out of them
_SHORTEST = 8  # shorter pieces ("Table 3.") say nothing about which paper this is
# How a finished sentence ends: its mark, perhaps closed by a quotation mark or a bracket.
_ENDS_SENTENCE = re.compile(r"[。！？!?.…；;][”’\"')）」』]*$")


def sentences(texts: Iterable[str | None]) -> frozenset[str]:
    """The fingerprints (letters and digits, case folded) of the sentences of `texts`."""
    found: set[str] = set()
    for text in texts:
        for piece in _SENTENCE_END.split(text or ""):
            mark = _mark(piece)
            if len(mark) >= _SHORTEST:
                found.add(mark)
    return frozenset(found)


def renamed(old: frozenset[str], new: frozenset[str], names: Sequence[str | None]) -> bool:
    """A paper renamed throughout (its method's name in most of its sentences, `WanPE` now
    `CinePE`): with both names taken out, four in five of each side's sentences are the
    same, and at least three are the same with them (those the name is not in). Stock
    sentences a name makes different ("X outperforms existing methods") are then no
    evidence on their own: two different papers do not share the rest."""
    if len(old & new) < _HELD_AT_LEAST:
        return False
    old, new = _without_names(old, names), _without_names(new, names)
    return 5 * len(old & new) >= 4 * max(len(old), len(new))


def _without_names(marks: frozenset[str], names: Sequence[str | None]) -> frozenset[str]:
    owns = [own for name in names if name and len(own := _mark(name)) >= _SHORTEST_NAME]
    found: set[str] = set()
    for mark in marks:
        for own in owns:
            mark = mark.replace(own, "")
        if len(mark) >= _SHORTEST:
            found.add(mark)
    return frozenset(found)


def _mark(text: str) -> str:
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text)).casefold()


def ends_sentence(text: str) -> bool:
    """Whether `text` (right-stripped) ends where a sentence ends: a line of a paragraph
    written on one line, a text not cut off in the middle."""
    return _ENDS_SENTENCE.search(text) is not None


def same_paper(old: frozenset[str], new: frozenset[str]) -> bool:
    """At least half of the shorter side's sentences are in both."""
    shared = len(old & new)
    return shared > 0 and 2 * shared >= min(len(old), len(new))


def mostly_same(old: frozenset[str], new: frozenset[str]) -> bool:
    """More than half of each side's sentences are in both: the test for a paper of another
    file, where a few stock sentences (`Code is available.`) are no sign of the same paper."""
    shared = len(old & new)
    return 2 * shared > max(len(old), len(new))


def same_elsewhere(old: frozenset[str], new: frozenset[str]) -> bool:
    """The test for a paper of another file (of the same name or title): `mostly_same`, or
    four in five of the stored copy's sentences, at least three, in the new one: the new
    copy completes it. Not the other way round: a copy that lacks the stored one's claims
    would replace them with nothing."""
    shared = len(old & new)
    completes = shared >= _HELD_AT_LEAST and 5 * shared >= 4 * len(old)
    return completes or mostly_same(old, new)


# Terms that say what a paper is about in either language: coined names and acronyms
# (`GRPO`, `LLMs`, `d-LLMs`, `Qwen2.5`, `AIME24`), as Chinese text writes them too, and
# figures (`5.798`, `40%`). Plain words and whole numbers say little: any two papers share
# some.
_TERM = re.compile(
    r"(?<![A-Za-z0-9_.])(?:[A-Za-z][\w.+-]*?[A-Z0-9][\w.+-]*|\d+\.\d+%?|\d+%)", re.ASCII
)
_SHARED_TERMS = 2  # the terms an abstract and a deep read of one name share at least


def same_subject(abstract: str | None, read: Iterable[str | None], name: str | None) -> bool:
    """Whether an abstract and a deep read (its sections and claims) given one name are one
    paper: they share at least two terms besides the name. A short name is reused by
    unrelated papers (`GAPO`, a policy optimiser and a photonics solver); the abstract and
    the deep read of one paper speak of its methods, data and results alike."""
    own = _terms([name])
    shared = (_terms([abstract]) & _terms(read)) - own
    return len(shared) >= _SHARED_TERMS


def _terms(texts: Iterable[str | None]) -> set[str]:
    found: set[str] = set()
    for text in texts:
        for term in _TERM.findall(unicodedata.normalize("NFKC", text or "")):
            term = term.rstrip(".-+")
            plural = term.endswith("s") and term[-2:-1].isupper()  # `LLMs`: `LLM`
            found.add((term[:-1] if plural else term).casefold())
    return found
