"""Benchmark: commands over signed HTTP while `paperbot serve` ingests a large delivery.

    python -m tests.benchmarks.bench_ingest_beside_commands [--papers 4000]
        [--papers-per-file N] [--before EXE] [--runs 2] [--write]

A SQLite store holds the seeds; `paperbot serve` runs on it as a child process. Ordinary
commands (`/claims`, `/paper`) are sent one after the other, 0.1 s apart, as Slack sends
them: for 8 s with nothing else to do, then from a `/reingest` of the synthetic corpus's
`--papers` (in one large file a format, or in files of `--papers-per-file`) until its
report arrives. A command's time is from sending it to its answer. The bot's peak memory
is its own (VmHWM), parse processes not counted. `--before EXE` measures another
paperbot first (an older checkout's), for a side by side; `--write` puts the table into
RESULTS.md between the `ingest-beside-commands` markers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.shell import command_body, signed_headers
from tests.benchmarks.bench_suggestions import percentile
from tests.benchmarks.bench_worst import SECRET, Responses, Store, command, serve
from tests.benchmarks.corpus import generate_corpus
from tests.benchmarks.results import write_section
from tests.digests import SEEDS
from tests.fake_slack import FakeSlack

ADMIN = "UBENCHADMIN"
LINES = ["/claims latency", "/paper GAPO", "/claims 86.20%", "/claims 显存 memory"]
IDLE_S = 8.0
PAUSE_S = 0.1


@dataclass
class Run:
    code: str
    idle: list[float]  # ms
    during: list[float]  # ms
    ingest_s: float
    peak_mb: float
    report: str


async def commands_until(
    http: aiohttp.ClientSession, url: str, responses: Responses, done: asyncio.Future[Any]
) -> list[float]:
    times = []
    for number in range(10**6):
        if done.done():
            break
        _, took, _ = await command(http, url, responses, LINES[number % len(LINES)])
        times.append(took * 1000)
        await asyncio.sleep(PAUSE_S)
    return times


def prepare(paperbot: list[str], workdir: Path) -> tuple[Store, Path]:
    """A fresh SQLite store of the seeds, and its digest folder."""
    folder, database = workdir / "digests", workdir / "store.db"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(SEEDS, folder)
    for stale in workdir.glob("store.db*"):
        stale.unlink()
    store = Store("sqlite", f"sqlite+aiosqlite:///{database}")
    subprocess.run(
        [*paperbot, "ingest", "--no-embed", str(folder)],
        env=os.environ | {"PAPERBOT_DATABASE_URL": store.url},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return store, folder


def deliver(large: Path, folder: Path) -> None:
    for path in large.iterdir():
        shutil.copy(path, folder / path.name)


def peak_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) / 1024


async def one_run(code: str, paperbot: list[str], large: Path, workdir: Path) -> Run:
    store, folder = await asyncio.to_thread(prepare, paperbot, workdir)
    responses = Responses()
    runner = await responses.start()
    extra = {
        "PAPERBOT_ADMINS": ADMIN,
        "PAPERBOT_DIGEST_DIR": str(folder),
        "PAPERBOT_SETTLE_SECONDS": "0",
        "PAPERBOT_EMBEDDER": "none",
    }
    async with FakeSlack() as slack:
        child, url = await serve(store, slack, workdir, extra, paperbot)
        try:
            async with aiohttp.ClientSession() as http:
                idle_until = asyncio.get_running_loop().create_future()
                asyncio.get_running_loop().call_later(IDLE_S, idle_until.set_result, None)
                idle = await commands_until(http, url, responses, idle_until)
                await asyncio.to_thread(deliver, large, folder)
                response_url, reported = responses.new()
                body = command_body(
                    "/reingest", "", user=ADMIN, channel="CBENCH", response_url=response_url
                )
                started = time.perf_counter()
                async with http.post(
                    f"{url}/slack/events", data=body.encode(), headers=signed_headers(body, SECRET)
                ) as ack:
                    assert ack.status == 200, await ack.text()
                during = await commands_until(http, url, responses, reported)
                ingest_s = time.perf_counter() - started
                peak = await asyncio.to_thread(peak_mb, child.pid)
        finally:
            child.terminate()
            child.wait(60)
            await runner.cleanup()
    return Run(code, idle, during, ingest_s, peak, str(reported.result()["text"]))


def table(runs: list[Run], papers: int, per_file: int | None, megabytes: float) -> str:
    files = f"in files of {per_file:,}" if per_file else "in one file a format"
    lines = [
        f"Commands (`/claims`, `/paper`, one at a time, 0.1 s apart) over signed HTTP to "
        f"`paperbot serve` on a SQLite store of the seeds: {IDLE_S:.0f} s idle, then while "
        f"`/reingest` loads {papers:,} synthetic papers {files} "
        f"({megabytes:.1f} MB), until its report arrives. Milliseconds from sending a command "
        "to its answer; the bot's peak memory (parse processes not counted).",
        "",
        "| code | idle p50 / p90 / max | during the ingest p50 / p90 / max | commands during "
        "| ingest | bot peak memory |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        idle = " / ".join(f"{percentile(run.idle, q):.1f}" for q in (0.5, 0.9))
        during = " / ".join(f"{percentile(run.during, q):.1f}" for q in (0.5, 0.9))
        lines.append(
            f"| {run.code} | {idle} / {max(run.idle):.1f} | {during} / {max(run.during):.1f} "
            f"| {len(run.during)} | {run.ingest_s:.1f} s | {run.peak_mb:.0f} MB |"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> list[Run]:
    large = corpus_folder(args)
    if not (large / "manifest.json").exists():
        generate_corpus(large, args.papers, papers_per_file=args.papers_per_file or args.papers)
    (large / "manifest.json").unlink(missing_ok=True)
    codes = [("this", [sys.executable, "-m", "bot.cli"])]
    if args.before:
        codes.insert(0, ("before", [args.before]))
    runs = []
    for _ in range(args.runs):
        for code, paperbot in codes:
            run = await one_run(code, paperbot, large, args.workdir)
            print(
                f"{code}: idle p90 {percentile(run.idle, 0.9):.1f} ms, during p90 "
                f"{percentile(run.during, 0.9):.1f} max {max(run.during):.1f} ms, "
                f"{run.ingest_s:.1f} s: {run.report[:90]}",
                file=sys.stderr,
            )
            runs.append(run)
    return runs


def corpus_folder(args: argparse.Namespace) -> Path:
    workdir: Path = args.workdir
    return workdir / f"large-{args.papers}-{args.papers_per_file or args.papers}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=4_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-bench-beside"))
    parser.add_argument("--before", help="another paperbot executable to measure first")
    parser.add_argument("--papers-per-file", type=int, help="default: one file a format")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    runs = asyncio.run(main_async(args))
    megabytes = sum(p.stat().st_size for p in corpus_folder(args).iterdir())
    section = table(runs, args.papers, args.papers_per_file, megabytes / 1e6)
    print(section)
    if args.write:
        write_section("ingest-beside-commands", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
