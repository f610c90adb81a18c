"""Settings: read once from the environment (and `.env`), validated, then passed down.

Each secret may instead come from a file named by its `_FILE` twin (compose `secrets:`,
systemd `LoadCredential=`), so that it never sits in the environment. Nothing here runs at
import: the CLI's `main` calls `load_settings()` and hands the resulting `Settings` to
whatever needs a value from it.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from pathlib import Path
from urllib.parse import urlparse
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from apscheduler.triggers.cron import CronTrigger
from dotenv import dotenv_values
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from bot.logs import FORMATS, LEVELS
from jobs.ingest import DEFAULT_MAX_FILE_MB, DEFAULT_SETTLE_SECONDS

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///var/paperbot.db"
DEFAULT_SLACK_API_URL = "https://slack.com/api/"

# Plain driver names are accepted for convenience and mapped to their async drivers.
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


# A secret's variable and the twin naming a file that holds it; setting both is an error.
SECRET_FILES = {
    "SLACK_BOT_TOKEN": "SLACK_BOT_TOKEN_FILE",
    "SLACK_SIGNING_SECRET": "SLACK_SIGNING_SECRET_FILE",
    "SLACK_APP_TOKEN": "SLACK_APP_TOKEN_FILE",
    "PAPERBOT_DATABASE_URL": "PAPERBOT_DATABASE_URL_FILE",
}
# Only the password, put into PAPERBOT_DATABASE_URL (which then holds none).
PASSWORD_FILE = "PAPERBOT_DATABASE_PASSWORD_FILE"
MAX_SECRET_BYTES = 64 * 1024  # a token, a password or a URL; anything larger is a wrong path


class ConfigError(Exception):
    """A setting is missing or invalid; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    database_url: URL
    digest_dir: Path
    slack_bot_token: str | None
    slack_signing_secret: str | None
    slack_app_token: str | None
    slack_api_url: str
    admins: frozenset[str]
    digest_channel: str | None
    digest_schedule: str
    digest_when_empty: bool  # post a short "nothing new" summary instead of none
    timezone: ZoneInfo
    ingest_schedule: str | None
    port: int
    host: str  # the address `serve` listens on
    command_timeout: float  # seconds a command's work may take before the user is told
    subscription_time: time  # local time of day subscribers get their messages
    log_format: str  # "text" or "json"
    log_level: str
    max_file_mb: float  # digest files larger than this fail without being read
    settle_seconds: float = DEFAULT_SETTLE_SECONDS  # files modified since are left for later
    # Which model embeds text for search by meaning: auto | e5 | none | hash |
    # package.module:factory (storage/embedders.py).
    embedder: str = "auto"
    # Where the indexes of search by meaning are saved between starts (None: not saved).
    index_dir: Path | None = None

    @property
    def secrets(self) -> list[str]:
        """Values that must never appear in a log line or an error message."""
        values = [self.slack_bot_token, self.slack_signing_secret, self.slack_app_token]
        return [v for v in [*values, self.database_url.password] if v]

    def require_slack(self, *, socket_mode: bool) -> None:
        """Raise ConfigError naming every Slack variable `serve` needs but lacks."""
        needed = {
            "SLACK_BOT_TOKEN": self.slack_bot_token,
            "SLACK_SIGNING_SECRET": self.slack_signing_secret,
        }
        if socket_mode:
            needed["SLACK_APP_TOKEN"] = self.slack_app_token
        missing = [name for name, value in needed.items() if not value]
        if missing:
            raise ConfigError(f"missing required environment variables: {', '.join(missing)}")

    def __repr__(self) -> str:  # never print secrets, even by accident
        return f"Settings(database={self.database_url.render_as_string(hide_password=True)})"


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv_path: Path | None = None
) -> Settings:
    """Merge `.env` (lower priority) with the environment and validate every value."""
    env_file = dotenv_path if dotenv_path is not None else Path.cwd() / ".env"
    values: dict[str, str] = {}
    if env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    values.update(_secrets_from_files(values))

    def get(name: str, default: str | None = None) -> str | None:
        value = values.get(name, "").strip()
        return value if value else default

    timezone = _timezone(get("PAPERBOT_TIMEZONE", "UTC") or "UTC")
    digest_schedule = get("PAPERBOT_DIGEST_SCHEDULE", "0 9 * * *") or "0 9 * * *"
    _check_crontab("PAPERBOT_DIGEST_SCHEDULE", digest_schedule, timezone)
    # An explicitly empty ingest schedule turns the periodic scan off.
    ingest_schedule: str | None = values.get("PAPERBOT_INGEST_SCHEDULE", "*/15 * * * *").strip()
    if ingest_schedule:
        _check_crontab("PAPERBOT_INGEST_SCHEDULE", ingest_schedule, timezone)
    else:
        ingest_schedule = None

    database_url = _database_url(get("PAPERBOT_DATABASE_URL", DEFAULT_DATABASE_URL) or "")
    password_file = get(PASSWORD_FILE)
    if password_file:
        if database_url.password:
            raise ConfigError(
                f"PAPERBOT_DATABASE_URL holds a password and {PASSWORD_FILE} is set: keep one"
            )
        database_url = database_url.set(password=read_secret_file(PASSWORD_FILE, password_file))

    return Settings(
        database_url=database_url,
        digest_dir=Path(get("PAPERBOT_DIGEST_DIR", "seeds") or "seeds"),
        slack_bot_token=get("SLACK_BOT_TOKEN"),
        slack_signing_secret=get("SLACK_SIGNING_SECRET"),
        slack_app_token=get("SLACK_APP_TOKEN"),
        slack_api_url=_slack_api_url(get("SLACK_API_URL", DEFAULT_SLACK_API_URL) or ""),
        admins=frozenset(u.strip() for u in (get("PAPERBOT_ADMINS") or "").split(",") if u.strip()),
        digest_channel=get("PAPERBOT_DIGEST_CHANNEL"),
        digest_schedule=digest_schedule,
        digest_when_empty=_flag("PAPERBOT_DIGEST_WHEN_EMPTY", get("PAPERBOT_DIGEST_WHEN_EMPTY")),
        timezone=timezone,
        ingest_schedule=ingest_schedule,
        port=_port(get("PAPERBOT_PORT", "3000") or "3000"),
        host=_host(get("PAPERBOT_HOST", "0.0.0.0") or "0.0.0.0"),
        command_timeout=_seconds("PAPERBOT_COMMAND_TIMEOUT", get("PAPERBOT_COMMAND_TIMEOUT", "15")),
        subscription_time=_time_of_day(
            "PAPERBOT_SUBSCRIPTION_TIME", get("PAPERBOT_SUBSCRIPTION_TIME", "09:00") or "09:00"
        ),
        log_format=_choice(
            "PAPERBOT_LOG_FORMAT", (get("PAPERBOT_LOG_FORMAT") or "text").lower(), FORMATS
        ),
        log_level=_choice(
            "PAPERBOT_LOG_LEVEL", (get("PAPERBOT_LOG_LEVEL") or "INFO").upper(), LEVELS
        ),
        max_file_mb=_megabytes(
            "PAPERBOT_MAX_FILE_MB", get("PAPERBOT_MAX_FILE_MB") or str(DEFAULT_MAX_FILE_MB)
        ),
        settle_seconds=_settle_seconds(get("PAPERBOT_SETTLE_SECONDS")),
        embedder=_embedder(get("PAPERBOT_EMBEDDER", "auto") or "auto"),
        index_dir=_index_dir(get("PAPERBOT_INDEX_DIR"), get("XDG_CACHE_HOME")),
    )


def _secrets_from_files(values: Mapping[str, str]) -> dict[str, str]:
    """The secrets whose `_FILE` twin is set, read from their files."""
    read = {}
    for name, twin in SECRET_FILES.items():
        path = values.get(twin, "").strip()
        if not path:
            continue
        if values.get(name, "").strip():
            raise ConfigError(f"{name} and {twin} are both set: keep one")
        read[name] = read_secret_file(twin, path)
    return read


def read_secret_file(variable: str, path: str) -> str:
    """The file's text without its trailing newline, or ConfigError in one line (the
    content is never quoted: it is a secret)."""
    try:
        with open(path, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise ConfigError(f"{variable}: {path} is not a regular file")
            data = file.read(MAX_SECRET_BYTES + 1)
    except IsADirectoryError:
        raise ConfigError(f"{variable}: {path} is a directory, not a file") from None
    except OSError as error:
        raise ConfigError(f"{variable}: cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_SECRET_BYTES:
        raise ConfigError(f"{variable}: {path} is larger than 64 KiB; is it the right file?")
    try:
        text = data.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise ConfigError(f"{variable}: {path} is not UTF-8 text") from None
    if not text:
        raise ConfigError(f"{variable}: {path} is empty")
    if "\n" in text or "\r" in text:
        raise ConfigError(f"{variable}: {path} holds more than one line")
    return text


def _database_url(raw: str) -> URL:
    try:
        url = make_url(raw)
    except ArgumentError:
        raise ConfigError(  # the value is not echoed: it may hold a password
            "PAPERBOT_DATABASE_URL is not a database URL: use sqlite+aiosqlite:///PATH or "
            "postgresql+asyncpg://USER:PASSWORD@HOST/DB"
        ) from None
    driver = _ASYNC_DRIVERS.get(url.drivername)
    if driver is None:
        raise ConfigError(
            f"PAPERBOT_DATABASE_URL uses unsupported driver {url.drivername!r}: "
            "use sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST/DB"
        )
    url = url.set(drivername=driver)
    if driver.startswith("sqlite") and not url.database:
        raise ConfigError("PAPERBOT_DATABASE_URL needs a file path: sqlite+aiosqlite:///PATH")
    return url


def _timezone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"PAPERBOT_TIMEZONE is not a known IANA time zone: {name!r} (e.g. Europe/Berlin)"
        ) from None


def _check_crontab(variable: str, line: str, timezone: ZoneInfo) -> None:
    try:
        CronTrigger.from_crontab(line, timezone=timezone)
    except ValueError as error:
        raise ConfigError(
            f"{variable} is not a crontab line ({error}): {line!r}, e.g. '0 9 * * *'"
        ) from None


def _slack_api_url(raw: str) -> str:
    parsed = urlparse(raw)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ConfigError(f"SLACK_API_URL is not an http(s) URL: {raw!r}")
    return raw if raw.endswith("/") else raw + "/"


def _flag(variable: str, raw: str | None) -> bool:
    value = (raw or "false").lower()
    if value not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        raise ConfigError(f"{variable} is not true or false: {raw!r}")
    return value in ("true", "1", "yes", "on")


def _seconds(variable: str, raw: str | None) -> float:
    try:
        value = float(raw or "")
    except ValueError:
        value = -1
    if not 0 < value <= 600:
        raise ConfigError(f"{variable} is not a number of seconds between 0 and 600: {raw!r}")
    return value


def _settle_seconds(raw: str | None) -> float:
    if raw is None:
        return DEFAULT_SETTLE_SECONDS
    try:
        value = float(raw)
    except ValueError:
        value = -1
    if not 0 <= value <= 600:
        raise ConfigError(
            f"PAPERBOT_SETTLE_SECONDS is not a number of seconds between 0 and 600: {raw!r}"
        )
    return value


TIME_OF_DAY = re.compile(r"([01]\d|2[0-3]):[0-5]\d")  # "08:30"
# PAPERBOT_EMBEDDER's forms (storage/embedders.py loads them).
EMBEDDER_SPEC = re.compile(r"auto|e5|none|hash|[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def _time_of_day(variable: str, raw: str) -> time:
    if not TIME_OF_DAY.fullmatch(raw):
        raise ConfigError(f"{variable} is not a time of day like 09:00: {raw!r}")
    return time.fromisoformat(raw)


def _choice(variable: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{variable} must be one of {', '.join(allowed)}: {value!r}")
    return value


def _megabytes(variable: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = -1
    if not 0 < value < math.inf:
        raise ConfigError(f"{variable} is not a positive number of megabytes: {raw!r}")
    return value


def _embedder(raw: str) -> str:
    if not EMBEDDER_SPEC.fullmatch(raw):
        raise ConfigError(
            f"PAPERBOT_EMBEDDER must be auto, e5, none, hash or package.module:factory: {raw!r}"
        )
    return raw


def _index_dir(raw: str | None, cache_home: str | None) -> Path | None:
    """PAPERBOT_INDEX_DIR, `none` to keep nothing; by default the user's cache directory."""
    if raw and raw.strip().lower() == "none":
        return None
    if raw and raw.strip():
        return Path(raw.strip()).expanduser()
    return Path(cache_home or Path.home() / ".cache") / "paperbot"


def _port(raw: str) -> int:
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ConfigError(f"PAPERBOT_PORT is not a TCP port number: {raw!r}")
    return int(raw)


def _host(raw: str) -> str:
    if any(c.isspace() or c in "/[]" for c in raw):
        raise ConfigError(
            f"PAPERBOT_HOST is not an address to listen on: {raw!r} (e.g. 127.0.0.1 or ::)"
        )
    return raw
