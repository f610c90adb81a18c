"""Writing parsed digest files into the tables. The caller owns the transaction: one per file.

A paper keeps its row (and so its id and first-ingested time) across files and re-ingests;
its fields are refreshed from the file that holds it ingested last, unless another file of
a later digest date holds it (then this one only fills what the row lacks), its claims are
replaced when they differ, and the links say which files hold it. Papers are never deleted
here.

A paper's row is found by its key; failing that, by one of its aliases (a key an earlier
parser version gave it, or its text key once an arXiv ID turns up), by its abstract (a
listing and a deep-read digest's abstract-only entry of one paper), by its title (a
listing without arXiv lines), and failing that, among the papers this same file or others
of its name held, by its sentences (storage.matching: an edit to the keyed text itself). A
row found either way takes the new key, so it stays one row; an arXiv key, once known,
stays.

An abstract-only entry says less than a listing or a deep read of the same paper: found
under one of those, it fills what the row lacks and replaces nothing.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from operator import attrgetter
from typing import Any, Literal, NamedTuple, cast

from sqlalchemy import Table, bindparam, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect, lookup_keys, matching, paper_keys
from storage.models import (
    CLAIM_FROM_REVIEW,
    Claim,
    Document,
    Paper,
    PaperDocument,
    utcnow,
)
from storage.search_text import index_text, normalise

# As the parser names them (storage does not import jobs).
KIND_HUGGINGFACE = "huggingface"
KIND_ABSTRACT_ONLY = "abstract_only"
KIND_DEEP_READ = "deep_read"
# What the search index reads of a paper: its names, then its text.
SEARCH_HEAD = ("title", "name", "subtitle", "arxiv_id")
SEARCH_BODY = (
    "abstract_en", "abstract_zh", "positioning", "background", "mechanism", "experiments",
    "novelty", "soundness", "significance", "limitations", "follow_ups",
)  # fmt: skip
_DERIVED = ("title_key", "name_key", "abstract_key", "search_head", "search_body")
# Columns a digest file may set; everything else is managed here.
PAPER_FIELDS = frozenset(
    column.key
    for column in Paper.__table__.columns
    if column.key not in {"id", "key", "digest_date", "first_ingested_at", "updated_at"}
    and column.key not in _DERIVED
)
PAPERS = cast(Table, Paper.__table__)
CLAIMS = cast(Table, Claim.__table__)
PAPER_DOCUMENTS = cast(Table, PaperDocument.__table__)
_LOST_BLOCK = 64  # characters: a sentence or two; a word or a clause less is an edit
_CHUNK = 500  # keys per IN (...) query, well under every driver's parameter limit
WARNINGS_KEPT = 100  # of one file, stored and reported; `paperbot ingest --check` lists all
_CLAIM_COLUMNS = ("paper_id", "number", "text_zh", "quote_en", "source", "search_text")


class ClaimInput(NamedTuple):
    number: int
    text_zh: str
    quote_en: str
    source: str = CLAIM_FROM_REVIEW


@dataclass(frozen=True)
class PaperInput:
    """A paper as one file gives it. Its lookup keys and search text are computed when it is
    built, so that tokenising happens wherever inputs are made (ingest: off the event loop)
    and the writing transaction only runs statements."""

    key: str
    position: int  # order of the entry in its file
    fields: Mapping[str, Any]  # Paper column -> value; None and empty values never erase
    claims: Sequence[ClaimInput] = ()
    aliases: tuple[str, ...] = ()  # other keys the same paper may be stored under
    line: int = field(default=0, compare=False)  # where it starts, for a warning about it
    search: Mapping[str, str | None] = field(init=False)  # the derived columns of `fields`
    claim_search: tuple[str, ...] = field(init=False)  # the search text of each claim

    def __post_init__(self) -> None:
        unknown = set(self.fields) - PAPER_FIELDS
        if unknown:
            raise ValueError(f"not paper columns: {sorted(unknown)}")
        object.__setattr__(self, "search", _search_columns(self.fields))
        claim_search = tuple(index_text(c.text_zh, c.quote_en) for c in self.claims)
        object.__setattr__(self, "claim_search", claim_search)

    @functools.cached_property
    def sentences(self) -> frozenset[str]:
        """For matching an edited paper without an arXiv ID; computed only when a paper
        is not found by its keys (most never need it), and then in a thread."""
        if not self.key.startswith("text:"):
            return frozenset()
        return matching.sentences(_texts(self.fields, _IDENTITY_FIELDS, self.claims))

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], PaperInput], tuple[Any, ...]]:
        # Parse processes send a few thousand claims a file: as plain tuples they pickle
        # and unpickle in C, not through a call of the named tuple's own each (a file's
        # papers then pickle in half the time).
        state = {**vars(self), "claims": [*map(tuple, self.claims)]}
        state.pop("sentences", None)  # cached, computed again where needed
        return _unpickled_paper, (state,)

    def claim_rows(self, paper_id: int) -> list[tuple[int, int, str, str, str, str]]:
        """The claims as rows of the `claims` table (_CLAIM_COLUMNS)."""
        return [
            (paper_id, number, text_zh, quote_en, source, search_text)
            for (number, text_zh, quote_en, source), search_text in zip(
                self.claims, self.claim_search, strict=True
            )
        ]


_claim_input = functools.partial(tuple.__new__, ClaimInput)


def _unpickled_paper(state: dict[str, Any]) -> PaperInput:
    paper = object.__new__(PaperInput)
    vars(paper).update(state, claims=[*map(_claim_input, state["claims"])])
    return paper


@dataclass
class SaveResult:
    papers_new: int = 0
    papers_updated: int = 0
    # What the file held before and this version no longer does: papers (by label) and
    # claims (by address, `GAPO#3`). A shorter re-delivery is suspect, not truth: the
    # caller rolls the transaction back unless it was told to accept the loss.
    lost_papers: list[str] = field(default_factory=list)
    lost_claims: list[str] = field(default_factory=list)
    # What a file cut short inside its last paper gives, as damaging as a claim removed:
    # the text it ends in, ended early (`GAPO#10's quote`), and the sections after it.
    cut_short: list[str] = field(default_factory=list)
    lost_texts: list[str] = field(default_factory=list)
    # The file's warnings as its row keeps them (kept_warnings): the parser's, then the
    # store's own notes (papers named apart, IDs in doubt).
    warnings: list[str] = field(default_factory=list)

    @property
    def loses(self) -> bool:
        return bool(self.lost_papers or self.lost_claims or self.cut_short or self.lost_texts)

    def loss(self, shown: int = 5) -> str:
        """One line: what this version would remove, a few of each named."""
        parts = []
        lost = (("{} paper", self.lost_papers), ("{} claim", self.lost_claims))
        cut = (("the end of {} text", self.cut_short), ("{} text", self.lost_texts))
        for what, names in (*lost, *cut):
            if names:
                more = f", … ({len(names) - shown} more)" if len(names) > shown else ""
                plural = "s" if len(names) > 1 else ""
                listed = ", ".join(names[:shown])
                parts.append(f"{what.format(len(names))}{plural} ({listed}{more})")
        return " and ".join(parts)


async def finish_ingest(session: AsyncSession, *, stored: bool) -> None:
    """Once an ingest has stored its files: bring the search indexes up to date in bulk,
    and, when it `stored` anything, the planner's statistics."""
    await dialect.merge_pending_index_entries(session)
    if stored:
        await dialect.refresh_statistics(session)


def kept_warnings(warnings: Sequence[str]) -> list[str]:
    """A file's first WARNINGS_KEPT warnings, then how many more it has: a file damaged
    throughout would otherwise fill its row, `paperbot status` and the ingest report with
    a line for each of its paragraphs (hundreds of thousands). Kept warnings are kept
    again as they are."""
    if len(warnings) <= WARNINGS_KEPT + 1:  # the line saying "1 more" would take its place
        return list(warnings)
    more = len(warnings) - WARNINGS_KEPT
    return [
        *warnings[:WARNINGS_KEPT],
        f"and {more:,} more warnings like these (`paperbot ingest --check` lists them all)",
    ]


async def find_document(session: AsyncSession, path: str) -> Document | None:
    result = await session.execute(select(Document).where(Document.path == path))
    return result.scalar_one_or_none()


class StoredVersion(NamedTuple):
    """What the store holds of a file's last version: enough to tell an unchanged file."""

    content_hash: str
    status: str
    parser_version: str


async def stored_versions(session: AsyncSession, paths: Sequence[str]) -> dict[str, StoredVersion]:
    """The last stored version of each of these files that the store knows, by path."""
    found: dict[str, StoredVersion] = {}
    for start in range(0, len(paths), _CHUNK):
        rows = await session.execute(
            select(
                Document.path, Document.content_hash, Document.status, Document.parser_version
            ).where(Document.path.in_(paths[start : start + _CHUNK]))
        )
        found.update({path: StoredVersion(*version) for path, *version in rows})
    return found


async def suspect_files(session: AsyncSession, folders: Sequence[str]) -> list[str]:
    """The files under these folders whose last version was refused as suspect."""
    under = [
        Document.path.startswith(folder.rstrip("/") + "/", autoescape=True) for folder in folders
    ]
    rows = await session.execute(
        select(Document.path).where(Document.status == "suspect", or_(*under))
    )
    return list(rows.scalars())


async def forget_suspect(session: AsyncSession, paths: Sequence[str]) -> None:
    """Files refused as suspect and since removed: the stored version stands, no longer
    shown as suspect, and a file that comes back under the name is compared afresh."""
    await session.execute(
        update(Document)
        .where(Document.path.in_(paths), Document.status == "suspect")
        .values(status="ok", error=None, content_hash="")
    )


async def record_refused_document(
    session: AsyncSession,
    *,
    path: str,
    content_hash: str,
    size: int,
    parser_version: str,
    status: Literal["failed", "suspect"],
    reason: str,
) -> None:
    """Remember that a file's version was refused: it `failed` to parse, or it is `suspect`
    (it would remove what an earlier version stored). Either way the papers and claims stay
    as an earlier ingest left them."""
    await _put_document(
        session,
        path,
        content_hash=content_hash,
        size_bytes=size,
        parser_version=parser_version,
        status=status,
        error=reason,
    )


async def _put_document(session: AsyncSession, path: str, **fields: Any) -> Document:
    document = await find_document(session, path)
    if document is None:
        document = Document(path=path)
        session.add(document)
    for name, value in fields.items():
        setattr(document, name, value)
    await session.flush()
    return document


async def save_document(
    session: AsyncSession,
    *,
    path: str,
    content_hash: str,
    size: int,
    format: str,
    digest_date: date,
    parser_version: str,
    papers: Sequence[PaperInput],
    warnings: Sequence[str] = (),
    reread: bool = False,
) -> SaveResult:
    """Store a parsed file and its papers, replacing what the file said before; its
    warnings (parts left out) are kept on the document, one a line. A paper the file no
    longer holds stays in the store, unless this is a `reread` of the same bytes by a newer
    parser and no other file holds it: then it was a misreading, and it goes."""
    await dialect.prepare_ingest_write(session)
    kept = kept_warnings(warnings)
    document = await _put_document(
        session,
        path,
        content_hash=content_hash,
        size_bytes=size,
        format=format,
        digest_date=digest_date,
        parser_version=parser_version,
        status="ok",
        error="\n".join(kept) or None,
    )

    unique = list({paper.key: paper for paper in reversed(papers)}.values())[::-1]
    unique = await _keyed_apart(session, unique)
    held_before = await _held_by(session, document.id)
    existing = await _match_rows(session, document, unique)
    unique, named_apart = await _named_apart(session, unique, existing)
    fresh = [paper for paper in unique if paper.key not in existing]
    notes = [*named_apart, *await _abstracts_of_other_ids(session, fresh)]
    if notes:  # known only once the row exists
        kept = kept_warnings([*warnings, *notes])
        document.error = "\n".join(kept)
    known = [paper for paper in unique if paper.key in existing]
    known_ids = [existing[p.key].id for p in known]
    newer = await _in_newer_digests(session, known_ids, document.id, digest_date)
    deferring = {p.key for p in known if _defers(p, existing[p.key], newer)}
    cut_copies = {p.key for p in known if _cut_copy(p, existing[p.key])}
    await _take_new_keys(session, existing, deferring | cut_copies)
    result = SaveResult(warnings=kept)
    ids: dict[str, int] = {}

    if fresh:
        now = utcnow()
        rows = [
            {
                **_all_columns(paper.fields),
                **paper.search,
                "key": paper.key,
                "digest_date": digest_date,
                "first_ingested_at": now,
                "updated_at": now,
            }
            for paper in fresh
        ]
        # Core inserts (the table, not the ORM class): no per-row ORM bookkeeping.
        table = PAPERS
        inserted = await session.execute(insert(table).returning(table.c.id, table.c.key), rows)
        ids.update({key: paper_id for paper_id, key in inserted.all()})
        result.papers_new = len(fresh)

    stored_claims = await _claims_by_paper(session, known_ids)
    new_claims: list[tuple[int, int, str, str, str, str]] = []
    mixed: list[Paper] = []  # rows whose search text needs stored and new values together
    # A file cut short (a broken transfer, a partial copy) is cut in its last paper.
    last = max(unique, key=attrgetter("position"), default=None)
    for paper in known:
        row = existing[paper.key]
        ids[paper.key] = row.id
        if paper.key in cut_copies:  # it holds nothing the row does not
            if row.digest_date is None or digest_date < row.digest_date:
                row.digest_date = digest_date
            continue
        if paper.key in deferring:
            # It fills what the row lacks: fields, and, where the stored copy ended before
            # its review (a copy cut short), claims of numbers it has not. A whole review's
            # claims are the paper's: one it dropped or renumbered is not brought back.
            have = {(claim.source, claim.number) for claim in stored_claims.get(row.id, [])}
            lacking = [
                claim_row
                for claim_row, claim in zip(paper.claim_rows(row.id), paper.claims, strict=True)
                if (claim.source, claim.number) not in have and not _row_reviewed(row)
            ]
            new_claims.extend(lacking)
            if _refresh(row, paper, digest_date, mixed, only_missing=True) or lacking:
                row.updated_at = utcnow()
                result.papers_updated += 1
            continue
        claims = [ClaimInput(*claim) for claim in paper.claims]
        stored = stored_claims.get(row.id, [])
        if row.id in held_before:  # this file's own earlier version: every claim counts
            result.lost_claims += _lost_claims(row, stored, claims)
            result.lost_texts += _emptied(row, stored, claims) + _holed(row, paper)
        elif paper is last and not _reviewed(paper):
            # Another file's claims, lost by a copy that ends before this paper's review; a
            # whole later review of the paper (its own claims, its review) replaces them.
            reviewed = [c for c in stored if c.source == CLAIM_FROM_REVIEW]
            result.lost_claims += _lost_claims(row, reviewed, claims)
        if paper is last:
            ended, removed = _cut_short(row, paper, stored, claims, own=row.id in held_before)
            result.cut_short += ended
            result.lost_texts += removed
        changed = _refresh(row, paper, digest_date, mixed)
        if stored != claims:
            if _only_chinese_changed(stored, claims):
                await _update_chinese(session, row.id, paper, stored)
            else:
                await session.execute(delete(Claim).where(Claim.paper_id == row.id))
                new_claims.extend(paper.claim_rows(row.id))
            changed = True
        if changed:
            row.updated_at = utcnow()
            result.papers_updated += 1
    if mixed:
        await _reindex(mixed)
    for paper in fresh:
        new_claims.extend(paper.claim_rows(ids[paper.key]))
    await _insert_claims(session, new_claims)

    gone = held_before.keys() - set(ids.values())
    # A paper another file holds too moved there (a pipeline regrouping its digests): its row
    # stays as it is, so it is no loss; one that no other file holds is, and so is one a new
    # paper of this version may stand in for (an arXiv ID mistyped makes a new paper of it).
    elsewhere = await _held_elsewhere(session, gone, document.id)
    moved = set() if fresh else elsewhere
    result.lost_papers = sorted(held_before[paper_id] for paper_id in gone - moved)
    await session.execute(delete(PaperDocument).where(PaperDocument.document_id == document.id))
    if unique:
        await session.execute(
            insert(PAPER_DOCUMENTS),
            [
                {"paper_id": ids[p.key], "document_id": document.id, "position": p.position}
                for p in unique
            ],
        )
    if reread and gone - elsewhere:  # a misreading of these bytes: no file holds it
        await session.execute(delete(Paper).where(Paper.id.in_(gone - elsewhere)))
    await session.flush()
    return result


_NAMED_KINDS = (KIND_DEEP_READ, KIND_ABSTRACT_ONLY)  # a listing's papers have no name


async def _named_apart(
    session: AsyncSession, papers: list[PaperInput], existing: Mapping[str, Paper]
) -> tuple[list[PaperInput], list[str]]:
    """The papers, each deep read and abstract-only entry named apart from every other, so
    that each claim has an address of its own (`GAPO#3`, `GAPO#a1`): one the file calls
    by another's name keeps its stored name, and a new one is numbered (`GAPO-2`), with a
    warning. Short acronyms are reused by unrelated papers. An abstract-only entry and a
    deep read of one name that speak of one paper are that paper (one row:
    `_read_again_of_name`), and a listing's paper has no name (its claims are `#a1`, …)."""
    papers = await asyncio.to_thread(_keeping_names, papers, existing)
    wanted = {
        p.key: lookup_keys.name_key(p.fields["name"])
        for p in papers
        if p.fields.get("name") and p.fields.get("kind") in _NAMED_KINDS
    }
    holders: dict[str, set[int | str]] = {}  # name key -> the papers (ids, new ones' keys)
    listed = sorted(set(wanted.values()))
    for start in range(0, len(listed), _CHUNK):
        rows = await session.execute(
            select(Paper.name_key, Paper.id).where(
                Paper.name_key.in_(listed[start : start + _CHUNK]), Paper.kind.in_(_NAMED_KINDS)
            )
        )
        for key, paper_id in rows:
            holders.setdefault(str(key), set()).add(paper_id)
    named: list[PaperInput] = []
    notes: list[str] = []
    numbered: dict[str, int] = {}  # name -> the last number this file gave it
    for paper in papers:
        key = wanted.get(paper.key)
        row = existing.get(paper.key)
        itself: int | str = row.id if row is not None else paper.key
        if key is None:
            named.append(paper)
            continue
        if not holders.get(key, set()) - {itself}:
            holders.setdefault(key, set()).add(itself)
            named.append(paper)
            if row is not None and row.name and row.name_key != key:
                name = str(paper.fields["name"])
                notes.append(
                    f"line {paper.line}: {row.name} no longer names this paper (its text "
                    f"calls it {name}); it is called {name} now, its claims {name}#1, …"
                )
            continue
        name = str(paper.fields["name"])
        if row is not None:  # stored: it keeps the name it has
            if not row.name or row.name == name:
                named.append(paper)
                continue
            new = row.name
            notes.append(
                f"line {paper.line}: its text now calls this paper {name}, the name of another "
                f"paper; it keeps the name {new}, its claims {new}#1, …"
            )
        else:
            new = await _free_name(session, name, holders, numbered)
            first = "#a1" if paper.fields.get("kind") == KIND_ABSTRACT_ONLY else "#1"
            notes.append(
                f"line {paper.line}: another paper is called {name}; this one is named {new}, "
                f"so that its claims have addresses of their own ({new}{first}, …)"
            )
        holders.setdefault(lookup_keys.name_key(new), set()).add(itself)
        named.append(await asyncio.to_thread(replace, paper, fields={**paper.fields, "name": new}))
    return named, notes


def _keeping_names(papers: list[PaperInput], existing: Mapping[str, Paper]) -> list[PaperInput]:
    """The papers, each stored deep read under the name it has while its text calls it so
    as often as by the name read now: a name is read from cue phrases (`X 的核心主张是`),
    which an edit of a word or a paragraph moves, and cited addresses (`AV-GRPO#3`) must
    keep working. A paper whose text now uses another name more (a misread name corrected:
    `GSPO`, its baseline, back to `GAPO`) takes it (`_named_apart` warns). A numbered name
    (`GAPO-2`) is the name read, kept apart."""
    kept: list[PaperInput] = []
    for paper in papers:
        row = existing.get(paper.key)
        name = paper.fields.get("name")
        if (
            row is not None
            and row.name
            and name
            and row.kind == paper.fields.get("kind") == KIND_DEEP_READ
            and lookup_keys.name_key(name) != row.name_key
        ):
            text = normalise(_all_text(paper))
            if _numbered_as(row.name, name) or _mentions(text, row.name) >= _mentions(text, name):
                paper = replace(paper, fields={**paper.fields, "name": row.name})
        kept.append(paper)
    return kept


def _all_text(paper: PaperInput) -> str:
    """What the digest wrote of a paper: its sections and claims, not what is read from
    them (its name, and the subtitle repeating its positioning's first sentence)."""
    texts = [v for f, v in paper.fields.items() if isinstance(v, str) and f not in _READ_FROM]
    return " ".join([*texts, *(t for c in paper.claims for t in (c.text_zh, c.quote_en))])


_READ_FROM = frozenset({"name", "subtitle", "title"})


def _mentions(text: str, name: str) -> int:
    """How often normalised `text` names `name` as a word of its own: not inside a longer
    name (`ENEA` in `ENEAS`, `Hunyuan` in `Hunyuan-A13B`, `GRPO` in `AV-GRPO`) or across
    words (`GAPO` in `gap of`)."""
    word = re.escape(normalise(name))
    alone = rf"(?<![a-z0-9])(?<![a-z0-9][-.]){word}(?![a-z0-9])(?![-.][a-z0-9])"
    return len(re.findall(alone if name.isascii() else word, text))


def _numbered_as(stored: str, name: str) -> bool:
    """Whether `stored` is `name` numbered apart from another paper's (`GAPO-2`)."""
    return re.fullmatch(rf"{re.escape(name)}-[0-9]+", stored) is not None


_NUMBERED = range(2, 10)  # the numbers a name taken is looked for with (`_named_apart`)


async def _free_name(
    session: AsyncSession,
    name: str,
    holders: Mapping[str, set[int | str]],
    numbered: dict[str, int],
) -> str:
    """`name-2`, `name-3`, …: the first that no paper has, after the last this file gave
    (a file of many papers of one name takes each next number in one step, not a walk)."""
    for number in itertools.count(numbered.get(name, 1) + 1):
        new = f"{name}-{number}"
        key = lookup_keys.name_key(new)
        if key in holders:
            continue
        taken = await session.execute(select(Paper.id).where(Paper.name_key == key).limit(1))
        if taken.first() is None:
            numbered[name] = number
            return new
    raise AssertionError("unreachable")


async def _held_by(session: AsyncSession, document_id: int) -> dict[int, str]:
    """The papers a file held as last stored: id -> label."""
    rows = await session.execute(
        select(Paper.id, Paper.title, Paper.name, Paper.subtitle, Paper.arxiv_id)
        .join(PaperDocument, PaperDocument.paper_id == Paper.id)
        .where(PaperDocument.document_id == document_id)
    )
    return {
        paper_id: title or name or subtitle or arxiv_id or "untitled paper"
        for paper_id, title, name, subtitle, arxiv_id in rows
    }


async def _held_elsewhere(session: AsyncSession, paper_ids: set[int], document_id: int) -> set[int]:
    """Those of the papers another file than this one holds."""
    if not paper_ids:
        return set()
    held = select(PaperDocument.paper_id).where(
        PaperDocument.paper_id.in_(paper_ids), PaperDocument.document_id != document_id
    )
    return set((await session.execute(held)).scalars())


def _lost_claims(
    row: Paper, before: Sequence[ClaimInput], after: Sequence[ClaimInput]
) -> list[str]:
    """The addresses (`GAPO#3`, `2609.35259#a2`) of the claims `after` no longer has: as
    many as the numbers it no longer has, named by the quotes it no longer holds when as
    many are gone (a claim deleted and the ones after it numbered down: `#3`, not `#7`)."""
    kept = {(claim.source, claim.number) for claim in after}
    lost = [claim for claim in before if (claim.source, claim.number) not in kept]
    quotes = {(claim.source, claim.quote_en) for claim in after}
    gone = [claim for claim in before if (claim.source, claim.quote_en) not in quotes]
    paper = _address(row)
    return [_claim_address(paper, claim) for claim in (gone if len(gone) == len(lost) else lost)]


def _emptied(row: Paper, before: Sequence[ClaimInput], after: Sequence[ClaimInput]) -> list[str]:
    """The statements of claims `after` still has but without them: a claim whose number
    or whole line lost its text keeps its quote, and a damaged copy must not erase it."""
    now = {(claim.source, claim.number): claim.text_zh for claim in after}
    paper = _address(row)
    return [
        f"{_claim_address(paper, claim)}'s statement"
        for claim in before
        if claim.text_zh and now.get((claim.source, claim.number)) == ""
    ]


def _holed(row: Paper, paper: PaperInput) -> list[str]:
    """The sections of `paper` that are their stored text with a block gone, cut where no
    sentence ends (a transfer that lost part of the file; an edit removes sentences, or an
    aside in brackets), each with the words before the gap."""
    label = _address(row)
    holes = []
    for name in (*_TEXTS_BEFORE_CLAIMS, *_TEXTS_AFTER_CLAIMS):
        stored = getattr(row, name)
        at = _block_gone(paper.fields.get(name), stored)
        if at is not None:
            before = " ".join(stored[max(0, at - _CONTEXT) : at].split())
            holes.append(f"part of {label}'s {name.replace('_', ' ')}, after '…{before}'")
    return holes


def _block_gone(text: str | None, stored: str | None) -> int | None:
    """Where `text` is `stored` with a block of it gone that no edit would remove, or None.
    A deletion that the texts leave room to place at a sentence's end or the text's start
    (list items and sentences often begin alike), or that is one aside in brackets, is
    an edit."""
    if not text or not stored:
        return None
    if "\ufffd" not in stored:  # a character the gap cut in two
        text = text.replace("\ufffd", "")
    missing = len(stored) - len(text)
    if missing < _LOST_BLOCK:
        return None
    head = _shared_start(text, stored)
    first = max(len(text) - _shared_start(text[::-1], stored[::-1]), 0)  # its earliest place
    if first > head or head - first > _PLACES:
        return None  # not one block gone, or a text too repetitive to tell: an edit
    for at in range(first, head + 1):
        gone = stored[at : at + missing]
        if at == 0 or matching.ends_sentence(stored[max(0, at - _CONTEXT) : at].rstrip()):
            return None
        if gone[:1] in _OPENING and gone[-1:] == _OPENING[gone[0]]:
            return None
    return head


_OPENING = {"（": "）", "(": ")", "[": "]", "【": "】"}  # an aside's brackets
_CONTEXT = 16  # characters shown before a gap
_PLACES = 256  # where a gap could be, at most, before the text is too repetitive to tell


def _shared_start(one: str, other: str) -> int:
    """How many characters the two start with alike: halving, each test one comparison in C
    (a section may be megabytes long, and this runs on the event loop)."""
    low, high = 0, min(len(one), len(other))
    while low < high:
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _address(row: Paper) -> str:
    """How a paper is named in a claim's address: its name or arXiv ID, else its title."""
    usable = (ref for ref in (row.name, row.arxiv_id) if ref)
    paper = next((r for r in usable if not any(c.isspace() or c == "#" for c in r)), None)
    return paper or row.title or row.subtitle or "untitled paper"


def _claim_address(paper: str, claim: ClaimInput) -> str:
    return f"{paper}#{'' if claim.source == CLAIM_FROM_REVIEW else 'a'}{claim.number}"


_REVIEW_FIELDS = ("novelty", "soundness", "significance")


def _reviewed(paper: PaperInput) -> bool:
    return any(paper.fields.get(name) for name in _REVIEW_FIELDS)


def _row_reviewed(row: Paper) -> bool:
    return any(getattr(row, name) for name in _REVIEW_FIELDS)


def _cut_short(
    row: Paper,
    paper: PaperInput,
    before: Sequence[ClaimInput],
    after: Sequence[ClaimInput],
    *,
    own: bool,
) -> tuple[list[str], list[str]]:
    """What `paper`, the file's last, would lose the way a file cut short loses it: the last
    of its texts (in the file's order), if it ends early (`_ends_early`), and the stored
    sections after it, gone (claims gone are counted as such). A file is cut in one place,
    its end: a text shortened, or a section left out, before the paper's last text is an
    edit. Names and titles are left out: shortening one is an edit too. A listing's links
    after its analysis count against the file's `own` earlier version only: another listing
    of the paper may come without them."""
    label = _address(row)
    links = _LINKS if own else ()
    stored = _in_file_order(label, lambda name: getattr(row, name), before, links)
    new = {name: text for name, text, _ in _in_file_order(label, paper.fields.get, after, links)}
    last = max((i for i, (name, _, _) in enumerate(stored) if new.get(name)), default=-1)
    removed = [name for name, text, kind in stored[last + 1 :] if text and kind != _CLAIM_TEXT]
    name, text, kind = stored[last] if last >= 0 else ("", None, _LINK)
    ended = kind != _LINK and _ends_early(new.get(name), text)  # a link ends no sentence
    return ([name] if ended else []), removed


# A paper's texts in the order its file gives them (a listing's, a deep read's); claims of
# its review between the two, an abstract's findings (made from the abstract) left out.
_SECTIONS_BEFORE_CLAIMS = ("positioning", "background", "mechanism", "experiments")
_TEXTS_BEFORE_CLAIMS = ("abstract_en", "abstract_zh", "llm_analysis", *_SECTIONS_BEFORE_CLAIMS)
_TEXTS_AFTER_CLAIMS = ("novelty", "soundness", "significance", "limitations", "follow_ups")
_LINKS = ("pdf_url", "arxiv_url", "coolpaper_url")  # a listing's, after its analysis


_SECTION, _CLAIM_TEXT, _LINK = "section", "claim", "link"


def _in_file_order(
    label: str,
    field_of: Callable[[str], str | None],
    claims: Sequence[ClaimInput],
    links: Sequence[str] = (),
) -> list[tuple[str, str | None, str]]:
    """(what a reader calls the text, the text, its kind: a section, a claim's, a link) for
    each of a paper's texts, in file order."""

    def fields(names: Sequence[str], kind: str) -> list[tuple[str, str | None, str]]:
        return [(f"{label}'s {name.replace('_', ' ')}", field_of(name), kind) for name in names]

    texts = fields(_TEXTS_BEFORE_CLAIMS, _SECTION) + fields(links, _LINK)
    for claim in claims:
        if claim.source == CLAIM_FROM_REVIEW:
            address = _claim_address(label, claim)
            texts += [
                (f"{address}'s statement", claim.text_zh, _CLAIM_TEXT),
                (f"{address}'s quote", claim.quote_en, _CLAIM_TEXT),
            ]
    return texts + fields(_TEXTS_AFTER_CLAIMS, _SECTION)


def _ends_early(text: str | None, stored: str | None) -> bool:
    """Whether `text` is `stored` cut off: its start, words missing, and ending mid-sentence
    (a text shortened on purpose, an abstract revised, ends with its sentence; a semicolon
    ends no text)."""
    if not text or not stored:
        return False
    text, stored = text.rstrip(), stored.rstrip()
    return (
        len(text) < len(stored)
        and stored.startswith(text)
        and any(c.isalnum() for c in stored[len(text) :])
        and (not matching.ends_sentence(text) or text.endswith(("；", ";")))
    )


async def _match_rows(
    session: AsyncSession, document: Document, papers: Sequence[PaperInput]
) -> dict[str, Paper]:
    """Input key -> the stored row of that paper (see the module), re-keyed where found
    under another key."""
    keys = {paper.key for paper in papers}
    aliases = [a for paper in papers for a in paper.aliases if a not in keys]
    rows = await _papers_by_key(session, [*keys, *aliases])
    found = {key: rows[key] for key in keys if key in rows}
    taken = {row.id for row in found.values()}
    unmatched: list[PaperInput] = []
    for paper in papers:
        if paper.key in found:
            continue
        row = next(
            (
                rows[a]
                for a in paper.aliases
                if a in rows and rows[a].id not in taken and rows[a].key.startswith("text:")
            ),
            None,
        )
        if row is None:
            unmatched.append(paper)
            continue
        found[paper.key] = row
        taken.add(row.id)
    for finder in (_by_abstract, _listed_by_title, _read_again_of_name):
        if not unmatched:
            break
        for paper, row in await finder(session, unmatched, taken):
            found[paper.key] = row
            taken.add(row.id)
        unmatched = [paper for paper in unmatched if paper.key not in found]
    if unmatched:
        own = await _papers_of(session, document.id)
        held = {row.id for row in own}
        for paper, row in await _id_corrected(session, document, unmatched, own, taken, keys):
            found[paper.key] = row  # `taken` holds it now
        unmatched = [paper for paper in unmatched if paper.key not in found]
        others = await _named_alike(session, unmatched, held)
        free = [row for row in (*own, *others) if row.id not in taken]
        for paper, row in await _edited(session, unmatched, free, held):
            found[paper.key] = row
    return found


async def _id_corrected(
    session: AsyncSession,
    document: Document,
    papers: Sequence[PaperInput],
    own: Sequence[Paper],
    taken: set[int],
    keys: set[str],
) -> list[tuple[PaperInput, Paper]]:
    """Listed papers each with the row the file's earlier version alone listed under an
    arXiv ID it lists no more, of the same title or abstract: the ID corrected (a typo
    fixed), not a paper removed and another added. A row another file lists too keeps its
    ID: that file says it, and this one may have the typo."""
    gone = [row for row in own if row.key.startswith("arxiv:") and row.key not in keys]
    if not gone or not any(paper.key.startswith("arxiv:") for paper in papers):
        return []
    elsewhere = await _held_elsewhere(session, {row.id for row in gone}, document.id)
    gone = [row for row in gone if row.id not in elsewhere]
    pairs = []
    for paper in papers:
        if not paper.key.startswith("arxiv:"):
            continue
        title, abstract = paper.search.get("title_key"), paper.search.get("abstract_key")
        row = next(
            (
                row
                for row in gone
                if row.id not in taken
                and (
                    (title and row.title_key == title)
                    or (abstract and row.abstract_key == abstract)
                )
            ),
            None,
        )
        if row is not None:
            pairs.append((paper, row))
            taken.add(row.id)
    return pairs


async def _take_new_keys(
    session: AsyncSession, found: Mapping[str, Paper], deferring: set[str]
) -> None:
    """Rows found by an alias, an abstract, a title or their sentences take the new key, so
    they stay one row; but an arXiv ID, once known, stays the key (a later listing may lack
    the arXiv lines), and a file that only fills what a row lacks (`_defers`) keys nothing."""
    for key, row in found.items():
        arxiv_stays = row.key.startswith("arxiv:") and key.startswith("text:")
        if row.key != key and not arxiv_stays and key not in deferring:
            row.key = key
    await session.flush()


async def _by_abstract(
    session: AsyncSession, papers: Sequence[PaperInput], taken: set[int]
) -> list[tuple[PaperInput, Paper]]:
    """Entries with an abstract each with the row another copy of that abstract was stored
    as (storage.paper_keys.abstract_key): a listing's paper under its arXiv key for an
    abstract-only entry, an abstract-only entry for a listing, when one abstract is the
    other, whole or cut (`paper_keys.cut_from`). An entry with an arXiv ID takes only a row
    without one: two IDs are two papers."""
    keyed = {str(p.search["abstract_key"]): p for p in papers if p.search.get("abstract_key")}
    if not keyed:
        return []
    keys = list(keyed)
    pairs: dict[str, Paper] = {}
    for start in range(0, len(keys), _CHUNK):
        rows = await session.execute(
            select(Paper)
            .where(Paper.abstract_key.in_(keys[start : start + _CHUNK]))
            .order_by(Paper.id)
        )
        for row in rows.scalars():
            key = row.abstract_key or ""
            paper = keyed[key]
            two_ids = paper.key.startswith("arxiv:") and row.key.startswith("arxiv:")
            same = paper_keys.cut_from(paper.fields.get("abstract_en") or "", row.abstract_en or "")
            if row.id not in taken and key not in pairs and not two_ids and same:
                pairs[key] = row
    return [(keyed[key], row) for key, row in pairs.items()]


async def _abstracts_of_other_ids(session: AsyncSession, fresh: Sequence[PaperInput]) -> list[str]:
    """A warning for each new listed paper whose title and abstract a paper stored under
    another arXiv ID has: two IDs are two papers, but one of the two may be mistyped
    (`2609.35295` for `2609.35259`), a duplicate no list shows."""
    listed: dict[str, list[PaperInput]] = {}
    for paper in fresh:
        if paper.key.startswith("arxiv:") and paper.search.get("abstract_key"):
            listed.setdefault(str(paper.search["abstract_key"]), []).append(paper)
    keys = list(listed)
    notes = []
    for start in range(0, len(keys), _CHUNK):
        rows = await session.execute(
            select(Paper.abstract_key, Paper.arxiv_id, Paper.abstract_en, Paper.title_key).where(
                Paper.abstract_key.in_(keys[start : start + _CHUNK]), Paper.arxiv_id.is_not(None)
            )
        )
        for key, arxiv_id, abstract, title_key in rows:
            for paper in listed[str(key)]:
                same = paper_keys.cut_from(paper.fields.get("abstract_en") or "", abstract or "")
                if not same or not title_key or title_key != paper.search.get("title_key"):
                    continue
                notes.append(
                    f"line {paper.line}: arXiv {paper.fields.get('arxiv_id')} has the title and "
                    f"abstract of arXiv {arxiv_id}, stored before: stored as another paper; if "
                    "one of the two IDs is mistyped, correct it"
                )
    return notes


async def _read_again_of_name(
    session: AsyncSession, papers: Sequence[PaperInput], taken: set[int]
) -> list[tuple[PaperInput, Paper]]:
    """A deep read and an abstract-only entry of one name each with the other's row: one
    paper, read from its abstract first and from its text once the pipeline had it (or
    the other way round), the name read the same way from both. Deep reads of one name
    are told apart by number instead (`_named_apart`): each has its own text."""
    other = {KIND_DEEP_READ: KIND_ABSTRACT_ONLY, KIND_ABSTRACT_ONLY: KIND_DEEP_READ}
    wanted = {
        (other[kind], str(paper.search["name_key"])): paper
        for paper in papers
        if (kind := paper.fields.get("kind")) in other and paper.search.get("name_key")
    }
    names = sorted({name for _, name in wanted})
    pairs: dict[tuple[str, str], Paper] = {}
    for start in range(0, len(names), _CHUNK):
        rows = await session.execute(
            select(Paper)
            .where(Paper.name_key.in_(names[start : start + _CHUNK]), Paper.kind.in_(other))
            .order_by(Paper.id)
        )
        for row in rows.scalars():
            kind_and_name = (row.kind, str(row.name_key))
            if kind_and_name in wanted and row.id not in taken:
                pairs.setdefault(kind_and_name, row)
    found = [(wanted[kind_and_name], row) for kind_and_name, row in pairs.items()]
    read = [row.id for _, row in found if row.kind == KIND_DEEP_READ]
    claims = await _claims_by_paper(session, read) if read else {}
    return await asyncio.to_thread(_of_one_subject, found, claims)


def _of_one_subject(
    pairs: list[tuple[PaperInput, Paper]], claims: Mapping[int, Sequence[ClaimInput]]
) -> list[tuple[PaperInput, Paper]]:
    """The pairs of an abstract and a deep read of one name that speak of one paper
    (`matching.same_subject`); the others are two papers (`_named_apart` numbers them)."""
    kept = []
    for paper, row in pairs:
        if row.kind == KIND_DEEP_READ:
            abstract = paper.fields.get("abstract_en")
            sections = {f: getattr(row, f) for f in _READ_FIELDS}
            read = _texts(sections, _READ_FIELDS, claims.get(row.id, ()))
        else:
            abstract, read = row.abstract_en, _texts(paper.fields, _READ_FIELDS, paper.claims)
        if matching.same_subject(abstract, read, row.name):
            kept.append((paper, row))
    return kept


_READ_FIELDS = (*_SECTIONS_BEFORE_CLAIMS, *_TEXTS_AFTER_CLAIMS)  # a deep read's sections


async def _listed_by_title(
    session: AsyncSession, papers: Sequence[PaperInput], taken: set[int]
) -> list[tuple[PaperInput, Paper]]:
    """HuggingFace papers each with the row of the same title that one listing with arXiv
    lines and one without stored: the same paper, even when its abstract was revised in
    between (its text key then differs), in whichever order the two came."""
    listed = [
        paper
        for paper in papers
        if paper.fields.get("kind") == KIND_HUGGINGFACE and paper.search.get("title_key")
    ]
    if not listed:
        return []
    titles = list({str(paper.search["title_key"]) for paper in listed})
    rows: dict[str, list[Paper]] = {}
    for start in range(0, len(titles), _CHUNK):
        found = await session.execute(
            select(Paper)
            .where(
                Paper.title_key.in_(titles[start : start + _CHUNK]),
                Paper.kind == KIND_HUGGINGFACE,
            )
            .order_by(Paper.id)
        )
        for row in found.scalars():
            rows.setdefault(row.title_key or "", []).append(row)
    pairs = []
    for paper in listed:
        with_id = bool(paper.fields.get("arxiv_id"))
        candidates = [
            r
            for r in rows.get(str(paper.search["title_key"]), [])
            if r.id not in taken
            and (r.arxiv_id is None) == with_id
            # A paper with its arXiv ID is named by it; one listed without takes its
            # title from it only with most of its abstract (another paper may share a title).
            and (with_id or _same_abstract(r.abstract_en, paper.fields.get("abstract_en")))
        ]
        if len(candidates) == 1:  # two rows of one title: no guessing which
            pairs.append((paper, candidates[0]))
            taken.add(candidates[0].id)
    return pairs


def _same_abstract(stored: str | None, listed: str | None) -> bool:
    return matching.mostly_same(matching.sentences([stored]), matching.sentences([listed]))


async def _papers_of(session: AsyncSession, document_id: int) -> list[Paper]:
    """The papers the file held, in its order (an arXiv-keyed one too: the listed paper an
    abstract-only entry of the file joined)."""
    rows = await session.execute(
        select(Paper)
        .join(PaperDocument, PaperDocument.paper_id == Paper.id)
        .where(PaperDocument.document_id == document_id)
        .order_by(PaperDocument.position)
    )
    return list(rows.scalars())


async def _named_alike(
    session: AsyncSession, papers: Sequence[PaperInput], besides: set[int]
) -> list[Paper]:
    """Rows under a text key with the name or title of one of these papers: where an
    edited paper delivered under another file name is found (its sentences decide)."""
    names = {str(p.search["name_key"]) for p in papers if p.search.get("name_key")}
    names |= {f"{name}{number}" for name in names for number in _NUMBERED}  # `GAPO-2` too
    # The names its opening mentions: an edit there can change the name read from it
    # (`Enoki 的主张是` moved to a paragraph of its own), not the paper.
    names |= await asyncio.to_thread(_mentioned_names, papers)
    titles = {str(p.search["title_key"]) for p in papers if p.search.get("title_key")}
    if not names and not titles:
        return []
    rows = await session.execute(
        select(Paper)
        .where(
            Paper.key.like("text:%"),
            or_(Paper.name_key.in_(list(names)), Paper.title_key.in_(list(titles))),
        )
        .order_by(Paper.id)
        .limit(_CHUNK)
    )
    return [row for row in rows.scalars() if row.id not in besides]


# What may be a name in running text: a Latin-script word (its parts joined by hyphens or
# dots) with a capital, a digit or a hyphen in it (`Enoki`, `AV-GRPO`, `Ψ-Spec`,
# `Qwen2.5`), or a term in Chinese quotation marks (`“自主数学发现”`).
_LETTER = r"[^\W_\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]"  # not Chinese
_WORD_OR_QUOTED = re.compile(rf"(?<!{_LETTER})({_LETTER}+(?:[-.]{_LETTER}+)*)|“([^”]{{2,40}})”")
_MENTIONS_READ = 12  # names taken from one paper's opening at most
_OPENING_FIELDS = ("positioning", "background")  # its first paragraphs, where it names itself


def _mentioned_names(papers: Sequence[PaperInput]) -> set[str]:
    keys: set[str] = set()
    for paper in papers:
        opening = " ".join(str(paper.fields.get(f) or "")[:2_000] for f in _OPENING_FIELDS)
        names = [
            word or quoted
            for word, quoted in _WORD_OR_QUOTED.findall(opening)
            if quoted or (_name_like(word) and len(word) <= lookup_keys.LONGEST_NAME)
        ]
        keys.update(lookup_keys.name_key(name) for name in names[:_MENTIONS_READ])
    return keys


def _name_like(word: str) -> bool:
    return not word.isdigit() and ("-" in word or any(c.isupper() or c.isdigit() for c in word))


async def _edited(
    session: AsyncSession, papers: Sequence[PaperInput], previous: Sequence[Paper], held: set[int]
) -> list[tuple[PaperInput, Paper]]:
    """Pairs of a new paper and the row of the same paper as the file (`held`: its rows) or
    another file of its name or title held it before (see storage.matching)."""
    candidates = [p for p in papers if p.key.startswith("text:")]
    if not candidates or not previous:
        return []
    claims = await _claims_by_paper(session, [row.id for row in previous])
    values = [
        ({f: getattr(row, f) for f in _IDENTITY_FIELDS}, claims.get(row.id, [])) for row in previous
    ]
    kinds = [(row.kind, row.name) for row in previous]
    tests = [matching.same_paper if row.id in held else matching.same_elsewhere for row in previous]
    # Tokenising and comparing every pair is CPU work: in a thread, off the event loop.
    pairs = await asyncio.to_thread(_pair, candidates, kinds, values, tests)
    return [(paper, previous[index]) for paper, index in pairs]


def _pair(
    papers: Sequence[PaperInput],
    kinds: Sequence[tuple[str, str | None]],
    values: Sequence[tuple[Mapping[str, Any], Sequence[ClaimInput]]],
    tests: Sequence[Callable[[frozenset[str], frozenset[str]], bool]],
) -> list[tuple[PaperInput, int]]:
    """Each new paper with the index of the first earlier paper of its kind (`kinds`: and
    its name) that shares enough of its sentences (`tests`, one an earlier paper) or is
    that paper renamed throughout; each earlier paper goes to one new paper at most."""
    stored = [
        matching.sentences(_texts(fields, _IDENTITY_FIELDS, claims)) for fields, claims in values
    ]
    free = set(range(len(stored)))
    pairs: list[tuple[PaperInput, int]] = []

    def alike(paper: PaperInput, i: int) -> bool:
        names = (paper.fields.get("name"), kinds[i][1])
        return tests[i](stored[i], paper.sentences) or matching.renamed(
            stored[i], paper.sentences, names
        )

    for paper in papers:
        index = next(
            (
                i
                for i in range(len(stored))
                if i in free
                and _kind_matches(paper.fields.get("kind"), kinds[i][0])
                and alike(paper, i)
            ),
            None,
        )
        if index is not None:
            pairs.append((paper, index))
            free.discard(index)
    return pairs


def _kind_matches(new: str | None, stored: str) -> bool:
    """Papers of one kind, or an abstract-only entry and the listed paper it joined."""
    return new == stored or (new == KIND_ABSTRACT_ONLY and stored == KIND_HUGGINGFACE)


_IDENTITY_FIELDS = ("positioning", "abstract_en")


def _texts(
    fields: Mapping[str, Any], names: Sequence[str], claims: Sequence[ClaimInput]
) -> list[str | None]:
    """The paper's fields of these `names`, then its claims' quotes and statements."""
    return [
        *(fields.get(name) for name in names),
        *(claim.quote_en for claim in claims),
        *(claim.text_zh for claim in claims),
    ]


def _search_columns(values: Mapping[str, Any]) -> dict[str, str | None]:
    """The normalised lookup keys and the search text of a paper's values."""
    abstract = values.get("abstract_en")
    return {
        **lookup_keys.stored_keys(values.get("name"), values.get("title")),
        "abstract_key": paper_keys.abstract_key(abstract) if abstract else None,
        "search_head": index_text(*(values.get(f) for f in SEARCH_HEAD)),
        "search_body": index_text(*(values.get(f) for f in SEARCH_BODY)),
    }


async def _reindex(rows: Sequence[Paper]) -> None:
    """Recompute the search columns of refreshed rows, in a thread: tokenising is CPU work
    that must not hold up the event loop."""
    values = [{f: getattr(row, f) for f in (*SEARCH_HEAD, *SEARCH_BODY)} for row in rows]
    columns = await asyncio.to_thread(lambda: [_search_columns(v) for v in values])
    for row, search in zip(rows, columns, strict=True):
        for name, value in search.items():
            setattr(row, name, value)


def _all_columns(fields: Mapping[str, Any]) -> dict[str, Any]:
    # Every row of a multi-row INSERT needs the same columns.
    row = {name: fields.get(name) for name in PAPER_FIELDS}
    row["authors"] = list(row["authors"] or [])
    row["categories"] = list(row["categories"] or [])
    return row


def _present(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value not in (None, "", [], ())}


async def _in_newer_digests(
    session: AsyncSession, paper_ids: Sequence[int], document_id: int, digest_date: date
) -> set[int]:
    """The papers another file of a later digest date holds: theirs are the text and claims
    stored, and this file, an older digest, only adds what they lack (re-delivered with a
    typo fixed, it is neither refused for the claims the newer one added nor replaces them)."""
    newer: set[int] = set()
    for start in range(0, len(paper_ids), _CHUNK):
        rows = await session.execute(
            select(PaperDocument.paper_id)
            .join(Document, Document.id == PaperDocument.document_id)
            .where(
                PaperDocument.paper_id.in_(paper_ids[start : start + _CHUNK]),
                PaperDocument.document_id != document_id,
                Document.digest_date > digest_date,
            )
        )
        newer.update(rows.scalars())
    return newer


def _defers(paper: PaperInput, row: Paper, newer: set[int]) -> bool:
    """Whether `paper` only fills what its stored row lacks: an abstract-only entry of a
    fuller paper, or a copy in an older digest than another that holds it (unless it is
    the fuller copy of an abstract-only entry)."""
    return _says_less(paper, row) or (row.id in newer and not _says_more(paper, row))


def _cut_copy(paper: PaperInput, row: Paper) -> bool:
    """Whether `paper` is an abstract-only entry whose abstract is the row's cut shorter:
    pipelines cut an entry's abstract at different lengths (mid-word, at a sentence's end,
    with `…`), and an abstract is the paper's own text, which no review edits away. It
    would replace the whole abstract by less of it, and its name or title read from less.
    So would a copy that lost its first sentences (a blank line after them in a file's
    first entry: the parser leaves them out, with a warning, as it would a preamble)."""
    abstract, stored = paper.fields.get("abstract_en"), row.abstract_en
    kinds = (paper.fields.get("kind"), row.kind)
    if kinds != (KIND_ABSTRACT_ONLY, KIND_ABSTRACT_ONLY) or not abstract or not stored:
        return False  # a listing or deep read of it takes what the entry adds (`_says_less`)
    copy, whole = paper_keys.fingerprint(abstract), paper_keys.fingerprint(stored)
    return len(copy) < len(whole) and (whole.startswith(copy) or whole.endswith(copy))


def _says_less(paper: PaperInput, row: Paper) -> bool:
    """Whether `paper` is an abstract-only entry of a paper stored as a listing or a deep
    read: it adds what the row lacks, and changes nothing else (its claims, key, title)."""
    return paper.fields.get("kind") == KIND_ABSTRACT_ONLY and row.kind != KIND_ABSTRACT_ONLY


def _says_more(paper: PaperInput, row: Paper) -> bool:
    """Whether `paper` is a listing or a deep read of a paper stored as an abstract-only
    entry: it replaces that entry's text, whatever the dates."""
    return row.kind == KIND_ABSTRACT_ONLY and paper.fields.get("kind") != KIND_ABSTRACT_ONLY


def _refresh(
    row: Paper, paper: PaperInput, digest_date: date, mixed: list[Paper], only_missing: bool = False
) -> bool:
    """Copy the file's non-empty values onto the row (`only_missing`: where the row has
    none); True when anything changed. A changed row whose search fields all come from this
    file takes the input's search columns; one that keeps stored text the file lacks goes
    into `mixed`, to be indexed anew."""
    changed = False
    for name, value in _present(paper.fields).items():
        if getattr(row, name) != value and not (
            only_missing and _present({name: getattr(row, name)})
        ):
            setattr(row, name, value)
            changed = True
    if changed:
        searched = (*SEARCH_HEAD, *SEARCH_BODY)
        if all(getattr(row, f) == paper.fields.get(f) for f in searched):
            for name, value in paper.search.items():
                setattr(row, name, value)
        else:
            mixed.append(row)
    if row.digest_date is None or digest_date < row.digest_date:
        row.digest_date = digest_date  # a paper is dated by the first digest that held it
        changed = True
    return changed


def _only_chinese_changed(before: Sequence[ClaimInput], after: Sequence[ClaimInput]) -> bool:
    """The same claims, quoted alike, but for their Chinese text (a corrected translation, or
    findings that gained theirs): updated in place, so each keeps its row and its vector,
    which is made from the English quote."""
    return len(before) == len(after) and all(
        (old.number, old.source, old.quote_en) == (new.number, new.source, new.quote_en)
        and new.quote_en
        for old, new in zip(before, after, strict=True)
    )


async def _update_chinese(
    session: AsyncSession, paper_id: int, paper: PaperInput, before: Sequence[ClaimInput]
) -> None:
    """Write the Chinese text and search text of the paper's claims whose Chinese changed."""
    changed = [
        {"b_paper": paper_id, "b_source": new.source, "b_number": new.number,
         "b_text_zh": new.text_zh, "b_search": search}
        for old, new, search in zip(before, paper.claims, paper.claim_search, strict=True)
        if old.text_zh != new.text_zh
    ]  # fmt: skip
    statement = (
        update(CLAIMS)
        .where(
            CLAIMS.c.paper_id == bindparam("b_paper"),
            CLAIMS.c.source == bindparam("b_source"),
            CLAIMS.c.number == bindparam("b_number"),
        )
        .values(text_zh=bindparam("b_text_zh"), search_text=bindparam("b_search"))
    )
    await session.execute(statement, changed)


async def _insert_claims(
    session: AsyncSession, rows: Sequence[tuple[int, int, str, str, str, str]]
) -> None:
    """Insert claims as rows of _CLAIM_COLUMNS: paper id, claim, search text."""
    await dialect.insert_many(session, CLAIMS, _CLAIM_COLUMNS, rows)


async def _keyed_apart(session: AsyncSession, papers: list[PaperInput]) -> list[PaperInput]:
    """The papers, a deep read keyed by its other quotes when its key (its first quote's)
    is a stored deep read of another name that holds none of those quotes: that quote was
    pasted into the wrong paper, and the paper stored under it would be overwritten."""
    deep_reads = {p.key: p for p in papers if p.fields.get("kind") == KIND_DEEP_READ}
    keys = list(deep_reads)
    named_otherwise: dict[int, PaperInput] = {}  # stored row -> the paper of its key
    for start in range(0, len(keys), _CHUNK):
        rows = await session.execute(
            select(Paper.key, Paper.id, Paper.name_key).where(
                Paper.key.in_(keys[start : start + _CHUNK]), Paper.kind == KIND_DEEP_READ
            )
        )
        for key, paper_id, name_key in rows:
            name = deep_reads[key].fields.get("name")
            if name_key and name and lookup_keys.name_key(name) != name_key:
                named_otherwise[paper_id] = deep_reads[key]
    if not named_otherwise:
        return papers
    held: dict[int, set[str]] = {}
    for paper_id, quote in await session.execute(
        select(Claim.paper_id, Claim.quote_en).where(Claim.paper_id.in_(named_otherwise))
    ):
        held.setdefault(paper_id, set()).add(quote)
    apart: dict[str, PaperInput] = {}
    for paper_id, paper in named_otherwise.items():
        quotes = [claim.quote_en for claim in paper.claims]
        if len(quotes) > 1 and not held.get(paper_id, set()) & set(quotes[1:]):
            positioning = str(paper.fields.get("positioning") or "")
            apart[paper.key] = replace(
                paper, key=paper_keys.deep_read_key_apart(quotes, positioning)
            )
    return [apart.get(paper.key, paper) for paper in papers]


async def _papers_by_key(session: AsyncSession, keys: Sequence[str]) -> dict[str, Paper]:
    found: dict[str, Paper] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        rows = await session.execute(select(Paper).where(Paper.key.in_(chunk)))
        found.update({paper.key: paper for paper in rows.scalars()})
    return found


async def _claims_by_paper(
    session: AsyncSession, paper_ids: Sequence[int]
) -> dict[int, list[ClaimInput]]:
    claims: dict[int, list[ClaimInput]] = {}
    for start in range(0, len(paper_ids), _CHUNK):
        chunk = paper_ids[start : start + _CHUNK]
        rows = await session.execute(
            select(Claim.paper_id, Claim.number, Claim.text_zh, Claim.quote_en, Claim.source)
            .where(Claim.paper_id.in_(chunk))
            .order_by(Claim.paper_id, Claim.id)
        )
        for paper_id, number, text_zh, quote_en, source in rows:
            claims.setdefault(paper_id, []).append(ClaimInput(number, text_zh, quote_en, source))
    return claims
