"""The `/reingest` report: files that are no digests and parts left out are named, and
neither reads as a failure."""

from __future__ import annotations

from pathlib import Path

from bot.blocks import ingest_done
from bot.text_view import as_text
from jobs import selection
from jobs.ingest import IngestReport


def test_skipped_files_and_warnings_are_reported_without_failing() -> None:
    report = IngestReport(run_id=7)
    report.documents["new"] = 3
    report.skip(Path("digests/README.md"), selection.NOT_A_DIGEST_NAME)
    report.skip(Path("digests/logo.png"), selection.BINARY)
    report.warnings.append({"path": "digests/day.txt", "warning": "line 35: claim 5 …"})

    text = as_text(ingest_done(report).as_payload())

    assert "files 3 new, 0 changed, 0 unchanged, 0 failed;" in text
    assert "1 file loaded with parts left out, first `digests/day.txt`: line 35: claim 5 …" in text
    assert (
        "Skipped: `digests/README.md`: not a digest (README, .md and .json files "
        "are never read) (and 1 more)." in text
    )


def test_a_suspect_file_is_named_with_what_it_would_remove() -> None:
    report = IngestReport(run_id=8)
    report.documents["unchanged"] = 2
    report.suspect.append({"path": "digests/day.txt", "would_lose": "6 claims (AV-GRPO#2, …)"})
    report.fail(
        Path("digests/day.txt"),
        "suspect: this version would remove 6 claims (AV-GRPO#2, …) that the stored one "
        "holds; kept the stored version (a damaged or partial re-delivery?). To accept it: "
        "paperbot ingest --force digests/day.txt",
    )

    text = as_text(ingest_done(report).as_payload())

    assert "files 0 new, 0 changed, 2 unchanged, 1 failed;" in text
    assert "`digests/day.txt`: suspect: this version would remove 6 claims (AV-GRPO#2, …)" in text
    assert "paperbot ingest --force digests/day.txt" in text
