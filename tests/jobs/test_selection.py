"""Only digests are digests: anything else in the folder is skipped with its reason, and
bad digests fail with one line each, losing nothing stored before."""

from __future__ import annotations

import codecs
import os
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select

from jobs import selection
from jobs.check import check
from jobs.ingest import ParsedFile, ingest, parse_file
from storage.db import Sessions
from storage.models import Claim, IngestRun, Paper
from storage.status import store_status
from tests.digests import SEEDS, write

DEEP_READS = "004_ee791cd1952f5dee.txt"
QUOTE_OF_CLAIM_5 = (SEEDS / DEEP_READS).read_text(encoding="utf-8").split("\n")[36]


async def counts(sessions: Sessions) -> tuple[int, int]:
    async with sessions() as session:
        papers = (await session.execute(select(func.count()).select_from(Paper))).scalar_one()
        claims = await session.execute(
            select(func.count()).select_from(Claim).where(Claim.source == "review")
        )
        return papers, claims.scalar_one()


async def last_run_status(sessions: Sessions) -> str:
    async with sessions() as session:
        runs = await session.execute(select(IngestRun.status).order_by(IngestRun.id.desc()))
        return runs.scalars().first() or ""


async def test_what_is_no_digest_is_skipped_and_the_run_stays_ok(
    sessions: Sessions, seeds: Path, tmp_path: Path
) -> None:
    write(seeds / "README.md", "# Digests\n\nDrop the daily files here.\n")
    write(seeds / "README", "2026-09-09 is when this folder started.\n")
    write(seeds / "export.json", '{"papers": []}\n')
    write(seeds / "notes.txt", "Notes of the reading group.\n")
    write(seeds / "dated.txt", "Reading group, 2026-09-28\n\nWe read three papers.\n")
    # A log's records and a table's rows start with a date, but none is a date line.
    write(seeds / "delivery.log", "2026-09-28 10:00:01 INFO delivery started\n" * 2)
    write(seeds / "export.csv", "2026-09-28,AV-GRPO,7\n2026-09-29,GAPO,10\n")
    write(seeds / "events.tsv", "2026-09-28\tingested\t8\n")
    write(seeds / "empty.txt", "")
    (seeds / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    # A link out of the folder is never read, even to a sound digest; one inside is.
    outside = shutil.copy(SEEDS / DEEP_READS, tmp_path / "elsewhere.txt")
    (seeds / "secrets.txt").symlink_to(outside)
    (seeds / "environ.txt").symlink_to("/proc/self/environ")
    (seeds / "today.txt").symlink_to(seeds / DEEP_READS)
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(SEEDS / DEEP_READS, tmp_path / "elsewhere" / "2026-09-09.txt")
    (seeds / "archive").symlink_to(tmp_path / "elsewhere")  # a folder outside: not walked

    report = await ingest(sessions, [seeds])

    assert report.errors == []
    # The link inside the folder is the file it names: read once, stored by its real path.
    assert report.documents == {"new": 3, "changed": 0, "unchanged": 0, "failed": 0}
    assert {(Path(s["path"]).name, s["reason"]) for s in report.skipped} == {
        ("README.md", selection.NOT_A_DIGEST_NAME),
        ("README", selection.NOT_A_DIGEST_NAME),
        ("export.json", selection.NOT_A_DIGEST_NAME),
        ("notes.txt", selection.UNKNOWN_START),
        ("dated.txt", selection.UNKNOWN_START),  # a dated title over no digest
        ("delivery.log", selection.UNKNOWN_START),
        ("export.csv", selection.UNKNOWN_START),
        ("events.tsv", selection.UNKNOWN_START),
        ("empty.txt", selection.EMPTY),
        ("logo.png", selection.BINARY),
        ("secrets.txt", selection.OUTSIDE_THE_FOLDER),
        ("environ.txt", selection.OUTSIDE_THE_FOLDER),
        ("today.txt", selection.SAME_FILE),
        ("archive", selection.FOLDER_OUTSIDE),
    }
    assert await last_run_status(sessions) == "ok"  # what /reingest and the scan report
    assert await counts(sessions) == (36, 133)
    again = await ingest(sessions, [seeds])
    assert again.errors == [] and len(again.skipped) == 14
    assert await last_run_status(sessions) == "ok"


async def test_a_file_whose_name_is_not_utf8_fails_alone_with_the_reason(
    sessions: Sessions, seeds: Path
) -> None:
    """A name in another encoding (GBK, as unzipping an archive made on a Chinese Windows
    machine leaves it) cannot be stored or reported as written: that file fails, with the
    reason and its name shown as far as it reads, and every other file loads; `--check`
    says the same."""
    name = "论文精读-2026-10-06.txt".encode("gbk")
    misnamed = Path(os.fsdecode(os.fsencode(seeds) + b"/" + name))
    shutil.copy(SEEDS / DEEP_READS, misnamed)
    shown = os.fsencode(misnamed).decode("utf-8", errors="replace")

    report = await ingest(sessions, [seeds])

    assert report.errors == [{"path": shown, "error": selection.NAME_NOT_UTF8}]
    assert report.documents == {"new": 3, "changed": 0, "unchanged": 0, "failed": 1}
    assert await counts(sessions) == (36, 133)
    assert await last_run_status(sessions) == "partial"
    checked = check([seeds], max_file_mb=20)
    assert checked.problems == [{"path": shown, "problem": selection.NAME_NOT_UTF8}]


async def test_a_digest_whose_first_line_is_a_dated_title_is_read_not_skipped(
    sessions: Sessions, seeds: Path
) -> None:
    path = seeds / DEEP_READS
    date_line, rest = path.read_text(encoding="utf-8").split("\n", 1)
    write(path, f"论文精读 {date_line}\n{rest}")

    report = await ingest(sessions, [seeds])

    assert (report.errors, report.skipped) == ([], [])
    assert await counts(sessions) == (36, 133)
    assert {"path": str(path), "warning": (
        f"line 1: the first line should be the date as YYYY-MM-DD, found '论文精读 {date_line}'; "
        f"read as {date_line}"
    )} in report.warnings  # fmt: skip


@pytest.mark.parametrize(
    ("first", "error", "warning"),
    [
        ("2026-13-45", "line 1: '2026-13-45' is not a valid date", None),
        ("2026/9", "line 1: '2026/9' is not a date in YYYY-MM-DD form", None),
        (
            "04/10/2026",
            "line 1: '04/10/2026' is a date of either day 4 or day 10: write it as YYYY-MM-DD",
            None,
        ),
        (
            "2026-09-09 12:00:01 extra words",
            None,
            "line 1: the first line should be the date as YYYY-MM-DD, found "
            "'2026-09-09 12:00:01 extra words'; read as 2026-09-09",
        ),
    ],
    ids=["no such date", "not YYYY-MM-DD", "day or month", "a date and more"],
)
async def test_a_digest_whose_date_line_is_broken_still_fails_or_warns_on_it(
    sessions: Sessions, seeds: Path, first: str, error: str | None, warning: str | None
) -> None:
    """Over its papers, a date line that is no date fails the file, and one with more
    after it is read with a warning: neither is skipped as no digest."""
    path = seeds / DEEP_READS
    rest = path.read_text(encoding="utf-8").split("\n", 1)[1]
    path.write_text(f"{first}\n{rest}", encoding="utf-8")

    report = await ingest(sessions, [seeds])

    assert report.skipped == []
    assert report.errors == ([{"path": str(path), "error": error}] if error else [])
    assert report.warnings == ([{"path": str(path), "warning": warning}] if warning else [])


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (
            "2026-09-09\n\n本文提出 X。\n".encode("gbk"),
            "line 3: file is not valid UTF-8 (byte 0xb1 at offset 12); "
            "it reads as GBK: save it as UTF-8",
        ),
        (b"2026-02-30\n\nx\n", "line 1: '2026-02-30' is not a valid date"),
        (b"2026/9\n\nx\n", "line 1: '2026/9' is not a date in YYYY-MM-DD form"),
    ],
    ids=["GBK", "no such date", "not YYYY-MM-DD"],
)
async def test_a_bad_digest_fails_with_one_line_and_loses_nothing(
    sessions: Sessions, seeds: Path, content: bytes, error: str
) -> None:
    await ingest(sessions, [seeds])
    (seeds / DEEP_READS).write_bytes(content)

    report = await ingest(sessions, [seeds])

    assert report.errors == [{"path": str(seeds / DEEP_READS), "error": error}]
    assert "\n" not in error
    assert await counts(sessions) == (36, 133)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", selection.EMPTY),
        (b"\x00" * 8192, selection.EMPTY),  # preallocated, never written
        (b"\x00\x01PK\x03\x04" * 100, selection.BINARY),
        ((SEEDS / DEEP_READS).read_text(encoding="utf-8").encode("utf-16-le"), selection.BINARY),
        ((SEEDS / DEEP_READS).read_text(encoding="utf-8").encode("utf-32"), selection.BINARY),
    ],
    ids=["empty", "only NULs", "binary", "UTF-16 without its mark", "UTF-32"],
)
async def test_an_emptied_or_binary_file_is_skipped_and_keeps_its_papers(
    sessions: Sessions, seeds: Path, content: bytes, reason: str
) -> None:
    await ingest(sessions, [seeds])
    (seeds / DEEP_READS).write_bytes(content)

    report = await ingest(sessions, [seeds])

    assert report.errors == []
    assert report.skipped == [{"path": str(seeds / DEEP_READS), "reason": reason}]
    assert await counts(sessions) == (36, 133)


@pytest.mark.parametrize(
    ("old", "new", "warning", "claims"),
    [
        (
            "5. 阈值敏感性",
            "5、阈值敏感性",
            "line 35: claim 5 should start '5. ', found '5、'; read as claim 5",
            133,
        ),
        (
            "\n   Aggressive / Fast |",
            "\nAggressive / Fast |",
            "line 37: the quote of claim 5 should be indented by 3+ spaces; read as its quote",
            133,
        ),
        (
            QUOTE_OF_CLAIM_5 + "\n\n",
            "",
            "line 35: claim 5 has no English quote: expected an indented paragraph (3+ spaces) "
            "after it; the claim is left out",
            132,
        ),
        (
            "Novelty：新颖性中等偏低",
            "新颖性：新颖性中等偏低",
            "line 67: the review should start with 'Novelty：', found '新颖性：'; "
            "read as the review",
            133,
        ),
    ],
    ids=["5、", "quote not indented", "no quote", "新颖性："],
)
async def test_one_bad_claim_loads_the_rest_with_a_warning_on_its_line(
    sessions: Sessions,
    seeds: Path,
    old: str,
    new: str,
    warning: str,
    claims: int,
) -> None:
    path = seeds / DEEP_READS
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")

    report = await ingest(sessions, [seeds])

    assert report.errors == []
    assert report.warnings == [{"path": str(path), "warning": warning}]
    assert await counts(sessions) == (36, claims)  # all eight papers of the file loaded
    async with sessions() as session:
        shown = await store_status(session)
    assert shown.warnings == [{"path": str(path.resolve()), "warning": warning}]
    fixed = path.write_text(text, encoding="utf-8")
    assert fixed and (await ingest(sessions, [seeds])).warnings == []
    async with sessions() as session:
        assert (await store_status(session)).warnings == []
    assert await counts(sessions) == (36, 133)


@pytest.mark.parametrize(
    "space",
    ["\u3000", "\u00a0", " \t", "\u200b", "\u2060\u200e"],
    ids=["ideographic", "no-break", "ascii", "zero-width", "word-joiner-and-mark"],
)
def test_spaces_of_any_kind_before_the_date_line_are_read_past(space: str) -> None:
    text = (SEEDS / DEEP_READS).read_text(encoding="utf-8")

    spaced = parse_file((space + text).encode("utf-8"))

    assert isinstance(spaced, ParsedFile)
    assert spaced == parse_file(text.encode("utf-8"))


@pytest.mark.parametrize(
    ("first", "seed"),
    [
        ("# 2026-09-09", DEEP_READS),
        ("**2026-09-09**", DEEP_READS),
        ("2026年9月9日", DEEP_READS),
        ("20260909", DEEP_READS),  # `date +%Y%m%d`
        ("09/09/2026", DEEP_READS),
        ("2026_09_09", DEEP_READS),
        ("## HuggingFace Daily Papers 2026-10-04", "002_0d972703bbe36bb2.txt"),
        ("# 今日精读\n\n2026-09-09", DEEP_READS),
        ("```\nHuggingFace Papers 2026-10-04", "002_0d972703bbe36bb2.txt"),
    ],
)
def test_a_first_line_dressed_otherwise_is_read_not_skipped(first: str, seed: str) -> None:
    text = (SEEDS / seed).read_text(encoding="utf-8")

    parsed = parse_file(f"{first}\n{text.split(chr(10), 1)[1]}".encode())
    original = parse_file(text.encode())

    assert isinstance(parsed, ParsedFile) and isinstance(original, ParsedFile)
    assert parsed.papers == original.papers
    assert parsed.warnings[0].startswith("line 1: ")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
async def test_a_digest_saved_as_utf_16_with_its_mark_loads_as_utf_8_does(
    sessions: Sessions, seeds: Path, encoding: str
) -> None:
    """Windows tools (PowerShell's `Out-File`, Notepad's "Unicode") write UTF-16 after a
    byte order mark."""
    path = seeds / DEEP_READS
    text = path.read_text(encoding="utf-8")
    mark = codecs.BOM_UTF16_BE if encoding == "utf-16-be" else b""  # "utf-16" writes its own
    path.write_bytes(mark + text.encode(encoding))

    assert parse_file(path.read_bytes()) == parse_file(text.encode("utf-8"))
    report = await ingest(sessions, [seeds])
    assert report.errors == [] and report.skipped == [] and report.warnings == []
    assert await counts(sessions) == (36, 133)


async def test_nul_bytes_in_a_digest_are_left_out_and_every_paper_loads(
    sessions: Sessions, seeds: Path
) -> None:
    """A stray NUL (a broken transfer) and the NUL padding a crash or a preallocating copier
    leaves at the end: each is a warning on its line, and the rest of the file loads."""
    stray, padded = seeds / "000_e3eab0f621521816.txt", seeds / DEEP_READS
    stray.write_bytes(stray.read_bytes().replace(b"All LoRA and", b"All LoRA\x00 and", 1))
    padded.write_bytes(padded.read_bytes() + b"\x00" * 4096)

    report = await ingest(sessions, [seeds])

    assert (report.errors, report.skipped) == ([], [])
    assert report.warnings == [
        {
            "path": str(stray),
            "warning": "line 17: NUL bytes in this line (left by a damaged copy or transfer): "
            "read without them",
        },
        {
            "path": str(padded),
            "warning": "line 315: the file ends in 4,096 NUL bytes from here (the padding a "
            "crash or a preallocating copy leaves): left out",
        },
    ]
    assert await counts(sessions) == (36, 133)
    assert await last_run_status(sessions) == "ok"


@pytest.mark.parametrize(
    "name",
    [
        "{}~",
        "#{}#",
        "{}.bak",
        "{}.backup",
        "{}.old",
        "{}.orig",
        "{}.save",
        ".{}.swp",
        "{}.swp",
        "{}.tmp",
        "{}.part",
        "{}.crdownload",
    ],
)
async def test_an_editors_backup_or_a_partial_download_is_skipped(
    sessions: Sessions, seeds: Path, name: str
) -> None:
    """The copy an editor or a download leaves beside a digest (the version before an edit,
    a file still arriving) is never read: it would undo the edit, or store half a file."""
    path = seeds / DEEP_READS
    before = path.read_text(encoding="utf-8")
    edited = before.replace(QUOTE_OF_CLAIM_5, QUOTE_OF_CLAIM_5 + " (edited)")
    write(path, edited)
    write(seeds / name.format(DEEP_READS), before)

    report = await ingest(sessions, [seeds])

    assert report.errors == [] and report.documents["new"] == 3
    if not name.startswith("."):  # hidden files are not even listed
        assert [(Path(s["path"]).name, s["reason"]) for s in report.skipped] == [
            (name.format(DEEP_READS), selection.BACKUP_NAME)
        ]
    async with sessions() as session:
        quotes = await session.execute(
            select(Claim.quote_en).where(Claim.quote_en.endswith("(edited)"))
        )
    assert len(quotes.all()) == 1


def test_files_are_read_in_the_order_they_were_delivered(tmp_path: Path) -> None:
    """By modification time, then name, whether a folder or the files are given: the file
    delivered last is stored last (and so wins a paper two files of one date hold)."""
    folder = tmp_path / "digests"
    for name, delivered in (("b.txt", 1), ("a-fixed.txt", 3), ("a.txt", 2), ("c.txt", 2)):
        write(folder / name, "2026-09-28\n")
        os.utime(folder / name, ns=(delivered * 10**18, delivered * 10**18))
    wanted = [folder / name for name in ("b.txt", "a.txt", "c.txt", "a-fixed.txt")]

    assert selection.select_files([folder]).files == wanted
    assert selection.select_files(sorted(folder.iterdir())).files == wanted


def test_of_files_delivered_at_the_same_instant_a_corrected_copy_comes_last(
    tmp_path: Path,
) -> None:
    """One command copying an original and its correction gives both one modification
    time: the name without its extension decides, so `-fixed` is stored after (and wins
    over) the file it corrects, though `-` sorts before `.` in the whole names."""
    folder = tmp_path / "digests"
    for name in ("2026-09-28-fixed.txt", "2026-09-28.txt", "2026-09-28-v2.txt"):
        write(folder / name, "2026-09-28\n")
        os.utime(folder / name, ns=(10**18, 10**18))

    names = [path.name for path in selection.select_files([folder]).files]

    assert names == ["2026-09-28.txt", "2026-09-28-fixed.txt", "2026-09-28-v2.txt"]


def test_a_link_to_a_file_of_the_folder_is_read_once_as_that_file(tmp_path: Path) -> None:
    """`latest.txt -> 2026-09-28.txt`: one delivery, not two (a refused one would be
    reported twice)."""
    digest = tmp_path / "2026-09-28.txt"
    digest.write_text("2026-09-28\n", encoding="utf-8")
    (tmp_path / "latest.txt").symlink_to(digest.name)

    for given in ([tmp_path], [tmp_path / "latest.txt", digest]):
        chosen = selection.select_files(given)
        assert chosen.files == [digest]
        assert chosen.skipped == [(tmp_path / "latest.txt", selection.SAME_FILE)]
