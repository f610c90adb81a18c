"""`paperbot serve` as operators run it: starts, answers /healthz, stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bot.local_slack import LocalSlack
from bot.shell import command_body, signed_headers
from tests.bot.conftest import SECRET, TOKEN
from tests.cli.helpers import PAPERBOT, STDERR, paperbot
from tests.digests import SEEDS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    port: int
    returncode: int | None = None
    stderr: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@asynccontextmanager
async def serving(tmp_path: Path, slack: LocalSlack, **extra: str) -> AsyncIterator[Served]:
    """`paperbot serve` in its own process, stopped with SIGTERM at the end of the block."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
    env |= {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": slack.api_url, "PAPERBOT_INGEST_SCHEDULE": ""} | extra  # fmt: skip
    served = Served(free_port())
    child = await asyncio.create_subprocess_exec(
        PAPERBOT, "serve", "--port", str(served.port), cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        yield served
        child.send_signal(signal.SIGTERM)
        _, errors = await asyncio.wait_for(child.communicate(), timeout=20)
        served.returncode, served.stderr = child.returncode, errors.decode()
        STDERR.append(served.stderr)
    finally:
        if child.returncode is None:
            child.kill()


async def until_up(http: aiohttp.ClientSession, served: Served) -> aiohttp.ClientResponse:
    for _ in range(100):
        try:
            async with http.get(f"{served.url}/healthz") as response:
                await response.read()
                return response
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError("serve did not start")


async def test_serve_answers_healthz_and_stops_on_sigterm(tmp_path: Path) -> None:
    async with (
        LocalSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack) as served,
    ):
        health = await until_up(http, served)
        assert health.status == 200
        assert (await health.json()) == {"status": "ok", "database": "sqlite"}
    assert served.returncode == 0, served.stderr
    assert "shutting down" in served.stderr
    assert "Traceback" not in served.stderr
    assert TOKEN not in served.stderr and SECRET not in served.stderr
    assert (tmp_path / "var" / "paperbot.db").is_file()


async def test_serve_posts_the_summary_once_on_an_every_minute_schedule(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    async with LocalSlack() as slack:
        schedule = {"PAPERBOT_DIGEST_CHANNEL": "CTEAM", "PAPERBOT_DIGEST_SCHEDULE": "* * * * *"}
        async with serving(tmp_path, slack, **schedule) as served:
            await slack.wait_for("chat.postMessage", 1, within=30)
            # Through the next firing of the schedule: nothing new, so no second post.
            await asyncio.sleep(70 - time.time() % 60)
            parents = [m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]
    assert served.returncode == 0, served.stderr
    assert len(parents) == 1
    assert parents[0]["channel"] == "CTEAM"
    assert "36 new papers" in str(parents[0]["blocks"])


async def test_serve_logs_one_json_line_per_event_with_request_ids(tmp_path: Path) -> None:
    logging = {"PAPERBOT_LOG_FORMAT": "json", "PAPERBOT_LOG_LEVEL": "debug"}
    async with (
        LocalSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack, **logging) as served,
    ):
        await until_up(http, served)
        body = command_body("/paper", "help", user="ULOGGED", channel="C1",
                            response_url=slack.response_url())  # fmt: skip
        for secret, status in ((SECRET, 200), ("wrong", 401)):
            headers = signed_headers(body, secret)
            async with http.post(f"{served.url}/slack/events", data=body,
                                 headers=headers) as response:  # fmt: skip
                assert response.status == status
    lines = [json.loads(line) for line in served.stderr.splitlines()]  # one object a line
    assert all({"time", "level", "logger", "id", "message"} <= line.keys() for line in lines)
    asked = [line for line in lines if line["message"] == "/paper by ULOGGED"]
    assert len(asked) == 1 and asked[0]["id"].startswith("r-")
    done = [line for line in lines if line["message"].startswith("POST /slack/events 200")]
    assert [line["id"] for line in done] == [asked[0]["id"]]
    assert any(line["message"].startswith("POST /slack/events 401") for line in lines)
    assert TOKEN not in served.stderr and SECRET not in served.stderr
