"""Paper lookup and claim search: the domain API the Slack handlers, the shell and the
benchmarks share. Everything a user types is data; bad input raises `BadQuery` with a
sentence to show them, and nothing else reaches the user as an error."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage import (
    authors,
    digest_dates,
    fulltext,
    hybrid,
    lookup_keys,
    paper_keys,
    search_text,
)
from storage.dense import DenseSearch
from storage.models import CLAIM_FROM_ABSTRACT, CLAIM_FROM_REVIEW, Claim, Paper
from storage.search_text import BadQuery, Query, highlight_spans, parse_query

PAGE_SIZE = 10
# Ranking looks at the newest this-many matches (see storage/fulltext.py): enough for 100
# pages, and the cost of a common word stays that of scoring these few.
RANK_WINDOW = 1000
# The most time the database may spend on one search; past it the user is asked for a
# narrower one (a backstop: the query's own limits keep ordinary searches far below it).
SEARCH_BUDGET_SECONDS = 0.8
ALL_BUT_ONE_WORD = "all but one word"  # why a claim is listed, beside hybrid's reasons

_ADDRESS = re.compile(r"(.+?)\s*#\s*(a?)(\d{1,4})", re.IGNORECASE)
_FILTER = re.compile(r'\b(paper|since|until):("[^"]*"|“[^”]*”|\S+)', re.IGNORECASE)


@dataclass(frozen=True)
class PaperRef:
    """What a list item or a hit needs to name a paper."""

    id: int
    key: str
    kind: str
    arxiv_id: str | None
    title: str | None
    name: str | None
    subtitle: str | None
    digest_date: date | None
    matched_by: str | None = None  # "exact words" | "similar meaning" (hybrid search only)

    @property
    def label(self) -> str:
        """How the paper is shown; never its key, which is internal."""
        return self.title or self.name or self.subtitle or "untitled paper"

    @property
    def address(self) -> str | None:
        """How people cite the paper's claims (`GAPO` in `GAPO#3`): its name or arXiv ID."""
        usable = (ref for ref in (self.name, self.arxiv_id) if ref)
        return next((r for r in usable if not any(c.isspace() or c == "#" for c in r)), None)


@dataclass(frozen=True)
class PaperMatches:
    how: str  # "arxiv" | "title" | "name" | "text"
    papers: list[PaperRef]  # this page of them
    notes: tuple[str, ...] = ()  # what the search left out of what was typed
    total: int = -1  # how many match in all (-1: as many as `papers`)
    page: int = 1
    via_claims: frozenset[int] = frozenset()  # papers found through their claims only
    capped: bool = False  # more matched than the search counts: the total is a lower bound
    by_words: int = -1  # how many of `total` match the words (-1: all of them)
    by_meaning_only: int = 0  # how many of `total` only search by meaning finds
    all_but_one: int = 0  # how many of `total` hold all the words but one (the last ones)

    def __post_init__(self) -> None:
        if self.total < 0:
            object.__setattr__(self, "total", len(self.papers))

    @property
    def one(self) -> PaperRef | None:
        """The paper, when the lookup found exactly one; or when the words match exactly
        one, ranked first, whatever else is near it in meaning (a name pins a paper). A
        paper found by meaning alone is listed, marked so, never opened as the answer."""
        if self.page != 1 or not self.papers:
            return None
        first = self.papers[0]
        if self.total == 1 and len(self.papers) == 1 and not self.all_but_one:
            return first if first.matched_by != hybrid.SIMILAR_MEANING else None
        return first if self.by_words == 1 and first.matched_by == hybrid.EXACT_WORDS else None

    @property
    def has_next(self) -> bool:
        return self.page * PAGE_SIZE < self.total

    @property
    def matching_words(self) -> int:
        """How many match the words as typed (their forms and translations included)."""
        return self.total - self.by_meaning_only - self.all_but_one


@dataclass(frozen=True)
class ClaimHit:
    claim_id: int
    number: int
    source: str  # "review": a numbered claim; "abstract": a result sentence of the abstract
    text_zh: str
    quote_en: str
    paper: PaperRef
    zh_spans: list[tuple[int, int]] = field(default_factory=list)
    en_spans: list[tuple[int, int]] = field(default_factory=list)
    matched_by: str | None = None  # "exact words" | "similar meaning" (hybrid search only)

    @property
    def address(self) -> str | None:
        """`GAPO#3` for a numbered claim, `2609.35259#a2` for a sentence of an abstract."""
        if self.paper.address is None:
            return None
        return (
            f"{self.paper.address}#{'' if self.source == CLAIM_FROM_REVIEW else 'a'}{self.number}"
        )


@dataclass(frozen=True)
class ClaimSearch:
    """What `/claims` was asked, with its filters read out of the text."""

    words: str
    paper: str | None = None
    since: date | None = None
    until: date | None = None
    authors: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClaimPage:
    hits: list[ClaimHit]
    page: int
    has_next: bool
    papers: list[PaperRef] = field(default_factory=list)  # what `paper:` resolved to
    notes: tuple[str, ...] = ()  # what the search left out of what was typed
    total: int = 0  # matches in all, counted up to RANK_WINDOW
    by_meaning_only: int = 0  # how many of `total` only search by meaning finds
    first: list[PaperRef] = field(default_factory=list)  # named by a word: claims first
    all_but_one: int = 0  # how many of `total` hold all the words but one (the last ones)

    @property
    def capped(self) -> bool:
        """More matched than the search counts: the total is a lower bound."""
        return self.total >= RANK_WINDOW

    @property
    def matching_words(self) -> int:
        """How many match the words as typed (their forms and translations included)."""
        return self.total - self.by_meaning_only - self.all_but_one


_REF_COLUMNS = (
    Paper.id,
    Paper.key,
    Paper.kind,
    Paper.arxiv_id,
    Paper.title,
    Paper.name,
    Paper.subtitle,
    Paper.digest_date,
)


def _ref(row: Sequence[Any]) -> PaperRef:
    return PaperRef(*row)


async def _refs(session: AsyncSession, *where: ColumnElement[bool]) -> list[PaperRef]:
    rows = await session.execute(select(*_REF_COLUMNS).where(*where).order_by(Paper.id.desc()))
    return [_ref(row) for row in rows]


async def _refs_in_order(session: AsyncSession, ids: Sequence[int]) -> list[PaperRef]:
    by_id = {ref.id: ref for ref in await _refs(session, Paper.id.in_(ids))} if ids else {}
    return [by_id[i] for i in ids if i in by_id]


async def find_by_identity(session: AsyncSession, text: str) -> PaperMatches | None:
    """An arXiv ID or URL, an exact title, or a paper's short name; None when none fits."""
    found = paper_keys.arxiv_id(text)
    if found:
        return PaperMatches("arxiv", await _refs(session, Paper.arxiv_id == found))
    for how, column, key in (
        ("title", Paper.title_key, lookup_keys.title_key(text)),
        ("name", Paper.name_key, lookup_keys.name_key(text)),
    ):
        refs = await _refs(session, column == key) if key else []
        if refs:
            return PaperMatches(how, refs)
    return None


async def lookup_paper(
    session: AsyncSession,
    text: str,
    *,
    page: int = 1,
    dense: DenseSearch | None = None,
    all_but_one: bool = True,
) -> PaperMatches:
    """Resolve `/paper` input: identity first, then full text over names and sections,
    then the papers whose claims match (after those matching in their own text); fused
    with search by meaning when `dense` is given and ready. One page of PAGE_SIZE, with
    the total counted within the newest RANK_WINDOW matches of each kind (past it, the
    total is a lower bound: `capped`). Without `all_but_one`, papers holding all the words
    but one are never listed (what "Did you mean" needs to know is cheaper)."""
    found = await find_by_identity(session, text)
    if found is not None:
        return found
    words, names = authors.split_authors(text)
    await read_dictionary()
    query = parse_query(words)
    page = max(page, 1)
    if not names:
        query.needs_words()
    if query.empty and not names:
        return PaperMatches("text", [], query.notes, page=page)
    # An author or an excluded word narrows what is asked for; meaning would widen it again.
    by_meaning = None
    if dense is not None and dense.ready and not names and not query.excluded:
        by_meaning = hybrid.start_paper_search(dense, text)
    try:
        ids, via, capped, by_words, pinned = await _papers_by_words(session, words, query, names)
        partial: list[int] = []
        if all_but_one and not ids and query.relaxable:  # no paper holds every word
            relaxed = replace(query, all_but_one=True)
            partial = (await _papers_by_words(session, words, relaxed, names))[0]
        why: dict[int, str] = {}
        if by_meaning is not None:
            assert dense is not None
            fused = await hybrid.paper_ranking(session, dense, by_meaning, ids)
            ids, why = fused.ids, fused.why
        partial = [paper_id for paper_id in partial if paper_id not in why]
        ids, why = ids + partial, why | dict.fromkeys(partial, ALL_BUT_ONE_WORD)
    finally:
        if by_meaning is not None:
            hybrid.drop_search(by_meaning)
    if pinned is not None and pinned in ids:
        ids = [pinned, *(paper_id for paper_id in ids if paper_id != pinned)]
    shown = ids[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    refs = [
        replace(ref, matched_by=why.get(ref.id)) for ref in await _refs_in_order(session, shown)
    ]
    only_meaning = sum(1 for reason in why.values() if reason == hybrid.SIMILAR_MEANING)
    return PaperMatches(
        "text", refs, query.notes, len(ids), page, via, capped, by_words, only_meaning, len(partial)
    )


async def _papers_by_words(
    session: AsyncSession, words: str, query: Query, names: tuple[str, ...]
) -> tuple[list[int], frozenset[int], bool, int, int | None]:
    """The lexical ranking of papers: their own text first, then the papers whose claims
    match; which of them were found through claims only; whether more matched than the
    search counts; how many the words match (-1: a list, not one paper's card); and the
    paper the words match as typed, if one."""
    by_author = await authors.require_papers_by(session, names) if names else None
    by_claims: list[int] = []
    claims_seen = 0
    if query.empty:
        assert by_author is not None
        own = by_author[:RANK_WINDOW]
    else:
        async with fulltext.search_budget(session, SEARCH_BUDGET_SECONDS):
            own = await fulltext.match_papers(session, query, limit=RANK_WINDOW, window=RANK_WINDOW)
            # Papers found through claims follow the papers' own matches: a full window
            # of those (common words) leaves them no place, unless an author filters it.
            if len(own) < RANK_WINDOW or by_author is not None:
                by_claims, claims_seen = await fulltext.papers_by_claims(
                    session, query, window=RANK_WINDOW
                )
    if by_author is not None:
        written = set(by_author)
        own = [paper_id for paper_id in own if paper_id in written]
        by_claims = [paper_id for paper_id in by_claims if paper_id in written]
    seen = set(own)
    via = [paper_id for paper_id in by_claims if paper_id not in seen]
    if query.excluded:  # a paper found by a claim, or by author, may name them itself
        holding = await fulltext.papers_holding(session, query.excluded, own + via)
        own = [paper_id for paper_id in own if paper_id not in holding]
        via = [paper_id for paper_id in via if paper_id not in holding]
    ids = (own + via)[:RANK_WINDOW]
    by_words = len(ids)
    pinned = None
    # Words also searched in the other language or cut into words show a list, not one
    # paper's card; the one paper the words match as typed, if any, heads it.
    if query.widened:
        by_words = -1
        # As typed is stricter than the words widened: it matches nothing when they do not,
        # and nothing when only all of them but one do.
        if ids and not query.all_but_one:
            pinned = await _matched_as_typed(session, words)
    capped = len(own) >= RANK_WINDOW or claims_seen >= RANK_WINDOW
    return ids, frozenset(via), capped, by_words, pinned


async def _matched_as_typed(session: AsyncSession, words: str) -> int | None:
    """The paper whose own text the words match as typed (without their translations,
    Chinese not cut into words), when they match exactly one."""
    query = parse_query(words, translate=False)
    async with fulltext.search_budget(session, SEARCH_BUDGET_SECONDS):
        own = await fulltext.newest_papers(session, query, limit=2)
    if query.excluded and own:
        own = [
            i for i in own if i not in await fulltext.papers_holding(session, query.excluded, own)
        ]
    return own[0] if len(own) == 1 else None


async def read_dictionary(cache_folder: Path | None = None) -> None:
    """Searches find words across languages once the dictionary is read: the first search
    reads it in a thread (`serve` does so before serving, through its cache in
    `cache_folder`), never on the event loop."""
    if not search_text.dictionary_read():
        await asyncio.to_thread(search_text.read_dictionary, cache_folder)


def filter_spans(text: str) -> list[tuple[int, int]]:
    """Where `paper:`, `since:`, `until:` and `author:` stand in a `/claims` text (not
    words)."""
    spans = [match.span() for match in _FILTER.finditer(text)] + authors.author_spans(text)
    return sorted(spans)


def with_paper(text: str, address: str) -> str:
    """A `/claims` text with its `paper:` filter naming `address` instead."""
    return _FILTER.sub(lambda m: f"paper:{address}" if m[1].lower() == "paper" else m[0], text)


def parse_claim_search(text: str) -> ClaimSearch:
    """Read `paper:`, `since:` and `until:` out of a `/claims` text; the rest are words."""
    values: dict[str, str] = {}
    for match in _FILTER.finditer(text):
        values[match.group(1).lower()] = match.group(2).strip('"“”')
    dates = {}
    for name in ("since", "until"):
        if name in values:
            try:
                dates[name] = date.fromisoformat(values[name])
            except ValueError:
                raise BadQuery(
                    f"`{name}:` needs a date like 2026-09-28, not “{values[name][:40]}”."
                ) from None
    if "since" in dates and "until" in dates and dates["since"] > dates["until"]:
        raise BadQuery("`since:` is after `until:`, so nothing can match.")
    words, names = authors.split_authors(_FILTER.sub(" ", text))
    return ClaimSearch(
        words=words,
        paper=values.get("paper") or None,
        since=dates.get("since"),
        until=dates.get("until"),
        authors=names,
    )


class UnknownPaper(BadQuery):
    """A `paper:` filter that names no paper (`name`, as typed)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"No paper is called “{name[:80]}” (try `/paper {name[:80]}`).")
        self.name = name


async def search_claims(
    session: AsyncSession,
    text: str,
    *,
    page: int = 1,
    dense: DenseSearch | None = None,
    all_but_one: bool = True,
) -> ClaimPage:
    """One page of `/claims` results, 10 a page, in a stable order; fused with search by
    meaning when `dense` is given and ready. A word that names a paper (its name, arXiv
    ID or link) puts that paper's claims first, matched by the other words: a claim seldom
    names its own paper. The other papers' claims that hold all the words follow. When
    fewer than a page match, the claims holding all the words but one follow them (unless
    not `all_but_one`)."""
    search = parse_claim_search(text)
    await read_dictionary()
    query = parse_query(search.words)
    papers: list[PaperRef] = []
    paper_ids: tuple[int, ...] | None = None
    if search.paper:
        found = await find_by_identity(session, search.paper)
        papers = found.papers if found else []
        if not papers:
            raise UnknownPaper(search.paper)
        paper_ids = tuple(p.id for p in papers)
    if search.authors:
        written = await authors.require_papers_by(session, search.authors)
        paper_ids = tuple(
            written if paper_ids is None else [i for i in written if i in set(paper_ids)]
        )
        if not paper_ids:
            raise BadQuery("That paper has no such author.")
    query.needs_words()
    named = tuple(await fulltext.papers_named(session, query.excluded))
    where = fulltext.ClaimFilter(paper_ids, search.since, search.until, named)
    page = max(page, 1)
    offset, limit = (page - 1) * PAGE_SIZE, PAGE_SIZE + 1
    if query.empty:
        if search.words:  # only punctuation, emoji and the like: nothing to match
            return ClaimPage([], page, False, papers, query.notes)
        if where == fulltext.ClaimFilter(without_papers=named):
            raise BadQuery("Type some words to search for.")
    if dense is not None and dense.ready and not query.excluded:
        dense.start_query(search.words)  # the model runs while a named paper is looked for
    first = await _named_paper(session, search.words) if paper_ids is None else None
    if first is None:
        ranking = await _ranking(session, search.words, query, where, dense, offset, limit)
        if all_but_one and query.relaxable and ranking.total < PAGE_SIZE:
            # Few claims hold every word or mean the same: those holding all but one
            # follow, which is how a reader's wording most often differs from a claim's.
            shown = tuple(i for i, why in ranking.why.items() if why == hybrid.SIMILAR_MEANING)
            partial = await _ranking(
                session, search.words, replace(query, all_but_one=True),
                replace(where, without_claims=shown), None,
                max(offset - ranking.total, 0), max(limit - len(ranking.ids), 1),
            )  # fmt: skip
            ranking = ranking.followed_by(partial.of_all_but_one(), limit)
    else:
        # The named paper's claims by the other words (and their meaning), then the other
        # papers' claims that mention it with them: a name has no meaning to search by.
        own = tuple(p.id for p in first.papers)
        ranking = await _ranking(
            session, first.rest, parse_query(first.rest), replace(where, paper_ids=own),
            dense, offset, limit,
        )  # fmt: skip
        others = await _ranking(
            session, search.words, query, replace(where, without_papers=named + own),
            None, max(offset - ranking.total, 0), max(limit - len(ranking.ids), 1),
        )  # fmt: skip
        ranking = ranking.followed_by(others, limit)
    hits = await _hits(session, ranking.ids[:PAGE_SIZE], query, ranking.why)
    total = max(ranking.total, offset + len(hits)) if hits else ranking.total
    return ClaimPage(
        hits,
        page,
        len(ranking.ids) > PAGE_SIZE,
        papers,
        query.notes,
        total,
        ranking.by_meaning_only,
        first.papers if first else [],
        ranking.all_but_one,
    )


@dataclass(frozen=True)
class _Ranking:
    """A page of claim ids, best first, and how many match in all."""

    ids: list[int]
    total: int
    why: dict[int, str] = field(default_factory=dict)  # "similar meaning" and the like
    by_meaning_only: int = 0
    all_but_one: int = 0  # how many of `total` hold all the words but one

    def followed_by(self, then: _Ranking, limit: int) -> _Ranking:
        return _Ranking(
            (self.ids + then.ids)[:limit],
            self.total + then.total,
            self.why | then.why,
            self.by_meaning_only + then.by_meaning_only,
            self.all_but_one + then.all_but_one,
        )

    def of_all_but_one(self) -> _Ranking:
        """These claims, found by all the words but one: marked and counted so."""
        return replace(self, why=dict.fromkeys(self.ids, ALL_BUT_ONE_WORD), all_but_one=self.total)


async def _ranking(
    session: AsyncSession,
    words: str,
    query: Query,
    where: fulltext.ClaimFilter,
    dense: DenseSearch | None,
    offset: int,
    limit: int,
) -> _Ranking:
    if query.empty:  # filters alone
        ranked = await _claims_without_words(session, where, limit=limit, offset=offset)
        return _Ranking(ranked.ids, ranked.total)

    async def lexical(limit: int, offset: int) -> fulltext.Ranked:
        async with fulltext.search_budget(session, SEARCH_BUDGET_SECONDS):
            return await fulltext.match_claims(
                session, query, where, limit=limit, offset=offset, window=RANK_WINDOW
            )

    # Excluded words are a request for precision that meaning cannot honour.
    if dense is None or not dense.ready or query.excluded:
        ranked = await lexical(limit, offset)
        return _Ranking(ranked.ids, ranked.total)
    fused = await hybrid.claim_page(
        session,
        dense,
        words,
        where,
        lexical,
        offset=offset,
        limit=limit,
        budget=SEARCH_BUDGET_SECONDS,
    )
    return _Ranking(fused.ids, fused.total, fused.why, fused.by_meaning_only)


@dataclass(frozen=True)
class _Named:
    papers: list[PaperRef]  # the papers a typed word names
    rest: str  # the other words


async def _named_paper(session: AsyncSession, words: str) -> _Named | None:
    """The papers named by the first word that names any (by their name or arXiv ID),
    and the other words; None when no word names a paper."""
    namings = lookup_keys.namings(words)
    if not namings:
        return None
    arxiv_ids = [n.key for n in namings if n.how == "arxiv"]
    names = [n.key for n in namings if n.how == "name"]
    refs = await _refs(session, Paper.arxiv_id.in_(arxiv_ids) | Paper.name_key.in_(names))
    for naming in namings:
        named = [ref for ref in refs if naming.key == _key(ref, naming.how)]
        if named:
            return _Named(named, naming.rest)
    return None


def _key(ref: PaperRef, how: str) -> str | None:
    return ref.arxiv_id if how == "arxiv" else lookup_keys.paper_name_key(ref.name, ref.title)


@dataclass(frozen=True)
class AddressedClaim:
    """What `/claims GAPO#3` found: the paper(s) the name stands for, and the claim."""

    address: str
    papers: list[PaperRef]
    hits: list[ClaimHit]


async def find_claim(session: AsyncSession, text: str) -> AddressedClaim | None:
    """Resolve a claim address (`GAPO#3`, `2609.35259#a2`); None when `text` is not one,
    or names no paper."""
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        return None
    name, abstract, number = match.group(1), bool(match.group(2)), int(match.group(3))
    found = await find_by_identity(session, name)
    if found is None or not found.papers:  # not an address after all ("issue #3"): a search
        return None
    ids = await session.execute(
        select(Claim.id)
        .where(
            Claim.paper_id.in_([p.id for p in found.papers]),
            Claim.number == number,
            Claim.source == (CLAIM_FROM_ABSTRACT if abstract else CLAIM_FROM_REVIEW),
        )
        .order_by(Claim.paper_id.desc())
    )
    hits = await _hits(session, list(ids.scalars()), parse_query(""))
    return AddressedClaim(f"{name}#{'a' if abstract else ''}{number}", found.papers, hits)


async def _claims_without_words(
    session: AsyncSession, where: fulltext.ClaimFilter, *, limit: int, offset: int
) -> fulltext.Ranked:
    """Filters alone: a paper's claims in order, or the newest claims in a date range."""
    statement = select(Claim.id).join(Paper, Paper.id == Claim.paper_id)
    if where.paper_ids is not None:
        statement = statement.where(Claim.paper_id.in_(where.paper_ids))
    statement = statement.where(*digest_dates.within(where.since, where.until))
    statement = statement.order_by(
        Paper.digest_date.desc(), Claim.paper_id.desc(), Claim.source.desc(), Claim.number
    )
    rows = await session.execute(statement.limit(limit).offset(offset))
    counted = await session.execute(
        select(func.count()).select_from(statement.order_by(None).limit(RANK_WINDOW).subquery())
    )
    return fulltext.Ranked([row[0] for row in rows], counted.scalar_one())


async def _hits(
    session: AsyncSession, ids: Sequence[int], query: Query, why: dict[int, str] | None = None
) -> list[ClaimHit]:
    if not ids:
        return []
    rows = await session.execute(
        select(Claim.id, Claim.number, Claim.source, Claim.text_zh, Claim.quote_en, *_REF_COLUMNS)
        .join(Paper, Paper.id == Claim.paper_id)
        .where(Claim.id.in_(ids))
    )
    by_id: dict[int, ClaimHit] = {}
    for row in rows:
        claim_id, number, source, text_zh, quote_en = row[:5]
        by_id[claim_id] = ClaimHit(
            claim_id,
            number,
            source,
            text_zh,
            quote_en,
            _ref(row[5:]),
            highlight_spans(text_zh, query),
            highlight_spans(quote_en, query),
            (why or {}).get(claim_id),
        )
    return [by_id[i] for i in ids if i in by_id]


@dataclass(frozen=True)
class PaperDetails:
    """What a paper card shows."""

    ref: PaperRef
    authors: list[str]
    arxiv_url: str | None
    pdf_url: str | None
    positioning: str | None
    abstract_en: str | None
    novelty: str | None
    soundness: str | None
    significance: str | None
    claim_count: int  # numbered (reviewed) claims
    finding_count: int = 0  # result sentences of the abstract


async def paper_details(session: AsyncSession, key: str) -> PaperDetails | None:
    found = await papers_details(session, [key])
    return found[0] if found else None


DETAILS_BATCH = 2_000  # keys a query binds at once, well under both stores' limits


async def papers_details(session: AsyncSession, keys: Sequence[str]) -> list[PaperDetails]:
    """The cards of these papers, in the order given (unknown keys are left out); two
    queries a batch, however many papers (a summary lists a day's worth)."""
    papers: dict[str, Paper] = {}
    counts: dict[tuple[int, str], int] = {}
    for start in range(0, len(keys), DETAILS_BATCH):
        batch = list(keys[start : start + DETAILS_BATCH])
        rows = await session.execute(select(Paper).where(Paper.key.in_(batch)))
        found = {paper.key: paper for paper in rows.scalars()}
        papers |= found
        claim_counts = await session.execute(
            select(Claim.paper_id, Claim.source, func.count())
            .where(Claim.paper_id.in_([paper.id for paper in found.values()]))
            .group_by(Claim.paper_id, Claim.source)
        )
        counts |= {(paper_id, source): n for paper_id, source, n in claim_counts.all()}
    return [_details(papers[key], counts) for key in keys if key in papers]


def _details(paper: Paper, counts: dict[tuple[int, str], int]) -> PaperDetails:
    return PaperDetails(
        ref=_ref([getattr(paper, column.key) for column in _REF_COLUMNS]),
        authors=list(paper.authors or []),
        arxiv_url=paper.arxiv_url
        or (paper_keys.arxiv_url(paper.arxiv_id) if paper.arxiv_id else None),
        pdf_url=paper.pdf_url,
        positioning=paper.positioning,
        abstract_en=paper.abstract_en,
        novelty=paper.novelty,
        soundness=paper.soundness,
        significance=paper.significance,
        claim_count=counts.get((paper.id, CLAIM_FROM_REVIEW), 0),
        finding_count=counts.get((paper.id, CLAIM_FROM_ABSTRACT), 0),
    )


async def claims_of(session: AsyncSession, paper_id: int, *, limit: int = 48) -> list[ClaimHit]:
    """A paper's claims in order (reviewed ones first, then abstract findings)."""
    ids = await session.execute(
        select(Claim.id)
        .where(Claim.paper_id == paper_id)
        .order_by(Claim.source.desc(), Claim.number)
        .limit(limit)
    )
    return await _hits(session, list(ids.scalars()), parse_query(""))
