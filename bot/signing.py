"""Slack's request signatures, as the server checks them: over the raw bytes, so a body
that is not UTF-8 is a bad signature rather than an error (slack_sdk's verifier decodes
the body first). The offline tools sign with slack_sdk itself (bot/shell.py)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

MAX_AGE_SECONDS = 300  # Slack's rule: an older timestamp may be a replay


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The `v0=…` signature of any body, as Slack computes it."""
    digest = hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256)
    return f"v0={digest.hexdigest()}"


def is_signed(secret: str, headers: Mapping[str, str], body: bytes, *, now: float) -> bool:
    """Whether `body` carries a valid, fresh signature made with `secret`. Never raises,
    whatever the headers hold."""
    timestamp = headers.get("x-slack-request-timestamp", "")
    given = headers.get("x-slack-signature", "")
    if not timestamp.isascii() or not timestamp.isdigit():
        return False
    if abs(now - int(timestamp)) > MAX_AGE_SECONDS:
        return False
    expected = signature(secret, timestamp, body).encode()
    return hmac.compare_digest(expected, given.encode("utf-8", "surrogateescape"))
