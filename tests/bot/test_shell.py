"""`paperbot ask` and `shell`: the same app and listeners, offline, as text or JSON."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from bot.command_table import COMMANDS
from bot.settings import load_settings
from bot.shell import UnknownCommand, offline_bot
from tests.bot.limits import limit_violations
from tests.cli.helpers import PAPERBOT, outside_environment, paperbot
from tests.digests import SEEDS, Entry, huggingface_digest, write

EVERY_COMMAND = [
    "/paper",
    "/paper help",
    "/paper GAPO",
    "/paper 2609.35259",
    "/paper 强化学习",
    "/paper streaming video",
    "/paper nothing-like-this",
    "/paper " + "x" * 400,
    "/claims",
    "/claims AUROC",
    "/claims 延迟",
    "/claims 模型",
    "/claims 0.886 paper:GAPO",
    "/claims paper:Hunyuan-A13B",
    "/claims AUROC since:nope",
    "/claims 😀",
    "/digest",
    "/digest help",
    "/digest post",
    "/reingest help",
    "/reingest",
]


@pytest.mark.parametrize("line", EVERY_COMMAND)
async def test_every_reply_on_the_seeds_stays_within_slack_limits(
    seeded_url: URL, tmp_path: Path, line: str
) -> None:
    env = {
        "PAPERBOT_DATABASE_URL": seeded_url.render_as_string(hide_password=False),
        "PAPERBOT_EMBEDDER": "hash",
        "PAPERBOT_INDEX_DIR": str(tmp_path / "index"),
    }
    async with offline_bot(load_settings(env, dotenv_path=tmp_path / "none")) as bot:
        sent = await bot.ask(line, user="UMEMBER", channel="CLOCAL")
    assert sent
    for message in sent:
        assert limit_violations(message.payload) == [], (line, message.via)


async def test_an_unknown_command_is_refused(tmp_path: Path) -> None:
    env = {
        "PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
        "PAPERBOT_EMBEDDER": "hash",
        "PAPERBOT_INDEX_DIR": str(tmp_path / "index"),
    }
    async with offline_bot(load_settings(env, dotenv_path=tmp_path / "none")) as bot:
        with pytest.raises(UnknownCommand, match="try /paper"):
            await bot.ask("/unknown", user="U1", channel="C1")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    return tmp_path


def test_ask_prints_the_gapo_card(workdir: Path) -> None:
    result = paperbot("ask", "/paper GAPO", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("GAPO\n====\n")
    assert "[Show claims (10)]" in result.stdout


def test_ask_as_a_non_admin_prints_the_refusal(workdir: Path) -> None:
    result = paperbot("ask", "/reingest", "--user", "UNOTADMIN", cwd=workdir)
    assert result.returncode == 0
    assert result.stdout.strip().startswith("Only admins can run `/reingest`.")


def test_ask_as_an_admin_reingests_and_reports(workdir: Path) -> None:
    write(
        workdir / "seeds" / "new.txt",
        huggingface_digest("2026-10-05", [Entry("2610.12345", "New")]),
    )
    env = {"PAPERBOT_ADMINS": "UBOSS"}
    result = paperbot("ask", "/reingest", "--user", "UBOSS", cwd=workdir, env=env)
    assert result.returncode == 0, result.stderr
    assert "Reading new and changed files" in result.stdout
    assert (
        "files 1 new, 0 changed, 3 unchanged, 0 failed; 1 new and 0 updated papers" in result.stdout
    )


def test_ask_json_prints_the_slack_payloads(workdir: Path) -> None:
    result = paperbot("ask", "/claims AUROC", "--json", cwd=workdir)
    sent = json.loads(result.stdout)
    assert [s["via"] for s in sent] == ["ack"]
    assert sent[0]["payload"]["response_type"] == "ephemeral"
    assert limit_violations(sent[0]["payload"]) == []


def test_ask_an_unknown_command_exits_2(workdir: Path) -> None:
    result = paperbot("ask", "/nope", cwd=workdir)
    assert result.returncode == 2
    assert result.stderr.startswith("paperbot: unknown command '/nope'")


def test_the_shell_answers_help_then_a_command(workdir: Path) -> None:
    env = outside_environment()
    typed = "help\n/paper GAPO\nquit\n"
    result = subprocess.run(
        [PAPERBOT, "shell"],
        input=typed,
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    listed = result.stdout.split("Slash commands", 1)[1]
    for command in COMMANDS:
        assert f"{command.name} {command.usage}" in listed
    assert "GAPO" in listed.split("quit", 1)[1]
