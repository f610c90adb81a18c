"""Socket Mode: the bot connects to Slack (our stand-in) and answers over the WebSocket."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from urllib.parse import parse_qsl

from sqlalchemy.engine import URL

from bot import logs
from bot.server import running
from bot.shell import command_body
from bot.text_view import as_text
from tests.bot.conftest import bot_settings
from tests.fake_slack import FakeSlack

APP_TOKEN = "xapp-1-test-app-token-77f1"


async def test_socket_mode_answers_commands_and_events(seeded_url: URL, tmp_path: Path) -> None:
    lines = io.StringIO()
    requests = logs.handler("text", [], lines)
    logging.getLogger("bot.app").addHandler(requests)
    async with FakeSlack() as slack:
        settings = bot_settings(seeded_url, slack, tmp_path, SLACK_APP_TOKEN=APP_TOKEN)
        async with running(settings, host="127.0.0.1", port=0, socket_mode=True):
            body = command_body(
                "/paper",
                "GAPO",
                user="UMEMBER1",
                channel="CPAPERS",
                response_url=slack.response_url(),
            )
            ack = await slack.push("slash_commands", dict(parse_qsl(body)))
            await slack.push("slash_commands", dict(parse_qsl(body)))
            event = {
                "type": "event_callback",
                "team_id": "T0LOCAL",
                "api_app_id": "A0LOCAL",
                "event_id": "Ev1",
                "event_time": 1,
                "event": {
                    "type": "link_shared",
                    "channel": "CPAPERS",
                    "user": "UMEMBER1",
                    "message_ts": "1700000000.000200",
                    "is_bot_user_member": True,
                    "links": [{"domain": "arxiv.org", "url": "https://arxiv.org/abs/2609.35259"}],
                },
            }
            await slack.push("events_api", event)
            unfurl = (await slack.wait_for("chat.unfurl", 1, within=10))[0]
    logging.getLogger("bot.app").removeHandler(requests)
    # Each request has its own id (the error id its user would see), in Socket Mode too.
    ids = [line.split()[3] for line in lines.getvalue().splitlines() if "/paper by" in line]
    assert len(ids) == 2 and len(set(ids)) == 2 and all(i.startswith("r-") for i in ids)
    # apps.connections.open went to SLACK_API_URL with the app token, as Slack's would.
    opened = [call for call in slack.calls if call.method == "apps.connections.open"]
    assert [call.token for call in opened] == [APP_TOKEN]
    assert ack["payload"]["blocks"][0]["text"]["text"] == "GAPO"
    assert "Show claims" in as_text(ack["payload"])
    assert "https://arxiv.org/abs/2609.35259" in str(unfurl["unfurls"])
