"""The watchdog ends a process whose event loop is stuck, saying where; it leaves a busy
or a suspended one alone. Each case is a small program run as its own process."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.watchdog import EXIT_STUCK

PROGRAM = """
import asyncio, time
from bot import logs
from bot.watchdog import watching

logs.configure("text", "INFO", [])

def block_the_loop():
    time.sleep(60)

async def handle_a_request():
    block_the_loop()

async def main():
    async with watching(limit=1.5, beat=0.1):
{body}

asyncio.run(main())
"""


def start(tmp_path: Path, body: str) -> subprocess.Popen[str]:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM.format(body=textwrap.indent(textwrap.dedent(body), " " * 8)))
    return subprocess.Popen(
        [sys.executable, str(program)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_a_blocked_loop_ends_the_process_naming_the_blocking_code(tmp_path: Path) -> None:
    started = time.monotonic()
    child = start(
        tmp_path,
        """
        await asyncio.sleep(0.5)
        await asyncio.create_task(handle_a_request(), name="reply to /paper")
    """,
    )
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == EXIT_STUCK != 0
    assert time.monotonic() - started < 20  # not the 60 s the code blocks for
    (line,) = [line for line in stderr.splitlines() if "stuck" in line]  # one log line
    assert " CRITICAL bot.watchdog " in line
    assert "event loop stuck for 2 s in task 'reply to /paper'" in line
    assert "in block_the_loop" in line and "time.sleep(60)" in line
    assert "in handle_a_request" in line


def test_a_loop_that_keeps_turning_is_left_alone(tmp_path: Path) -> None:
    child = start(
        tmp_path,
        """
        for _ in range(8):
            time.sleep(0.5)  # busy, but under the limit each time
            await asyncio.sleep(0)
        await asyncio.sleep(2)
    """,
    )
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == 0, stderr
    assert "stuck" not in stderr


def test_a_suspended_process_is_not_taken_for_a_stuck_one(tmp_path: Path) -> None:
    child = start(
        tmp_path,
        """
        await asyncio.sleep(4)
    """,
    )
    time.sleep(1)
    child.send_signal(signal.SIGSTOP)
    time.sleep(3)  # twice the limit
    child.send_signal(signal.SIGCONT)
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == 0, stderr
    assert "stuck" not in stderr
