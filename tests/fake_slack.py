"""The tests' Slack: the local stand-in (bot/local_slack.py) plus what only tests need:
waiting for calls, channels the bot is not a member of, and Socket Mode."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.local_slack import Call, LocalSlack


@dataclass
class FakeSlack(LocalSlack):
    # Channels the bot is not a member of: posting there fails as Slack fails it.
    not_member_of: set[str] = field(default_factory=set)
    _sockets: list[web.WebSocketResponse] = field(default_factory=list)

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

    def add_routes(self, app: web.Application) -> None:
        super().add_routes(app)
        app.router.add_get("/socket", self._socket)

    async def stop(self) -> None:
        for socket in self._sockets:
            await socket.close()
        await super().stop()

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        """What Slack would answer; tests override this to fail on purpose."""
        posting = method in ("chat.postMessage", "chat.postEphemeral", "chat.update")
        if posting and payload.get("channel") in self.not_member_of:
            return web.json_response({"ok": False, "error": "not_in_channel"})
        if method == "apps.connections.open":
            return web.json_response(
                {"ok": True, "url": self.base_url.replace("http", "ws", 1) + "/socket"}
            )
        return await super().answer(method, payload)

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
