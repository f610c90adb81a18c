"""The Slack app manifest matches the code: commands, events, scopes and URLs."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import URL

from bot.command_table import NAMES
from bot.manifest import EXAMPLE_REQUEST_URL
from tests.bot.conftest import StartBot
from tests.cli.helpers import paperbot

ROOT = Path(__file__).resolve().parents[2]
# The bot scope each Web API method needs (methods that need none map to None).
METHOD_SCOPES = {
    "chat_postMessage": "chat:write",
    "chat_unfurl": "links:write",
    "conversations_open": "im:write",
    "views_publish": None,
    "views_open": None,  # the Full review modal: no scope, a trigger_id from the user
    "views_push": None,
    "auth_test": None,
    "chat_postEphemeral": "chat:write",
}
# The bot scope each event needs.
EVENT_SCOPES = {"link_shared": "links:read", "app_home_opened": None}


def decorator_names(method: str) -> set[str]:
    """Every X in `@app.<method>(X)` under bot/listeners (names of constants as written)."""
    found = set()
    for path in (ROOT / "bot" / "listeners").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == method
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "app"
                and node.args
            ):
                first = node.args[0]
                found.add(
                    str(first.value) if isinstance(first, ast.Constant) else ast.unparse(first)
                )
    return found


def web_api_methods() -> set[str]:
    """Every `client.<method>(...)` (or `x.client.<method>`) the bot and its jobs call."""
    found = set()
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "jobs").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and ast.unparse(node.func.value).split(".")[-1] == "client"
            ):
                found.add(node.func.attr)
    return found


def printed(*args: str, tmp_path: Path) -> dict[str, Any]:
    result = paperbot("manifest", *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = yaml.safe_load(result.stdout)
    return loaded


def commands_of(manifest: dict[str, Any]) -> list[str]:
    return [c["command"] for c in manifest["features"]["slash_commands"]]


def test_registered_commands_and_events_are_the_manifest_s(tmp_path: Path) -> None:
    manifest = printed(tmp_path=tmp_path)
    # Slash commands are registered from the command table only, and the manifest lists it.
    assert decorator_names("command") == {"command.name"}
    assert commands_of(manifest) == list(NAMES) == ["/paper", "/claims", "/digest", "/reingest"]
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    assert decorator_names("event") == set(events) == {"link_shared", "app_home_opened"}
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    # buttons need interactivity
    assert decorator_names("action")
    assert manifest["settings"]["interactivity"]["is_enabled"] is True


def test_scopes_are_exactly_those_the_web_api_calls_need(tmp_path: Path) -> None:
    called = web_api_methods()
    assert "chat_postMessage" in called
    unknown = called - METHOD_SCOPES.keys()
    assert not unknown, f"add the scope of {unknown} to METHOD_SCOPES and the manifest"
    manifest = printed(tmp_path=tmp_path)
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    needed = {METHOD_SCOPES[m] for m in called} | {EVENT_SCOPES[e] for e in events}
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == needed - {None} | {"commands"}


async def test_every_manifest_command_is_answered_by_the_running_bot(
    start_bot: StartBot, seeded_url: URL, tmp_path: Path
) -> None:
    bot = await start_bot(seeded_url)
    for command in commands_of(printed(tmp_path=tmp_path)):
        status, reply = await bot.command(f"{command} help")
        assert status == 200, command
        assert command in reply["text"], reply  # its usage, not Bolt's "unhandled request"


@pytest.mark.parametrize("given", ["https://bots.example.org", "bots.example.org"])
def test_http_mode_sends_everything_to_the_events_route(given: str, tmp_path: Path) -> None:
    manifest = printed("--request-url", given, tmp_path=tmp_path)
    url = "https://bots.example.org/slack/events"
    assert {c["url"] for c in manifest["features"]["slash_commands"]} == {url}
    assert manifest["settings"]["interactivity"]["request_url"] == url
    assert manifest["settings"]["socket_mode_enabled"] is False


def keys(tree: Any) -> set[str]:
    if isinstance(tree, dict):
        return set(tree) | {k for value in tree.values() for k in keys(value)}
    return {k for item in tree for k in keys(item)} if isinstance(tree, list) else set()


def test_socket_mode_has_no_urls(tmp_path: Path) -> None:
    manifest = printed(tmp_path=tmp_path)
    assert not {key for key in keys(manifest) if key == "url" or key.endswith("_url")}
    assert "url" in keys(printed("--request-url", EXAMPLE_REQUEST_URL, tmp_path=tmp_path))
    assert manifest["settings"]["socket_mode_enabled"] is True


def test_the_deploy_manifest_is_the_printed_one(tmp_path: Path) -> None:
    result = paperbot("manifest", "--request-url", EXAMPLE_REQUEST_URL, cwd=tmp_path)
    shipped = (ROOT / "deploy" / "slack-manifest.yml").read_text()
    assert shipped == result.stdout, (
        "regenerate: paperbot manifest --request-url "
        f"{EXAMPLE_REQUEST_URL} > deploy/slack-manifest.yml"
    )


@pytest.mark.parametrize(
    "url", ["http://bots.example.org/slack/events", "ftp://bots.example.org", "", "https://"]
)
def test_a_request_url_slack_cannot_call_is_refused(url: str, tmp_path: Path) -> None:
    result = paperbot("manifest", "--request-url", url, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("paperbot: --request-url must be the public https:// address")
    assert len(result.stderr.strip().splitlines()) == 1
