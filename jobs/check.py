"""`paperbot ingest --check`: parse files and report their problems, writing nothing.

The same selection, reading and parsing as an ingest, without a database: what an ingest
would refuse (errors) and what it would load only in part (warnings), each on its line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

from jobs import selection
from jobs.ingest import (
    FileTooLarge,
    ParsedFile,
    StillBeingWritten,
    parse_file,
    read_digest,
    still_being_written,
)


@dataclass
class CheckReport:
    files: int = 0
    papers: int = 0
    problems: list[dict[str, str]] = field(default_factory=list)  # errors and warnings
    skipped: list[dict[str, str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "papers": self.papers,
            "problems": self.problems,
            "skipped": self.skipped,
        }


def check(paths: Sequence[Path], max_file_mb: float) -> CheckReport:
    """Blocking (files are read and parsed here): call it in a thread from async code."""
    report = CheckReport()
    chosen = selection.select_files(paths)
    report.problems += [{"path": selection.shown(p), "problem": why} for p, why in chosen.failed]
    report.skipped += [
        {"path": selection.shown(p), "reason": reason} for p, reason in chosen.skipped
    ]
    for path in chosen.files:
        try:
            _, data = read_digest(path, max_file_mb)
        except OSError as error:
            report.problems.append(
                {"path": str(path), "problem": f"cannot read: {error.strerror or error}"}
            )
            continue
        except FileTooLarge as error:
            report.problems.append({"path": str(path), "problem": str(error)})
            continue
        except StillBeingWritten as error:
            report.skipped.append({"path": str(path), "reason": still_being_written(str(error))})
            continue
        parsed = parse_file(data)
        if isinstance(parsed, selection.Skipped):
            report.skipped.append({"path": str(path), "reason": parsed.reason})
        elif isinstance(parsed, ParsedFile):
            report.papers += len(parsed.papers)
            report.problems += [
                {"path": str(path), "problem": f"warning: {warning}"} for warning in parsed.warnings
            ]
        else:
            report.problems.append({"path": str(path), "problem": parsed})
    # Checked: the files read as digests or failing as such, not those found to be none.
    report.files = len(chosen.files) - (len(report.skipped) - len(chosen.skipped))
    for entries in (report.problems, report.skipped):  # read in delivery order, listed by name
        entries.sort(key=itemgetter("path"))
    return report
