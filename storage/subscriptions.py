"""Subscriptions: the words a user or a channel follows, and which new papers match them.

A subscriber's deliveries are recorded in the summary ledger (storage/ledger.py) under
`sub:<subscriber>`: one post per day, and never the same paper twice. A watermark (the
newest paper id looked at) moves forward also when nothing matched, so each run matches
only the papers that arrived since the last one.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage import authors, fulltext, ledger
from storage.models import Paper, Subscription
from storage.search import PaperDetails, papers_details
from storage.search_text import BadQuery, Query, parse_query

MAX_PER_SUBSCRIBER = 20
MAX_WORDS = 200


def is_user(subscriber: str) -> bool:
    """A user (who gets a direct message), not a channel."""
    return subscriber.startswith(("U", "W"))


@dataclass(frozen=True)
class Followed:
    id: int
    subscriber: str
    words: str
    post_time: str | None  # "08:30" for a channel with its own time

    @property
    def is_user(self) -> bool:
        return is_user(self.subscriber)


@dataclass(frozen=True)
class Match:
    """A new paper for a subscriber, and which of their subscriptions it matches."""

    paper: PaperDetails
    words: list[str]


def _followed(row: Subscription) -> Followed:
    return Followed(row.id, row.subscriber, row.words, row.post_time)


async def subscribe(
    session: AsyncSession,
    subscriber: str,
    words: str,
    *,
    created_by: str,
    post_time: str | None = None,
) -> Followed | None:
    """Follow `words`; None when the subscriber follows them already. Raises BadQuery
    for words that cannot match anything, or past the limit of subscriptions."""
    words = " ".join(words.split())
    if len(words) > MAX_WORDS:
        raise BadQuery(f"Follow at most {MAX_WORDS} characters of words.")
    rest, names = authors.split_authors(words)
    query = parse_query(rest, translate=False)
    if not names:
        query.needs_words()
    if query.empty and not names:
        raise BadQuery("Those words cannot match anything: follow a word or two, like `AUROC`.")
    count = await session.execute(
        select(func.count()).select_from(Subscription).where(Subscription.subscriber == subscriber)
    )
    if count.scalar_one() >= MAX_PER_SUBSCRIBER:
        raise BadQuery(f"That is {MAX_PER_SUBSCRIBER} subscriptions already; remove one first.")
    if post_time is not None:  # one time of day per channel: the latest one given
        await session.execute(
            update(Subscription)
            .where(Subscription.subscriber == subscriber)
            .values(post_time=post_time)
        )
    same = await session.execute(
        select(Subscription.id).where(
            Subscription.subscriber == subscriber, func.lower(Subscription.words) == words.lower()
        )
    )
    if same.first() is not None:  # search ignores case, so "auroc" is "AUROC"
        return None
    row = Subscription(
        subscriber=subscriber, words=words, post_time=post_time, created_by=created_by
    )
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return None
    return _followed(row)


async def of(session: AsyncSession, *subscribers: str) -> list[Followed]:
    rows = await session.execute(
        select(Subscription)
        .where(Subscription.subscriber.in_(subscribers))
        .order_by(Subscription.subscriber, Subscription.id)
    )
    return [_followed(row) for row in rows.scalars()]


async def get(session: AsyncSession, subscription_id: int) -> Followed | None:
    row = await session.get(Subscription, subscription_id)
    return _followed(row) if row else None


async def remove(session: AsyncSession, subscription_id: int) -> None:
    await session.execute(delete(Subscription).where(Subscription.id == subscription_id))


async def remove_words(session: AsyncSession, subscriber: str, words: str) -> bool:
    removed = await session.execute(
        delete(Subscription).where(
            Subscription.subscriber == subscriber,
            func.lower(Subscription.words) == " ".join(words.split()).lower(),
        )
    )
    return bool(removed.rowcount)  # type: ignore[attr-defined]


async def subscribers(session: AsyncSession) -> dict[str, str | None]:
    """Every subscriber and its own time of day (None: the default time; a channel's rows
    all carry the same time)."""
    rows = await session.execute(
        select(Subscription.subscriber, func.max(Subscription.post_time)).group_by(
            Subscription.subscriber
        )
    )
    return {subscriber: post_time for subscriber, post_time in rows}


@dataclass(frozen=True)
class Found:
    """What a subscriber's words matched among the papers new to them."""

    words: dict[int, list[str]]  # paper id → the subscriptions it matched, oldest first
    keys: dict[int, str]  # paper id → key, of the matched papers
    through: int | None  # the newest paper id looked at: the subscriber's next watermark
    moved: bool  # whether `through` is past the subscriber's current watermark


# What one job run already matched: (words in lower case, low, high) → matching ids.
Seen = dict[tuple[str, int, int], set[int]]


async def new_matches(session: AsyncSession, subscriber: str, seen: Seen | None = None) -> Found:
    """Papers newer than the subscriber's watermark (first ingested since they subscribed)
    and never sent to them that match one of their subscriptions; oldest first. Only
    reads: run it outside the writers' turn. `seen` shares matches between subscribers
    who follow the same words over the same papers (most, once their watermarks agree)."""
    followed = await of(session, subscriber)
    window = await session.execute(
        select(func.min(Subscription.created_at), func.max(Subscription.matched_through)).where(
            Subscription.subscriber == subscriber
        )
    )
    start, mark = window.one()
    # Read first: every paper up to this id is committed (writers take turns), so a
    # paper that arrives meanwhile gets a larger id and is looked at next time.
    high = (await session.execute(select(func.max(Paper.id)))).scalar_one()
    if not followed or high is None or (mark is not None and high <= mark):
        return Found({}, {}, mark, False)
    rows = await session.execute(
        select(Paper.id, Paper.key)
        .where(Paper.id > (mark or 0), Paper.id <= high, Paper.first_ingested_at > start)
        .order_by(Paper.first_ingested_at, Paper.id)
    )
    candidates = dict(rows.all())
    fresh = await ledger.unrecorded(session, ledger.subscriber_owner(subscriber), list(candidates))
    words: dict[int, list[str]] = {}
    if fresh:
        low = mark if mark is not None else min(candidates) - 1
        shared = seen if seen is not None else {}
        hits = await _matching(session, [s.words for s in followed], low, high, shared)
        for paper_id in fresh:
            matched = [w for w in (s.words for s in followed) if paper_id in hits[w.lower()]]
            if matched:
                words[paper_id] = matched
    return Found(words, {p: candidates[p] for p in words}, high, True)


async def _matching(
    session: AsyncSession, followed: list[str], low: int, high: int, seen: Seen
) -> dict[str, set[int]]:
    """Words (in lower case) → the papers in (`low`, `high`] they match."""
    todo = {w.lower() for w in followed} - {w for w, lo, hi in seen if (lo, hi) == (low, high)}
    searches = {w: read for w in sorted(todo) if (read := _search(w)) is not None}
    worded = {w: query for w, (query, _) in searches.items() if not query.empty}
    found = dict(
        zip(
            worded,
            await fulltext.papers_matching(session, list(worded.values()), low, high),
            strict=True,
        )
    )
    for words, (query, names) in searches.items():
        ids = found.get(words)
        if names:
            written = set(await authors.papers_by(session, names, low=low, high=high))
            ids = written if ids is None else ids & written
        ids = ids or set()
        if query.excluded and ids:
            ordered = sorted(ids)
            for start in range(0, len(ordered), EXCLUDED_BATCH):
                batch = ordered[start : start + EXCLUDED_BATCH]
                ids -= await fulltext.papers_holding(session, query.excluded, batch)
        seen[words, low, high] = ids
    return {w.lower(): seen.get((w.lower(), low, high), set()) for w in followed}


EXCLUDED_BATCH = 2_000  # papers checked for excluded words at once (bound as a list)


def _search(words: str) -> tuple[Query, tuple[str, ...]] | None:
    """A subscription's words and authors; None for one that cannot match (stored before
    the syntax it uses was read as it is now)."""
    try:
        rest, names = authors.split_authors(words)
    except BadQuery:
        return None
    query = parse_query(rest, translate=False)  # the same matches whenever it runs
    return None if query.empty and not names else (query, names)


async def advance(session: AsyncSession, subscriber: str, through: int) -> None:
    """Papers up to `through` were looked at for the subscriber; never moves back."""
    await session.execute(
        update(Subscription)
        .where(
            Subscription.subscriber == subscriber,
            (Subscription.matched_through.is_(None)) | (Subscription.matched_through < through),
        )
        .values(matched_through=through)
    )


async def matches(session: AsyncSession, found: Found, paper_ids: list[int]) -> list[Match]:
    """The cards of these matched papers, in the order given."""
    details = await papers_details(session, [found.keys[p] for p in paper_ids])
    return [Match(d, found.words[d.ref.id]) for d in details]
