"""No token or signing secret reaches a log line or an error message, in the whole test run."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot import logs
from bot.settings import load_settings
from tests.bot.conftest import SECRET, TOKEN
from tests.bot.test_serve_process import FILE_DB_PASSWORD, FILE_SECRET, FILE_TOKEN
from tests.bot.test_socket_mode import APP_TOKEN
from tests.cli.helpers import STDERR

# Every Slack secret the tests hand to the bot ("xoxb-test" starts every bot token they use),
# those the bot reads from files (environment variables ending in _FILE) included.
TEST_SECRETS = (
    SECRET,
    TOKEN,
    APP_TOKEN,
    "xoxb-test",
    "s3cret",
    FILE_TOKEN,
    FILE_SECRET,
    FILE_DB_PASSWORD,
)


def test_a_secret_read_from_a_file_is_masked_like_one_from_the_environment(
    tmp_path: Path,
) -> None:
    (tmp_path / "signing").write_text("masked-file-s3cret-5e9a\n")
    (tmp_path / "password").write_text("masked-db-s3cret-1c7b\n")
    settings = load_settings(
        {
            "SLACK_SIGNING_SECRET_FILE": str(tmp_path / "signing"),
            "PAPERBOT_DATABASE_URL": "postgresql://bot@db/paperbot",
            "PAPERBOT_DATABASE_PASSWORD_FILE": str(tmp_path / "password"),
        },
        dotenv_path=tmp_path / "none",
    )
    out = io.StringIO()
    logger = logging.getLogger("paperbot.test.secret_files")
    logger.propagate = False  # this line holds the secrets on purpose
    logger.addHandler(logs.handler("text", settings.secrets, out))  # as `configure` does
    try:
        logger.error("signing with masked-file-s3cret-5e9a, database masked-db-s3cret-1c7b")
    finally:
        logger.handlers.clear()
    assert out.getvalue().endswith("signing with [secret], database [secret]\n")


@pytest.mark.last
def test_no_test_secret_in_any_log_or_error_of_the_run(session_log: Path) -> None:
    logged = session_log.read_text(encoding="utf-8")
    # the capture really holds the run: Slack calls and requests at DEBUG level included
    assert "DEBUG" in logged
    printed = "\n".join(STDERR)
    for secret in TEST_SECRETS:
        assert secret not in logged, f"{secret!r} was logged"
        assert secret not in printed, f"{secret!r} was printed by a paperbot process"
