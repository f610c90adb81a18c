"""The Slack app manifest: what Slack must know about the app, generated from the tables
of commands (bot/command_table.py), scopes and events.

`paperbot manifest --request-url URL` prints it for HTTP mode (every request goes to the
bot's `POST /slack/events`); without a URL it is the Socket Mode variant, where Slack needs
no URL at all. `deploy/slack-manifest.yml` is the HTTP variant with a placeholder URL.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import yaml

from bot.command_table import COMMANDS

EVENTS_PATH = "/slack/events"
EXAMPLE_REQUEST_URL = "https://paperbot.example.com/slack/events"


# commands: the slash commands; chat:write: the daily summary, subscription messages and
# "Share in channel" (channels the bot was invited to; it says so when it was not);
# im:write: opening the direct message a subscriber's daily list goes to;
# links:read / links:write: seeing pasted arXiv links and unfurling them.
# Buttons (Full review opens a modal with views.open) need interactivity, not a scope.
BOT_SCOPES = ("commands", "chat:write", "im:write", "links:read", "links:write")
BOT_EVENTS = ("app_home_opened", "link_shared")
UNFURL_DOMAINS = ("arxiv.org", "papers.cool")


class BadRequestUrl(ValueError):
    """The URL given for Slack's requests cannot work; the message says why."""


def request_url(raw: str) -> str:
    """The URL Slack sends requests to: https, and `/slack/events` when only a host is given."""
    given = raw.strip()
    if "://" not in given:  # a bare host, `paperbot.example.org`
        given = f"https://{given}"
    parsed = urlparse(given)
    if parsed.scheme != "https" or not parsed.netloc:
        raise BadRequestUrl(
            f"--request-url must be the public https:// address of the bot, e.g. "
            f"{EXAMPLE_REQUEST_URL} (Slack only calls https URLs): {raw!r}"
        )
    if parsed.path in ("", "/"):
        parsed = parsed._replace(path=EVENTS_PATH)
    return parsed.geturl()


def manifest(url: str | None) -> dict[str, Any]:
    """The manifest for HTTP mode at `url` (from `request_url`), or Socket Mode when None."""
    socket_mode = url is None
    at_url = {} if socket_mode else {"url": url}
    at_request_url = {} if socket_mode else {"request_url": url}
    return {
        "_metadata": {"major_version": 1, "minor_version": 1},
        "display_information": {
            "name": "paperbot",
            "description": "Look papers up, search the claims they make, get a daily summary.",
            "background_color": "#1d3557",
        },
        "features": {
            "app_home": {
                "home_tab_enabled": True,
                "messages_tab_enabled": True,  # where subscription messages arrive
                "messages_tab_read_only_enabled": True,
            },
            "bot_user": {"display_name": "paperbot", "always_online": True},
            "slash_commands": [
                {
                    "command": c.name,
                    "description": c.description,
                    "usage_hint": c.usage,
                    **at_url,
                    "should_escape": False,
                }
                for c in COMMANDS
            ],
            "unfurl_domains": list(UNFURL_DOMAINS),
        },
        "oauth_config": {"scopes": {"bot": list(BOT_SCOPES)}},
        "settings": {
            "event_subscriptions": {**at_request_url, "bot_events": list(BOT_EVENTS)},
            "interactivity": {"is_enabled": True, **at_request_url},
            "org_deploy_enabled": False,
            "socket_mode_enabled": socket_mode,
            "token_rotation_enabled": False,
        },
    }


def manifest_yaml(url: str | None) -> str:
    how = "api.slack.com/apps → Create New App → From a manifest → paste this.\n"
    if url is None:
        header = "# Slack app manifest for paperbot in Socket Mode (`paperbot manifest`).\n# " + how
    else:
        header = (
            f"# Slack app manifest for paperbot in HTTP mode, made by\n"
            f"# `paperbot manifest --request-url {url}`.\n"
            "# Put your bot's public https address in every url below (or regenerate it), then\n"
            "# " + how
        )
    return header + yaml.safe_dump(manifest(url), sort_keys=False, allow_unicode=True)
