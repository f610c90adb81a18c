"""No token or signing secret reaches a log line or an error message, in the whole test run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.conftest import SECRET, TOKEN
from tests.bot.test_socket_mode import APP_TOKEN
from tests.cli.helpers import STDERR

# Every Slack secret the tests hand to the bot ("xoxb-test" starts every bot token they use).
TEST_SECRETS = (SECRET, TOKEN, APP_TOKEN, "xoxb-test", "s3cret")


@pytest.mark.last
def test_no_test_secret_in_any_log_or_error_of_the_run(session_log: Path) -> None:
    logged = session_log.read_text(encoding="utf-8")
    # the capture really holds the run: Slack calls and requests at DEBUG level included
    assert "DEBUG" in logged
    printed = "\n".join(STDERR)
    for secret in TEST_SECRETS:
        assert secret not in logged, f"{secret!r} was logged"
        assert secret not in printed, f"{secret!r} was printed by a paperbot process"
