"""Benchmark: the fixed cost of a command, over signed HTTP, beside a bare Bolt app.

    python -m tests.benchmarks.bench_overhead [--requests 300] [--postgresql] [--write]

Starts `paperbot serve` as a child process on the bundled seeds (a SQLite file; with
`--postgresql` also a throwaway PostgreSQL server), pointed at the fake Slack Web API
(tests/fake_slack.py), and beside it two bare Bolt apps whose `/paper` only acks
(tests/benchmarks/bare_bolt.py): one with Bolt's defaults and one that runs the listener
inline. Requests are signed as Slack signs them and sent one at a time over a kept-alive
connection, the kinds taking turns. A command's time is from sending it to its answer: the
acknowledgement when it carries the answer, else the post to its response URL (what the
user waits for). The first command after a fresh start is timed separately, on processes
started for it (the median of 3). `--write` puts the table into
tests/benchmarks/RESULTS.md between the `overhead` markers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from tests.benchmarks.bare_bolt import SECRET
from tests.benchmarks.bench_search import percentile
from tests.benchmarks.bench_worst import Responses, command, free_port
from tests.benchmarks.results import write_section
from tests.fake_slack import FakeSlack
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
TARGET_RATIO = 3.0  # `/paper help` p50 against the bare Bolt handler's p50
STARTS = 3  # fresh processes on which the first command after start is timed, each kind


@dataclass(frozen=True)
class Kind:
    label: str
    server: str  # "paperbot", "bare" (listener inline) or "bare-default" (Bolt's defaults)
    line: str | None  # a slash command, or None for GET /healthz


HEALTHZ = Kind("`GET /healthz`", "paperbot", None)
HELP = Kind("`/paper help`", "paperbot", "/paper help")
BARE = Kind("bare Bolt `/paper`, listener inline", "bare", "/paper help")
BARE_DEFAULT = Kind("bare Bolt `/paper`, Bolt's defaults", "bare-default", "/paper help")
KINDS = [
    HEALTHZ,
    HELP,
    Kind("`/claims AUROC`", "paperbot", "/claims AUROC"),
    Kind("`/paper GAPO`", "paperbot", "/paper GAPO"),
    BARE,
    BARE_DEFAULT,
]


@dataclass
class Run:
    store: str
    first_ms: dict[str, list[float]] = field(default_factory=dict)
    times_ms: dict[str, list[float]] = field(default_factory=dict)
    web_api_calls: Counter[str] = field(default_factory=Counter)
    answers: dict[str, str] = field(default_factory=dict)


class Child:
    """A server process on a free port, ready once `GET /healthz` answers 200."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name = args[0]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", *args, "--port", str(self.port)],
            env=env,
            cwd=log.parent,
            stdout=self.log,
            stderr=self.log,
        )

    async def ready(self, http: aiohttp.ClientSession) -> Child:
        for _ in range(600):
            if self.process.poll() is not None:
                raise SystemExit(f"{self.name} exited; see {self.log.name}")
            try:
                async with http.get(f"{self.url}/healthz") as r:
                    if r.status == 200:
                        return self
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
        raise SystemExit(f"{self.name} did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


def starter(database_url: str, slack: FakeSlack, workdir: Path) -> Callable[[str], Child]:
    # The deployed bot's defaults (log level INFO included), its lines going to a file.
    paperbot_env = os.environ | {
        "PAPERBOT_DATABASE_URL": database_url,
        "SLACK_BOT_TOKEN": "xoxb-bench",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": slack.api_url,
        "PAPERBOT_INGEST_SCHEDULE": "",
        "PAPERBOT_DIGEST_CHANNEL": "",
        "PYTHONPATH": str(ROOT),
    }
    bare_env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    bare_env["PYTHONPATH"] = str(ROOT)

    def start(server: str) -> Child:
        log = workdir / f"{server}.log"
        if server == "paperbot":
            return Child(["bot.cli", "serve", "--host", "127.0.0.1"], paperbot_env, log)
        args = ["tests.benchmarks.bare_bolt", "--api-url", slack.api_url]
        if server == "bare":
            args.append("--process-before-response")
        return Child(args, bare_env, log)

    return start


async def timed(
    http: aiohttp.ClientSession, child: Child, kind: Kind, responses: Responses
) -> tuple[float, str]:
    """Milliseconds to the answer, and the answer's first words."""
    if kind.line is None:
        started = time.perf_counter()
        async with http.get(f"{child.url}/healthz") as r:
            answer = await r.text()
        return (time.perf_counter() - started) * 1000, answer[:60]
    status, seconds, answer = await command(http, child.url, responses, kind.line)
    if status != 200:
        raise SystemExit(f"{kind.label} answered {status}: {answer}")
    return seconds * 1000, answer[:60]


async def bench_store(run: Run, database_url: str, requests: int, workdir: Path) -> None:
    responses = Responses()
    receiver = await responses.start()
    async with FakeSlack() as slack, aiohttp.ClientSession() as http:
        start = starter(database_url, slack, workdir)
        try:
            # The first command after start, each on a process started for it.
            for kind in [k for k in KINDS if k.line is not None] * STARTS:
                child = await start(kind.server).ready(http)
                try:
                    took, _ = await timed(http, child, kind, responses)
                    run.first_ms.setdefault(kind.label, []).append(took)
                finally:
                    child.stop()
            children = {s: await start(s).ready(http) for s in ("paperbot", "bare", "bare-default")}
            try:
                await rounds(run, http, children, responses, slack, requests)
            finally:
                for child in children.values():
                    child.stop()
        finally:
            await receiver.cleanup()


async def rounds(
    run: Run,
    http: aiohttp.ClientSession,
    children: dict[str, Child],
    responses: Responses,
    slack: FakeSlack,
    requests: int,
) -> None:
    for _ in range(10):  # warm-up, not counted
        for kind in KINDS:
            await timed(http, children[kind.server], kind, responses)
    before = len(slack.calls)
    for _ in range(requests):
        for kind in KINDS:
            took, answer = await timed(http, children[kind.server], kind, responses)
            run.times_ms.setdefault(kind.label, []).append(took)
            run.answers[kind.label] = answer
    run.web_api_calls.update(call.method for call in slack.calls[before:])
    for label, answer in run.answers.items():  # what was timed: an answer, not a refusal
        print(f"{run.store}, {label}: {answer!r}", file=sys.stderr)


def seed(database_url: str, workdir: Path) -> None:
    env = os.environ | {"PAPERBOT_DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, "-m", "bot.cli", "ingest", str(ROOT / "seeds")],
        env=env,
        cwd=workdir,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def bench(requests: int, workdir: Path, postgresql: bool) -> list[Run]:
    database = workdir / "overhead.db"
    for leftover in workdir.glob("overhead.db*"):
        leftover.unlink()
    url = f"sqlite+aiosqlite:///{database}"
    seed(url, workdir)
    runs = [Run("SQLite")]
    asyncio.run(bench_store(runs[-1], url, requests, workdir))
    if postgresql:
        server = PostgresServer()
        try:
            url = server.start()
            seed(url, workdir)
            runs.append(Run("PostgreSQL"))
            asyncio.run(bench_store(runs[-1], url, requests, workdir))
        finally:
            server.stop()
    return runs


def report(runs: list[Run], requests: int, command_line: str) -> str:
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) + " (1, 5, 15 min)"
    lines = [
        "### Fixed cost per command, over signed HTTP",
        "",
        f"Reproduce: `{command_line}`. `paperbot serve` on the bundled seeds with its default",
        "settings (log level INFO, lines to a file), beside a bare Bolt app whose `/paper` only",
        f"acks; {requests} signed requests of each kind, one at a time, the kinds taking turns,",
        "over a kept-alive connection. A command's time runs to its answer (the acknowledgement",
        "carries it here). The first command after start is timed on fresh processes (the",
        f"median of {STARTS} starts; `serve` runs one search of each kind before it serves:",
        "`_warm` in bot/server.py).",
        "Bolt's defaults start the listener as a task and poll for its acknowledgement every",
        "10 ms; paperbot's listeners, like the other bare app's, run inline and return once they",
        f"acknowledge (bot/listeners/acking.py). Load average when the run ended: {load}.",
        "",
        "| store | request | first after start | p50 | p90 | p99 | max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        for kind in KINDS:
            times = run.times_ms[kind.label]
            firsts = run.first_ms.get(kind.label)
            first_cell = f"{percentile(firsts, 50):.1f} ms" if firsts else "–"
            lines.append(
                f"| {run.store} | {kind.label} | {first_cell} | {percentile(times, 50):.1f} ms "
                f"| {percentile(times, 90):.1f} ms | {percentile(times, 99):.1f} ms "
                f"| {max(times):.1f} ms |"
            )
    lines.append("")
    for run in runs:
        help_p50 = percentile(run.times_ms[HELP.label], 50)
        bare_p50 = percentile(run.times_ms[BARE.label], 50)
        ratio = help_p50 / bare_p50
        verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
        calls = ", ".join(f"{n} {m}" for m, n in run.web_api_calls.most_common()) or "none"
        lines.append(
            f"- {run.store}: `/paper help` p50 {help_p50:.1f} ms, {ratio:.1f}× the bare Bolt "
            f"handler's {bare_p50:.1f} ms (target ≤ {TARGET_RATIO:.0f}×: {verdict}). "
            f"Web API calls during the timed requests: {calls}."
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="of each kind (default 300)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-overhead"))
    parser.add_argument("--postgresql", action="store_true", help="also on PostgreSQL")
    parser.add_argument("--write", action="store_true", help="write RESULTS.md")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    runs = bench(args.requests, args.workdir, args.postgresql)
    command_line = "python -m tests.benchmarks.bench_overhead" + (
        " --postgresql" if args.postgresql else ""
    )
    section = report(runs, args.requests, command_line + " --write")
    print(section)
    if args.write:
        write_section("overhead", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
