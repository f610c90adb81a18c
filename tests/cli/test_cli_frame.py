"""The command line keeps its contract: names, exit statuses, one-line errors."""

from __future__ import annotations

import json
import sqlite3
import tomllib
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from jobs.parser import PARSER_VERSION
from tests.cli.helpers import paperbot

ROOT = Path(__file__).resolve().parents[2]

SUBCOMMANDS = ["ingest", "status", "ask", "shell", "serve", "digest", "db", "manifest"]


def test_version_names_the_package_parser_and_schema_versions(tmp_path: Path) -> None:
    result = paperbot("--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    heads = sorted(p.name[:4] for p in (ROOT / "storage" / "migrations" / "versions").glob("0*.py"))
    expected = f"paperbot {project['version']} (parser {PARSER_VERSION}, schema {heads[-1]})"
    assert result.stdout == expected + "\n"
    assert result.stderr == ""


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(command: str, tmp_path: Path) -> None:
    result = paperbot(command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert f"usage: paperbot {command}" in result.stdout


def test_db_upgrade_then_status_prints_zero_counts(database_url: URL, tmp_path: Path) -> None:
    env = {"PAPERBOT_DATABASE_URL": database_url.render_as_string(hide_password=False)}
    first = paperbot("db", "upgrade", cwd=tmp_path, env=env)
    second = paperbot("db", "upgrade", cwd=tmp_path, env=env)
    status = paperbot("status", "--json", cwd=tmp_path, env=env)

    assert (first.returncode, second.returncode, status.returncode) == (0, 0, 0), status.stderr
    assert json.loads(status.stdout) == {
        "documents": 0,
        "papers": 0,
        "claims": 0,
        "database": database_url.get_backend_name(),
        "last_ingest": None,
        "last_digest": None,
        "warnings": [],
        "suspect": [],
        "embedder": "hash-bag-of-words (3)",
        "vectors_waiting": 0,
    }


def test_default_database_is_a_sqlite_file_under_var(tmp_path: Path) -> None:
    result = paperbot("db", "upgrade", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "var" / "paperbot.db").is_file()
    assert json.loads(paperbot("status", "--json", cwd=tmp_path).stdout)["database"] == "sqlite"


def test_status_on_a_database_without_schema_says_what_to_run(tmp_path: Path) -> None:
    (tmp_path / "var").mkdir()
    sqlite3.connect(tmp_path / "var" / "paperbot.db").close()  # an empty database
    result = paperbot("status", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "paperbot: the database schema is not current: run `paperbot db upgrade`"
    )


def test_serve_without_slack_tokens_names_the_missing_variables(tmp_path: Path) -> None:
    result = paperbot("serve", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "paperbot: missing required environment variables: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET"
    )


def test_socket_mode_also_needs_the_app_token(tmp_path: Path) -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "s3cret"}
    result = paperbot("serve", "--socket", cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "SLACK_APP_TOKEN" in result.stderr
    assert "SLACK_BOT_TOKEN" not in result.stderr


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("PAPERBOT_TIMEZONE", "Mars/Base"),
        ("PAPERBOT_DIGEST_SCHEDULE", "0 25 * * *"),
        ("PAPERBOT_INGEST_SCHEDULE", "every quarter hour"),
        ("PAPERBOT_DATABASE_URL", "not a url"),
        ("PAPERBOT_DATABASE_URL", "mysql://localhost/db"),
        ("PAPERBOT_PORT", "70000"),
        ("SLACK_API_URL", "slack.com/api"),
    ],
)
def test_a_bad_setting_stops_with_one_line_naming_it(
    variable: str, value: str, tmp_path: Path
) -> None:
    result = paperbot("status", cwd=tmp_path, env={variable: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"paperbot: {variable} ")


@pytest.mark.parametrize("fault", ["missing", "empty", "directory", "both set"])
def test_a_bad_secret_file_stops_with_one_line_naming_it(fault: str, tmp_path: Path) -> None:
    path = tmp_path / "slack_bot_token"
    env = {"SLACK_BOT_TOKEN_FILE": str(path)}
    if fault == "empty":
        path.write_text("\n")
    elif fault == "directory":
        path.mkdir()
    elif fault == "both set":
        path.write_text("xoxb-test-cli-file\n")
        env["SLACK_BOT_TOKEN"] = "xoxb-test-cli-env"
    expected = {
        "missing": f"SLACK_BOT_TOKEN_FILE: cannot read {path}: No such file or directory",
        "empty": f"SLACK_BOT_TOKEN_FILE: {path} is empty",
        "directory": f"SLACK_BOT_TOKEN_FILE: {path} is a directory, not a file",
        "both set": "SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE are both set: keep one",
    }[fault]
    result = paperbot("status", cwd=tmp_path, env=env)
    assert (result.returncode, result.stderr, result.stdout) == (2, f"paperbot: {expected}\n", "")


def test_a_bad_setting_in_dotenv_is_named_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("PAPERBOT_TIMEZONE=Nowhere/Atall\n")
    result = paperbot("status", cwd=tmp_path)
    assert result.returncode == 2
    assert "PAPERBOT_TIMEZONE" in result.stderr


def test_an_unreachable_database_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    env = {"PAPERBOT_DATABASE_URL": "postgresql+asyncpg://nobody@127.0.0.1:9/none"}
    result = paperbot("status", cwd=tmp_path, env=env)
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("paperbot: cannot connect to the database: ")


def test_a_file_that_cannot_be_written_is_not_called_a_connection(tmp_path: Path) -> None:
    (tmp_path / "seeds").mkdir()
    (tmp_path / "var").write_text("a file where the database's folder should be")
    result = paperbot("ingest", cwd=tmp_path)
    assert result.returncode == 1
    assert "cannot connect" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_missing_subcommand_is_a_usage_error(tmp_path: Path) -> None:
    result = paperbot(cwd=tmp_path)
    assert result.returncode == 2
    assert "usage: paperbot" in result.stderr
