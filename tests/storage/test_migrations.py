"""Migrations build the same schema as the models, on both databases, and are idempotent."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from jobs.ingest import ingest
from storage import db, paper_keys, search_reindex
from storage.models import Base, is_hand_written
from storage.search import lookup_paper, search_claims
from storage.search_text import index_text
from tests.digests import SEEDS

TABLES = {
    "documents",
    "papers",
    "paper_documents",
    "claims",
    "ingest_runs",
    "digest_posts",
    "digest_post_papers",
    "subscriptions",
    "saved_papers",
    "item_vectors",
}


def describe(connection: Connection) -> dict[str, Any]:
    """A dialect-neutral description of the schema: columns, keys, indexes."""
    inspector = inspect(connection)
    schema: dict[str, Any] = {}
    for table in sorted(inspector.get_table_names()):
        if table == "alembic_version" or is_hand_written(table):
            continue
        schema[table] = {
            "columns": sorted(
                (c["name"], c["nullable"])
                for c in inspector.get_columns(table)
                if not is_hand_written(c["name"])
            ),
            "primary_key": sorted(inspector.get_pk_constraint(table)["constrained_columns"]),
            "unique": sorted(
                tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)
            ),
            "indexes": sorted(
                (tuple(i["column_names"]), bool(i["unique"]))
                for i in inspector.get_indexes(table)
                if not (i["name"] or "").startswith(("uq_", "sqlite_autoindex"))
                and not is_hand_written(i["name"])
            ),
            "foreign_keys": sorted(
                (tuple(f["constrained_columns"]), f["referred_table"], f["options"].get("ondelete"))
                for f in inspector.get_foreign_keys(table)
            ),
        }
    return schema


def model_differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection,
        opts={"compare_type": True, "include_name": lambda name, *_: not is_hand_written(name)},
    )
    return list(compare_metadata(context, Base.metadata))


async def test_upgrade_creates_every_table_matching_the_models(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        schema = await connection.run_sync(describe)
        differences = await connection.run_sync(model_differences)
    assert set(schema) == TABLES
    assert differences == []
    assert await db.schema_is_current(engine)


async def test_second_upgrade_changes_nothing_and_keeps_data(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO ingest_runs (trigger, forced, status, started_at, documents_new,"
                " documents_changed, documents_unchanged, documents_failed, papers_new,"
                " papers_updated, errors) VALUES ('cli', false, 'ok', CURRENT_TIMESTAMP,"
                " 1, 0, 0, 0, 2, 0, '[]')"
            )
        )
    async with engine.connect() as connection:
        before = await connection.run_sync(describe)

    await db.upgrade(engine)

    async with engine.connect() as connection:
        after = await connection.run_sync(describe)
        runs = (await connection.execute(text("SELECT count(*) FROM ingest_runs"))).scalar_one()
        version = (await connection.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert after == before
    assert runs == 1
    assert len(version) == 1


async def test_sqlite_and_postgresql_get_the_same_schema(
    sqlite_url: URL, postgres_url: URL
) -> None:
    schemas = []
    for url in (sqlite_url, postgres_url):
        async with db.open_engine(url) as engine:
            await db.upgrade(engine)
            async with engine.connect() as connection:
                schemas.append(await connection.run_sync(describe))
    assert schemas[0] == schemas[1]


def test_the_schema_head_paperbot_opens_stores_at_is_the_newest_migration() -> None:
    """A store at SCHEMA_HEAD opens without Alembic: a migration added without moving it
    would never run."""
    assert db.migration_heads() == [db.SCHEMA_HEAD]


async def test_empty_database_is_not_current_until_upgraded(database_url: URL) -> None:
    async with db.open_engine(database_url) as engine:
        assert not await db.schema_is_current(engine)
        await db.upgrade(engine)
        assert await db.schema_is_current(engine)


async def test_the_search_migration_indexes_rows_stored_before_it(database_url: URL) -> None:
    async with db.open_engine(database_url) as engine:
        async with engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0001")
            await connection.execute(
                text(
                    "INSERT INTO papers (id, key, kind, title, name, authors, categories,"
                    " first_ingested_at, updated_at) VALUES (1, 'text:a', 'deep_read',"
                    " NULL, 'GAPO', '[]', '[]', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )
            await connection.execute(
                text(
                    "INSERT INTO claims (paper_id, number, text_zh, quote_en)"
                    " VALUES (1, 1, '显存下降', 'median AUROC of 0.886')"
                )
            )
        await db.upgrade(engine)
        async with engine.connect() as connection:
            claim = (await connection.execute(text("SELECT source, search_text FROM claims"))).one()
            paper = (
                await connection.execute(text("SELECT name_key, search_head FROM papers"))
            ).one()
    assert tuple(claim) == ("review", "显存 存下 下降 降 median auroc of 0.886")
    assert tuple(paper) == ("gapo", "gapo")


async def upgraded_with_seeds(engine: AsyncEngine) -> None:
    await db.upgrade(engine)
    report = await ingest(db.session_factory(engine), [SEEDS])
    assert not report.errors


def upgrade_to(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


async def test_word_forms_reindex_a_store_written_before_them(
    database_url: URL, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store at 0005 holds the tokens as written; 0006 recomputes them, a batch at a
    time, to exactly what ingest writes now, and its index finds words by their stems."""
    monkeypatch.setattr(search_reindex, "PAPERS_PER_BATCH", 7)  # the seeds: several batches
    monkeypatch.setattr(search_reindex, "CLAIMS_PER_BATCH", 10)
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        as_ingested = await search_columns(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0005")  # the text 0005's ingest wrote
        at_0005 = await search_columns(engine)
        async with db.session_factory(engine)() as session:
            assert not (await search_claims(session, "AIME")).hits
        assert at_0005 != as_ingested

        await db.upgrade(engine)

        assert await search_columns(engine) == as_ingested
        async with db.session_factory(engine)() as session:
            texts = [h.quote_en for h in (await search_claims(session, "AIME")).hits]
            assert any("AIME24" in t for t in texts)
            assert (await lookup_paper(session, "xplanner")).papers
        if engine.dialect.name == "sqlite":  # the FTS5 tables agree with their rows
            async with engine.begin() as connection:
                for table in ("claims_fts", "papers_fts"):
                    await connection.execute(
                        text(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
                    )


async def test_chinese_variants_reindex_a_store_written_before_them(
    database_url: URL, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store at 0008 holds traditional characters as written; 0009 folds them, in the
    search text and in the papers' lookup keys, so both scripts find them."""
    monkeypatch.setattr(search_reindex, "PAPERS_PER_BATCH", 7)
    monkeypatch.setattr(search_reindex, "CLAIMS_PER_BATCH", 10)
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0008")
            # What ingest wrote before folding: the characters as written.
            claim_id = (await connection.execute(text("SELECT min(id) FROM claims"))).scalar()
            await connection.execute(
                text(
                    "UPDATE claims SET text_zh = '鑰匙圈測試', quote_en = '',"
                    " search_text = '鑰匙 匙圈 圈測 測試 試' WHERE id = :id"
                ),
                {"id": claim_id},
            )
            paper_id = (await connection.execute(text("SELECT min(id) FROM papers"))).scalar()
            await connection.execute(
                text("UPDATE papers SET title = '顯存調度', title_key = '顯存調度' WHERE id = :id"),
                {"id": paper_id},
            )
        as_written = await search_columns(engine)
        async with db.session_factory(engine)() as session:
            hits = (await search_claims(session, "钥匙圈")).hits
            assert claim_id not in [hit.claim_id for hit in hits]

        await db.upgrade(engine)

        folded = await search_columns(engine)
        async with db.session_factory(engine)() as session:
            for typed in ("钥匙圈", "鑰匙圈"):
                hits = (await search_claims(session, typed)).hits
                hit = next(hit for hit in hits if hit.claim_id == claim_id)
                assert hit.text_zh[slice(*hit.zh_spans[0])] == "鑰匙圈"
            for typed in ("显存调度", "顯存調度"):
                found = await lookup_paper(session, typed)
                assert found.how == "title" and [p.id for p in found.papers] == [paper_id]
        changed = {row[0] for row in folded} - {row[0] for row in as_written}
        assert not changed  # the same rows, only their text recomputed


async def search_columns(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as connection:
        claims = await connection.execute(text("SELECT id, search_text FROM claims ORDER BY id"))
        papers = await connection.execute(
            text("SELECT id, search_head, search_body FROM papers ORDER BY id")
        )
        return [tuple(row) for row in [*claims, *papers]]


def downgrade_to(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def test_name_keys_are_recomputed_hyphens_aside_and_from_coined_titles(
    database_url: URL,
) -> None:
    """A store at 0009 keys names as written (`x-planner`) and nameless papers not at all;
    0010 keys them as lookups do now, so `xplanner` and `OneStreamer` name their papers."""
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        as_ingested = await name_keys(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0009")
            await connection.execute(
                text("UPDATE papers SET name_key = lower(name)")  # 0009's keys of these names
            )
        assert await name_keys(engine) != as_ingested

        await db.upgrade(engine)

        assert await name_keys(engine) == as_ingested
        async with db.session_factory(engine)() as session:
            for typed in ("xplanner", "OneStreamer"):
                assert (await lookup_paper(session, typed)).how == "name"


async def name_keys(engine: AsyncEngine) -> list[tuple[int, str | None]]:
    async with engine.connect() as connection:
        rows = await connection.execute(text("SELECT id, name_key FROM papers ORDER BY id"))
        return [(row[0], row[1]) for row in rows]


async def test_abstract_keys_are_computed_for_papers_stored_before_them(
    database_url: URL,
) -> None:
    """0011 gives the papers stored before it the abstract keys ingest gives them, and the
    store's search still works after a round trip down to 0010 and back."""
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        as_ingested = await abstract_keys(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0010")

        await db.upgrade(engine)

        assert await abstract_keys(engine) == as_ingested
        assert sum(key is not None for _, key in as_ingested) == 24  # 20 listed, 4 abstract-only
        async with db.session_factory(engine)() as session:
            assert (await search_claims(session, "AUROC")).total > 0


async def test_shorter_abstract_keys_are_computed_again_both_ways(database_url: URL) -> None:
    """0012 gives stored papers the keys of their abstracts' first 240 letters and digits
    that ingest gives them now, and down to 0011 the keys of 600 they had."""
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        as_ingested = await abstract_keys(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0011")
            rows = await connection.execute(text("SELECT abstract_en FROM papers ORDER BY id"))
            earlier = [paper_keys.abstract_key(a, 600) if a else None for (a,) in rows]
        assert (
            [key for _, key in await abstract_keys(engine)]
            == earlier
            != [key for _, key in as_ingested]
        )

        await db.upgrade(engine)

        assert await abstract_keys(engine) == as_ingested


async def abstract_keys(engine: AsyncEngine) -> list[tuple[int, str | None]]:
    async with engine.connect() as connection:
        rows = await connection.execute(text("SELECT id, abstract_key FROM papers ORDER BY id"))
        return [(row[0], row[1]) for row in rows]


@pytest.mark.parametrize("existing_page_size", [None, 4096])
async def test_a_new_sqlite_store_has_8_kib_pages_and_an_older_one_keeps_its_own(
    tmp_path: Path, existing_page_size: int | None
) -> None:
    path = tmp_path / "paperbot.db"
    if existing_page_size:  # a store created before, with SQLite's default pages
        with sqlite3.connect(path) as older:
            older.execute(f"PRAGMA page_size={existing_page_size}")
            older.execute("PRAGMA journal_mode=WAL")
            older.execute("CREATE TABLE earlier (id INTEGER)")
    async with db.open_engine(URL.create("sqlite+aiosqlite", database=str(path))) as engine:
        await upgraded_with_seeds(engine)
        async with db.session_factory(engine)() as session:
            hits = await search_claims(session, "AUROC")
    assert hits.total > 0
    with sqlite3.connect(path) as store:
        assert store.execute("PRAGMA page_size").fetchone()[0] == (existing_page_size or 8192)


async def test_sqlite_indexes_rebuilt_at_0013_find_what_they_found_before(
    database_url: URL,
) -> None:
    """0013 rebuilds SQLite's full-text indexes with the `ascii` tokenizer (down, with
    `unicode61`): every search of the seeds finds the same claims and papers either way,
    and a claim stored after the rebuild is found."""
    searches = ["AUROC", "显存", "hallucination detection", '"median AUROC"', "GAPO", "延迟 ms"]
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        at_head = await found_by(engine, searches)
        assert await fts_settings(engine) in ([("ascii", "8")] * 2, [])
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0012")
        assert await fts_settings(engine) in ([("unicode61", "4")] * 2, [])
        assert await found_by(engine, searches) == at_head
        await db.upgrade(engine)
        assert await found_by(engine, searches) == at_head
        assert all(claims for claims, _ in at_head)

        async with engine.begin() as connection:
            await add_claim(connection, 99, "新词", "zyzzyva", "新词 词 zyzzyva")
        async with db.session_factory(engine)() as session:
            hits = (await search_claims(session, "zyzzyva")).hits
        assert [hit.number for hit in hits] == [99]


async def test_katakana_punctuation_separates_words_from_0013(database_url: URL) -> None:
    """`・` was read as a letter of a Chinese run (`约翰・史密斯`: `翰・`, `・史`), which
    unicode61 and PostgreSQL cut apart again and `ascii` would not; 0013 computes the text
    of the rows holding it as ingest does now, so both stores find the name's words."""
    async with db.open_engine(database_url) as engine:
        await upgraded_with_seeds(engine)
        async with engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0012")
            await add_claim(  # as ingest wrote it before 0013
                connection,
                98,
                "约翰・史密斯",
                "as reported",
                "约翰 翰・ ・史 史密 密斯 斯 as report reported",
            )
        untouched = await search_columns(engine)

        await db.upgrade(engine)

        recomputed = await search_columns(engine)
        changed = [row for row in recomputed if row not in untouched]
        assert changed == [(changed[0][0], index_text("约翰・史密斯", "as reported"))]
        assert "・" not in changed[0][1]
        async with db.session_factory(engine)() as session:
            for typed in ("史密斯", "约翰・史密斯", "约翰 史密斯"):
                hits = (await search_claims(session, typed)).hits
                assert 98 in [hit.number for hit in hits], typed


async def add_claim(
    connection: AsyncConnection, number: int, text_zh: str, quote_en: str, search_text: str
) -> None:
    """A review claim of the first paper, its search text as given."""
    await connection.execute(
        text(
            "INSERT INTO claims (paper_id, number, text_zh, quote_en, source, search_text)"
            " SELECT min(id), :number, :zh, :en, 'review', :search FROM papers"
        ),
        {"number": number, "zh": text_zh, "en": quote_en, "search": search_text},
    )


async def fts_settings(engine: AsyncEngine) -> list[tuple[str, str]]:
    """SQLite's full-text indexes' tokenizer and automerge (none on PostgreSQL)."""
    if engine.dialect.name != "sqlite":
        return []
    settings = []
    async with engine.connect() as connection:
        for index in ("claims_fts", "papers_fts"):
            sql = (
                await connection.execute(
                    text("SELECT sql FROM sqlite_master WHERE name = :name"), {"name": index}
                )
            ).scalar_one()
            merge = (
                await connection.execute(
                    text(f"SELECT v FROM {index}_config WHERE k = 'automerge'")
                )
            ).scalar()
            settings.append((sql.split('tokenize="')[1].split()[0], str(merge or 4)))
    return settings


async def found_by(engine: AsyncEngine, searches: list[str]) -> list[tuple[list[int], list[int]]]:
    """The claims and the papers each search finds, in order."""
    found = []
    async with db.session_factory(engine)() as session:
        for typed in searches:
            claims = [hit.claim_id for hit in (await search_claims(session, typed)).hits]
            papers = [paper.id for paper in (await lookup_paper(session, typed)).papers]
            found.append((claims, papers))
    return found
