"""Requests Slack would never send get a 4xx and one warning line, never a 500 or a
traceback: the signature is checked before the body is read as a Slack request."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.engine import URL

from bot.signing import signature
from tests.bot.conftest import SECRET, Bot, StartBot

FORM, JSON = "application/x-www-form-urlencoded", "application/json"
GOOD, WRONG, NONE = "good", "wrong", "none"  # how a request is signed
HUGE = b"payload=" + b"x" * (2 * 1024**2)

# (what, body, content type, signature, status)
CASES = [
    ("payload that is not JSON", b"payload=x", FORM, GOOD, 400),
    ("payload that is not JSON, unsigned", b"payload=x", FORM, NONE, 401),
    ("payload that is not JSON, badly signed", b"payload=x", FORM, WRONG, 401),
    ("JSON that is not JSON", b"{not json", JSON, GOOD, 400),
    ("JSON that is not JSON, unsigned", b"{not json", JSON, NONE, 401),
    ("JSON that is not JSON, badly signed", b"{not json", JSON, WRONG, 401),
    ("empty form", b"", FORM, GOOD, 400),
    ("empty form, unsigned", b"", FORM, NONE, 401),
    ("empty JSON", b"", JSON, GOOD, 400),
    ("a payload that is a list", b"payload=%5B1%5D", FORM, GOOD, 400),
    ("JSON that is a list", b"[1]", JSON, GOOD, 400),
    ("JSON that is a string", b'"x"', JSON, GOOD, 400),
    ("an event that is a number", b'{"type": "event_callback", "event": 5}', JSON, GOOD, 400),
    ("bytes that are not UTF-8", b"payload=\xff\xfe", FORM, GOOD, 400),
    ("bytes that are not UTF-8, unsigned", b"\xff\xfe", FORM, NONE, 401),
    ("a huge body", HUGE, FORM, GOOD, 413),
    ("a huge body, unsigned", HUGE, FORM, NONE, 413),
]


def headers(body: bytes, content_type: str, signed: str) -> dict[str, str]:
    sent = {"content-type": content_type}
    if signed != NONE:
        ts = str(int(time.time()))
        secret = SECRET if signed == GOOD else "not-the-secret"
        sent |= {"x-slack-request-timestamp": ts, "x-slack-signature": signature(secret, ts, body)}
    return sent


@pytest.fixture
async def bot(start_bot: StartBot, sqlite_url: URL) -> Bot:
    return await start_bot(sqlite_url)


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


async def test_bodies_slack_never_sends_get_a_4xx_and_one_warning(
    bot: Bot, logged: pytest.LogCaptureFixture
) -> None:
    for what, body, content_type, signed, status in CASES:
        logged.clear()
        sent = headers(body, content_type, signed)
        async with bot.http.post(f"{bot.url}/slack/events", data=body, headers=sent) as response:
            assert response.status == status, what
            expected = "invalid request" if status == 401 else "bad request"
            assert json.loads(await response.text()) == {"error": expected}, what
        warnings = [r for r in logged.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, (what, [r.getMessage() for r in warnings])
        (warning,) = warnings
        assert warning.levelno == logging.WARNING and warning.exc_info is None, what
        assert warning.getMessage().startswith(f"POST /slack/events {status} "), what
        assert "Traceback" not in logged.text, what


async def test_a_huge_body_sent_in_chunks_is_refused_too(
    bot: Bot, logged: pytest.LogCaptureFixture
) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(64):
            yield b"x" * 32 * 1024

    async with bot.http.post(
        f"{bot.url}/slack/events", data=chunks(), headers={"content-type": FORM}
    ) as response:
        assert response.status == 413
    assert [r.levelname for r in logged.records if r.levelno >= logging.WARNING] == ["WARNING"]


@pytest.mark.parametrize(
    ("timestamp", "sent_signature"),
    [
        ("yesterday", "v0=00"),
        ("１２３", "v0=00"),
        (str(int(time.time())), "v0=ünïcode"),
        (str(int(time.time()) - 600), None),
    ],
)
async def test_odd_signature_headers_get_401(
    bot: Bot, logged: pytest.LogCaptureFixture, timestamp: str, sent_signature: str | None
) -> None:
    body = b"command=/paper&text=help"
    given = sent_signature or signature(SECRET, timestamp, body)  # a stale one, else odd
    sent = {
        "content-type": FORM,
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": given,
    }
    async with bot.http.post(f"{bot.url}/slack/events", data=body, headers=sent) as response:
        assert response.status == 401
    assert [r.levelname for r in logged.records if r.levelno >= logging.WARNING] == ["WARNING"]


async def test_a_good_request_still_gets_its_answer(bot: Bot) -> None:
    status, reply = await bot.command("/paper help")
    assert status == 200
    assert "/paper" in reply["text"]
