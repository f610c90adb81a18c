"""Logs: one line per event on stderr, with time, level, logger and the id of the request
or job the event belongs to; `PAPERBOT_LOG_FORMAT=json` makes each line a JSON object.

The id lives in a context variable, so background work started while handling a request
(a reply computed after the acknowledgement, a re-ingest) logs under that request's id.
The error id a user is shown is the id of their request. Secrets are masked in every line
as a last line of defence: nothing should log them in the first place.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import secrets
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import ParamSpec, TextIO, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_current: ContextVar[str] = ContextVar("paperbot_log_id", default="-")
# Slack tokens (bot, user, app, config) look like this whatever their value.
_TOKEN = re.compile(r"\b(?:xox[a-z]|xapp)-[0-9A-Za-z-]+")
MASK = "[secret]"


def new_id(kind: str) -> str:
    """A short id for one request ("r-…") or one job run ("j-…")."""
    return f"{kind}-{secrets.token_hex(4)}"


def current_id() -> str:
    return _current.get()


@contextmanager
def tagged(log_id: str) -> Iterator[str]:
    """Log everything inside (and in tasks started inside) under `log_id`."""
    token = _current.set(log_id)
    try:
        yield log_id
    finally:
        _current.reset(token)


def job(work: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """`work` run as a scheduled job: each run logs under a new job id ("j-…")."""

    @functools.wraps(work)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        with tagged(new_id("j")):
            return await work(*args, **kwargs)

    return run


class _Formatter(logging.Formatter):
    def __init__(self, fmt: str, hidden: Iterable[str]) -> None:
        super().__init__()
        self.json = fmt == "json"
        # Longest first, so a secret that contains another is masked whole.
        self.hidden = sorted({s for s in hidden if len(s) >= 6}, key=len, reverse=True)

    def mask(self, text: str) -> str:
        for value in self.hidden:
            text = text.replace(value, MASK)
        return _TOKEN.sub(MASK, text)

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        message = record.getMessage()
        error = self.formatException(record.exc_info) if record.exc_info else None
        if self.json:
            line = {
                "time": when.replace("+00:00", "Z"),
                "level": record.levelname,
                "logger": record.name,
                "id": current_id(),
                "message": self.mask(message),  # before JSON escapes a secret's characters
            }
            if error:
                line["error"] = self.mask(error)
            return json.dumps(line, ensure_ascii=False)
        text = f"{when.replace('+00:00', 'Z')} {record.levelname} {record.name} "
        text += f"{current_id()} {message}"
        if error:
            text += " | " + error
        return self.mask(text.replace("\r", "").replace("\n", "\\n"))


def handler(fmt: str, hidden: Iterable[str], stream: TextIO | None = None) -> logging.Handler:
    """A handler writing paperbot's lines (to stderr unless `stream` is given)."""
    out = logging.StreamHandler(stream or sys.stderr)
    out.setFormatter(_Formatter(fmt, hidden))
    return out


def configure(fmt: str, level: str, hidden: Iterable[str]) -> None:
    """Send every logger's lines through one handler; quiet libraries' chatter."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler(fmt, hidden))
    root.setLevel(level)
    for noisy in ("alembic", "apscheduler", "aiosqlite"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
