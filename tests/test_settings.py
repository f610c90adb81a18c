"""Settings: defaults, `.env`, normalisation, and a clear error for every bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import ConfigError, Settings, load_settings


def settings_from(env: dict[str, str], tmp_path: Path, dotenv: str | None = None) -> Settings:
    path = tmp_path / ".env"
    if dotenv is not None:
        path.write_text(dotenv)
    return load_settings(env, dotenv_path=path)


def test_defaults_follow_the_contract(tmp_path: Path) -> None:
    s = settings_from({}, tmp_path)
    assert s.database_url.render_as_string() == "sqlite+aiosqlite:///var/paperbot.db"
    assert s.digest_dir == Path("seeds")
    assert s.slack_api_url == "https://slack.com/api/"
    assert s.admins == frozenset()
    assert s.digest_channel is None
    assert s.digest_schedule == "0 9 * * *"
    assert str(s.timezone) == "UTC"
    assert s.ingest_schedule == "*/15 * * * *"
    assert s.port == 3000


def test_environment_overrides_dotenv(tmp_path: Path) -> None:
    s = settings_from(
        {"PAPERBOT_PORT": "8080"},
        tmp_path,
        dotenv="PAPERBOT_PORT=9000\nPAPERBOT_ADMINS=U1, U2,,\nPAPERBOT_TIMEZONE=Asia/Shanghai\n",
    )
    assert s.port == 8080
    assert s.admins == frozenset({"U1", "U2"})
    assert str(s.timezone) == "Asia/Shanghai"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///data/x.db", "sqlite+aiosqlite:///data/x.db"),
        ("postgresql://bot@db/paperbot", "postgresql+asyncpg://bot@db/paperbot"),
        ("postgres://bot@db/paperbot", "postgresql+asyncpg://bot@db/paperbot"),
    ],
)
def test_plain_driver_names_get_their_async_driver(
    given: str, expected: str, tmp_path: Path
) -> None:
    s = settings_from({"PAPERBOT_DATABASE_URL": given}, tmp_path)
    assert s.database_url.render_as_string() == expected


def test_an_empty_ingest_schedule_turns_the_scan_off(tmp_path: Path) -> None:
    assert settings_from({"PAPERBOT_INGEST_SCHEDULE": ""}, tmp_path).ingest_schedule is None


def test_slack_api_url_gets_a_trailing_slash(tmp_path: Path) -> None:
    s = settings_from({"SLACK_API_URL": "http://127.0.0.1:9999/api"}, tmp_path)
    assert s.slack_api_url == "http://127.0.0.1:9999/api/"


def test_secrets_never_show_in_repr(tmp_path: Path) -> None:
    s = settings_from(
        {"SLACK_BOT_TOKEN": "xoxb-secret-token", "SLACK_SIGNING_SECRET": "signing-secret",
         "PAPERBOT_DATABASE_URL": "postgresql://bot:db-password@db/paperbot"},
        tmp_path,
    )  # fmt: skip
    text = repr(s)
    for secret in ("xoxb-secret-token", "signing-secret", "db-password"):
        assert secret not in text


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("PAPERBOT_TIMEZONE", "Mars/Base", "not a known IANA time zone"),
        ("PAPERBOT_DIGEST_SCHEDULE", "0 9 * *", "not a crontab line"),
        ("PAPERBOT_DIGEST_SCHEDULE", "61 * * * *", "not a crontab line"),
        ("PAPERBOT_INGEST_SCHEDULE", "*/0 * * * *", "not a crontab line"),
        ("PAPERBOT_DATABASE_URL", "::::", "not a database URL"),
        ("PAPERBOT_DATABASE_URL", "mysql://h/db", "unsupported driver"),
        ("PAPERBOT_DATABASE_URL", "sqlite+aiosqlite://", "needs a file path"),
        ("PAPERBOT_PORT", "http", "not a TCP port"),
        ("PAPERBOT_PORT", "0", "not a TCP port"),
        ("SLACK_API_URL", "ftp://x", "not an http(s) URL"),
    ],
)
def test_bad_values_name_their_variable(
    variable: str, value: str, message: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as raised:
        settings_from({variable: value}, tmp_path)
    assert str(raised.value).startswith(variable)
    assert message in str(raised.value)


def test_serve_needs_both_slack_secrets_and_socket_mode_the_app_token(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET"):
        settings_from({}, tmp_path).require_slack(socket_mode=False)
    s = settings_from({"SLACK_BOT_TOKEN": "x", "SLACK_SIGNING_SECRET": "y"}, tmp_path)
    s.require_slack(socket_mode=False)
    with pytest.raises(
        ConfigError, match=r"^missing required environment variables: SLACK_APP_TOKEN$"
    ):
        s.require_slack(socket_mode=True)
