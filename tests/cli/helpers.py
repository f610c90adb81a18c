"""Run the installed `paperbot` console script as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.dictionary_cache import give_dictionary_cache

# Everything the processes wrote to stderr, for the test that greps it for secrets.
STDERR: list[str] = []

# The console script installed next to this interpreter by `pip install -e .`.
PAPERBOT = shutil.which("paperbot", path=str(Path(sys.executable).parent)) or "paperbot"


def outside_environment() -> dict[str, str]:
    """This process's environment without its PAPERBOT_ and SLACK_ variables: a child
    process then has only the settings a test gives it."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}


def paperbot(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run `paperbot ARGS` in `cwd` with only the given PAPERBOT_/SLACK_ variables set (and
    the embedding stand-in and an index directory in `cwd`, unless the test names others)."""
    clean = outside_environment()
    clean["PAPERBOT_EMBEDDER"] = "hash"
    clean["PAPERBOT_INDEX_DIR"] = str(cwd / "index")
    if "PAPERBOT_INDEX_DIR" not in (env or {}):
        give_dictionary_cache(cwd / "index")
    result = subprocess.run(
        [PAPERBOT, *args],
        cwd=cwd,
        # Files written by a test are whole at once: no wait for them to settle.
        env=clean | {"PAPERBOT_SETTLE_SECONDS": "0"} | (env or {}),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    STDERR.append(result.stderr)
    return result


class FakeSlackThread:
    """A FakeSlack on its own thread and loop, for tests that run the CLI as a process."""

    def __enter__(self) -> str:
        import asyncio
        import threading

        from tests.fake_slack import FakeSlack

        self.slack = FakeSlack()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def serve() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self.slack.start())
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        started.wait(10)
        return self.slack.api_url

    def __exit__(self, *exc: object) -> None:
        import asyncio

        asyncio.run_coroutine_threadsafe(self.slack.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
