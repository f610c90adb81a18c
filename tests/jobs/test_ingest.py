"""Ingest on both databases: counts, idempotence, in-place updates, and no data lost."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import shutil
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from jobs import ingest as ingest_module
from jobs.ingest import (
    MB,
    PARSE_WORKERS,
    FileTooLarge,
    ParsedFile,
    ingest,
    parse_file,
    parse_processes,
    read_digest,
    spawned_parser,
)
from storage import db, loading
from storage.db import Sessions
from storage.models import Base, Claim, Document, IngestRun, Paper, PaperDocument
from storage.search import search_claims
from tests.digests import SEEDS, Entry, huggingface_digest, write


@pytest.fixture
def sessions(engine: AsyncEngine) -> Sessions:
    return db.session_factory(engine)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A digest folder of its own: tmp_path also holds the SQLite database."""
    return tmp_path / "digests"


@pytest.fixture
def seeds(folder: Path) -> Path:
    shutil.copytree(SEEDS, folder)
    return folder


async def snapshot(sessions: Sessions) -> dict[str, list[Any]]:
    """Every row of every table except the run log: what 'the store' holds."""
    tables: dict[str, list[Any]] = {}
    async with sessions() as session:
        for table in Base.metadata.sorted_tables:
            if table.name == "ingest_runs":
                continue
            rows = (await session.execute(select(table))).all()
            tables[table.name] = sorted(tuple(map(repr, row)) for row in rows)
    return tables


def without_documents(tables: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {name: rows for name, rows in tables.items() if name != "documents"}


async def count(sessions: Sessions, *criteria: Any) -> int:
    async with sessions() as session:
        query = select(func.count()).select_from(Paper)
        for criterion in criteria:
            query = query.where(criterion)
        return (await session.execute(query)).scalar_one()


async def test_seeds_give_36_papers_and_133_claims(sessions: Sessions, seeds: Path) -> None:
    report = await ingest(sessions, [seeds])

    assert report.as_json() == {
        "documents": {"new": 3, "changed": 0, "unchanged": 0, "failed": 0},
        "papers": {"new": 36, "updated": 0},
        "errors": [],
        "skipped": [],
        "warnings": [],
        "suspect": [],
    }
    assert await count(sessions) == 36
    assert await count(sessions, Paper.arxiv_id.is_not(None)) == 20
    assert await count(sessions, Paper.kind == "deep_read") == 12
    assert await count(sessions, Paper.kind == "abstract_only") == 4
    async with sessions() as session:
        quotes = (
            (await session.execute(select(Claim.quote_en).where(Claim.source == "review")))
            .scalars()
            .all()
        )
        names = set((await session.execute(select(Paper.name))).scalars())
    assert len(quotes) == 133
    assert all(quote.strip() for quote in quotes)
    assert {"GAPO", "ENEAS", "Hunyuan-A13B", "AV-GRPO"} <= names


async def test_a_second_run_changes_nothing_and_force_keeps_keys(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await snapshot(sessions)

    again = await ingest(sessions, [seeds])
    assert again.documents == {"new": 0, "changed": 0, "unchanged": 3, "failed": 0}
    assert again.papers == {"new": 0, "updated": 0}
    assert await snapshot(sessions) == before

    forced = await ingest(sessions, [seeds], force=True)
    assert forced.documents == {"new": 0, "changed": 0, "unchanged": 3, "failed": 0}
    assert forced.papers == {"new": 0, "updated": 0}
    assert await snapshot(sessions) == before  # same keys, ids, claims, first-ingested times


async def test_a_load_holds_one_connection_at_a_time(
    engine: AsyncEngine, sessions: Sessions, seeds: Path
) -> None:
    """Each connection keeps its own page cache (64 MiB on SQLite), filled as the store
    grows: reading the next files beside the writer took a second and third connection,
    and the writes went round them all, so a long load held several full caches."""
    held = peak = 0

    def checkout(*_: Any) -> None:
        nonlocal held, peak
        held += 1
        peak = max(peak, held)

    def checkin(*_: Any) -> None:
        nonlocal held
        held -= 1

    pool = engine.sync_engine.pool
    event.listen(pool, "checkout", checkout)
    event.listen(pool, "checkin", checkin)
    try:
        report = await ingest(sessions, [seeds])
        again = await ingest(sessions, [seeds])
    finally:
        event.remove(pool, "checkout", checkout)
        event.remove(pool, "checkin", checkin)
    assert report.documents["new"] == 3 and again.documents["unchanged"] == 3
    assert peak == 1


async def test_every_run_is_recorded_with_its_trigger_and_counts(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds], trigger="slack", triggered_by="U123")
    async with sessions() as session:
        run = (await session.execute(select(IngestRun))).scalar_one()
    assert (run.trigger, run.triggered_by, run.status) == ("slack", "U123", "ok")
    assert (run.documents_new, run.papers_new) == (3, 36)
    assert run.finished_at is not None and run.finished_at >= run.started_at


async def test_a_changed_file_updates_its_papers_in_place(sessions: Sessions, folder: Path) -> None:
    day = folder / "day.txt"
    write(
        day,
        huggingface_digest(
            "2026-10-04", [Entry("2610.00001", "Alpha"), Entry("2610.00002", "Beta")]
        ),
    )
    await ingest(sessions, [day])
    async with sessions() as session:
        alpha = (
            await session.execute(select(Paper).where(Paper.key == "arxiv:2610.00001"))
        ).scalar_one()

    write(day, huggingface_digest("2026-10-04", [Entry("2610.00001", "Alpha, revised")]))
    assert (await ingest(sessions, [day])).suspect  # Beta would leave: refused until accepted
    report = await ingest(sessions, [day], accept_losses=True)

    assert report.documents["changed"] == 1
    assert report.papers == {"new": 0, "updated": 1}
    async with sessions() as session:
        revised = (
            await session.execute(select(Paper).where(Paper.key == "arxiv:2610.00001"))
        ).scalar_one()
        beta_links = (
            await session.execute(
                select(func.count())
                .select_from(PaperDocument)
                .join(Paper)
                .where(Paper.key == "arxiv:2610.00002")
            )
        ).scalar_one()
    assert revised.title == "Alpha, revised"
    assert (revised.id, revised.first_ingested_at) == (alpha.id, alpha.first_ingested_at)
    # Beta left the file: it stays in the store, no longer linked to that file.
    assert await count(sessions, Paper.key == "arxiv:2610.00002") == 1
    assert beta_links == 0


async def test_findings_that_gain_their_chinese_keep_their_rows_and_are_found_by_it(
    sessions: Sessions, folder: Path
) -> None:
    day = folder / "day.txt"
    english = "We introduce Alpha. Alpha improves accuracy by 3.2% over the baseline."
    alpha = Entry("2610.00001", "Alpha", abstract=english, chinese="")
    beta = Entry("2610.00002", "Beta", chinese="")  # its claim is stored after Alpha's
    write(day, huggingface_digest("2026-10-04", [alpha, beta]))
    await ingest(sessions, [day])
    chinese = "我们提出 Alpha。Alpha 的准确率比基线高 3.2%。"
    write(day, huggingface_digest("2026-10-04", [replace(alpha, chinese=chinese), beta]))
    in_alpha = Claim.paper_id == select(Paper.id).where(Paper.title == "Alpha").scalar_subquery()
    async with sessions() as session:
        before = (await session.execute(select(Claim.id, Claim.text_zh).where(in_alpha))).all()
        assert (await search_claims(session, "准确率")).total == 0

    report = await ingest(sessions, [day])

    assert report.papers == {"new": 0, "updated": 1} and not report.suspect
    async with sessions() as session:
        after = (await session.execute(select(Claim.id, Claim.text_zh).where(in_alpha))).all()
        found = await search_claims(session, "准确率")
    assert before == [(before[0].id, "")]
    assert after == [(before[0].id, "Alpha 的准确率比基线高 3.2%。")]  # the same row
    assert [hit.claim_id for hit in found.hits] == [before[0].id]


async def test_the_same_arxiv_paper_in_two_files_is_one_paper_with_two_sources(
    sessions: Sessions, folder: Path
) -> None:
    write(folder / "a.txt", huggingface_digest("2026-10-04", [Entry("2609.35259", "Same")]))
    write(folder / "b.txt", huggingface_digest("2026-10-05", [Entry("2609.35259v2", "Same")]))
    report = await ingest(sessions, [folder])

    assert report.papers["new"] == 1  # the second file refreshes it (its URLs name v2)
    async with sessions() as session:
        paper = (await session.execute(select(Paper))).scalar_one()
        sources = (
            await session.execute(select(func.count()).select_from(PaperDocument))
        ).scalar_one()
    assert paper.arxiv_id == "2609.35259"
    assert str(paper.digest_date) == "2026-10-04"  # dated by the first digest that held it
    assert sources == 2


async def test_two_digests_joined_by_cat_load_every_paper_and_say_where_the_second_begins(
    sessions: Sessions, folder: Path
) -> None:
    """The first digest ends without a newline, so `cat` runs the second one's date line
    onto its last line (`…请以原文为准。2026-09-09`)."""
    first = (SEEDS / "000_e3eab0f621521816.txt").read_bytes()
    second = (SEEDS / "004_ee791cd1952f5dee.txt").read_bytes()
    assert not first.endswith(b"\n")
    (folder / "joined.txt").parent.mkdir(parents=True)
    (folder / "joined.txt").write_bytes(first + second)

    glued_line = first.count(b"\n") + 1

    report = await ingest(sessions, [folder])

    assert (report.errors, report.papers) == ([], {"new": 16, "updated": 0})
    assert report.warnings == [
        {
            "path": str(folder / "joined.txt"),
            "warning": f"line {glued_line}: another digest begins here "
            "(2026-09-09): this file holds more than one digest, and its papers are all "
            "dated 2026-09-28",
        }
    ]
    async with sessions() as session:
        names = set((await session.execute(select(Paper.name))).scalars())
    assert {"AV-GRPO", "GAPO", "ENEAS"} <= names  # from both digests


async def test_one_bad_file_never_blocks_the_others(sessions: Sessions, folder: Path) -> None:
    write(folder / "a_bad.txt", "2026-13-01\n\n本文提出 X。\n")
    write(folder / "b_good.txt", huggingface_digest("2026-10-04", [Entry("2610.00001", "A")]))
    report = await ingest(sessions, [folder])

    assert report.documents == {"new": 1, "changed": 0, "unchanged": 0, "failed": 1}
    assert report.errors == [
        {
            "path": str(folder / "a_bad.txt"),
            "error": "line 1: '2026-13-01' is not a valid date",
        }
    ]
    assert await count(sessions) == 1
    async with sessions() as session:
        run = (await session.execute(select(IngestRun))).scalar_one()
    assert run.status == "partial"
    assert run.errors == report.errors


async def test_a_file_that_stops_parsing_keeps_what_it_stored_before(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await snapshot(sessions)
    deep_reads = seeds / "000_e3eab0f621521816.txt"
    deep_reads.write_bytes(b"2026-09-28\n\n\xff\xfe broken export\n")

    report = await ingest(sessions, [seeds])

    assert report.documents == {"new": 0, "changed": 0, "unchanged": 2, "failed": 1}
    assert "not valid UTF-8" in report.errors[0]["error"]
    assert without_documents(await snapshot(sessions)) == without_documents(before)
    async with sessions() as session:
        where = Document.path == str(deep_reads.resolve())
        document = (await session.execute(select(Document).where(where))).scalar_one()
    assert (document.status, document.error) == ("failed", report.errors[0]["error"])

    # Fixed again, the file loads as before and nothing was lost in between.
    shutil.copy(SEEDS / deep_reads.name, deep_reads)
    fixed = await ingest(sessions, [seeds])
    assert fixed.documents["changed"] == 1
    assert fixed.papers == {"new": 0, "updated": 0}
    assert without_documents(await snapshot(sessions)) == without_documents(before)


async def test_a_crash_mid_file_leaves_the_store_as_it_was(
    sessions: Sessions, seeds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ingest(sessions, [seeds / "000_e3eab0f621521816.txt"])
    before = await snapshot(sessions)
    real_insert_claims = loading._insert_claims

    async def crash_after_writing_claims(*args: Any) -> None:
        await real_insert_claims(*args)  # papers and claims are written, then it fails
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(loading, "_insert_claims", crash_after_writing_claims)
    report = await ingest(sessions, [seeds / "004_ee791cd1952f5dee.txt"])

    assert report.errors[0]["error"] == "internal error: RuntimeError: disk on fire"
    assert await snapshot(sessions) == before


@pytest.mark.parametrize("read_ahead", [1, 2])
async def test_a_file_that_fails_to_read_is_reported_and_the_others_load(
    sessions: Sessions, folder: Path, monkeypatch: pytest.MonkeyPatch, read_ahead: int
) -> None:
    """An unexpected error reading one file (files are read ahead of their turn) is that
    file's error: the ingest goes on with the others, in their order, and ends."""
    for day in range(1, 8):
        entries = [Entry(f"2610.{day:05d}", f"Paper of day {day}")]
        write(folder / f"2026-10-{day:02d}.txt", huggingface_digest(f"2026-10-{day:02d}", entries))
    broken = folder / "2026-10-04.txt"
    real_read = ingest_module.read_digest

    def read(path: Path, *args: Any) -> tuple[str, bytes]:
        if path == broken:
            raise RuntimeError("controller on fire")
        return real_read(path, *args)

    monkeypatch.setattr(ingest_module, "read_digest", read)
    monkeypatch.setattr(ingest_module, "_READ_AHEAD", read_ahead)
    report = await asyncio.wait_for(ingest(sessions, [folder]), timeout=60)

    assert report.errors == [
        {"path": str(broken), "error": "internal error: RuntimeError: controller on fire"}
    ]
    assert report.documents == {"new": 6, "changed": 0, "unchanged": 0, "failed": 1}
    async with sessions() as session:
        stored = await session.execute(select(Paper.arxiv_id).order_by(Paper.id))
        assert list(stored.scalars()) == [f"2610.{day:05d}" for day in (1, 2, 3, 5, 6, 7)]


async def test_missing_and_unreadable_paths_are_reported(sessions: Sessions, folder: Path) -> None:
    report = await ingest(sessions, [folder / "nowhere"])
    assert report.errors == [{"path": str(folder / "nowhere"), "error": "no such file or folder"}]
    assert report.documents["failed"] == 1


async def test_hidden_files_in_a_folder_are_ignored(sessions: Sessions, folder: Path) -> None:
    write(folder / ".partial.txt", "half a file")
    write(folder / ".git" / "HEAD", "ref: refs/heads/main")
    write(folder / "day.txt", huggingface_digest("2026-10-04", [Entry("2610.00001", "A")]))
    report = await ingest(sessions, [folder])
    assert report.documents == {"new": 1, "changed": 0, "unchanged": 0, "failed": 0}


async def test_two_replicas_ingesting_the_same_files_at_once_store_them_once(
    engine: AsyncEngine, seeds: Path
) -> None:
    """Two processes (two engines, as two replicas have) scan the same folder together."""
    async with db.open_engine(engine.url) as other:
        replicas = [db.session_factory(engine), db.session_factory(other)]
        reports = await asyncio.gather(*(ingest(s, [seeds]) for s in replicas))

    assert [r.errors for r in reports] == [[], []]
    documents = [r.documents for r in reports]
    assert sum(d["new"] for d in documents) == 3
    assert sum(d["unchanged"] for d in documents) == 3
    assert sum(r.papers["new"] for r in reports) == 36
    assert await count(replicas[0]) == 36


def sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes that takes no disk space: reading it would still cost memory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.truncate(size)
    return path


async def test_a_file_over_the_size_limit_fails_with_one_line_and_the_others_load(
    sessions: Sessions, seeds: Path
) -> None:
    huge = sparse(seeds / "huge.txt", 200 * MB)

    report = await ingest(sessions, [seeds])

    assert report.documents == {"new": 3, "changed": 0, "unchanged": 0, "failed": 1}
    assert report.errors == [
        {
            "path": str(huge),
            "error": "file is 200 MB; the limit is 50 MB (PAPERBOT_MAX_FILE_MB)",
        }
    ]
    assert await count(sessions) == 36


async def test_the_size_limit_takes_decimals_and_a_file_at_the_limit_loads(
    sessions: Sessions, folder: Path
) -> None:
    text = huggingface_digest("2026-10-04", [Entry("2610.00001", "A")])
    limit_mb = 0.01  # 10,485 bytes
    at_limit = write(folder / "a.txt", text + "\n" * (int(limit_mb * MB) - len(text.encode())))
    over = write(folder / "b.txt", at_limit.read_text() + "\n")

    report = await ingest(sessions, [folder], max_file_mb=limit_mb)

    assert report.documents == {"new": 1, "changed": 0, "unchanged": 0, "failed": 1}
    assert report.errors == [
        {
            "path": str(over),
            "error": "file is 0.02 MB; the limit is 0.01 MB (PAPERBOT_MAX_FILE_MB)",
        }
    ]


async def test_a_stored_file_that_grows_over_the_limit_keeps_what_it_stored(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await snapshot(sessions)
    sparse(seeds / "004_ee791cd1952f5dee.txt", 60 * MB)

    report = await ingest(sessions, [seeds])

    assert report.documents == {"new": 0, "changed": 0, "unchanged": 2, "failed": 1}
    assert report.errors[0]["error"].startswith("file is 60 MB; the limit is 50 MB")
    assert await snapshot(sessions) == before


def test_a_file_that_grows_past_the_limit_while_being_read_is_refused() -> None:
    # /dev/zero says it holds nothing, then never ends: as a file still being written.
    with pytest.raises(FileTooLarge) as refused:
        read_digest(Path("/dev/zero"), max_file_mb=1)
    assert str(refused.value) == (
        "file grew past 1 MB while being read; the limit is 1 MB (PAPERBOT_MAX_FILE_MB)"
    )


async def test_an_ingest_that_stores_papers_leaves_the_planner_their_statistics(
    sessions: Sessions, seeds: Path
) -> None:
    """PostgreSQL plans a search by its statistics; a fresh store has none until autovacuum
    runs, and a date range then looked like 0.5% of the papers (a plan of seconds)."""
    async with sessions() as session:
        if session.get_bind().dialect.name != "postgresql":
            pytest.skip("SQLite's planner keeps no statistics of its own")
    await ingest(sessions, [seeds])
    async with sessions() as session:
        analysed = await session.execute(
            text(
                "SELECT relname FROM pg_stat_user_tables"
                " WHERE relname IN ('papers', 'claims') AND last_analyze IS NOT NULL"
            )
        )
        assert sorted(analysed.scalars()) == ["claims", "papers"]


def niceness_of_parse_processes() -> list[int]:
    return [os.getpriority(os.PRIO_PROCESS, p.pid or 0) for p in multiprocessing.active_children()]


async def test_parse_processes_parse_at_a_lower_priority_and_leave_the_collector_as_it_was() -> (
    None
):
    """A load's parse processes yield the CPU to its writer and to a bot on the same host."""
    thresholds = gc.get_threshold()
    with parse_processes(2) as pool:
        niceness = niceness_of_parse_processes()
        parsed = await pool.parse(min(SEEDS.glob("*.txt")).read_bytes())
    assert niceness == [min(os.nice(0) + 10, 19)] * 2
    assert isinstance(parsed, ParsedFile) and len(parsed.papers) > 0
    assert gc.get_threshold() == thresholds
    assert multiprocessing.active_children() == []


async def test_the_bot_parses_in_processes_started_only_for_files_to_parse(
    sessions: Sessions, seeds: Path
) -> None:
    """`serve`'s ingests parse in processes of their own, one a core at most, at a lower
    priority: a scan that finds nothing new starts none, and none is left once an ingest
    ends."""

    async def ingest_in_processes() -> tuple[dict[str, int], set[int], int]:
        with spawned_parser() as parser:
            report = await ingest(sessions, [seeds], parse_pool=parser)
            niceness = niceness_of_parse_processes()
        assert multiprocessing.active_children() == []
        return report.documents, set(niceness), len(niceness)

    documents, niceness, started = await ingest_in_processes()
    assert documents == {"new": 3, "changed": 0, "unchanged": 0, "failed": 0}
    assert niceness == {min(os.nice(0) + 10, 19)}
    assert 1 <= started <= min(PARSE_WORKERS, 3)
    assert await ingest_in_processes() == (
        {"new": 0, "changed": 0, "unchanged": 3, "failed": 0},
        set(),
        0,
    )
    assert await count(sessions) == 36


async def parse_processes_started() -> list[multiprocessing.process.BaseProcess]:
    while not (started := multiprocessing.active_children()):  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    return started


def large_deep_read(claims: int) -> str:
    """One deep read of that many claims: about 3 s of parsing for 100,000."""
    numbered = "\n\n".join(f'{i % 3 + 1}. 声明{i}。\n\n   "Quote {i}."' for i in range(claims))
    return f"2026-09-09\n\n本文提出 X（Ex），一个方法。\n\n{numbered}\n"


async def test_a_parse_process_that_dies_fails_its_file_alone(
    sessions: Sessions, seeds: Path
) -> None:
    """A parse process killed mid-file (as the system ends one out of memory) fails that
    file with a line that says so; the next file starts another, and the rest load."""
    write(seeds / "000_large.txt", large_deep_read(100_000))  # the first file read
    with spawned_parser(1) as parser:  # the process started is the large file's
        loading_it = asyncio.create_task(ingest(sessions, [seeds], parse_pool=parser))
        started = await parse_processes_started()
        await asyncio.sleep(1)  # spawned (0.5 s), and well into the large file
        os.kill(started[0].pid or 0, signal.SIGKILL)
        report = await loading_it

    assert report.documents == {"new": 3, "changed": 0, "unchanged": 0, "failed": 1}
    assert report.errors == [
        {
            "path": str(seeds / "000_large.txt"),
            "error": "the process parsing it ended (killed by SIGKILL, as the system ends a "
            "process out of memory); the other files load",
        }
    ]
    assert await count(sessions) == 36


async def test_an_ingest_stopped_mid_parse_ends_its_parse_process(
    sessions: Sessions, folder: Path
) -> None:
    """The bot stopping cancels its ingest: the parse under way ends with it, not once the
    file is parsed (a large one: minutes)."""
    write(folder / "large.txt", large_deep_read(100_000))

    async def load() -> None:
        with spawned_parser() as parser:
            await ingest(sessions, [folder], parse_pool=parser)

    loading_it = asyncio.create_task(load())
    started = await parse_processes_started()
    loading_it.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loading_it
    assert [process.exitcode for process in started] == [-signal.SIGTERM]
    assert await count(sessions) == 0


async def test_a_file_parsed_in_a_parse_process_arrives_as_parsed_here() -> None:
    """Papers cross from the parse processes pickled in their own compact form: the writer
    gets the same papers, claims and search text, claims still named tuples."""
    seeds = [path.read_bytes() for path in sorted(SEEDS.glob("*.txt"))]
    with parse_processes(1) as pool:
        sent = [await pool.parse(seed) for seed in seeds]
    here = [parse_file(seed) for seed in seeds]
    assert sent == here
    assert all(isinstance(parsed, ParsedFile) for parsed in sent)
    claims = [
        claim
        for parsed in sent
        if isinstance(parsed, ParsedFile)
        for paper in parsed.papers
        for claim in paper.claims
    ]
    assert claims and all(type(claim) is loading.ClaimInput for claim in claims)
    assert all(claim.number == claim[0] for claim in claims)
