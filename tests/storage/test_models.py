"""The store keeps what is written, the same way on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import (
    Claim,
    Document,
    IngestRun,
    LedgerPaper,
    LedgerPost,
    Paper,
    PaperDocument,
)
from storage.status import store_status


def a_paper(key: str = "arxiv:2609.35259", **fields: object) -> Paper:
    defaults: dict[str, object] = {
        "arxiv_id": key.removeprefix("arxiv:") if key.startswith("arxiv:") else None,
        "kind": "huggingface",
        "title": "On-Policy or Off-Policy Learning?",
        "authors": ["Ada Lovelace", "李雷"],
    }
    return Paper(key=key, **(defaults | fields))


def a_document(path: str = "seeds/a.txt") -> Document:
    return Document(
        path=path,
        content_hash="0" * 64,
        format="huggingface",
        digest_date=date(2026, 10, 4),
        size_bytes=10,
        parser_version="1",
        status="ok",
    )


async def test_paper_with_claims_and_sources_round_trips(session: AsyncSession) -> None:
    published = datetime(2026, 9, 30, 17, 59, 58, tzinfo=timezone(timedelta(hours=8)))
    paper = a_paper(published_at=published)
    paper.claims = [
        Claim(number=1, text_zh="中位 AUROC 为 0.886。", quote_en="median AUROC of 0.886"),
        Claim(number=2, text_zh="显存下降", quote_en="memory drops"),
    ]
    paper.documents = [
        PaperDocument(document=a_document("a.txt"), position=1),
        PaperDocument(document=a_document("b.txt"), position=7),
    ]
    session.add(paper)
    await session.commit()
    session.expunge_all()

    stored = (await session.execute(select(Paper))).scalar_one()
    claims = (await session.execute(select(Claim).order_by(Claim.number))).scalars().all()
    sources = (await session.execute(select(PaperDocument))).scalars().all()
    assert stored.authors == ["Ada Lovelace", "李雷"]
    assert stored.published_at == published
    assert stored.published_at is not None and stored.published_at.tzinfo == UTC
    assert stored.first_ingested_at.tzinfo == UTC
    assert [(c.number, c.quote_en) for c in claims] == [
        (1, "median AUROC of 0.886"),
        (2, "memory drops"),
    ]
    assert sorted(s.position for s in sources) == [1, 7]


async def test_deleting_a_paper_removes_its_claims_through_the_foreign_key(
    session: AsyncSession,
) -> None:
    paper = a_paper()
    paper.claims = [Claim(number=1, text_zh="甲", quote_en="a")]
    session.add(paper)
    await session.commit()
    # A bulk delete bypasses the ORM cascade: only the database's ON DELETE CASCADE
    # (foreign keys switched on for SQLite) removes the claims.
    await session.execute(delete(Paper))
    await session.commit()
    assert (await session.execute(select(Claim))).first() is None


async def test_a_paper_key_and_an_arxiv_id_are_unique(session: AsyncSession) -> None:
    session.add(a_paper())
    await session.commit()
    session.add(a_paper())
    with pytest.raises(IntegrityError):
        await session.commit()


async def test_a_digest_period_is_claimed_once_per_channel(session: AsyncSession) -> None:
    period = "2026-12-02T09:00:00+00:00"
    session.add(LedgerPost(owner="C1", period=period, status="claimed"))
    session.add(LedgerPost(owner="C2", period=period, status="claimed"))
    await session.commit()
    session.add(LedgerPost(owner="C1", period=period, status="claimed"))
    with pytest.raises(IntegrityError):
        await session.commit()


async def test_a_paper_is_recorded_as_posted_once_per_channel(session: AsyncSession) -> None:
    paper = a_paper()
    first = LedgerPost(owner="C1", period="p1", status="posted")
    second = LedgerPost(owner="C1", period="p2", status="claimed")
    session.add_all([paper, first, second])
    await session.flush()
    session.add(LedgerPaper(post_id=first.id, paper_id=paper.id, owner="C1"))
    await session.commit()
    session.add(LedgerPaper(post_id=second.id, paper_id=paper.id, owner="C1"))
    with pytest.raises(IntegrityError):
        await session.commit()


async def test_naive_timestamps_are_refused(session: AsyncSession) -> None:
    session.add(a_paper(published_at=datetime(2026, 1, 1)))
    with pytest.raises(Exception, match="naive datetime"):
        await session.commit()


async def test_status_counts_documents_papers_claims_and_the_last_run(
    session: AsyncSession,
) -> None:
    empty = await store_status(session)
    assert (empty.documents, empty.papers, empty.claims, empty.last_ingest) == (0, 0, 0, None)

    paper = a_paper()
    paper.claims = [Claim(number=n, text_zh="甲", quote_en="a") for n in (1, 2, 3)]
    paper.documents = [PaperDocument(document=a_document(), position=1)]
    session.add_all([paper, a_paper("text:abc", kind="deep_read")])
    session.add(IngestRun(trigger="cli", status="ok", documents_new=1, papers_new=2))
    session.add(
        IngestRun(
            trigger="slack",
            triggered_by="U1",
            status="partial",
            documents_failed=1,
            errors=[{"path": "x", "error": "bad"}],
        )
    )
    await session.commit()

    status = await store_status(session)
    assert (status.documents, status.papers, status.claims) == (1, 2, 3)
    assert status.database in ("sqlite", "postgresql")
    assert status.last_ingest is not None
    assert status.last_ingest["trigger"] == "slack"
    assert status.last_ingest["triggered_by"] == "U1"
    assert status.last_ingest["documents"]["failed"] == 1
    assert status.last_ingest["errors"] == [{"path": "x", "error": "bad"}]
