"""One module per Slack surface; `register_listeners` adds them all to the app."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.listeners import actions, commands, errors, events
from bot.services import Services


def register_listeners(app: AsyncApp, services: Services) -> None:
    commands.register(app, services)
    actions.register(app, services)
    events.register(app, services)
    errors.register(app)
