"""`paperbot serve` as operators run it: starts, answers /healthz, stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import json
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
import pytest
from sqlalchemy.engine import URL

from bot.server import SHUTDOWN_GRACE_SECONDS
from bot.shell import command_body, signed_headers
from bot.version import describe
from tests.bot.conftest import SECRET, TOKEN
from tests.cli.helpers import PAPERBOT, STDERR, FakeSlackThread, outside_environment, paperbot
from tests.dictionary_cache import give_dictionary_cache
from tests.digests import SEEDS
from tests.fake_slack import FakeSlack


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    port: int
    host: str = "127.0.0.1"
    returncode: int | None = None
    stderr: str = ""

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


def serve_env(slack_url: str, **extra: str) -> dict[str, str]:
    env = outside_environment()
    return (
        env
        | {
            "SLACK_BOT_TOKEN": TOKEN,
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": slack_url,
            "PAPERBOT_INGEST_SCHEDULE": "",
            "PAPERBOT_EMBEDDER": "hash",
            "PAPERBOT_INDEX_DIR": "none",
            "PYTHONFAULTHANDLER": "1",  # a stop that hangs shows where (see `serving`)
        }
        | extra
    )


@asynccontextmanager
async def serving(
    tmp_path: Path, slack: FakeSlack, *args: str, host: str = "127.0.0.1", **extra: str
) -> AsyncIterator[Served]:
    """`paperbot serve ARGS` in its own process, stopped with SIGTERM at the end of the
    block; `host` is where the test reaches it."""
    served = Served(free_port(), host)
    give_dictionary_cache(tmp_path / "index")  # the dictionary in a tenth of a second
    extra = {"PAPERBOT_INDEX_DIR": str(tmp_path / "index")} | extra
    child = await asyncio.create_subprocess_exec(
        PAPERBOT,
        "serve",
        "--port",
        str(served.port),
        *args,
        cwd=tmp_path,
        env=serve_env(slack.api_url, **extra),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    errors = asyncio.ensure_future(read_all(child.stderr))
    try:
        yield served
        child.send_signal(signal.SIGTERM)
        # Shutdown may wait out its grace for background work, then 5 s for what it cancels.
        shutdown = SHUTDOWN_GRACE_SECONDS + 5 + 10
        try:
            await asyncio.wait_for(child.wait(), timeout=shutdown)
        except TimeoutError:
            child.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack
            await asyncio.wait_for(child.wait(), timeout=10)
            stopped = (await errors)[-20_000:]
            raise AssertionError(
                f"serve did not stop within {shutdown:.0f} s:\n{stopped}"
            ) from None
        served.returncode, served.stderr = child.returncode, await errors
        STDERR.append(served.stderr)
    finally:
        if child.returncode is None:
            child.kill()


async def read_all(stream: asyncio.StreamReader | None) -> str:
    """All of a stream, kept as it arrives (so a process that has to be killed still
    leaves what it wrote)."""
    assert stream is not None
    chunks = []
    while chunk := await stream.read(65536):
        chunks.append(chunk)
    return b"".join(chunks).decode()


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
        FakeSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack) as served,
    ):
        health = await until_up(http, served)
        assert health.status == 200
        assert (await health.json()) == {
            "status": "ok",
            "database": "sqlite",
            "version": importlib.metadata.version("paperbot"),
        }
    assert served.returncode == 0, served.stderr
    # The start line says which paperbot serves, with its parser and schema versions.
    assert f"{describe()} serving on 0.0.0.0 port {served.port}" in served.stderr
    assert "shutting down" in served.stderr
    assert "Traceback" not in served.stderr
    assert TOKEN not in served.stderr and SECRET not in served.stderr
    assert (tmp_path / "var" / "paperbot.db").is_file()


# Secrets only ever read from files (tests/test_secrets.py greps the run for them).
FILE_TOKEN = "xoxb-test-read-from-a-file"
FILE_SECRET = "file-signing-s3cret-4b1d"
FILE_DB_PASSWORD = "file-db-s3cret-77e0"


async def test_serve_takes_its_secrets_from_files_and_never_logs_them(tmp_path: Path) -> None:
    credentials = tmp_path / "credentials"
    credentials.mkdir(mode=0o700)
    for name, value in (
        ("token", FILE_TOKEN),
        ("signing", FILE_SECRET),
        ("db", f"sqlite+aiosqlite:///{tmp_path}/from-file.db"),
    ):
        (credentials / name).write_text(value + "\n")  # as `echo` writes them
    files = {
        "SLACK_BOT_TOKEN": "",
        "SLACK_SIGNING_SECRET": "",
        "SLACK_BOT_TOKEN_FILE": str(credentials / "token"),
        "SLACK_SIGNING_SECRET_FILE": str(credentials / "signing"),
        "PAPERBOT_DATABASE_URL_FILE": str(credentials / "db"),
        "PAPERBOT_LOG_LEVEL": "DEBUG",
    }
    async with (
        FakeSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack, **files) as served,
    ):
        await until_up(http, served)
        body = command_body(
            "/paper", "help", user="UFILES", channel="C1", response_url=slack.response_url()
        )
        # Requests are checked with the signing secret from the file, not another.
        for secret, status in ((FILE_SECRET, 200), (SECRET, 401)):
            async with http.post(
                f"{served.url}/slack/events", data=body, headers=signed_headers(body, secret)
            ) as response:
                assert response.status == status
    assert served.returncode == 0, served.stderr
    assert (tmp_path / "from-file.db").is_file()  # the store named by the URL's file
    assert "POST /slack/events 200" in served.stderr  # DEBUG and INFO lines were written
    assert FILE_TOKEN not in served.stderr and FILE_SECRET not in served.stderr


async def test_a_database_password_from_a_file_is_used_and_never_logged(
    tmp_path: Path, postgres_url: URL
) -> None:
    """The test server trusts local connections, so the password is carried, not checked."""
    if postgres_url.password:
        pytest.skip("the test server's URL has a password of its own")
    (tmp_path / "password").write_text(FILE_DB_PASSWORD + "\n")
    env = {
        "PAPERBOT_DATABASE_URL": postgres_url.render_as_string(hide_password=False),
        "PAPERBOT_DATABASE_PASSWORD_FILE": str(tmp_path / "password"),
        "PAPERBOT_LOG_LEVEL": "DEBUG",
    }
    upgraded = paperbot("db", "upgrade", cwd=tmp_path, env=env)
    assert upgraded.returncode == 0, upgraded.stderr
    status = paperbot("status", "--json", cwd=tmp_path, env=env)
    assert status.returncode == 0 and json.loads(status.stdout)["database"] == "postgresql"
    for result in (upgraded, status):
        assert FILE_DB_PASSWORD not in result.stdout + result.stderr


async def test_serve_posts_the_summary_once_on_an_every_minute_schedule(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    async with FakeSlack() as slack:
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
        FakeSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack, **logging) as served,
    ):
        await until_up(http, served)
        body = command_body(
            "/paper", "help", user="ULOGGED", channel="C1", response_url=slack.response_url()
        )
        for secret, status in ((SECRET, 200), ("wrong", 401)):
            headers = signed_headers(body, secret)
            async with http.post(
                f"{served.url}/slack/events", data=body, headers=headers
            ) as response:
                assert response.status == status
    lines = [json.loads(line) for line in served.stderr.splitlines()]  # one object a line
    assert all({"time", "level", "logger", "id", "message"} <= line.keys() for line in lines)
    asked = [line for line in lines if line["message"] == "/paper by ULOGGED"]
    assert len(asked) == 1 and asked[0]["id"].startswith("r-")
    done = [line for line in lines if line["message"].startswith("POST /slack/events 200")]
    assert [line["id"] for line in done] == [asked[0]["id"]]
    assert any(line["message"].startswith("POST /slack/events 401") for line in lines)
    assert TOKEN not in served.stderr and SECRET not in served.stderr


def test_a_busy_port_is_one_line_and_nothing_starts(tmp_path: Path) -> None:
    """The port is bound before the store, the scheduler or its catch-up run begin."""
    with socket.socket() as taken, FakeSlackThread() as slack_url:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        due = {"PAPERBOT_DIGEST_CHANNEL": "CTEAM", "PAPERBOT_DIGEST_SCHEDULE": "* * * * *"}
        result = paperbot(
            "serve", "--port", str(port), cwd=tmp_path, env=serve_env(slack_url, **due)
        )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"paperbot: port {port} is in use: stop what uses it, or choose another with --port"
    ]
    assert not (tmp_path / "var").exists()  # not even the database was opened


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (["--host", "192.0.2.1"], {}, "cannot listen on 192.0.2.1:"),  # not this machine's
        (["--host", "no-such-host.invalid"], {}, "cannot listen on 'no-such-host.invalid'"),
        ([], {"PAPERBOT_HOST": "http://example.org/"}, "PAPERBOT_HOST is not an address"),
        (["--port", "70000"], {}, "argument --port: not a TCP port number: '70000'"),
    ],
)
def test_an_address_that_cannot_be_used_is_a_configuration_error(
    tmp_path: Path, args: list[str], env: dict[str, str], line: str
) -> None:
    result = paperbot("serve", *args, cwd=tmp_path, env=serve_env("http://127.0.0.1:9/", **env))
    assert result.returncode == 2
    assert line in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "var").exists()


async def test_host_comes_from_the_environment_or_the_command_line(tmp_path: Path) -> None:
    """127.0.0.2 is a loopback address too: a bot bound there is not on 127.0.0.1."""
    async with FakeSlack() as slack, aiohttp.ClientSession() as http:
        async with serving(tmp_path, slack, host="127.0.0.2", PAPERBOT_HOST="127.0.0.2") as one:
            assert (await until_up(http, one)).status == 200
            with pytest.raises(aiohttp.ClientConnectionError):
                await http.get(f"http://127.0.0.1:{one.port}/healthz")
        async with serving(
            tmp_path, slack, "--host", "127.0.0.1", PAPERBOT_HOST="127.0.0.2"
        ) as two:
            assert (await until_up(http, two)).status == 200
    assert f"serving on 127.0.0.2 port {one.port}" in one.stderr
    assert two.returncode == 0, two.stderr


async def test_bodies_slack_never_sends_leave_warnings_and_no_traceback(tmp_path: Path) -> None:
    async with (
        FakeSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack) as served,
    ):
        await until_up(http, served)
        for body, secret, status in (
            ("payload=x", None, 401),
            ("payload=x", SECRET, 400),
            ("{not json", SECRET, 400),
        ):
            headers = signed_headers(body, secret) if secret else {}
            async with http.post(
                f"{served.url}/slack/events", data=body.encode(), headers=headers
            ) as response:
                assert response.status == status
    assert served.returncode == 0, served.stderr
    assert "Traceback" not in served.stderr and " ERROR " not in served.stderr
    warned = [line for line in served.stderr.splitlines() if " WARNING bot.server " in line]
    assert [line.split(" r-")[1].split()[1:4] for line in warned] == [
        ["POST", "/slack/events", "401"],
        ["POST", "/slack/events", "400"],
        ["POST", "/slack/events", "400"],
    ]


async def test_serve_tells_systemd_it_is_ready_alive_and_stopping(tmp_path: Path) -> None:
    """sd_notify's protocol: datagrams on the Unix socket named by NOTIFY_SOCKET."""
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        async with (
            FakeSlack() as slack,
            aiohttp.ClientSession() as http,
            serving(tmp_path, slack, NOTIFY_SOCKET=address) as served,
        ):
            await until_up(http, served)
            await asyncio.sleep(2.5)
        systemd.setblocking(False)
        told = []
        with contextlib.suppress(BlockingIOError):
            while True:
                told.append(systemd.recv(4096).decode())
    assert served.returncode == 0, served.stderr
    assert told.count("READY=1") == 1 and told.count("STOPPING=1") == 1
    assert told.index("READY=1") < told.index("STOPPING=1")
    alive = told[told.index("READY=1") : told.index("STOPPING=1")]
    assert alive.count("WATCHDOG=1") >= 2  # one a second from the event loop
