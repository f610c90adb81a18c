"""Did you mean: corrections of mistyped words, drawn from the store's own vocabulary.

The vocabulary is the Latin-script words of paper names and titles and of the claims'
search index, each with the number of papers or claims holding it. It is built from the
store (never per query: a query only looks words up in memory), in a thread, bounded in
size, and rebuilt when the store has changed. A typed word is corrected to the words at
the smallest edit distance (transpositions count one), among words of about its length
only, with rapidfuzz; a search corrects at most a few words, however long it is.

Chinese is corrected from the bilingual dictionary instead (storage/bilingual.py):
characters that make no word are read as a pinyin input method's wrong pick, and
corrected to the words that sound like them (`延尺`: `延迟`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import OSA
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage import bilingual, fulltext
from storage.db import Sessions
from storage.models import Claim, Paper
from storage.search_text import fold_chinese, normalise

log = logging.getLogger(__name__)

MAX_VOCABULARY = 300_000  # words kept, the most frequent; ~70 MB in memory when full
CLAIMS_READ = 300_000  # PostgreSQL: the newest claims whose words are read (fulltext.claim_terms)
PAPERS_READ = 200_000  # the newest papers whose names and titles are read
MIN_WORD, MAX_WORD = 3, 30  # shorter words are too ambiguous to correct, longer ones rare
MAX_WORDS_LOOKED_AT = 12  # of what was typed; the rest is kept as typed
MAX_CORRECTED_WORDS = 3
MAX_SUGGESTIONS = 3
# A known word is still corrected (when a search finds little) if it is this rare and a
# word one or two edits away is this many times more common: a typo that made it into a
# digest, like "latncy" once among a thousand "latency".
RARE_WORD = 2
MORE_COMMON = 10
REFRESH_SECONDS = 60.0  # how often a search that needs the vocabulary checks for changes
# How long a search waits for the first vocabulary (read at start) before going without
# suggestions: a small store's is ready in well under this; a large one's takes seconds.
FIRST_LOAD_WAIT = 2.0

_TYPED = re.compile(r"[^\W_]+")  # what the search tokenizer reads as a word (no CJK split)
_LATIN = re.compile(r"[a-z][a-z0-9]*")  # a word the vocabulary holds, once normalised


def _max_edits(word: str) -> int:
    return 1 if len(word) <= 4 else 2


@dataclass(frozen=True)
class Vocabulary:
    counts: dict[str, int]  # normalised word -> papers or claims holding it
    display: dict[str, str]  # normalised word -> how to show it (`gapo` -> `GAPO`)
    names: frozenset[str]  # words of paper names
    # A typed word is compared only with the words of about its length that begin with
    # its first letter; a mistake in the first letter itself (one edit) is looked up
    # instead: the words by all but their first letter (`by_tail`) catch a wrong or
    # missing first letter, the word itself an extra one or the first two swapped.
    by_first: dict[tuple[int, str], list[str]] = field(default_factory=dict)
    by_tail: dict[str, list[str]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.counts)

    def candidates(self, word: str, *, names_first: bool) -> list[str]:
        """The closest known words to `word` (normalised), most common first; with
        `names_first`, words of paper names only when any is among the closest."""
        edits = _max_edits(word)
        found: dict[str, int] = {}
        for length in range(max(len(word) - edits, MIN_WORD), len(word) + edits + 1):
            bucket = self.by_first.get((length, word[0]))
            if bucket:
                found |= {
                    choice: int(distance)
                    for choice, distance, _ in process.extract(
                        word, bucket, scorer=OSA.distance, score_cutoff=edits, limit=None
                    )
                }
        first_letter = [*self.by_tail.get(word[1:], ()), *self.by_tail.get(word, ())]
        first_letter += [w for w in (word[1:], word[1] + word[0] + word[2:]) if w in self.counts]
        found |= {choice: 1 for choice in first_letter if choice[0] != word[0]}
        found.pop(word, None)
        if not found:
            return []
        closest = min(found.values())
        words = [choice for choice, distance in found.items() if distance == closest]
        if names_first and any(w in self.names for w in words):
            words = [w for w in words if w in self.names]
        # Two letters swapped first (the commonest slip), then a wrong letter (same
        # length), then a missing or extra one; among those, the more common word.
        letters = sorted(word)
        words.sort(key=lambda w: (sorted(w) != letters, len(w) != len(word), -self.counts[w], w))
        return words[:MAX_SUGGESTIONS]

    def corrections(
        self,
        text: str,
        *,
        keep: Sequence[tuple[int, int]] = (),
        few: bool = False,
        names_first: bool = False,
    ) -> list[str]:
        """`text` with its unknown words corrected: the best guess first, then up to
        MAX_SUGGESTIONS - 1 others; nothing when every word is known. Words inside the
        `keep` spans (filters such as `paper:…`) stay as typed. With `few` (the search
        found a little), a known but rare word is corrected to a far more common one."""
        fixes: list[tuple[int, int, list[str]]] = []
        for match in list(_TYPED.finditer(text))[:MAX_WORDS_LOOKED_AT]:
            if len(fixes) == MAX_CORRECTED_WORDS:
                break
            start, end = match.span()
            if any(a <= start < b for a, b in keep):
                continue
            if bilingual.HAN.search(match.group()):
                fixes += _chinese_fixes(match.group(), start)[: MAX_CORRECTED_WORDS - len(fixes)]
                continue
            word = normalise(match.group())
            if not (MIN_WORD <= len(word) <= MAX_WORD and _LATIN.fullmatch(word)):
                continue
            known = self.counts.get(word, 0)
            if known and not (few and known <= RARE_WORD):
                continue
            options = self.candidates(word, names_first=names_first)
            if known:
                options = [w for w in options if self.counts[w] >= MORE_COMMON * known]
            if options:
                typed = match.group()
                fixes.append((start, end, [_cased(self.display.get(w, w), typed) for w in options]))
        if not fixes:
            return []
        texts = [_replaced(text, [(a, b, options[0]) for a, b, options in fixes])]
        # Others: the next guesses for the first word that has any.
        for i, (a, b, options) in enumerate(fixes):
            if len(options) > 1:
                for other in options[1:]:
                    changed = [(x, y, o[0]) for x, y, o in fixes]
                    changed[i] = (a, b, other)
                    texts.append(_replaced(text, changed))
                break
        return list(dict.fromkeys(" ".join(t.split()) for t in texts))[:MAX_SUGGESTIONS]


def _chinese_fixes(typed: str, offset: int) -> list[tuple[int, int, list[str]]]:
    """Corrections of the Chinese runs in one typed word (at `offset` in the search): the
    spans of characters that make no dictionary word, each with the words that sound like
    it; none until the dictionary is read."""
    words = bilingual.loaded()
    if words is None:
        return []
    fixes = []
    for run in bilingual.HAN.finditer(typed):
        folded = fold_chinese(normalise(run.group()))
        if len(folded) != len(run.group()):  # positions would not map back to the text
            continue
        start = offset + run.start()
        fixes += [(start + a, start + b, options) for a, b, options in words.mistyped(folded)]
    return fixes


def _cased(shown: str, typed: str) -> str:
    """A lower-case suggestion in the case it was typed in (`Latncy` -> `Latency`)."""
    if shown != shown.lower() or not typed[:1].isupper():
        return shown
    return shown.upper() if typed.isupper() and len(typed) > 1 else shown.capitalize()


def _replaced(text: str, changes: Iterable[tuple[int, int, str]]) -> str:
    out, cursor = [], 0
    for start, end, word in sorted(changes):
        out += [text[cursor:start], word]
        cursor = end
    return "".join(out) + text[cursor:]


def _shown(word: str) -> str | None:
    """How a word of a name or title is shown when suggested: as written when its case
    says something (`GAPO`, `OneStreamer`), else as the index has it (lower case)."""
    return word if any(c.isupper() for c in word[1:]) else None


def build_vocabulary(
    papers: Iterable[tuple[str | None, str | None]], claim_terms: Iterable[tuple[str, int]]
) -> Vocabulary:
    """The vocabulary from (name, title) pairs and (index word, claims holding it)."""
    counts: Counter[str] = Counter()
    display: dict[str, str] = {}
    names: set[str] = set()
    for name, title in papers:
        seen: set[str] = set()
        for part, is_name in ((name, True), (title, False)):
            for typed in _TYPED.findall(part or ""):
                word = normalise(typed)
                if not (MIN_WORD <= len(word) <= MAX_WORD and _LATIN.fullmatch(word)):
                    continue
                if is_name:
                    names.add(word)
                shown = _shown(typed)
                if shown and (is_name or word not in display):
                    display[word] = shown
                seen.add(word)
        counts.update(seen)
    for word, holding in claim_terms:
        if MIN_WORD <= len(word) <= MAX_WORD and _LATIN.fullmatch(word):
            counts[word] += holding
    kept = dict(counts.most_common(MAX_VOCABULARY))
    by_first: dict[tuple[int, str], list[str]] = {}
    by_tail: dict[str, list[str]] = {}
    for word in kept:
        by_first.setdefault((len(word), word[0]), []).append(word)
        by_tail.setdefault(word[1:], []).append(word)
    return Vocabulary(
        kept,
        {w: s for w, s in display.items() if w in kept},
        frozenset(names & kept.keys()),
        by_first,
        by_tail,
    )


async def load_vocabulary(session: AsyncSession) -> Vocabulary:
    """Read the words from the store (streamed, so the event loop is never held long)
    and build the vocabulary in a thread."""
    papers: list[tuple[str | None, str | None]] = []
    rows = await session.stream(
        select(Paper.name, Paper.title).order_by(Paper.id.desc()).limit(PAPERS_READ),
        execution_options={"yield_per": 5_000},
    )
    async for partition in rows.partitions():
        papers += [(name, title) for name, title in partition]
    terms = await fulltext.claim_terms(session, newest=CLAIMS_READ)
    return await asyncio.to_thread(build_vocabulary, papers, terms)


class Suggester:
    """The vocabulary of one store, loaded on first use (or at start), and rebuilt in the
    background when papers or claims were added since (checked at most once a minute,
    and only by searches that need it); searches meanwhile use the one they have."""

    def __init__(self, on_loaded: Callable[[], None] | None = None) -> None:
        self._on_loaded = on_loaded  # called after each load (the vocabulary is in place)
        self._vocabulary: Vocabulary | None = None
        self._state: tuple[int | None, int | None] | None = None
        self._checked = 0.0
        self._loading: asyncio.Task[None] | None = None

    async def vocabulary(self, sessions: Sessions) -> Vocabulary | None:
        """The vocabulary, waiting a little for the first load; None while there is none
        (still loading, or the store cannot give one)."""
        if self._vocabulary is None:
            loading = self._start(sessions)
            try:
                await asyncio.wait_for(asyncio.shield(loading), FIRST_LOAD_WAIT)
            except TimeoutError:  # the load goes on; later searches will have it
                return None
        elif time.monotonic() - self._checked > REFRESH_SECONDS:
            self._checked = time.monotonic()
            if await _state(sessions) != self._state:
                self._start(sessions)
        return self._vocabulary

    async def refresh(self, sessions: Sessions) -> None:
        """Load the vocabulary now (one load at a time, shared by whoever waits)."""
        await asyncio.shield(self._start(sessions))

    async def settled(self) -> None:
        """Wait for the load under way, if any (none is started)."""
        if self._loading is not None:
            await asyncio.shield(self._loading)

    def _start(self, sessions: Sessions) -> asyncio.Task[None]:
        if self._loading is None:
            self._loading = asyncio.create_task(self._load(sessions), name="vocabulary")
        return self._loading

    async def _load(self, sessions: Sessions) -> None:
        try:
            started = time.monotonic()
            state = await _state(sessions)
            async with sessions() as session:
                vocabulary = await load_vocabulary(session)
            self._vocabulary, self._state = vocabulary, state
            if self._on_loaded is not None:
                self._on_loaded()
            self._checked = time.monotonic()
            took = time.monotonic() - started
            # Worth an operator's notice only when it takes long (a large store).
            say = log.info if took > 1 else log.debug
            say("vocabulary of %d words built in %.1f s", len(vocabulary), took)
        except Exception:
            log.exception("could not build the vocabulary; searches go without suggestions")
        finally:
            self._loading = None


async def _state(sessions: Sessions) -> tuple[int | None, int | None]:
    """What changes when an ingest adds or replaces papers or claims: the newest ids."""
    async with sessions() as session:
        row = await session.execute(
            select(
                select(func.max(Paper.id)).scalar_subquery(),
                select(func.max(Claim.id)).scalar_subquery(),
            )
        )
        newest_paper, newest_claim = row.one()
    return newest_paper, newest_claim
