"""Who reports a benchmark, baseline or model, and how: `/claims compare AIME24` and the
*Related* claims of a claim.

Names come from the claims themselves: a word of letters and digits (`AIME24`, `GSM8K`,
`Qwen3-4B`), or with two capitals or more (`GDPO`, `LingBot-VA`). Two spellings are one
name when they fold to the same key: case, hyphens and dots aside, and a year at the end
written in full or short (`AIME2024` = `AIME24`, as the search index already reads it).
Claims are found through the search index, so the work is that of one search, and each
found claim is checked here for a mention of the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process
from sqlalchemy.ext.asyncio import AsyncSession

from storage import fulltext, vectors
from storage.dense import DenseSearch
from storage.models import VECTOR_OF_CLAIM
from storage.search import SEARCH_BUDGET_SECONDS, ClaimHit, PaperRef, _hits
from storage.search_text import BadQuery, Query, SearchTooCostly, Term, parse_query

COMPARE_WINDOW = 200  # matching claims read, the best-ranked first
MAX_PAPERS = 15
MAX_PER_PAPER = 6
MAX_NEAREST = 5
LONGEST_NAME = 40
CLAIM_CHARS = 3_000  # of a claim's text read for names, whatever a digest carries

_NAME = re.compile(r"(?<![\w.@-])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
_YEAR = re.compile(r"([a-z]+)(?:19|20)([0-9]{2})")
_NUMBER = re.compile(r"(?<![\w.@/-])[+-]?\d+(?:\.\d+)?%?(?:/\d+(?:\.\d+)?%?)?(?![\w@])")
_SETTING = re.compile(
    r"(?<![\w.])(?:\d+(?:\.\d+)?[BbMm]\b|(?:pass|avg|maj|mean|best|cons)@\s?[0-9kK]+"
    r"|\d+-shot|zero-shot|few-shot|greedy|CoT|w/o \w+|temperature \d+(?:\.\d+)?)",
)
NEAR = 120  # characters either side of a mention read for its numbers


def name_key(name: str) -> str:
    """What spellings of one name share: `AIME2024`, `aime-24` and `AIME24` give `aime24`."""
    folded = re.sub(r"[^a-z0-9]", "", name.lower())
    year = _YEAR.fullmatch(folded)
    return year.group(1) + year.group(2) if year else folded


def is_name(word: str) -> bool:
    """A benchmark, baseline or model name, as claims write them."""
    if not 3 <= len(word) <= LONGEST_NAME:
        return False
    letters = sum(c.isalpha() for c in word)
    has_digit = any(c.isdigit() for c in word)
    capitals = sum(c.isupper() for c in word)
    return letters >= 2 and ((has_digit and letters < len(word)) or capitals >= 2)


def names_in(text: str) -> list[tuple[int, int, str]]:
    """The names a text mentions, with where they stand."""
    return [
        (m.start(), m.end(), m.group())
        for m in _NAME.finditer(text[:CLAIM_CHARS])
        if is_name(m.group())
    ]


@dataclass(frozen=True)
class Report:
    """One claim reporting the name: its numbers and setting words near the mention."""

    hit: ClaimHit
    written: str  # how this claim writes the name
    numbers: list[str]
    setting: list[str]


@dataclass(frozen=True)
class Comparison:
    name: str  # as typed
    spellings: list[str]  # how the claims write it, most frequent first
    papers: list[tuple[PaperRef, list[Report]]]  # the paper with most reports first
    claims: int  # reports in all
    nearest: list[str] = field(default_factory=list)  # for a name nobody reports


def report(hit: ClaimHit, key: str) -> Report | None:
    """How `hit` reports the name of `key`; None when it does not mention it."""
    for text in (hit.quote_en, hit.text_zh):
        for start, end, written in names_in(text):
            if name_key(written) != key:
                continue
            # The numbers after the mention first (tables and sentences put them there).
            stop = end + NEAR
            while stop < len(text) and (text[stop].isdigit() or text[stop] in ".%/"):
                stop += 1  # a number at the window's edge is read whole
            after = _NUMBER.findall(text[end:stop])
            before = _NUMBER.findall(text[max(0, start - NEAR) : start])
            numbers = list(dict.fromkeys(after + before[::-1]))[:6]
            both = f"{hit.quote_en[:CLAIM_CHARS]} {hit.text_zh[:CLAIM_CHARS]}"
            setting = list(dict.fromkeys(_SETTING.findall(both)))[:4]
            return Report(hit, written, numbers, setting)
    return None


def _name_query(name: str) -> Query:
    """The search for a name: itself, which finds its short or long year form as well."""
    query = parse_query(name, translate=False)  # a name is matched as written
    if query.empty or len(query.terms) > 3:
        raise BadQuery(
            "`/claims compare` needs one benchmark, baseline or model name, like "
            "`/claims compare AIME24`."
        )
    return query


async def reports_of(
    session: AsyncSession, name: str, *, without_paper: int | None = None
) -> list[Report]:
    """The claims that report `name`, best-ranked first (leaving out one paper's)."""
    key = name_key(name)
    if not key or len(name) > LONGEST_NAME:
        raise BadQuery(f"“{name[:60]}” is not a benchmark, baseline or model name.")
    query = _name_query(name)
    where = fulltext.ClaimFilter(without_papers=(without_paper,) if without_paper else ())
    ranked = await fulltext.match_claims(
        session, query, where, limit=COMPARE_WINDOW, offset=0, window=COMPARE_WINDOW * 5
    )
    hits = await _hits(session, ranked.ids, query)
    return [found for hit in hits if (found := report(hit, key)) is not None]


async def compare(session: AsyncSession, name: str) -> Comparison:
    """`/claims compare <name>`: per paper, the claims reporting it."""
    name = " ".join(name.split())
    if not name:
        raise BadQuery(
            "Name a benchmark, baseline or model to compare on: `/claims compare AIME24`."
        )
    async with fulltext.search_budget(session, SEARCH_BUDGET_SECONDS):
        reports = await reports_of(session, name)
        if not reports:
            return Comparison(name, [], [], 0, await nearest_names(session, name))
    by_paper: dict[int, tuple[PaperRef, list[Report]]] = {}
    spellings: dict[str, int] = {}
    for found in reports:
        by_paper.setdefault(found.hit.paper.id, (found.hit.paper, []))[1].append(found)
        spellings[found.written] = spellings.get(found.written, 0) + 1
    papers = sorted(by_paper.values(), key=lambda p: (-len(p[1]), -p[0].id))
    for _, claims in papers:
        claims.sort(key=lambda r: (r.hit.source != "review", r.hit.number))
    ordered = sorted(spellings, key=lambda s: -spellings[s])
    return Comparison(name, ordered, papers, len(reports))


async def nearest_names(session: AsyncSession, name: str) -> list[str]:
    """Names the claims do report that are closest to `name`: read from the claims that
    hold a word starting as it does (its first three letters), the newest first."""
    letters = re.sub(r"[^a-z]", "", name.lower())[:3]
    if len(letters) < 2:
        return []
    query = Query(terms=(Term((letters,), prefix=True, runs=(letters,)),))
    ranked = await fulltext.match_claims(
        session,
        query,
        fulltext.ClaimFilter(),
        limit=COMPARE_WINDOW,
        offset=0,
        window=COMPARE_WINDOW,
    )
    hits = await _hits(session, ranked.ids, parse_query(""))
    shown: dict[str, str] = {}
    for hit in hits:
        for _, _, written in names_in(hit.quote_en) + names_in(hit.text_zh):
            shown.setdefault(name_key(written), written)
    key = name_key(name)
    shown.pop(key, None)
    best = process.extract(key, list(shown), scorer=fuzz.ratio, limit=MAX_NEAREST, score_cutoff=50)
    return [shown[found] for found, _, _ in best]


def shared_names(hit: ClaimHit) -> list[str]:
    """The names a claim mentions, once each, in order (for its related claims)."""
    seen: dict[str, str] = {}
    for text in (hit.quote_en, hit.text_zh):
        for _, _, written in names_in(text):
            seen.setdefault(name_key(written), written)
    return list(seen.values())


MAX_RELATED = 5
NAMES_LOOKED_AT = 6  # of one claim's names, in order: one search each
NEAREST_LOOKED_AT = 40  # neighbours by meaning read to find those of other papers
MAX_CLAIMS_OF_A_PAPER = 500  # the claim's own vector is read among its paper's


@dataclass(frozen=True)
class Related:
    claim: ClaimHit
    related: list[tuple[Report, str]]  # another paper's claim, and why ("both report AIME24")


async def related_claims(
    session: AsyncSession, claim_id: int, dense: DenseSearch | None = None
) -> Related | None:
    """Up to MAX_RELATED claims of other papers reporting a name this claim reports (a
    benchmark, baseline or model), at most two per name so that several names show; then,
    with search by meaning ready, the other papers' claims closest in meaning. None when
    the claim is no longer in the store."""
    found = await _hits(session, [claim_id], parse_query(""))
    if not found:
        return None
    claim = found[0]
    picked: list[tuple[Report, str]] = []
    seen: set[int] = set()
    per_name: list[list[Report]] = []
    names = shared_names(claim)[:NAMES_LOOKED_AT]
    async with fulltext.search_budget(session, SEARCH_BUDGET_SECONDS * 2):  # a few searches
        for name in names:
            try:
                per_name.append(await reports_of(session, name, without_paper=claim.paper.id))
            except SearchTooCostly:
                raise
            except BadQuery:  # not a name the search can read: nothing related by it
                per_name.append([])
    for _ in range(2):  # round robin: the best of each name first
        for name, reports in zip(names, per_name, strict=True):
            fresh = [r for r in reports if r.hit.claim_id not in seen]
            if fresh and len(picked) < MAX_RELATED:
                picked.append((fresh[0], f"both report {name}"))
                seen.add(fresh[0].hit.claim_id)
    if dense is not None and dense.ready and len(picked) < MAX_RELATED:
        for hit in await _close_in_meaning(session, dense, claim, seen):
            picked.append((Report(hit, "", [], []), "close in meaning"))
    return Related(claim, picked[:MAX_RELATED])


async def _close_in_meaning(
    session: AsyncSession, dense: DenseSearch, claim: ClaimHit, seen: set[int]
) -> list[ClaimHit]:
    """Other papers' claims nearest to `claim` by meaning, at or above the model's floor."""
    ids, matrix = await vectors.claim_vectors_where(
        session,
        dense.embedder,
        paper_ids=[claim.paper.id],
        since=None,
        until=None,
        limit=MAX_CLAIMS_OF_A_PAPER,
    )
    if claim.claim_id not in ids:  # not embedded yet
        return []
    vector = matrix[ids.index(claim.claim_id)]
    nearest = await dense.nearest(session, VECTOR_OF_CLAIM, vector, NEAREST_LOOKED_AT)
    near = [item for item, _ in nearest]
    hits = await _hits(session, [item for item in near if item not in seen], parse_query(""))
    return [hit for hit in hits if hit.paper.id != claim.paper.id]
