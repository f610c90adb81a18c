"""A local stand-in for Slack: its Web API and the response URLs, recording every call.

`paperbot ask` and `shell` point the bot at it to show what Slack would receive, and the
tests use it as their fake Slack server. It answers `auth.test` and the posting methods
with what Slack answers; anything else with `{"ok": true}`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

BOT_USER_ID = "U0PAPERBOT"


@dataclass
class Call:
    method: str  # a Web API method ("chat.postMessage") or "response_url"
    payload: dict[str, Any]
    token: str | None = None


@dataclass
class LocalSlack:
    calls: list[Call] = field(default_factory=list)
    # Channels the bot is not a member of: posting there fails as Slack fails it.
    not_member_of: set[str] = field(default_factory=set)
    _runner: web.AppRunner | None = None
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    base_url: str = ""
    _sockets: list[web.WebSocketResponse] = field(default_factory=list)

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "command") -> str:
        return f"{self.base_url}/respond/{name}"

    def called(self, method: str) -> list[dict[str, Any]]:
        return [call.payload for call in self.calls if call.method == method]

    async def wait_for(self, method: str, count: int, within: float) -> list[dict[str, Any]]:
        """The first `count` calls of `method`, waiting up to `within` seconds for them."""
        deadline = asyncio.get_running_loop().time() + within
        while len(self.called(method)) < count:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{len(self.called(method))} of {count} {method} calls")
            await asyncio.sleep(0.02)
        return self.called(method)

    async def start(self) -> Self:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_post("/respond/{name}", self._respond)
        app.router.add_get("/socket", self._socket)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        for socket in self._sockets:
            await socket.close()
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
        """What Slack would answer; tests override this to fail on purpose."""
        if method == "auth.test":
            return web.json_response({
                "ok": True, "url": "https://local.slack.invalid/", "team": "local",
                "user": "paperbot", "team_id": "T0LOCAL", "user_id": BOT_USER_ID,
                "bot_id": "B0LOCAL", "is_enterprise_install": False,
            })  # fmt: skip
        if method in ("chat.postMessage", "chat.postEphemeral", "chat.update"):
            if payload.get("channel") in self.not_member_of:
                return web.json_response({"ok": False, "error": "not_in_channel"})
            ts = f"{1_700_000_000 + next(self._ts)}.000100"
            return web.json_response(
                {"ok": True, "channel": payload.get("channel"), "ts": ts, "message_ts": ts}
            )
        if method == "apps.connections.open":
            return web.json_response(
                {"ok": True, "url": self.base_url.replace("http", "ws", 1) + "/socket"}
            )
        if method == "users.info":
            user = payload.get("user", "U0")
            return web.json_response({"ok": True, "user": {"id": user, "name": user.lower()}})
        if method == "conversations.open":
            return web.json_response(
                {"ok": True, "channel": {"id": "D" + payload.get("users", "X")}}
            )
        return web.json_response({"ok": True})

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        """Socket Mode: the bot connects here; its acknowledgements are recorded."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        async for message in socket:
            if message.type == WSMsgType.TEXT:
                self.calls.append(Call("socket_ack", json.loads(message.data)))
        return socket

    async def push(self, kind: str, payload: dict[str, Any], within: float = 10) -> dict[str, Any]:
        """Send an envelope over Socket Mode, as Slack does; returns the bot's acknowledgement."""
        deadline = asyncio.get_running_loop().time() + within
        while not self._sockets:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("the bot did not connect over Socket Mode")
            await asyncio.sleep(0.02)
        envelope = f"env-{next(self._ts)}"
        await self._sockets[-1].send_json(
            {
                "envelope_id": envelope,
                "type": kind,
                "payload": payload,
                "accepts_response_payload": True,
            }
        )
        while True:
            acks = [a for a in self.called("socket_ack") if a.get("envelope_id") == envelope]
            if acks:
                return acks[0]
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"no acknowledgement of {kind}")
            await asyncio.sleep(0.02)

    async def _respond(self, request: web.Request) -> web.Response:
        self.calls.append(Call("response_url", await self._payload(request)))
        return web.Response(text="ok")
