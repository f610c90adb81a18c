"""The ingest job: digest files on disk -> parsed papers -> the store.

One transaction per file, so a bad or crashing file never touches what the others (or an
earlier ingest of the same file) stored. Files whose content hash is unchanged are skipped
unless forced. `paperbot ingest`, `/reingest` and the periodic scan all call `ingest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import logging
import math
import multiprocessing
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any, Literal, Protocol

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from jobs import selection
from jobs.cpus import usable_cpus
from jobs.findings import findings
from jobs.parse_pool import ParsePool, ParserDied
from jobs.parser import (
    KIND_HUGGINGFACE,
    PARSER_VERSION,
    DigestParseError,
    ParsedPaper,
    decode_digest,
    parse_digest,
)
from jobs.parser.errors import DamagedText
from storage import db, loading, runs, search_text
from storage.db import Sessions
from storage.models import CLAIM_FROM_ABSTRACT, Document

log = logging.getLogger(__name__)

MB = 1024 * 1024
DEFAULT_MAX_FILE_MB = 50
LIMIT_VARIABLE = "PAPERBOT_MAX_FILE_MB"  # named in the report line, so operators know the knob
# A file modified less than this many seconds ago is still arriving: left for the next
# scan. Copies written in place (scp, rsync --inplace, a sync client) touch the file many
# times a second while data flows, so a few quiet seconds tell a finished file from one
# still being written; waiting costs a delivered file one scan's delay at most. Atomic
# renames (README) need no wait at all. PAPERBOT_SETTLE_SECONDS changes it; 0 turns it off.
DEFAULT_SETTLE_SECONDS = 5.0

# Copied as they are from a parsed paper onto the paper's row.
_COPIED = (
    "kind", "arxiv_id", "title", "name", "subtitle", "pdf_url", "arxiv_url", "coolpaper_url",
    "published_at", "abstract_en", "abstract_zh", "llm_analysis", "positioning", "background",
    "mechanism", "experiments", "novelty", "soundness", "significance", "limitations",
    "follow_ups",
)  # fmt: skip


_PATH = itemgetter("path")


@dataclass
class IngestReport:
    run_id: int = 0
    documents: dict[str, int] = field(
        default_factory=lambda: {"new": 0, "changed": 0, "unchanged": 0, "failed": 0}
    )
    papers: dict[str, int] = field(default_factory=lambda: {"new": 0, "updated": 0})
    errors: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # not digests: no failure
    warnings: list[dict[str, str]] = field(default_factory=list)  # loaded, all but a part
    forced: bool = False  # unchanged files were parsed again

    @property
    def files_line(self) -> str:
        """What became of the files, in words: "3 new, 0 changed, 1 unchanged, 0 failed"."""
        docs = self.documents
        unchanged = "unchanged, parsed again" if self.forced else "unchanged"
        return (
            f"{docs['new']} new, {docs['changed']} changed, {docs['unchanged']} {unchanged}, "
            f"{docs['failed']} failed"
        )

    # Re-deliveries refused because they would remove papers or claims: {"path",
    # "would_lose"}. Each is also a failed document with its line in `errors`.
    suspect: list[dict[str, str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The `paperbot ingest --json` object of the interface contract, plus `skipped`,
        `warnings` and `suspect`."""
        return {
            "documents": self.documents,
            "papers": self.papers,
            "errors": self.errors,
            "skipped": self.skipped,
            "warnings": self.warnings,
            "suspect": self.suspect,
        }

    def fail(self, path: Path, error: str) -> None:
        self.documents["failed"] += 1
        self.errors.append({"path": selection.shown(path), "error": error})

    def skip(self, path: Path, reason: str) -> None:
        self.skipped.append({"path": selection.shown(path), "reason": reason})

    def by_path(self) -> None:
        """Each list by file name (each file's own in line order): files are read in the
        order they were delivered (jobs.selection), a report is read by name."""
        for entries in (self.errors, self.skipped, self.warnings, self.suspect):
            entries.sort(key=_PATH)


def digest_files(paths: Iterable[Path], report: IngestReport) -> list[Path]:
    """The files to read (see jobs.selection); the others are reported as skipped."""
    chosen = selection.select_files(paths)
    for path, error in chosen.failed:
        report.fail(path, error)
    for path, reason in chosen.skipped:
        report.skip(path, reason)
    return chosen.files


class Progress(Protocol):
    """Told how far an ingest is (the command line draws a bar on a terminal with it)."""

    def started(self, files: int) -> None:
        """The run reads this many files."""

    def file_done(self, papers: int) -> None:
        """One more file is done (stored, unchanged, skipped or failed), with its papers."""


class FileTooLarge(Exception):
    """A file over the size limit; the message is the line for the ingest report."""


class StillBeingWritten(Exception):
    """A file that changed just before or while it was read; the message says which."""


def read_digest(path: Path, max_file_mb: float, settle_seconds: float = 0.0) -> tuple[str, bytes]:
    """The file's absolute path and its bytes. A file over the limit is refused before any
    of it is read, and one that grows past the limit while being read is refused too.

    A file modified less than `settle_seconds` ago, or whose size or modification time
    changes while it is read, is still being written: StillBeingWritten, read it later."""
    limit = int(max_file_mb * MB)
    with path.open("rb") as file:
        before = os.fstat(file.fileno())
        if before.st_size > limit:
            raise FileTooLarge(
                f"file is {_megabytes(before.st_size)} MB; the limit is {max_file_mb:g} MB "
                f"({LIMIT_VARIABLE})"
            )
        age = time.time() - before.st_mtime
        if 0 <= age < settle_seconds:  # a clock set back (age < 0) is no reason to wait
            raise StillBeingWritten(f"modified {age:.1f} s ago")
        data = file.read(limit + 1)
        after = os.fstat(file.fileno())
    if len(data) > limit:
        raise FileTooLarge(
            f"file grew past {max_file_mb:g} MB while being read; the limit is "
            f"{max_file_mb:g} MB ({LIMIT_VARIABLE})"
        )
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise StillBeingWritten("it changed while being read")
    return str(path.resolve()), data


def still_being_written(why: str) -> str:
    """The report line for a file left for the next scan."""
    return f"still being written ({why}); left for the next scan"


def _megabytes(size: int) -> str:
    """Rounded up, so a file over the limit never reads as the limit itself."""
    return f"{math.ceil(size / MB * 100) / 100:,g}"


def paper_input(paper: ParsedPaper) -> loading.PaperInput:
    fields: dict[str, Any] = {name: getattr(paper, name) for name in _COPIED}
    fields["authors"] = list(paper.authors)
    fields["categories"] = list(paper.categories)
    fields["source_updated_at"] = paper.updated_at
    claims = [loading.ClaimInput(c.number, c.text_zh, c.quote_en) for c in paper.claims]
    if paper.kind == KIND_HUGGINGFACE:
        claims += [
            loading.ClaimInput(number, translation, sentence, CLAIM_FROM_ABSTRACT)
            for number, (sentence, translation) in enumerate(
                findings(paper.abstract_en, paper.abstract_zh), 1
            )
        ]
    return loading.PaperInput(
        key=paper.key,
        position=paper.position,
        fields=fields,
        claims=claims,
        aliases=paper.aliases,
        line=paper.line,
    )


async def ingest(
    sessions: Sessions,
    paths: Sequence[Path],
    *,
    force: bool = False,
    trigger: str = "cli",
    triggered_by: str | None = None,
    max_file_mb: float = DEFAULT_MAX_FILE_MB,
    accept_losses: bool = False,
    settle_seconds: float = 0.0,
    progress: Progress | None = None,
    parse_pool: ParsePool[Parsed] | None = None,
) -> IngestReport:
    """Ingest the files and folders. `force` re-parses unchanged files; `accept_losses`
    stores a new version of a file even when it removes papers or claims the previous
    version held (otherwise such a version is refused as suspect); files modified less
    than `settle_seconds` ago are left for the next run. Files are parsed in `parse_pool`'s
    processes when given (`parse_processes`, `spawned_parser`), else in a thread."""
    report = IngestReport(forced=force)
    async with sessions.begin() as session:
        run = await runs.start_run(
            session, trigger=trigger, triggered_by=triggered_by, forced=force
        )
        report.run_id = run.id
    interrupted = True
    try:
        files = await asyncio.to_thread(digest_files, paths, report)
        await _forget_removed_suspects(sessions, paths)
        if progress is not None:
            progress.started(len(files))
        options = _Options(force, accept_losses, max_file_mb, settle_seconds)
        await _ingest_files(sessions, files, options, report, progress, parse_pool)
        report.by_path()
        await _finish_indexes(sessions, stored=any(report.papers.values()))
        interrupted = False
    finally:
        async with sessions.begin() as session:
            await runs.finish_run(
                session,
                report.run_id,
                documents=report.documents,
                papers=report.papers,
                errors=report.errors,
                interrupted=interrupted,
            )
    return report


async def _forget_removed_suspects(sessions: Sessions, paths: Sequence[Path]) -> None:
    """A file of these folders refused as suspect and since removed (the damaged copy
    deleted) is no longer shown as suspect: there is nothing left to accept or refuse."""
    folders = await asyncio.to_thread(lambda: [os.path.realpath(p) for p in paths if p.is_dir()])
    if not folders:
        return
    async with sessions() as session:
        suspect = await loading.suspect_files(session, folders)
    removed = await asyncio.to_thread(lambda: [p for p in suspect if not os.path.lexists(p)])
    if removed:
        async with sessions.begin() as session:
            await loading.forget_suspect(session, removed)
        log.info("suspect files since removed, no longer shown as suspect: %s", removed)


async def _finish_indexes(sessions: Sessions, *, stored: bool) -> None:
    try:
        async with sessions.begin() as session:
            await loading.finish_ingest(session, stored=stored)
    except DBAPIError as error:  # e.g. not the index's owner: autovacuum does it later
        log.warning("search indexes and statistics left for autovacuum: %s", error.orig)


@dataclass(frozen=True)
class _Options:
    force: bool
    accept_losses: bool
    max_file_mb: float
    settle_seconds: float


class _Suspect(Exception):
    """Raised inside a file's transaction to roll back a version that would lose data."""

    def __init__(self, loss: str) -> None:
        super().__init__(loss)
        self.loss = loss


@dataclass(frozen=True)
class ParsedFile:
    format: str
    digest_date: date
    papers: list[loading.PaperInput]
    warnings: tuple[str, ...] = ()  # "line N: …" for each part left out or read leniently


# What parse_file makes of a file's bytes; a string is a parse error.
Parsed = ParsedFile | str | selection.Skipped


@dataclass(frozen=True)
class _Prepared:
    """A file as read, hashed and parsed before it is stored."""

    path: Path  # as given, for the report
    error: str | None = None  # why it cannot be stored at all
    waiting: str | None = None  # why it is left for the next run (still being written)
    stored_path: str = ""
    content_hash: str = ""
    size: int = 0
    parsed: Parsed | None = None  # None: unchanged, left unparsed


def parse_file(data: bytes) -> Parsed:
    """Decode and parse a file's bytes and build its papers, search text included: all the
    CPU work of ingest, done off the event loop. A string is the file's parse error."""
    not_a_digest = selection.not_a_digest(data)
    if not_a_digest is not None and not_a_digest.reason != selection.UNKNOWN_START:
        return not_a_digest
    try:  # a file that starts otherwise is a digest if the parser reads papers from it
        digest = parse_digest(decode_digest(data))
    except DamagedText as error:
        return str(error)  # a digest damaged on its way, its first line too
    except DigestParseError as error:
        return not_a_digest or str(error)
    return ParsedFile(
        digest.format,
        digest.digest_date,
        [paper_input(p) for p in digest.papers],
        tuple(str(warning) for warning in digest.warnings),
    )


async def _ingest_files(
    sessions: Sessions,
    files: Sequence[Path],
    options: _Options,
    report: IngestReport,
    progress: Progress | None,
    parse_pool: ParsePool[Parsed] | None,
) -> None:
    """Store the files one after the other, in their order, each in its own transaction,
    while the next ones are read and parsed: a parse never waits for a write, nor a writer
    for a parse. With parse processes, that many files are parsed at once (both cores busy
    beside the writer); memory holds that many files, plus the one being stored, one
    waiting and those read ahead (_READ_AHEAD + 1), at most."""
    ahead = parse_pool.workers if parse_pool else 1
    ready: asyncio.Queue[asyncio.Task[_Prepared]] = asyncio.Queue(maxsize=ahead)
    stored = await _stored_versions(sessions, files)

    async def produce() -> None:
        # A few files are read and hashed at once (all an unchanged file needs), and their
        # parses start in the order they are stored: the file the writer waits for never
        # waits behind later ones.
        reads: deque[asyncio.Task[tuple[_Prepared, bytes | None]]] = deque()

        async def parse_next() -> None:
            file, data = await reads.popleft()
            await ready.put(asyncio.create_task(_parse(file, data, parse_pool)))

        try:
            for path in files:
                reads.append(asyncio.create_task(_read(stored, path, options)))
                if len(reads) > _READ_AHEAD:
                    await parse_next()
            while reads:
                await parse_next()
        finally:
            for read in reads:
                read.cancel()

    producer = asyncio.create_task(produce())
    try:
        for _ in files:
            file = await (await ready.get())
            await _store(sessions, file, options, report)
            if progress is not None:
                parsed = file.parsed
                progress.file_done(len(parsed.papers) if isinstance(parsed, ParsedFile) else 0)
    finally:
        producer.cancel()
        while not ready.empty():
            ready.get_nowait().cancel()


_READ_AHEAD = 2  # files read and hashed before their turn to be parsed
# Processes parsing digest files beside the one that writes them: one a core it may use
# (the writer mostly waits on the database, whose work runs in its own thread).
PARSE_WORKERS = usable_cpus()


@contextlib.contextmanager
def parse_processes(workers: int) -> Iterator[ParsePool[Parsed]]:
    """`workers` processes forked now, to parse files beside this one, which stores them.
    Call it before anything starts a thread: a fork copies only the thread that forks, and
    a lock another thread held at that moment would stay held in the copy. Forked, they
    start with every module already imported; a fork server or spawned processes would
    import the parser again (about a second of every run, both cores' worth). They run at
    a lower priority: the one writer is what a load waits for (its turn on a core first:
    3-7% faster), and a bot answering on the same machine goes first too."""
    # What is imported by now lives as long as the process: kept out of the collector's
    # sight, the full collections of this process and its forks stop walking it again
    # and again (about a tenth of a parse's CPU). A load makes hundreds of thousands of
    # short-lived objects and few cycles: collecting every 50,000 of them instead of
    # every 700 saves this process and its forks another 3% of their CPU.
    search_text.build_tables()  # once, for every fork
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, 20, 100)
    pool = ParsePool(multiprocessing.get_context("fork"), parse_file, workers)
    try:
        pool.start()
        yield pool
    finally:
        pool.close()
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextlib.contextmanager
def spawned_parser(workers: int = PARSE_WORKERS) -> Iterator[ParsePool[Parsed]]:
    """Processes to parse one ingest's files beside the bot (`serve`), one a core: each
    started when a file needs it (a scan that finds nothing new starts none, one new file
    one) and ended with the ingest. Parsed in a thread, a large file held the interpreter's
    lock against the commands answered meanwhile (27 MB of digests: their p90 from 9 to
    357-608 ms), and the memory its parse took stayed with the bot. A second process loads
    10,000 papers in 9.0 s instead of 11.3, the commands meanwhile at p90 32-34 ms against
    28 (the processes run at a lower priority). Spawned, not forked: the bot runs threads, and
    a fork copies only the one that forks."""
    pool = ParsePool(multiprocessing.get_context("spawn"), parse_file, workers)
    try:
        yield pool
    finally:
        pool.close()


async def _stored_versions(
    sessions: Sessions, files: Sequence[Path]
) -> dict[str, loading.StoredVersion]:
    """What the store holds of these files, read once before any is stored: reading and
    parsing the next files then takes no connection beside the writer's, so one page cache
    fills while the store grows, not one a connection (each writing in turn)."""
    paths = await asyncio.to_thread(lambda: [os.path.realpath(path) for path in files])
    async with sessions() as session:
        return await loading.stored_versions(session, paths)


async def _read(
    stored: Mapping[str, loading.StoredVersion], path: Path, options: _Options
) -> tuple[_Prepared, bytes | None]:
    """The file as read and hashed, and its bytes if they are to be parsed. Whatever goes
    wrong is this file's error: the writer waits for it."""
    try:
        stored_path, data, content_hash = await asyncio.to_thread(_read_and_hash, path, options)
        file = _Prepared(path, stored_path=stored_path, content_hash=content_hash, size=len(data))
        if _outcome(stored.get(stored_path), content_hash) == "unchanged" and not options.force:
            return file, None  # re-ingesting an unchanged file only checks its hash
        return file, data
    except OSError as error:
        return _Prepared(path, error=f"cannot read: {error.strerror or error}"), None
    except FileTooLarge as error:
        return _Prepared(path, error=str(error)), None
    except StillBeingWritten as error:
        return _Prepared(path, waiting=still_being_written(str(error))), None
    except Exception as error:
        log.exception("reading %s failed", path)
        return _Prepared(path, error=internal_error(error)), None


def _read_and_hash(path: Path, options: _Options) -> tuple[str, bytes, str]:
    stored_path, data = read_digest(path, options.max_file_mb, options.settle_seconds)
    return stored_path, data, hashlib.sha256(data).hexdigest()


async def _parse(file: _Prepared, data: bytes | None, pool: ParsePool[Parsed] | None) -> _Prepared:
    if data is None:
        return file
    try:
        if pool is None:
            parsed = await asyncio.to_thread(parse_file, data)
        else:
            parsed = await pool.parse(data)
    except ParserDied as error:
        log.error("ingest of %s failed: %s", file.path, error)
        return _Prepared(file.path, error=str(error))
    except Exception as error:
        log.exception("ingest of %s failed", file.path)
        return _Prepared(file.path, error=internal_error(error))
    return replace(file, parsed=parsed)


def _outcome(document: Document | loading.StoredVersion | None, content_hash: str) -> str:
    if document is None:
        return "new"
    # A new parser re-reads every file once.
    if _holds(document, content_hash) and document.parser_version == PARSER_VERSION:
        return "unchanged"  # a forced re-parse of the same content counts here too
    return "changed"  # new content, or a file that failed last time


def _holds(document: Document | loading.StoredVersion | None, content_hash: str) -> bool:
    """Whether the store holds these very bytes as read. Read again by a newer parser, what
    it no longer finds in them was a misreading (a claim numbered `5)` taken for a new
    paper), not a damaged delivery."""
    return (
        document is not None and document.status == "ok" and document.content_hash == content_hash
    )


async def _store(
    sessions: Sessions,
    file: _Prepared,
    options: _Options,
    report: IngestReport,
) -> None:
    force = options.force
    if file.error is not None:
        report.fail(file.path, file.error)
        return
    if file.waiting is not None:
        report.skip(file.path, file.waiting)
        return
    if file.parsed is None:
        report.documents["unchanged"] += 1
        return
    if isinstance(file.parsed, selection.Skipped):  # what it stored before, if any, stays
        report.skip(file.path, file.parsed.reason)
        return
    try:
        async with db.writing(sessions) as session:
            # Again in the writers' turn: another writer may have stored this file meanwhile.
            document = await loading.find_document(session, file.stored_path)
            outcome = _outcome(document, file.content_hash)
            if outcome == "unchanged" and not force:
                report.documents[outcome] += 1
                return
            if isinstance(file.parsed, str):
                await _record_refused(session, file, "failed", file.parsed)
                report.fail(file.path, file.parsed)
                return
            reread = _holds(document, file.content_hash)
            saved = await loading.save_document(
                session,
                path=file.stored_path,
                content_hash=file.content_hash,
                size=file.size,
                format=file.parsed.format,
                digest_date=file.parsed.digest_date,
                parser_version=PARSER_VERSION,
                papers=file.parsed.papers,
                warnings=file.parsed.warnings,
                reread=reread,
            )
            if saved.loses and not (options.accept_losses or reread):
                raise _Suspect(saved.loss())  # rolls back: the earlier version stays whole
    except _Suspect as suspect:
        await _refuse_as_suspect(sessions, file, suspect.loss, report)
        return
    except Exception as error:  # the file's transaction was rolled back: nothing of it stays
        log.exception("ingest of %s failed", file.path)
        report.fail(file.path, internal_error(error))
        return
    report.documents[outcome] += 1
    report.warnings += [{"path": str(file.path), "warning": w} for w in saved.warnings]
    report.papers["new"] += saved.papers_new
    report.papers["updated"] += saved.papers_updated


async def _refuse_as_suspect(
    sessions: Sessions,
    file: _Prepared,
    loss: str,
    report: IngestReport,
) -> None:
    """Record the refused version (status "suspect", what it would lose) and report it."""
    async with db.writing(sessions) as session:
        await _record_refused(session, file, "suspect", loss)
    report.suspect.append({"path": str(file.path), "would_lose": loss})
    report.fail(
        file.path,
        f"suspect: this version would remove {loss} that the stored one holds; kept the stored "
        f"version (a damaged or partial re-delivery?). To accept it: paperbot ingest --force "
        f"{file.path}",
    )


async def _record_refused(
    session: AsyncSession, file: _Prepared, status: Literal["failed", "suspect"], reason: str
) -> None:
    await loading.record_refused_document(
        session,
        path=file.stored_path,
        content_hash=file.content_hash,
        size=file.size,
        parser_version=PARSER_VERSION,
        status=status,
        reason=reason,
    )


def internal_error(error: BaseException) -> str:
    """The report line for an unexpected failure: one line, whatever the message holds."""
    return " ".join(f"internal error: {type(error).__name__}: {error}".split())


@dataclass(frozen=True)
class RunningIngest:
    trigger: str
    triggered_by: str | None
    started_at: datetime


class IngestGuard:
    """One ingest at a time in a process: `/reingest`, the periodic scan and the admin
    commands share it, and a second request is told who started the running one."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self.running: RunningIngest | None = None

    @contextlib.asynccontextmanager
    async def hold(self, trigger: str, triggered_by: str | None) -> AsyncIterator[bool]:
        """Yields True with the guard held, or False at once when an ingest is running."""
        if self._lock.locked():
            yield False
            return
        async with self._lock:
            self.running = RunningIngest(trigger, triggered_by, datetime.now(UTC))
            try:
                yield True
            finally:
                self.running = None
