"""`paperbot ingest` keeps its contract: the JSON summary and the exit statuses."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from jobs.ingest import PARSE_WORKERS
from tests.cli.helpers import PAPERBOT, STDERR, FakeSlackThread, outside_environment, paperbot
from tests.digests import SEEDS, Entry, huggingface_digest, write


def test_ingest_the_seeds_then_again_then_forced(database_url: URL, tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    env = {"PAPERBOT_DATABASE_URL": database_url.render_as_string(hide_password=False)}

    first = paperbot("ingest", "--json", cwd=tmp_path, env=env)
    second = paperbot("ingest", "--json", cwd=tmp_path, env=env)
    forced = paperbot("ingest", "--force", "--json", cwd=tmp_path, env=env)
    status = paperbot("status", "--json", cwd=tmp_path, env=env)

    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {
        "documents": {"new": 3, "changed": 0, "unchanged": 0, "failed": 0},
        "papers": {"new": 36, "updated": 0},
        "errors": [],
        "skipped": [],
        "warnings": [],
        "suspect": [],
    }
    unchanged = {
        "documents": {"new": 0, "changed": 0, "unchanged": 3, "failed": 0},
        "papers": {"new": 0, "updated": 0},
        "errors": [],
        "skipped": [],
        "warnings": [],
        "suspect": [],
    }
    assert (second.returncode, json.loads(second.stdout)) == (0, unchanged)
    assert (forced.returncode, json.loads(forced.stdout)) == (0, unchanged)
    counts = json.loads(status.stdout)
    assert (counts["documents"], counts["papers"], counts["claims"]) == (3, 36, 133)
    assert counts["last_ingest"]["forced"] is True


def test_ingest_run_from_a_folder_with_modules_of_the_same_names_parses_every_file(
    tmp_path: Path,
) -> None:
    # The parse processes were once started by a fork server, which put the working
    # directory first on its module path: every file failed here.
    for package in ("bot", "jobs", "storage"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("raise RuntimeError('not paperbot')\n")
    entries = [Entry(f"2610.{90000 + i}", f"Paper {i}", abstract="We study it.") for i in range(5)]
    for i, entry in enumerate(entries):
        write(tmp_path / "seeds" / f"hf_{i}.txt", huggingface_digest(f"2026-10-0{i + 1}", [entry]))

    result = paperbot("ingest", "seeds", "--json", cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["documents"] == {"new": 5, "changed": 0, "unchanged": 0, "failed": 0}
    assert summary["papers"] == {"new": 5, "updated": 0}


def test_a_failed_file_exits_1_and_names_the_file_on_stderr(tmp_path: Path) -> None:
    write(tmp_path / "digests" / "good.txt", (SEEDS / "004_ee791cd1952f5dee.txt").read_text())
    (tmp_path / "digests" / "gbk.txt").write_bytes("2026-09-09\n\n本文提出 X。\n".encode("gbk"))

    result = paperbot("ingest", "digests", "--json", cwd=tmp_path)

    assert result.returncode == 1
    summary = json.loads(result.stdout)
    assert summary["documents"] == {"new": 1, "changed": 0, "unchanged": 0, "failed": 1}
    error = (
        "line 3: file is not valid UTF-8 (byte 0xb1 at offset 12); "
        "it reads as GBK: save it as UTF-8"
    )
    assert summary["errors"] == [{"path": "digests/gbk.txt", "error": error}]
    assert result.stderr.strip() == f"paperbot: digests/gbk.txt: {error}"


def test_files_that_are_no_digests_are_skipped_and_keep_the_exit_status_0(
    tmp_path: Path,
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    write(tmp_path / "digests" / "README.md", "# Digests\n\nDrop files here.\n")
    (tmp_path / "digests" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(tmp_path / "digests" / "delivery.log", "2026-09-28 12:00:01 INFO delivery started\n")
    write(tmp_path / "digests" / "export.csv", "2026-09-28,AV-GRPO,7\n2026-09-29,GAPO,10\n")
    unknown_start = (
        "not a digest: the first line is neither a date (YYYY-MM-DD) "
        "nor 'HuggingFace Papers YYYY-MM-DD'"
    )

    result = paperbot("ingest", "digests", cwd=tmp_path)
    again = paperbot("ingest", "digests", "--no-embed", cwd=tmp_path)

    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "documents: 3 new, 0 changed, 0 unchanged, 0 failed; papers: 36 new, 0 updated",
        "skipped digests/README.md: not a digest (README, .md and .json files are never read)",
        f"skipped digests/delivery.log: {unknown_start}",
        f"skipped digests/export.csv: {unknown_start}",
        "skipped digests/logo.png: binary file, not a digest",
        "vectors: 220 embedded, 0 waiting (hash-bag-of-words (3))",
    ]
    assert (again.returncode, again.stderr) == (0, "")  # and so on every scan


def test_a_digest_with_nul_bytes_loads_with_its_warnings_and_exit_status_0(
    tmp_path: Path,
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    padded = tmp_path / "digests" / "004_ee791cd1952f5dee.txt"
    padded.write_bytes(padded.read_bytes().replace(b"ENEAS", b"ENE\x00AS", 1) + b"\x00" * 4096)

    result = paperbot("ingest", "digests", "--no-embed", cwd=tmp_path)

    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == (
        "documents: 3 new, 0 changed, 0 unchanged, 0 failed; papers: 36 new, 0 updated"
    )
    assert result.stderr.splitlines() == [
        "paperbot: digests/004_ee791cd1952f5dee.txt: warning: line 11: NUL bytes in this line "
        "(left by a damaged copy or transfer): read without them",
        "paperbot: digests/004_ee791cd1952f5dee.txt: warning: line 315: the file ends in "
        "4,096 NUL bytes from here (the padding a crash or a preallocating copy leaves): "
        "left out",
    ]


def test_text_output_counts_documents_and_papers(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    result = paperbot("ingest", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip().splitlines() == [
        "documents: 3 new, 0 changed, 0 unchanged, 0 failed; papers: 36 new, 0 updated",
        "vectors: 220 embedded, 0 waiting (hash-bag-of-words (3))",
    ]
    forced = paperbot("ingest", "--force", cwd=tmp_path)  # says the files were read again
    assert forced.stdout.splitlines()[0] == (
        "documents: 0 new, 0 changed, 3 unchanged, parsed again, 0 failed; papers: 0 new, 0 updated"
    )


def test_digest_preview_then_post_then_nothing_new(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    preview = paperbot("digest", "--preview", cwd=tmp_path)
    assert preview.returncode == 0
    assert "36 new papers since the last summary" in preview.stdout

    no_channel = paperbot("digest", "--post", cwd=tmp_path)
    assert no_channel.returncode == 2
    assert "PAPERBOT_DIGEST_CHANNEL" in no_channel.stderr

    with FakeSlackThread() as slack_url:
        env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url}
        posted = paperbot("digest", "--post", "--channel", "CTEAM", cwd=tmp_path, env=env)
        again = paperbot("digest", "--post", "--channel", "CTEAM", cwd=tmp_path, env=env)
    assert (posted.returncode, posted.stdout.strip()) == (0, "posted: 36 papers")
    assert (again.returncode, again.stdout.strip()) == (0, "nothing new: 0 papers")
    assert (
        "Nothing new" in paperbot("digest", "--preview", "--channel", "CTEAM", cwd=tmp_path).stdout
    )


def test_a_file_over_the_size_limit_fails_with_one_line_without_being_read(
    tmp_path: Path,
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    with (tmp_path / "digests" / "huge.txt").open("wb") as huge:
        huge.truncate(300 * 2**20)  # sparse: no disk used, but 300 MB of memory if read
    # A small parent runs paperbot and reports its peak memory: a child forked from this
    # test process would count the test process's own memory as its peak.
    peak = tmp_path / "peak-kib"
    measured = (
        "import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
        "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN)"
        ".ru_maxrss)); sys.exit(code)"
    )
    env = outside_environment()
    env["PAPERBOT_EMBEDDER"] = "hash"
    result = subprocess.run(
        [sys.executable, "-c", measured, str(peak), PAPERBOT, "ingest", "digests", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out, err = result.stdout, result.stderr
    STDERR.append(err)

    assert result.returncode == 1
    summary = json.loads(out)
    assert summary["documents"] == {"new": 3, "changed": 0, "unchanged": 0, "failed": 1}
    line = "file is 300 MB; the limit is 50 MB (PAPERBOT_MAX_FILE_MB)"
    assert summary["errors"] == [{"path": "digests/huge.txt", "error": line}]
    assert err.strip() == f"paperbot: digests/huge.txt: {line}"
    assert int(peak.read_text()) < 200 * 1024  # KiB: the 300 MB were never read (95 MB here)


@pytest.mark.parametrize("value", ["abc", "0", "-5", "nan", "inf"])
def test_a_bad_size_limit_is_one_line_naming_the_variable_and_exit_2(
    tmp_path: Path, value: str
) -> None:
    result = paperbot("ingest", cwd=tmp_path, env={"PAPERBOT_MAX_FILE_MB": value})
    assert result.returncode == 2
    assert result.stderr == (
        f"paperbot: PAPERBOT_MAX_FILE_MB is not a positive number of megabytes: {value!r}\n"
    )
    assert not (tmp_path / "var").exists()  # nothing was written


def test_the_size_limit_is_read_from_the_environment(tmp_path: Path) -> None:
    write(tmp_path / "digests" / "day.txt", (SEEDS / "004_ee791cd1952f5dee.txt").read_text())
    result = paperbot("ingest", "digests", cwd=tmp_path, env={"PAPERBOT_MAX_FILE_MB": "0.001"})
    assert result.returncode == 1
    assert "the limit is 0.001 MB (PAPERBOT_MAX_FILE_MB)" in result.stderr


def test_check_reports_problems_on_their_lines_and_writes_nothing(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    faulty = tmp_path / "digests" / "004_ee791cd1952f5dee.txt"
    faulty.write_text(
        faulty.read_text(encoding="utf-8").replace("5. 阈值敏感性", "5、阈值敏感性"),
        encoding="utf-8",
    )
    (tmp_path / "digests" / "bad_date.txt").write_text("2026-02-30\n\nx\n", encoding="utf-8")
    (tmp_path / "digests" / "notes.txt").write_text(
        "Reading list\n\nsome notes\n", encoding="utf-8"
    )
    database = tmp_path / "store.db"
    env = {"PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{database}"}

    clean = paperbot("ingest", "--check", "digests/000_e3eab0f621521816.txt", cwd=tmp_path, env=env)
    checked = paperbot("ingest", "--check", "digests", cwd=tmp_path, env=env)
    as_json = paperbot("ingest", "--check", "--json", "digests", cwd=tmp_path, env=env)

    assert (clean.returncode, clean.stdout) == (0, "checked 1 file, 8 papers: no problems\n")
    assert checked.returncode == 1
    assert checked.stdout.splitlines() == [
        "digests/004_ee791cd1952f5dee.txt: warning: line 35: claim 5 should start '5. ', "
        "found '5、'; read as claim 5",
        "digests/bad_date.txt: line 1: '2026-02-30' is not a valid date",
        "skipped digests/notes.txt: not a digest: the first line is neither a date "
        "(YYYY-MM-DD) nor 'HuggingFace Papers YYYY-MM-DD'",
        "checked 4 files, 36 papers: 2 problems",  # the one not a digest is not counted
    ]
    assert as_json.returncode == 1
    assert len(json.loads(as_json.stdout)["problems"]) == 2
    assert not database.exists()  # nothing was written, not even a schema

    # An ingest loads the faulty file all but its fault; status lists the warning.
    (tmp_path / "digests" / "bad_date.txt").unlink()
    loaded = paperbot("ingest", "digests", cwd=tmp_path, env=env)
    status = paperbot("status", cwd=tmp_path, env=env)
    assert loaded.returncode == 0
    assert "warning: line 35: claim 5 should start '5. '" in loaded.stderr
    assert "warnings   parts left out, in 1 of the loaded files" in status.stdout
    assert "line 35: claim 5 should start '5. ', found '5、'; read as claim 5" in status.stdout


def test_a_file_damaged_throughout_reports_its_first_warnings_and_how_many_more(
    tmp_path: Path,
) -> None:
    # 300 claims all numbered 5: a warning for each but the fifth, and one for the missing
    # positioning.
    claims = (f'5. 声明{i}。\n\n   "Quote {i}."' for i in range(300))
    (tmp_path / "day.txt").write_text("2026-09-09\n\n" + "\n\n".join(claims) + "\n")
    database = tmp_path / "store.db"
    env = {"PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{database}"}
    more = "and 200 more warnings like these (`paperbot ingest --check` lists them all)"

    checked = paperbot("ingest", "--check", "--json", "day.txt", cwd=tmp_path, env=env)
    loaded = paperbot("ingest", "--json", "--no-embed", "day.txt", cwd=tmp_path, env=env)
    shown = paperbot("ingest", "--force", "--no-embed", "day.txt", cwd=tmp_path, env=env)
    status = paperbot("status", "--json", cwd=tmp_path, env=env)

    problems = [entry["problem"] for entry in json.loads(checked.stdout)["problems"]]
    assert len(problems) == 300
    report = json.loads(loaded.stdout)
    assert report["papers"] == {"new": 1, "updated": 0}
    warnings = [entry["warning"] for entry in report["warnings"]]
    assert [f"warning: {warning}" for warning in warnings[:100]] == problems[:100]
    assert warnings[100:] == [more]
    assert shown.stderr.count("warning: ") == 101
    assert shown.stderr.endswith(f"day.txt: warning: {more}\n")
    assert [entry["warning"] for entry in json.loads(status.stdout)["warnings"]] == warnings

    # A row stored whole, before warnings were kept to a hundred, is listed the same way.
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        connection.execute("UPDATE documents SET error = ?", ["\n".join(warnings[:100] * 3)])
    status = paperbot("status", cwd=tmp_path, env=env)
    assert "warnings   parts left out, in 1 of the loaded files" in status.stdout
    assert status.stdout.count("day.txt: ") == 101
    assert status.stdout.count(more) == 1


@pytest.mark.parametrize(
    "command", [("status",), ("export",), ("export", "--saved", "U1", "--bibtex")]
)
def test_reading_commands_create_no_database(tmp_path: Path, command: tuple[str, ...]) -> None:
    result = paperbot(*command, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("paperbot: no database at var/paperbot.db")
    assert not (tmp_path / "var").exists()


def test_export_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    env = outside_environment()
    exporting = subprocess.run(
        f"{PAPERBOT} export | head -1",
        shell=True,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert exporting.stdout.count("\n") == 1
    assert exporting.stderr == ""


def test_ingest_embeds_what_waits_unless_told_not_to_and_status_counts_it(
    tmp_path: Path,
) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    skipped = paperbot("ingest", "--no-embed", cwd=tmp_path)
    waiting = json.loads(paperbot("status", "--json", cwd=tmp_path).stdout)
    embedded = paperbot("ingest", cwd=tmp_path)
    done = paperbot("status", cwd=tmp_path)

    assert "vectors" not in skipped.stdout
    assert (waiting["embedder"], waiting["vectors_waiting"]) == ("hash-bag-of-words (3)", 220)
    assert embedded.stdout.splitlines()[-1] == (
        "vectors: 220 embedded, 0 waiting (hash-bag-of-words (3))"
    )
    assert "embedder   hash-bag-of-words (3)" in done.stdout
    assert "vectors    0 items wait to be embedded" in done.stdout


def test_without_a_model_search_is_lexical_and_status_says_so(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    env = {"PAPERBOT_EMBEDDER": "none"}
    ingested = paperbot("ingest", cwd=tmp_path, env=env)
    status = json.loads(paperbot("status", "--json", cwd=tmp_path, env=env).stdout)
    answer = paperbot("ask", "/claims AUROC", cwd=tmp_path, env=env)

    assert ingested.stdout.splitlines()[-1].startswith("vectors: none")
    assert status["embedder"].endswith("search is lexical only")
    assert status["vectors_waiting"] is None
    assert "AUROC" in answer.stdout and "similar meaning" not in answer.stdout


def test_an_unknown_embedder_is_a_usage_error(tmp_path: Path) -> None:
    bad = paperbot("status", cwd=tmp_path, env={"PAPERBOT_EMBEDDER": "no such thing"})
    missing = paperbot("status", cwd=tmp_path, env={"PAPERBOT_EMBEDDER": "nowhere.at_all:make"})
    assert (bad.returncode, missing.returncode) == (2, 2)
    assert bad.stderr.startswith("paperbot: PAPERBOT_EMBEDDER must be")
    assert missing.stderr.startswith(
        "paperbot: PAPERBOT_EMBEDDER=nowhere.at_all:make cannot be loaded"
    )
    slack = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "secret"}
    served = paperbot(
        "serve",
        "--port",
        str(free_port()),
        cwd=tmp_path,
        env=slack | {"PAPERBOT_EMBEDDER": "nowhere.at_all:make"},
    )
    assert served.returncode == 2
    assert served.stderr.splitlines()[-1].startswith(
        "paperbot: PAPERBOT_EMBEDDER=nowhere.at_all:make cannot be loaded"
    )
    assert "Traceback" not in served.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_terminal_sees_the_progress_bars_and_stdout_stays_the_same(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    main, terminal = os.openpty()  # stderr on a terminal; stdout still a pipe
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = outside_environment()
    try:
        result = subprocess.run(
            [PAPERBOT, "ingest", "--json"],
            cwd=tmp_path,
            env=env | {"PAPERBOT_EMBEDDER": "hash"},
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
            timeout=60,
            check=False,
        )
        os.close(terminal)
        shown = b""
        with contextlib.suppress(OSError):  # the terminal's end reads EIO once drained
            while chunk := os.read(main, 65536):
                shown += chunk
    finally:
        os.close(main)
    assert result.returncode == 0
    assert "ingest: 100%" in shown.decode() and "3/3" in shown.decode()
    assert "papers=36" in shown.decode()
    assert "embedding: 100%" in shown.decode() and "220/220" in shown.decode()
    assert json.loads(result.stdout)["papers"] == {"new": 36, "updated": 0}


def test_no_progress_bar_when_stderr_is_no_terminal(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    result = paperbot("ingest", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_many_files_are_parsed_in_worker_processes_to_the_same_store(tmp_path: Path) -> None:
    for day in range(1, 7):  # more files than parse processes
        entries = [Entry(f"2610.{day:02d}{n:03d}", f"Paper {day}.{n}") for n in range(3)]
        write(
            tmp_path / "digests" / f"day{day}.txt", huggingface_digest(f"2026-10-0{day}", entries)
        )

    first = paperbot("ingest", "digests", "--json", cwd=tmp_path)
    again = paperbot("ingest", "digests", "--json", cwd=tmp_path)

    assert (first.returncode, first.stderr) == (0, "")
    assert json.loads(first.stdout)["papers"] == {"new": 18, "updated": 0}
    assert json.loads(again.stdout)["documents"]["unchanged"] == 6
    status = json.loads(paperbot("status", "--json", cwd=tmp_path).stdout)
    assert (status["documents"], status["papers"]) == (6, 18)


def test_a_killed_ingest_leaves_no_parse_process_behind(tmp_path: Path) -> None:
    """`paperbot ingest` killed outright (SIGKILL: as the system ends a process out of
    memory, or an operator's `kill -9`) takes its parse processes with it: none is left
    waiting for a file that never comes, holding its memory."""
    database = tmp_path / "store.db"
    env = {"PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{database}"}
    assert paperbot("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
    clean = outside_environment()
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")  # the ingest waits to write, its processes up
        command = subprocess.Popen(
            [PAPERBOT, "ingest", "--no-embed", str(SEEDS)],
            cwd=tmp_path,
            env=clean | env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        children = Path(f"/proc/{command.pid}/task/{command.pid}/children")
        forked, deadline = min(PARSE_WORKERS, 2), time.monotonic() + 30
        while len(parsers := children.read_text().split()) < forked:
            assert time.monotonic() < deadline, "no parse processes"
            time.sleep(0.02)
        os.kill(command.pid, signal.SIGKILL)
        command.wait()

    deadline = time.monotonic() + 10
    while (left := [pid for pid in parsers if _running(int(pid))]) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert left == []
    finally:
        for pid in left:  # not to outlive the test
            os.kill(int(pid), signal.SIGKILL)


def _running(pid: int) -> bool:
    """Alive: not ended, nor ended and left unreaped by whichever process adopted it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
