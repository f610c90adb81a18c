"""Settings: defaults, `.env`, normalisation, and a clear error for every bad value."""

from __future__ import annotations

import os
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
        {
            "SLACK_BOT_TOKEN": "xoxb-secret-token",
            "SLACK_SIGNING_SECRET": "signing-secret",
            "PAPERBOT_DATABASE_URL": "postgresql://bot:db-password@db/paperbot",
        },
        tmp_path,
    )
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


# --- secrets from files (compose `secrets:`, systemd `LoadCredential=`) ----------------

FILE_SECRETS = [
    ("SLACK_BOT_TOKEN", "xoxb-test-from-a-file"),
    ("SLACK_SIGNING_SECRET", "signing-s3cret-from-a-file"),
    ("SLACK_APP_TOKEN", "xapp-1-test-from-a-file"),
    ("PAPERBOT_DATABASE_URL", "postgresql+asyncpg://bot:db-s3cret-from-a-file@db/paperbot"),
]


def secret_file(tmp_path: Path, text: str | bytes, name: str = "secret") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize(("variable", "value"), FILE_SECRETS)
def test_each_secret_can_come_from_a_file_without_its_trailing_newline(
    variable: str, value: str, tmp_path: Path
) -> None:
    path = secret_file(tmp_path, value + "\n")
    s = settings_from({f"{variable}_FILE": str(path)}, tmp_path)
    from_env = settings_from({variable: value}, tmp_path)
    assert s == from_env  # the same settings as from the environment, secrets included
    secret = value.split(":")[-1].split("@")[0] if "://" in value else value
    assert secret in s.secrets  # so logs mask it (bot/logs.py)
    assert secret not in repr(s)


def test_a_windows_line_end_and_a_byte_order_mark_are_not_part_of_the_secret(
    tmp_path: Path,
) -> None:
    path = secret_file(tmp_path, "\ufeffxoxb-test-crlf\r\n")
    assert settings_from({"SLACK_BOT_TOKEN_FILE": str(path)}, tmp_path).slack_bot_token == (
        "xoxb-test-crlf"
    )


@pytest.mark.parametrize(("variable", "value"), FILE_SECRETS)
def test_a_variable_and_its_file_twin_both_set_is_an_error_naming_both(
    variable: str, value: str, tmp_path: Path
) -> None:
    path = secret_file(tmp_path, value)
    with pytest.raises(ConfigError) as raised:
        settings_from({variable: value, f"{variable}_FILE": str(path)}, tmp_path)
    assert str(raised.value) == f"{variable} and {variable}_FILE are both set: keep one"


def test_the_twin_in_dotenv_and_the_variable_in_the_environment_is_an_error_too(
    tmp_path: Path,
) -> None:
    path = secret_file(tmp_path, "xoxb-test-dotenv")
    with pytest.raises(ConfigError, match="SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE"):
        settings_from(
            {"SLACK_BOT_TOKEN": "xoxb-test-env"}, tmp_path, dotenv=f"SLACK_BOT_TOKEN_FILE={path}\n"
        )


def test_a_blank_variable_beside_its_file_twin_is_not_set(tmp_path: Path) -> None:
    """Compose blanks a value `.env` may hold when it passes the file instead."""
    path = secret_file(tmp_path, "xoxb-test-blank-beside")
    s = settings_from({"SLACK_BOT_TOKEN": "", "SLACK_BOT_TOKEN_FILE": str(path)}, tmp_path)
    assert s.slack_bot_token == "xoxb-test-blank-beside"


def bad_file_message(tmp_path: Path, path: Path) -> str:
    with pytest.raises(ConfigError) as raised:
        settings_from({"SLACK_SIGNING_SECRET_FILE": str(path)}, tmp_path)
    message = str(raised.value)
    assert message.startswith("SLACK_SIGNING_SECRET_FILE: ") and "\n" not in message
    return message


def test_a_missing_secret_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "secret"
    assert bad_file_message(tmp_path, missing) == (
        f"SLACK_SIGNING_SECRET_FILE: cannot read {missing}: No such file or directory"
    )


@pytest.mark.parametrize("text", ["", "\n", "  \n\n"])
def test_an_empty_secret_file_is_one_line(text: str, tmp_path: Path) -> None:
    path = secret_file(tmp_path, text)
    assert bad_file_message(tmp_path, path) == f"SLACK_SIGNING_SECRET_FILE: {path} is empty"


def test_a_secret_file_that_is_a_directory_is_one_line(tmp_path: Path) -> None:
    assert bad_file_message(tmp_path, tmp_path) == (
        f"SLACK_SIGNING_SECRET_FILE: {tmp_path} is a directory, not a file"
    )


def test_an_unreadable_secret_file_is_one_line(tmp_path: Path) -> None:
    path = secret_file(tmp_path, "signing-s3cret-unreadable")
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads it anyway; a file inside a file cannot be read
        path = path / "secret"
        assert bad_file_message(tmp_path, path) == (
            f"SLACK_SIGNING_SECRET_FILE: cannot read {path}: Not a directory"
        )
    else:
        assert bad_file_message(tmp_path, path) == (
            f"SLACK_SIGNING_SECRET_FILE: cannot read {path}: Permission denied"
        )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00s\x00e\x00c", "is not UTF-8 text"),
        (b"x" * (64 * 1024 + 1), "is larger than 64 KiB"),
        (b"SLACK_SIGNING_SECRET=s3cret-a\nSLACK_BOT_TOKEN=s3cret-b\n", "holds more than one line"),
    ],
)
def test_a_secret_file_that_cannot_be_a_secret_is_one_line_without_its_content(
    content: bytes, message: str, tmp_path: Path
) -> None:
    path = secret_file(tmp_path, content)
    said = bad_file_message(tmp_path, path)
    assert message in said and "s3cret" not in said


def test_a_secret_file_that_is_not_a_regular_file_is_one_line(tmp_path: Path) -> None:
    assert bad_file_message(tmp_path, Path("/dev/null")) == (
        "SLACK_SIGNING_SECRET_FILE: /dev/null is not a regular file"
    )


def test_the_database_password_alone_can_come_from_a_file(tmp_path: Path) -> None:
    path = secret_file(tmp_path, "p@ss:w/rd-from-a-file\n")  # no URL escaping needed
    s = settings_from(
        {
            "PAPERBOT_DATABASE_URL": "postgresql://bot@db:5432/paperbot",
            "PAPERBOT_DATABASE_PASSWORD_FILE": str(path),
        },
        tmp_path,
    )
    assert s.database_url.password == "p@ss:w/rd-from-a-file"
    assert (s.database_url.username, s.database_url.host) == ("bot", "db")
    assert "p@ss:w/rd-from-a-file" in s.secrets
    with pytest.raises(ConfigError) as raised:
        settings_from(
            {
                "PAPERBOT_DATABASE_URL": "postgresql://bot:other@db/paperbot",
                "PAPERBOT_DATABASE_PASSWORD_FILE": str(path),
            },
            tmp_path,
        )
    assert str(raised.value) == (
        "PAPERBOT_DATABASE_URL holds a password and PAPERBOT_DATABASE_PASSWORD_FILE is set: "
        "keep one"
    )
