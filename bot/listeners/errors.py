"""The one error handler: log with the traceback and an error id, tell the user briefly."""

from __future__ import annotations

import asyncio
import json
import logging

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_bolt.response import BoltResponse

from bot import blocks, logs

log = logging.getLogger("paperbot.errors")


def register(app: AsyncApp) -> None:
    @app.error
    async def on_error(
        error: Exception, respond: AsyncRespond | None, response: BoltResponse | None
    ) -> BoltResponse | None:
        if response is None:
            await report_after_ack(error, respond)
            return None
        # Not acknowledged yet: the acknowledgement carries the message.
        return BoltResponse(
            status=200,
            body=json.dumps(_logged(error).as_payload(), ensure_ascii=False),
            headers={"content-type": "application/json"},
        )


async def report_after_ack(error: Exception, respond: AsyncRespond | None) -> None:
    """An error in work that goes on after the acknowledgement: logged, and told through
    the response URL when there is one (buttons in Home or unfurls, and events, have none)."""
    message = _logged(error)
    if respond is not None and respond.response_url:
        await respond(**message.as_payload(), replace_original=False)


def _logged(error: Exception) -> blocks.Message:
    error_id = logs.current_id()  # the request's id: its log lines all carry it
    log.error("error %s: %s", error_id, type(error).__name__, exc_info=error)
    return blocks.error_message(error_id, timed_out=isinstance(error, asyncio.TimeoutError))
