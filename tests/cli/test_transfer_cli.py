"""Moving a store between SQLite and PostgreSQL with `paperbot export` and `import`."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import URL

from storage import db
from storage.models import Base
from storage.transfer import NOT_EXPORTED
from tests.cli.helpers import FakeSlackThread, paperbot
from tests.digests import SEEDS, Entry, huggingface_digest, write


def env_for(url: URL, **extra: str) -> dict[str, str]:
    return {"PAPERBOT_DATABASE_URL": url.render_as_string(hide_password=False)} | extra


async def every_row(url: URL) -> dict[str, list[dict[str, Any]]]:
    async with db.open_engine(url) as engine, db.session_factory(engine)() as session:
        return {
            table.name: [
                dict(row)
                for row in (
                    await session.execute(select(table).order_by(*table.primary_key.columns))
                ).mappings()
            ]
            for table in Base.metadata.sorted_tables
            if table.name not in NOT_EXPORTED  # search vectors are embedded again, not moved
        }


@pytest.fixture(params=["sqlite-to-postgresql", "postgresql-to-sqlite"])
def move(request: pytest.FixtureRequest) -> tuple[URL, URL]:
    """(source, target): an empty database of each kind, in both directions."""
    sqlite: URL = request.getfixturevalue("sqlite_url")
    postgres: URL = request.getfixturevalue("postgres_url")
    return (sqlite, postgres) if request.param.startswith("sqlite") else (postgres, sqlite)


async def test_a_moved_store_is_the_same_store(move: tuple[URL, URL], tmp_path: Path) -> None:
    source, target = move
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path, env=env_for(source)).returncode == 0
    with FakeSlackThread() as slack_url:
        slack = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url}
        posted = paperbot(
            "digest", "--post", "--channel", "CTEAM", cwd=tmp_path, env=env_for(source, **slack)
        )
    assert posted.returncode == 0, posted.stderr

    exported = paperbot("export", "store.jsonl", cwd=tmp_path, env=env_for(source))
    imported = paperbot("import", "store.jsonl", cwd=tmp_path, env=env_for(target))

    assert exported.returncode == 0, exported.stderr
    assert imported.returncode == 0, imported.stderr
    assert "36 papers" in imported.stdout and "1 digest_posts" in imported.stdout
    assert imported.stdout.startswith("imported 133 claims, 51 abstract result sentences, ")
    assert await every_row(target) == await every_row(source)
    # An ingest embeds the moved claims and papers again (the files are unchanged).
    assert paperbot("ingest", cwd=tmp_path, env=env_for(target)).returncode == 0
    # Search, the summary ledger and new ids all work on the target.
    for command in ("/claims AUROC", "/paper GAPO", "/claims 延迟"):
        on_source = paperbot("ask", command, cwd=tmp_path, env=env_for(source))
        on_target = paperbot("ask", command, cwd=tmp_path, env=env_for(target))
        assert on_target.stdout == on_source.stdout and "No " not in on_target.stdout
    preview = paperbot(
        "digest", "--preview", "--channel", "CTEAM", cwd=tmp_path, env=env_for(target)
    )
    assert preview.stdout.strip() == "Nothing new since the last summary."
    new = write(
        tmp_path / "more" / "new.txt",
        huggingface_digest("2026-10-05", [Entry("2610.55555", "Fresh Paper")]),
    )
    added = paperbot("ingest", str(new), "--json", cwd=tmp_path, env=env_for(target))
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["papers"] == {"new": 1, "updated": 0}
    status = json.loads(paperbot("status", "--json", cwd=tmp_path, env=env_for(target)).stdout)
    assert status["vectors_waiting"] == 0


async def test_export_to_stdout_pipes_into_import(
    seeded_sqlite_url: URL, postgres_url: URL, tmp_path: Path
) -> None:
    exported = paperbot("export", cwd=tmp_path, env=env_for(seeded_sqlite_url))
    (tmp_path / "dump").write_text(exported.stdout)
    assert exported.stderr.strip().startswith("exported ")
    imported = paperbot("import", "dump", cwd=tmp_path, env=env_for(postgres_url))
    assert imported.returncode == 0, imported.stderr
    status = paperbot("status", "--json", cwd=tmp_path, env=env_for(postgres_url))
    assert json.loads(status.stdout)["papers"] == 36


@pytest.fixture(scope="module")
def export_file(seeded_sqlite_url: URL, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds, exported (read only)."""
    folder = tmp_path_factory.mktemp("export")
    result = paperbot("export", "seeds.jsonl", cwd=folder, env=env_for(seeded_sqlite_url))
    assert result.returncode == 0, result.stderr
    return folder / "seeds.jsonl"


def broken_exports(good: str) -> dict[str, tuple[str | bytes, str]]:
    """name → (file content, the error sentence it must give)."""
    lines = good.splitlines()
    header = json.loads(lines[0])
    other_schema = json.dumps(header | {"schema": ["9999"]})
    bad_date = lines[1].replace('"created_at": "', '"created_at": "yesterday')
    latin1 = "\n".join([*lines[:3], lines[3].replace('"row": {', '"row": {"title": "café",')])
    nested = json.loads(lines[1])
    nested["row"]["path"] = json.loads("[" * 500 + "]" * 500)
    return {
        "not UTF-8": (latin1.encode("latin-1", errors="replace"), "line 4: not UTF-8 text"),
        "deeply nested": (
            "\n".join([*lines[:2], "[" * 100_000 + "]" * 100_000]),
            "line 3: JSON nested too deeply",
        ),
        "deeply nested value": (
            "\n".join([lines[0], json.dumps(nested)]),
            "line 2: JSON nested too deeply",
        ),
        "cut mid-line": ("\n".join(lines[:40]) + "\n" + lines[40][:30], "line 41: not JSON"),
        "a digest file": (next(SEEDS.glob("*.txt")).read_text(), "line 1: not a paperbot export"),
        "empty": ("", "line 1: not a paperbot export"),
        "other schema": ("\n".join([other_schema, *lines[1:]]), "line 1: the export is of schema"),
        "unknown table": (
            "\n".join([*lines[:5], '{"table": "users", "row": {}}']),
            "line 6: not a row of a paperbot table",
        ),
        "bad date": ("\n".join([lines[0], bad_date]), "line 2: Invalid isoformat"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "cut mid-line",
        "a digest file",
        "empty",
        "other schema",
        "unknown table",
        "bad date",
        "not UTF-8",
        "deeply nested",
        "deeply nested value",
    ],
)
def test_a_broken_export_is_refused_and_nothing_is_imported(
    case: str, export_file: Path, database_url: URL, tmp_path: Path
) -> None:
    """A file whose content is bad: one line naming the line at fault, exit status 1."""
    content, sentence = broken_exports(export_file.read_text())[case]
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = paperbot("import", "broken.jsonl", cwd=tmp_path, env=env_for(database_url))
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"paperbot: broken.jsonl: {sentence}")
    assert result.stderr.rstrip().endswith("nothing was imported")
    assert not any(asyncio.run(every_row(database_url)).values())


def test_import_into_a_store_that_holds_data_is_refused(
    export_file: Path, database_url: URL, tmp_path: Path
) -> None:
    assert (
        paperbot("import", str(export_file), cwd=tmp_path, env=env_for(database_url)).returncode
        == 0
    )
    again = paperbot("import", str(export_file), cwd=tmp_path, env=env_for(database_url))
    assert again.returncode == 2
    assert again.stderr.strip() == "paperbot: the database is not empty: import into a new database"
    status = paperbot("status", "--json", cwd=tmp_path, env=env_for(database_url))
    assert json.loads(status.stdout)["papers"] == 36


def test_missing_file_and_unmigrated_store_say_what_is_wrong(tmp_path: Path) -> None:
    missing = paperbot("import", "nope.jsonl", cwd=tmp_path)
    assert (missing.returncode, missing.stderr.strip()) == (
        2,
        "paperbot: cannot open nope.jsonl: No such file or directory",
    )
    (tmp_path / "var").mkdir()
    sqlite3.connect(tmp_path / "var" / "paperbot.db").close()  # a store with no schema yet
    unmigrated = paperbot("export", cwd=tmp_path)
    assert unmigrated.returncode == 2
    assert "run `paperbot db upgrade`" in unmigrated.stderr
