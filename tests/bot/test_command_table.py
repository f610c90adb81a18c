"""The command table is the one place that says who may run what: its admin-only forms are
refused to members over HTTP, and nothing else is."""

from __future__ import annotations

import pytest

from bot.command_table import BY_NAME, COMMANDS, HELP
from bot.slash_commands import USE_CASES
from bot.text_view import as_text
from tests.bot.conftest import ADMIN, Bot

ADMIN_FORMS = [(c.name, form) for c in COMMANDS for form in c.for_admins]


@pytest.mark.parametrize(("name", "form"), ADMIN_FORMS)
async def test_a_member_is_refused_each_admin_only_form(bot: Bot, name: str, form: str) -> None:
    typed = f"{name} {form}".strip()
    _, reply = await bot.command(typed)
    assert as_text(reply).startswith(f"Only admins can run `{typed}`")


async def test_help_is_the_tables_and_comes_before_the_admin_check(bot: Bot) -> None:
    for command in COMMANDS:
        _, reply = await bot.command(f"{command.name} help")
        assert as_text(reply).replace("\\", "") == HELP[command.name].replace("\\", ""), command


@pytest.mark.parametrize(
    ("name", "text", "admin_only"),
    [
        ("/paper", "subscribe channel AUROC", "/paper subscribe channel"),
        ("/paper", "SUBSCRIBE  Channel at:09:00 AUROC", "/paper subscribe channel"),
        ("/paper", "subscribe channelling", None),
        ("/paper", "subscribe AUROC", None),
        ("/digest", "", None),
        ("/digest", "post", "/digest post"),
        ("/reingest", "", "/reingest"),
        ("/reingest", "force", "/reingest"),
        ("/claims", "post", None),
    ],
)
def test_admin_only_forms_are_matched_word_by_word(
    name: str, text: str, admin_only: str | None
) -> None:
    assert BY_NAME[name].needs_admin(text) == admin_only


async def test_an_admin_may_run_what_a_member_may_not(bot: Bot) -> None:
    _, reply = await bot.command("/digest post", user=ADMIN)
    assert "Only admins" not in as_text(reply)


def test_every_command_of_the_table_has_a_use_case_and_no_other_does() -> None:
    assert set(USE_CASES) == set(BY_NAME)
