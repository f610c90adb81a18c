"""The ingest job: digest files on disk -> parsed papers -> the store.

One transaction per file, so a bad or crashing file never touches what the others (or an
earlier ingest of the same file) stored. Files whose content hash is unchanged are skipped
unless forced. `paperbot ingest`, `/reingest` and the periodic scan all call `ingest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from jobs.findings import result_sentences
from jobs.parser import (
    KIND_HUGGINGFACE,
    PARSER_VERSION,
    DigestParseError,
    ParsedPaper,
    decode_digest,
    parse_digest,
)
from storage import db, loading, runs
from storage.models import CLAIM_FROM_ABSTRACT

log = logging.getLogger(__name__)

# Copied as they are from a parsed paper onto the paper's row.
_COPIED = (
    "kind", "arxiv_id", "title", "name", "subtitle", "pdf_url", "arxiv_url", "coolpaper_url",
    "published_at", "abstract_en", "abstract_zh", "llm_analysis", "positioning", "background",
    "mechanism", "experiments", "novelty", "soundness", "significance", "limitations",
    "follow_ups",
)  # fmt: skip


@dataclass
class IngestReport:
    run_id: int = 0
    documents: dict[str, int] = field(
        default_factory=lambda: {"new": 0, "changed": 0, "unchanged": 0, "failed": 0}
    )
    papers: dict[str, int] = field(default_factory=lambda: {"new": 0, "updated": 0})
    errors: list[dict[str, str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The `paperbot ingest --json` object of the interface contract."""
        return {"documents": self.documents, "papers": self.papers, "errors": self.errors}

    def fail(self, path: Path, error: str) -> None:
        self.documents["failed"] += 1
        self.errors.append({"path": str(path), "error": error})


def digest_files(paths: Iterable[Path], report: IngestReport) -> list[Path]:
    """The files to read: each file given, and every visible file under each folder given."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file()
                    and not any(part.startswith(".") for part in p.relative_to(path).parts)
                )
            )
        elif path.is_file():
            files.append(path)
        else:
            report.fail(path, "no such file or folder")
    return files


def paper_input(paper: ParsedPaper) -> loading.PaperInput:
    fields: dict[str, Any] = {name: getattr(paper, name) for name in _COPIED}
    fields["authors"] = list(paper.authors)
    fields["categories"] = list(paper.categories)
    fields["source_updated_at"] = paper.updated_at
    claims = [loading.ClaimInput(c.number, c.text_zh, c.quote_en) for c in paper.claims]
    if paper.kind == KIND_HUGGINGFACE:
        claims += [
            loading.ClaimInput(number, "", sentence, CLAIM_FROM_ABSTRACT)
            for number, sentence in enumerate(result_sentences(paper.abstract_en), 1)
        ]
    return loading.PaperInput(key=paper.key, position=paper.position, fields=fields, claims=claims)


async def ingest(
    sessions: async_sessionmaker[AsyncSession],
    paths: Sequence[Path],
    *,
    force: bool = False,
    trigger: str = "cli",
    triggered_by: str | None = None,
) -> IngestReport:
    report = IngestReport()
    async with sessions.begin() as session:
        run = await runs.start_run(
            session, trigger=trigger, triggered_by=triggered_by, forced=force
        )
        report.run_id = run.id
    interrupted = True
    try:
        for path in await asyncio.to_thread(digest_files, paths, report):
            await _ingest_file(sessions, path, force, report)
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


async def _ingest_file(
    sessions: async_sessionmaker[AsyncSession], path: Path, force: bool, report: IngestReport
) -> None:
    try:
        # Off the event loop: a running bot keeps answering Slack while files are read.
        data = await asyncio.to_thread(path.read_bytes)
    except OSError as error:
        report.fail(path, f"cannot read: {error.strerror or error}")
        return
    content_hash = hashlib.sha256(data).hexdigest()
    stored_path = str(await asyncio.to_thread(path.resolve))
    try:
        async with db.writing(sessions) as session:
            document = await loading.find_document(session, stored_path)
            if document is None:
                outcome = "new"
            elif document.status == "ok" and document.content_hash == content_hash:
                outcome = "unchanged"  # a forced re-parse of the same content counts here too
                if not force:
                    report.documents[outcome] += 1
                    return
            else:
                outcome = "changed"  # new content, or a file that failed last time
            try:
                digest = parse_digest(decode_digest(data))
            except DigestParseError as error:
                await loading.record_failed_document(
                    session, path=stored_path, content_hash=content_hash, size=len(data),
                    parser_version=PARSER_VERSION, error=str(error),
                )  # fmt: skip
                report.fail(path, str(error))
                return
            saved = await loading.save_document(
                session,
                path=stored_path,
                content_hash=content_hash,
                size=len(data),
                format=digest.format,
                digest_date=digest.digest_date,
                parser_version=PARSER_VERSION,
                papers=[paper_input(paper) for paper in digest.papers],
            )
    except Exception as error:  # the file's transaction was rolled back: nothing of it stays
        log.exception("ingest of %s failed", path)
        report.fail(path, f"internal error: {type(error).__name__}: {error}")
        return
    report.documents[outcome] += 1
    report.papers["new"] += saved.papers_new
    report.papers["updated"] += saved.papers_updated


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
