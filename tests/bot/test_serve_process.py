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


async def test_serve_answers_healthz_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    async with LocalSlack() as slack, aiohttp.ClientSession() as http:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
        env |= {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": slack.api_url, "PAPERBOT_INGEST_SCHEDULE": ""}  # fmt: skip
        child = await asyncio.create_subprocess_exec(
            PAPERBOT, "serve", "--port", str(port), cwd=tmp_path, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            for _ in range(100):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                        assert response.status == 200
                        assert (await response.json()) == {"status": "ok", "database": "sqlite"}
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("serve did not start")
            child.send_signal(signal.SIGTERM)
            _, errors = await asyncio.wait_for(child.communicate(), timeout=20)
        finally:
            if child.returncode is None:
                child.kill()
    stderr = errors.decode()
    STDERR.append(stderr)
    assert child.returncode == 0, stderr
    assert "shutting down" in stderr
    assert "Traceback" not in stderr
    assert TOKEN not in stderr and SECRET not in stderr
    assert (tmp_path / "var" / "paperbot.db").is_file()


async def test_serve_posts_the_summary_once_on_an_every_minute_schedule(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    port = free_port()
    async with LocalSlack() as slack:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
        env |= {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": slack.api_url, "PAPERBOT_INGEST_SCHEDULE": "",
                "PAPERBOT_DIGEST_CHANNEL": "CTEAM",
                "PAPERBOT_DIGEST_SCHEDULE": "* * * * *"}  # fmt: skip
        child = await asyncio.create_subprocess_exec(
            PAPERBOT, "serve", "--port", str(port), cwd=tmp_path, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            await slack.wait_for("chat.postMessage", 1, within=30)
            # Through the next firing of the schedule: nothing new, so no second post.
            await asyncio.sleep(70 - time.time() % 60)
            parents = [m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]
            child.send_signal(signal.SIGTERM)
            _, errors = await asyncio.wait_for(child.communicate(), timeout=20)
        finally:
            if child.returncode is None:
                child.kill()
    STDERR.append(errors.decode())
    assert child.returncode == 0, errors.decode()
    assert len(parents) == 1
    assert parents[0]["channel"] == "CTEAM"
    assert "36 new papers" in str(parents[0]["blocks"])


async def test_serve_logs_one_json_line_per_event_with_request_ids(tmp_path: Path) -> None:
    port = free_port()
    async with LocalSlack() as slack, aiohttp.ClientSession() as http:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
        env |= {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": slack.api_url, "PAPERBOT_INGEST_SCHEDULE": "",
                "PAPERBOT_LOG_FORMAT": "json", "PAPERBOT_LOG_LEVEL": "debug"}  # fmt: skip
        child = await asyncio.create_subprocess_exec(
            PAPERBOT, "serve", "--port", str(port), cwd=tmp_path, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{port}/slack/events"
            body = command_body("/paper", "help", user="ULOGGED", channel="C1",
                                response_url=slack.response_url())  # fmt: skip
            for _ in range(100):
                try:
                    async with http.post(url, data=body, headers=signed_headers(body, SECRET)) as r:
                        assert r.status == 200
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            async with http.post(url, data=body, headers=signed_headers(body, "wrong")) as r:
                assert r.status == 401
            child.send_signal(signal.SIGTERM)
            _, errors = await asyncio.wait_for(child.communicate(), timeout=20)
        finally:
            if child.returncode is None:
                child.kill()
    stderr = errors.decode()
    STDERR.append(stderr)
    lines = [json.loads(line) for line in stderr.splitlines()]  # every line is one object
    assert all({"time", "level", "logger", "id", "message"} <= line.keys() for line in lines)
    asked = [line for line in lines if line["message"] == "/paper by ULOGGED"]
    assert len(asked) == 1 and asked[0]["id"].startswith("r-")
    done = [line for line in lines if line["message"].startswith("POST /slack/events 200")]
    assert [line["id"] for line in done] == [asked[0]["id"]]
    assert any(line["message"].startswith("POST /slack/events 401") for line in lines)
    assert TOKEN not in stderr and SECRET not in stderr
