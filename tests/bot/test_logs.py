"""Log lines: one per event, with level, logger and request/job id; secrets masked."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs

SIGNING_SECRET = "0123456789abcdef-signing"
Lines = tuple[logging.Logger, io.StringIO, io.StringIO]


@pytest.fixture
def lines() -> Iterator[Lines]:
    """A logger writing through paperbot's text and JSON handlers at once."""
    text, jsonl = io.StringIO(), io.StringIO()
    logger = logging.getLogger("paperbot.test")
    logger.propagate = False  # these lines hold fake secrets on purpose
    handlers = [
        logs.handler("text", [SIGNING_SECRET], text),
        logs.handler("json", [SIGNING_SECRET], jsonl),
    ]
    for h in handlers:
        logger.addHandler(h)
    yield logger, text, jsonl
    for h in handlers:
        logger.removeHandler(h)


def test_a_line_has_time_level_logger_id_and_message(lines: Lines) -> None:
    logger, text, jsonl = lines
    with logs.tagged("r-0badcafe"):
        logger.warning("database slow: %d ms", 812)
    time, level, name, log_id, message = text.getvalue().rstrip("\n").split(" ", 4)
    assert (level, name, log_id, message) == (
        "WARNING",
        "paperbot.test",
        "r-0badcafe",
        "database slow: 812 ms",
    )
    assert time.endswith("Z") and "T" in time
    assert json.loads(jsonl.getvalue()) == {
        "time": time,
        "level": "WARNING",
        "logger": "paperbot.test",
        "id": "r-0badcafe",
        "message": "database slow: 812 ms",
    }


def test_a_traceback_stays_on_the_event_s_line(lines: Lines) -> None:
    logger, text, jsonl = lines
    try:
        raise RuntimeError("boom\nsecond line")
    except RuntimeError:
        logger.exception("failed")
    assert text.getvalue().count("\n") == 1
    assert "Traceback (most recent call last):\\n" in text.getvalue()
    line = json.loads(jsonl.getvalue())
    assert line["message"] == "failed"
    assert line["error"].endswith("RuntimeError: boom\nsecond line")


def test_tokens_and_known_secrets_are_masked_wherever_they_appear(lines: Lines) -> None:
    logger, text, jsonl = lines
    logger.info("token xoxb-1111-2222-abcDEF app xapp-1-A1-2-ff secret=%s", SIGNING_SECRET)
    try:
        raise ValueError(f"bad header Bearer xoxp-99-88 {SIGNING_SECRET}")
    except ValueError:
        logger.exception("request failed")
    for out in (text.getvalue(), jsonl.getvalue()):
        assert "xoxb-" not in out and "xapp-" not in out and "xoxp-" not in out
        assert SIGNING_SECRET not in out
        assert "token [secret] app [secret] secret=[secret]" in out
        assert "ValueError: bad header Bearer [secret] [secret]" in out


def test_a_secret_with_quotes_is_masked_in_json_lines_too() -> None:
    secret = 'pa"ss\\word-1234'
    out = io.StringIO()
    logger = logging.getLogger("paperbot.test.json")
    logger.propagate = False
    logger.addHandler(logs.handler("json", [secret], out))
    logger.error("connect with %s failed", secret)
    line = json.loads(out.getvalue())
    assert line["message"] == "connect with [secret] failed"
    assert json.dumps(secret)[1:-1] not in out.getvalue()  # nor its JSON-escaped form


async def test_work_started_inside_a_request_logs_under_its_id() -> None:
    async def background() -> str:
        await asyncio.sleep(0)
        return logs.current_id()

    with logs.tagged(logs.new_id("r")) as request_id:
        task = asyncio.create_task(background())
    assert logs.current_id() == "-"
    assert await task == request_id


async def test_each_run_of_a_job_gets_its_own_id() -> None:
    async def work() -> str:
        return logs.current_id()

    job = logs.job(work)
    first, second = await job(), await job()
    assert first.startswith("j-") and second.startswith("j-") and first != second
