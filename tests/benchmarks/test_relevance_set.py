"""The relevance set is well-formed, and every judgment points at an item that exists.

The normal test run skips tests/benchmarks; run this with
`.venv/bin/pytest tests/benchmarks/test_relevance_set.py`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.settings import load_settings
from bot.shell import offline_bot
from jobs.ingest import ingest
from storage import db
from storage.models import Claim, Paper
from storage.search import ClaimHit, PaperRef
from tests.benchmarks.bench_relevance import first_reply, ranked_claims, ranked_papers
from tests.benchmarks.relevance_set import (
    COMMANDS,
    DIGESTS,
    FIRST_PAGE,
    HELD_OUT_QUESTIONS,
    KINDS,
    LANGS,
    SEEDS,
    Question,
    load_questions,
)

QUESTIONS = load_questions()
HELD_OUT = load_questions(HELD_OUT_QUESTIONS)


def test_the_set_is_large_and_covers_every_kind_in_both_commands_and_languages() -> None:
    assert len(QUESTIONS) >= 120
    kinds = Counter(q.kind for q in QUESTIONS)
    assert set(kinds) == set(KINDS)
    assert min(kinds.values()) >= 12, kinds
    pairs = {(q.kind, q.command) for q in QUESTIONS}
    assert {(kind, command) for kind in KINDS for command in COMMANDS} <= pairs
    assert {(q.command, q.lang) for q in QUESTIONS} == {
        (c, lang) for c in COMMANDS for lang in LANGS
    }


def test_the_held_out_questions_cover_every_kind_in_both_commands_and_languages() -> None:
    assert len(HELD_OUT) >= 60 and {q.kind for q in HELD_OUT} == set(KINDS)
    assert {(q.command, q.lang) for q in HELD_OUT} == {
        (c, lang) for c in COMMANDS for lang in LANGS
    }
    assert all(q.id.startswith("heldout-") for q in HELD_OUT)


@pytest.mark.parametrize("question", QUESTIONS + HELD_OUT, ids=lambda q: q.id)
def test_each_question_is_well_formed(question: Question) -> None:
    assert question.command in COMMANDS
    assert question.kind in KINDS
    assert question.lang in LANGS
    assert question.text.strip() == question.text and question.text
    assert 1 <= len(question.relevant) <= FIRST_PAGE, "a first page must be able to hold them"
    assert len({item.lower() for item in question.relevant}) == len(question.relevant)
    if question.command == "/claims":
        assert all("#" in item for item in question.relevant), "claims are judged by address"


def test_ids_and_typed_lines_are_unique() -> None:
    every = QUESTIONS + HELD_OUT
    assert len({q.id for q in every}) == len(every)
    assert len({q.line for q in every}) == len(every)


@pytest.fixture
async def loaded(engine: AsyncEngine) -> AsyncEngine:
    report = await ingest(db.session_factory(engine), [SEEDS, DIGESTS])
    assert not report.errors, report.errors
    return engine


async def test_every_judged_item_exists_in_the_store(loaded: AsyncEngine) -> None:
    async with db.session_factory(loaded)() as session:
        papers = (await session.execute(select(Paper))).scalars().all()
        claims = (await session.execute(select(Claim))).scalars().all()
    refs = {
        p.id: PaperRef(p.id, p.key, p.kind, p.arxiv_id, p.title, p.name, p.subtitle, p.digest_date)
        for p in papers
    }
    names = {alias.lower() for p in papers for alias in (p.key, p.arxiv_id, p.name) if alias}
    hits = [
        ClaimHit(c.id, c.number, c.source, c.text_zh, c.quote_en, refs[c.paper_id]) for c in claims
    ]
    addresses = {hit.address.lower() for hit in hits if hit.address}
    dangling = [
        (q.id, item)
        for q in QUESTIONS + HELD_OUT
        for item in q.relevant
        if item.lower() not in (addresses if q.command == "/claims" else names)
    ]
    assert dangling == []


async def test_ranked_items_are_read_from_what_the_user_is_shown(
    loaded: AsyncEngine, database_url: URL, tmp_path: Path
) -> None:
    """The benchmark reads a list, a card and a page of claims as the user sees them."""
    url = database_url.render_as_string(hide_password=False)
    settings = load_settings({"PAPERBOT_DATABASE_URL": url}, dotenv_path=tmp_path / "none")
    async with offline_bot(settings) as bot:

        async def shown(line: str) -> list[str]:
            reply = first_reply(await bot.ask(line, user="UTEST", channel="CTEST"))
            return ranked_papers(reply) if line.startswith("/paper") else ranked_claims(reply)

        assert await shown("/paper 2609.35259") == ["arxiv:2609.35259"]  # a card
        listed = await shown("/paper agents")
        assert len(listed) > 1 and all(key.startswith(("arxiv:", "text:")) for key in listed)
        assert await shown("/claims GAPO#3") == ["GAPO#3"]  # one claim by its address
        page = await shown("/claims AUROC paper:Enoki")
        assert sorted(page) == ["Enoki#12", "Enoki#2"]
