"""A throwaway PostgreSQL server for the test session, started from the machine's binaries.

The server runs as the `postgres` user when the tests run as root (initdb and pg_ctl
refuse root), on a private port and data folder, with UTF-8 encoding and locale, so
Chinese text is stored and indexed as on a production server. Set
PAPERBOT_TEST_POSTGRES_URL to use a server of your own.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


class PostgresUnavailable(RuntimeError):
    pass


def _bindir() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    raise PostgresUnavailable("no PostgreSQL binaries (initdb, pg_ctl) on PATH")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def deployed_settings() -> dict[str, str]:
    """The settings deploy/docker-compose.yml runs PostgreSQL with (`-c name=value`): the
    benchmarks measure the store as it is deployed."""
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    command = compose["services"]["postgres"].get("command", [])
    pairs = [value for flag, value in itertools.pairwise(command) if flag == "-c"]
    return dict(pair.split("=", 1) for pair in pairs)


class PostgresServer:
    def __init__(self, settings: Mapping[str, str] | None = None) -> None:
        self.settings = dict(settings or {})
        self.bindir = _bindir()
        self.base = Path(tempfile.mkdtemp(prefix="paperbot-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.base, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise PostgresUnavailable(f"{args[0]} failed: {result.stderr.strip()}")

    def start(self) -> str:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        self._pg_ctl("start")
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def restart(self) -> None:
        """Shut down as an operator would (fast: sessions ended, buffers written) and start."""
        self._pg_ctl("-m", "fast", "restart")

    def _pg_ctl(self, *action: str) -> None:
        options = (
            f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        ) + "".join(f" -c {name}={value}" for name, value in self.settings.items())
        log = str(self.base / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", *action)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


def start_for_test(server: PostgresServer) -> str:
    """Start `server` for a test: without PostgreSQL binaries the test fails in CI, where
    PostgreSQL is required, and is skipped elsewhere."""
    try:
        return server.start()
    except PostgresUnavailable as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI: {error}")
        pytest.skip(f"PostgreSQL not available: {error}")
