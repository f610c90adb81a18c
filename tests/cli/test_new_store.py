"""Commands started together on a store that does not exist yet."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.cli.helpers import PAPERBOT, outside_environment
from tests.digests import SEEDS


def test_commands_started_together_on_a_new_sqlite_store_all_succeed(tmp_path: Path) -> None:
    """The first deploy: `serve`'s first scan, a cron `ingest` and an operator's `ask`
    may open the new file at the same moment. Each waits its turn to create the schema;
    none fails with "database is locked"."""
    env = outside_environment()
    env |= {
        "PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'new.db'}",
        "PAPERBOT_SETTLE_SECONDS": "0",
        "PAPERBOT_EMBEDDER": "none",
        "PAPERBOT_INDEX_DIR": "none",
    }
    commands = [["db", "upgrade"]] * 4 + [["ingest", "--no-embed", str(SEEDS)]] * 2
    running = [
        subprocess.Popen(
            [PAPERBOT, *args], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True
        )
        for args in commands
    ]
    errors = [process.communicate(timeout=120)[1] for process in running]
    assert [process.returncode for process in running] == [0] * len(commands), errors
