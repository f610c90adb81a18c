"""`paperbot serve` keeps answering while it ingests: files are parsed in processes of their own."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import AsyncIterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy.engine import URL

from bot.shell import command_body, signed_headers
from bot.text_view import as_text
from tests.benchmarks.corpus import generate_corpus
from tests.bot.conftest import ADMIN, SECRET, StartBot
from tests.bot.test_serve_process import Served, serving, until_up
from tests.digests import SEEDS
from tests.fake_slack import FakeSlack

PAPERS = 800  # two files, 3.7 MB of deep reads and 1.7 MB of HuggingFace entries
MAX_GAP_S = 1.0


@pytest.fixture(scope="module")
def large_digests(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("large") / "digests"
    generate_corpus(folder, PAPERS, papers_per_file=PAPERS)
    (folder / "manifest.json").unlink()  # it describes the corpus; it is no digest
    return folder


@contextlib.asynccontextmanager
async def serving_digests(
    tmp_path: Path, database_url: URL, digests: Path
) -> AsyncIterator[tuple[aiohttp.ClientSession, Served, asyncio.Future[list[dict[str, Any]]]]]:
    """`paperbot serve` run from `tmp_path` on the `digests` folder, sent `/reingest`: an
    HTTP session, the server, and its report to come."""
    env = {
        "PAPERBOT_DATABASE_URL": database_url.render_as_string(hide_password=False),
        "PAPERBOT_DIGEST_DIR": str(digests),
        "PAPERBOT_SETTLE_SECONDS": "0",
        "PAPERBOT_ADMINS": ADMIN,
    }
    async with (
        FakeSlack() as slack,
        aiohttp.ClientSession() as http,
        serving(tmp_path, slack, **env) as served,
    ):
        await until_up(http, served)
        body = command_body(
            "/reingest", "", user=ADMIN, channel="CPAPERS", response_url=slack.response_url()
        )
        async with http.post(
            f"{served.url}/slack/events", data=body, headers=signed_headers(body, SECRET)
        ) as response:
            assert response.status == 200
        yield http, served, asyncio.ensure_future(slack.wait_for("response_url", 1, within=180))


async def test_healthz_answers_every_check_while_reingest_parses_large_digests(
    tmp_path: Path, database_url: URL, large_digests: Path
) -> None:
    shutil.copytree(large_digests, tmp_path / "digests")
    async with serving_digests(tmp_path, database_url, tmp_path / "digests") as (
        http,
        served,
        done,
    ):
        started = time.monotonic()
        answered, statuses = [started], []
        while not done.done():
            async with http.get(f"{served.url}/healthz") as health:
                statuses.append(health.status)
                answered.append(time.monotonic())
            await asyncio.sleep(0.02)
        reply = (await done)[0]

    assert f"{PAPERS} new" in reply["text"] and "0 failed" in reply["text"], reply["text"]
    assert set(statuses) == {200}
    longest = max(later - earlier for earlier, later in pairwise(answered))
    print(
        f"\nlongest gap between /healthz answers: {longest * 1000:.0f} ms "
        f"over {len(statuses)} checks in {answered[-1] - started:.1f} s"
    )
    assert longest < MAX_GAP_S, f"/healthz went {longest:.2f} s without an answer"


async def test_reingest_reports_a_file_over_the_limit_in_one_line_and_loads_the_others(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    with (tmp_path / "digests" / "export.txt").open("wb") as export:
        export.truncate(3 * 2**20)
    bot = await start_bot(database_url, PAPERBOT_MAX_FILE_MB="2.5")

    await bot.command("/reingest", user=ADMIN)
    report = as_text((await bot.responses(1, within=30))[0])

    assert "files 3 new, 0 changed, 0 unchanged, 1 failed; 36 new" in report
    line = "file is 3 MB; the limit is 2.5 MB (PAPERBOT_MAX_FILE_MB)"
    assert f"• `{tmp_path / 'digests' / 'export.txt'}`: {line}" in report.splitlines()
    status, found = await bot.command("/paper GAPO")
    assert status == 200 and "GAPO" in as_text(found)


async def test_serve_run_from_a_folder_with_modules_of_the_same_names_parses_every_file(
    tmp_path: Path, database_url: URL
) -> None:
    # serve's parse process is spawned: it must find paperbot's modules, not these.
    for package in ("bot", "jobs", "storage"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("raise RuntimeError('not paperbot')\n")
    shutil.copytree(SEEDS, tmp_path / "digests")
    async with serving_digests(tmp_path, database_url, Path("digests")) as (_, _, done):
        reply = (await done)[0]

    assert "files 3 new, 0 changed, 0 unchanged, 0 failed; 36 new" in reply["text"], reply["text"]
