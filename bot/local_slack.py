"""A local stand-in for Slack: its Web API and the response URLs, recording every call.

`paperbot ask` and `shell` point the bot at it to show what Slack would receive (the tests
extend it into their fake Slack server, tests/fake_slack.py). It answers `auth.test` and
the posting methods with what Slack answers; anything else with `{"ok": true}`.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import parse_qsl

from aiohttp import web

BOT_USER_ID = "U0PAPERBOT"


@dataclass
class Call:
    method: str  # a Web API method ("chat.postMessage") or "response_url"
    payload: dict[str, Any]
    token: str | None = None


@dataclass
class LocalSlack:
    calls: list[Call] = field(default_factory=list)
    base_url: str = ""
    _runner: web.AppRunner | None = None
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "command") -> str:
        return f"{self.base_url}/respond/{name}"

    async def start(self) -> Self:
        app = web.Application()
        self.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/api/{method}", self._api)
        app.router.add_post("/respond/{name}", self._respond)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _payload(self, request: web.Request) -> dict[str, Any]:
        raw = await request.text()
        if request.content_type == "application/json":
            parsed = json.loads(raw or "{}")
            return parsed if isinstance(parsed, dict) else {"value": parsed}
        # slack_sdk sends some arguments (conversations.open's `users`) in the query string
        fields: dict[str, Any] = dict(request.query) | dict(parse_qsl(raw))
        for key in ("blocks", "attachments"):  # form posts carry these as JSON strings
            if isinstance(fields.get(key), str):
                fields[key] = json.loads(fields[key])
        return fields

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        payload = await self._payload(request)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ") or None
        self.calls.append(Call(method, payload, token))
        return await self.answer(method, payload)

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        """What Slack would answer."""
        if method == "auth.test":
            return web.json_response(
                {
                    "ok": True,
                    "url": "https://local.slack.invalid/",
                    "team": "local",
                    "user": "paperbot",
                    "team_id": "T0LOCAL",
                    "user_id": BOT_USER_ID,
                    "bot_id": "B0LOCAL",
                    "is_enterprise_install": False,
                }
            )
        if method in ("chat.postMessage", "chat.postEphemeral", "chat.update"):
            ts = f"{1_700_000_000 + next(self._ts)}.000100"
            return web.json_response(
                {"ok": True, "channel": payload.get("channel"), "ts": ts, "message_ts": ts}
            )
        if method == "users.info":
            user = payload.get("user", "U0")
            return web.json_response({"ok": True, "user": {"id": user, "name": user.lower()}})
        if method == "conversations.open":
            return web.json_response(
                {"ok": True, "channel": {"id": "D" + payload.get("users", "X")}}
            )
        return web.json_response({"ok": True})

    async def _respond(self, request: web.Request) -> web.Response:
        self.calls.append(Call("response_url", await self._payload(request)))
        return web.Response(text="ok")
