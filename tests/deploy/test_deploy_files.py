"""The deploy files agree with the code: port, command, variables, health check, paths.

No Docker engine runs here, so the files are parsed and every claim they make is checked
against the code or run for real (the health check command, the serve command line).
"""

from __future__ import annotations

import ast
import asyncio
import configparser
import importlib.metadata
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import asyncpg
import yaml
from dotenv import dotenv_values
from sqlalchemy.engine import make_url

from bot.cli import build_parser, cmd_serve
from bot.server import SHUTDOWN_GRACE_SECONDS, running
from bot.settings import load_settings
from bot.watchdog import EXIT_STUCK, STUCK_AFTER_SECONDS
from tests.cli.helpers import outside_environment
from tests.postgres import PostgresServer, deployed_settings, start_for_test

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE_ONLY = {"PAPERBOT_DOMAIN", "DIGESTS_ON_HOST"}


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of deploy/Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (word.upper(), rest.strip())
        for word, _, rest in (line.partition(" ") for line in lines)
        if word and not word.startswith("#")
    ]


def instructions(name: str) -> list[str]:
    return [args for word, args in dockerfile() if word == name]


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def env_of(steps: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for word, args in steps:
        if word == "ENV":
            env |= dict(pair.split("=", 1) for pair in shlex.split(args))
    return env


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    return loaded


def substitute(value: str, variables: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}."""

    def one(match: re.Match[str]) -> str:
        name, op, default = match.group(1), match.group(2), match.group(3)
        if variables.get(name):
            return variables[name]
        assert op != ":?", f"{name} is required"
        return default if op == ":-" else ""

    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, value)


def variables_the_code_reads() -> set[str]:
    tree = ast.parse((ROOT / "bot" / "settings.py").read_text())
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"(PAPERBOT|SLACK)_[A-Z_]+", node.value)
    }


# --- .env.example ---------------------------------------------------------------------


def test_env_example_lists_every_variable_the_code_reads() -> None:
    listed = set(dotenv_values(DEPLOY / ".env.example"))
    read = variables_the_code_reads()
    assert len(read) >= 15
    assert read - listed == set(), "add them to deploy/.env.example"
    assert listed - read == COMPOSE_ONLY


def test_every_variable_in_env_example_has_a_comment_above_it() -> None:
    lines = (DEPLOY / ".env.example").read_text().splitlines()
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            above = lines[i - 1]
            assert above.startswith("#") or "=" in above, f"no comment for {line}"


def test_env_example_values_are_the_defaults_of_the_code(tmp_path: Path) -> None:
    example = load_settings({}, dotenv_path=DEPLOY / ".env.example")
    defaults = load_settings({}, dotenv_path=tmp_path / "none")
    assert example.__dict__ == defaults.__dict__


def test_the_readme_configuration_table_names_every_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = {name for name in variables_the_code_reads() if f"`{name}`" not in readme}
    assert not missing


# --- Dockerfile -----------------------------------------------------------------------


def test_the_image_runs_paperbot_serve_as_a_user_that_is_not_root() -> None:
    stage = final_stage()
    users = [args for word, args in stage if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    command = json.loads(instructions("CMD")[-1])
    assert command[0] == "paperbot"
    args = build_parser().parse_args(command[1:])
    assert args.handler is cmd_serve
    assert not args.socket  # HTTP mode: what the health check and the proxy talk to


def test_the_image_uses_a_slim_python_the_project_supports_pinned_by_digest() -> None:
    requires = re.search(r'requires-python = ">=3\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert requires is not None
    images = instructions("FROM")
    for image in images:
        match = re.fullmatch(r"python:3\.(\d+)-slim@sha256:[0-9a-f]{64}(?: AS \w+)?", image)
        assert match and int(match.group(1)) >= int(requires.group(1)), image
    assert len({image.split()[0] for image in images}) == 1  # both stages, one base


def test_the_image_is_labelled_with_the_package_source_version_and_licence() -> None:
    labels: dict[str, str] = {}
    for word, args in final_stage():
        if word == "LABEL":
            labels |= dict(pair.split("=", 1) for pair in shlex.split(args))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    oci = "org.opencontainers.image."
    assert labels[oci + "version"] == project["version"] == importlib.metadata.version("paperbot")
    assert labels[oci + "licenses"] == project["license"]
    assert labels[oci + "source"] == project["urls"]["Source"]
    assert labels[oci + "title"] == "paperbot"


def test_the_image_installs_the_runtime_lock_with_hashes_and_resolves_nothing_else() -> None:
    runs = instructions("RUN")
    installs = [run for run in runs if "pip install" in run]
    assert "--require-hashes -r requirements/runtime.lock" in installs[0]
    assert all("--no-deps" in run for run in installs[1:])  # paperbot itself
    joined = " ".join(runs)
    assert "[dev]" not in joined and "-e " not in joined and "dev.lock" not in joined
    copied = [args.split()[:-1] for args in instructions("COPY") if "--from" not in args]
    allowed = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    for sources in copied:
        for source in sources:
            assert (ROOT / source).exists(), source
            assert f"!{source.rstrip('/')}" in [a.rstrip("/") for a in allowed], source


def test_the_image_environment_is_valid_configuration() -> None:
    env = env_of(final_stage())
    settings = load_settings(
        {k: v for k, v in env.items() if k.startswith("PAPERBOT_")},
        dotenv_path=Path("/nonexistent"),
    )
    assert settings.port == 3000
    assert instructions("EXPOSE") == [str(settings.port)]
    assert settings.database_url.database == "/data/paperbot.db"
    assert [json.loads(v) for v in instructions("VOLUME")] == [["/data"]]


async def test_the_health_check_passes_on_a_serving_bot_and_fails_without_one(
    tmp_path: Path,
) -> None:
    check = instructions("HEALTHCHECK")[0]
    assert "--interval" in check and "--timeout" in check
    command = json.loads(check.split(" CMD ", 1)[1])
    assert command[0] == "python"
    settings = load_settings(
        {
            "PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/p.db",
            "SLACK_BOT_TOKEN": "xoxb-test-health",
            "SLACK_SIGNING_SECRET": "health-check-secret",
            "PAPERBOT_INGEST_SCHEDULE": "",
        },
        dotenv_path=tmp_path / "none",
    )
    async with running(settings, host="127.0.0.1", port=0) as port:
        healthy = await run_check(command, port)
    assert healthy == 0
    assert await run_check(command, free_port()) != 0


async def run_check(command: list[str], port: int) -> int:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        *command[1:],
        env=os.environ | {"PAPERBOT_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(child.wait(), 30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- docker-compose.yml ---------------------------------------------------------------


def test_compose_runs_postgres_with_a_named_volume_and_a_health_check() -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]
    assert postgres["image"].startswith("postgres:")
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in spec["volumes"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])


def test_compose_gives_postgres_memory_for_the_store_and_the_benchmarks_use_it() -> None:
    settings = deployed_settings()  # what the benchmarks start PostgreSQL with
    assert compose()["services"]["postgres"]["command"][0] == "postgres"
    amount, unit = re.fullmatch(r"(\d+)([MG]B)", settings["shared_buffers"]).groups()  # type: ignore[union-attr]
    assert int(amount) * (1024 if unit == "GB" else 1) >= 512  # PostgreSQL's own: 128 MB


def test_postgresql_as_deployed_has_its_pages_back_after_a_restart() -> None:
    """pg_prewarm's background worker (compose: shared_preload_libraries) notes which pages
    the buffers hold and reads them back when PostgreSQL starts again."""
    server = PostgresServer(deployed_settings())
    url = make_url(start_for_test(server)).set(drivername="postgresql").render_as_string(False)
    try:
        asyncio.run(_fill(url))
        server.restart()
        assert asyncio.run(_buffered_after_start(url)) >= _PAGES
    finally:
        server.stop()


_PAGES = 200  # of the table below, read into the buffers before the restart
_BUFFERED = "SELECT count(*) FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('t')"


async def _fill(url: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("CREATE EXTENSION pg_buffercache")
        await connection.execute(
            "CREATE TABLE t AS SELECT repeat('x', 500) AS x FROM generate_series(1, 4000)"
        )
        assert await connection.fetchval("SELECT pg_relation_size('t') / 8192") >= _PAGES
        await connection.fetchval("SELECT count(*) FROM t")
    finally:
        await connection.close()


async def _buffered_after_start(url: str) -> int:
    """The table's pages in the buffers once the worker has read them back (it runs after
    start), or what it holds after ten seconds."""
    connection = await asyncpg.connect(url)
    try:
        for _ in range(100):
            count = int(await connection.fetchval(_BUFFERED))
            if count >= _PAGES:
                break
            await asyncio.sleep(0.1)
        return count
    finally:
        await connection.close()


def mounted_secrets(service: dict[str, Any], tmp_path: Path) -> dict[str, str]:
    """/run/secrets/NAME of each secret the service lists -> a file holding a test value."""
    declared = compose()["secrets"]
    mounted = {}
    for name in service["secrets"]:
        assert declared[name]["file"] == f"./secrets/{name}"  # deploy/secrets/, ignored by git
        path = tmp_path / name
        path.write_text(f"xoxb-test-compose-{name}\n")
        mounted[f"/run/secrets/{name}"] = str(path)
    return mounted


def test_compose_bots_wait_for_postgres_and_reach_it_with_the_configured_url(
    tmp_path: Path,
) -> None:
    spec = compose()
    bot, postgres = spec["services"]["bot"], spec["services"]["postgres"]
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert bot["env_file"] == ".env"
    files = mounted_secrets(bot, tmp_path)
    env = {k: files.get(str(v), str(v)) for k, v in bot["environment"].items()}
    settings = load_settings(env, dotenv_path=DEPLOY / ".env.example")
    url = settings.database_url
    assert (url.get_backend_name(), url.host, url.port) == ("postgresql", "postgres", 5432)
    pg_env = postgres["environment"]
    assert (url.username, url.database) == (pg_env["POSTGRES_USER"], pg_env["POSTGRES_DB"])
    # One password file for both: PostgreSQL sets it, the bots log in with it.
    assert "POSTGRES_PASSWORD" not in pg_env
    assert pg_env["POSTGRES_PASSWORD_FILE"] in files
    assert url.password == Path(files[pg_env["POSTGRES_PASSWORD_FILE"]]).read_text().strip()
    mount = substitute(bot["volumes"][0], {}).split(":")
    assert mount[1] == str(settings.digest_dir) and mount[2] == "ro"
    assert (DEPLOY / mount[0]).is_dir()


def test_compose_passes_every_secret_as_a_file_never_as_a_variable(tmp_path: Path) -> None:
    spec = compose()
    bot = spec["services"]["bot"]
    files = mounted_secrets(bot, tmp_path)
    env = {k: files.get(str(v), str(v)) for k, v in bot["environment"].items()}
    # A value `.env` may still hold is blanked, so it cannot clash with its file.
    for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "PAPERBOT_DATABASE_URL_FILE"):
        assert env[name] == ""
    dotenv = {"SLACK_BOT_TOKEN": "xoxb-test-left-in-dotenv", "SLACK_SIGNING_SECRET": "left"}
    settings = load_settings(dotenv | env, dotenv_path=tmp_path / "none")
    settings.require_slack(socket_mode=False)  # what serve needs, from the files
    assert settings.slack_bot_token == "xoxb-test-compose-slack_bot_token"
    assert settings.slack_signing_secret == "xoxb-test-compose-slack_signing_secret"
    assert not any(re.search(r"PASSWORD|TOKEN|SECRET", str(v)) for v in env.values())
    assert ".env" not in spec["secrets"]
    assert "deploy/secrets/" in (ROOT / ".gitignore").read_text().splitlines()


def test_compose_builds_the_dockerfile_and_runs_two_replicas_behind_one_proxy() -> None:
    spec = compose()
    bot, proxy = spec["services"]["bot"], spec["services"]["proxy"]
    build = bot["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    assert "command" not in bot  # the image's CMD: paperbot serve
    assert bot["deploy"]["replicas"] == 2
    # longer than the 20 s the bot gives running work at shutdown
    assert int(bot["stop_grace_period"].removesuffix("s")) > SHUTDOWN_GRACE_SECONDS
    assert "ports" not in bot  # replicas are reached through the proxy only
    caddyfile = proxy["volumes"][0].split(":")[0]
    routes = (DEPLOY / caddyfile).read_text()
    upstream = re.search(r"dynamic a (\w+) (\d+)", routes)
    assert upstream is not None
    assert upstream.group(1) == "bot"
    assert upstream.group(2) == bot["environment"]["PAPERBOT_PORT"] == instructions("EXPOSE")[0]
    assert "{$PAPERBOT_DOMAIN}" in routes and "PAPERBOT_DOMAIN" in proxy["environment"]


def test_compose_variables_are_all_in_env_example() -> None:
    used = set(re.findall(r"\$\{(\w+)", (DEPLOY / "docker-compose.yml").read_text()))
    assert used <= set(dotenv_values(DEPLOY / ".env.example"))
    assert used == COMPOSE_ONLY


# --- systemd --------------------------------------------------------------------------


def systemd_unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None, empty_lines_in_values=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "paperbot.service")
    return unit


def test_the_systemd_unit_restarts_paperbot_serve_with_the_environment_file() -> None:
    unit = systemd_unit()
    service = unit["Service"]
    program, *args = shlex.split(service["ExecStart"])
    assert Path(program).name == "paperbot"
    assert build_parser().parse_args(args).handler is cmd_serve
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"].startswith("/")
    assert service["WorkingDirectory"] == f"/var/lib/{service['StateDirectory']}"
    assert service["User"] not in ("root", "0")
    # long enough for the 20 s the bot gives running work at shutdown
    assert int(service["TimeoutStopSec"]) > SHUTDOWN_GRACE_SECONDS
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_systemd_unit_restarts_a_stuck_bot() -> None:
    service = systemd_unit()["Service"]
    # The bot notifies (READY=1, WATCHDOG=1 from its event loop), and exits non-zero by
    # itself first when its loop is stuck: "on-failure" restarts both ways of ending.
    assert (service["Type"], service["NotifyAccess"]) == ("notify", "main")
    assert int(service["WatchdogSec"]) > STUCK_AFTER_SECONDS
    assert service["Restart"] == "on-failure" and EXIT_STUCK != 0


def test_the_systemd_unit_hands_the_slack_secrets_over_as_credentials(tmp_path: Path) -> None:
    lines = (DEPLOY / "paperbot.service").read_text().splitlines()
    credentials = dict(
        line.removeprefix("LoadCredential=").split(":", 1)
        for line in lines
        if line.startswith("LoadCredential=")
    )
    assert all(path.startswith("/etc/paperbot/credentials/") for path in credentials.values())
    files = dict(
        line.removeprefix("Environment=").split("=", 1)
        for line in lines
        if line.startswith("Environment=") and "_FILE=" in line
    )
    assert set(files) <= variables_the_code_reads()
    env = {}
    for variable, path in files.items():
        name = path.removeprefix("%d/")  # %d: the service's credentials folder
        assert name in credentials, f"{variable} names a credential that is not loaded"
        (tmp_path / name).write_text(f"xoxb-test-credential-{name}\n")
        env[variable] = str(tmp_path / name)
    settings = load_settings(env, dotenv_path=DEPLOY / ".env.example")
    settings.require_slack(socket_mode=False)  # serve starts with them
    assert settings.slack_bot_token == "xoxb-test-credential-slack_bot_token"
    assert settings.slack_signing_secret == "xoxb-test-credential-slack_signing_secret"


HARDENING = {
    "NoNewPrivileges": "true", "ProtectSystem": "strict", "ProtectHome": "true",
    "PrivateTmp": "true", "PrivateDevices": "true", "ProtectKernelTunables": "true",
    "ProtectKernelModules": "true", "ProtectKernelLogs": "true",
    "ProtectControlGroups": "true", "ProtectClock": "true", "ProtectHostname": "true",
    "ProtectProc": "invisible", "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
    "RestrictNamespaces": "true", "RestrictRealtime": "true", "RestrictSUIDSGID": "true",
    "LockPersonality": "true", "RemoveIPC": "true", "CapabilityBoundingSet": "",
    "AmbientCapabilities": "", "SystemCallArchitectures": "native",
    "SystemCallFilter": "@system-service", "SystemCallErrorNumber": "EPERM", "UMask": "0077",
}  # fmt: skip


def test_the_systemd_unit_is_hardened() -> None:
    service = systemd_unit()["Service"]
    assert {name: service.get(name) for name in HARDENING} == HARDENING
    # Writable: only the state folder (the SQLite file), which systemd creates.
    assert "ReadWritePaths" not in service and service["StateDirectory"] == "paperbot"
    # libffi closures may need writable code pages; see the comment in the unit.
    assert "MemoryDenyWriteExecute" not in service


# --- what `pip install --no-deps .` in the image installs ----------------------------------------


def test_the_installed_package_runs_without_the_source_tree(tmp_path: Path) -> None:
    """What the Dockerfile copies, built and installed as `pip install .` does: the
    package must run from the install alone, migrations included."""
    source = tmp_path / "src"
    source.mkdir()
    for args in instructions("COPY"):
        if "--from" not in args:
            *names, _ = args.split()
            for name in names:
                copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                copy(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    site = tmp_path / "site"
    with zipfile.ZipFile(next(tmp_path.glob("paperbot-*.whl"))) as wheel:
        wheel.extractall(site)
    env = outside_environment()
    env |= {
        "PYTHONPATH": str(site),
        "PAPERBOT_DIGEST_DIR": str(ROOT / "seeds"),
        # The stand-in embeds: tests/storage/test_meaning_model.py runs the real model.
        "PAPERBOT_EMBEDDER": "hash",
        "PAPERBOT_INDEX_DIR": "none",
    }
    run = [
        sys.executable,
        "-c",
        "import sys, bot.cli; assert bot.cli.__file__.startswith("
        f"{str(site)!r}); sys.argv[0] = 'paperbot'; bot.cli.main()",
    ]
    work = tmp_path / "work"
    work.mkdir()
    ingest = subprocess.run(
        [*run, "ingest", "--json"], cwd=work, env=env, capture_output=True, text=True, check=False
    )
    assert ingest.returncode == 0, ingest.stderr
    assert json.loads(ingest.stdout)["papers"]["new"] == 36
    assert (work / "var" / "paperbot.db").is_file()
