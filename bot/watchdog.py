"""A stuck bot restarts itself: a watchdog for the event loop, and systemd's notifications.

A heartbeat task on the loop counts a beat every second; a thread checks the count. When
the loop has not turned for `limit` seconds (code that blocks it: a CPU-bound call, a
synchronous read, a deadlock), the thread logs the stack of the loop's thread and the name
of the task that was running, and ends the process with a non-zero status, so that
systemd or compose starts it again: a stuck loop can run no clean shutdown.

Under systemd (`Type=notify`, `WatchdogSec=`) the bot also says when it is ready and
stopping, and the heartbeat tells systemd it is alive: systemd then restarts a process
that hangs so badly that even the thread cannot act.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

log = logging.getLogger(__name__)

STUCK_AFTER_SECONDS = 30.0
EXIT_STUCK = 1  # a failure at run time, as for every command
REPORT_WITHIN_SECONDS = 5.0  # the process exits even if logging itself is stuck


class Systemd:
    """sd_notify(3) over $NOTIFY_SOCKET with a plain socket; does nothing without one."""

    def __init__(self, address: str | None) -> None:
        # An address starting with "@" is in the abstract namespace.
        self.address = "\0" + address[1:] if address and address.startswith("@") else address
        self.failed = False

    @classmethod
    def from_environment(cls) -> Systemd:
        return cls(os.environ.get("NOTIFY_SOCKET") or None)

    def notify(self, message: str) -> None:
        if not self.address or self.failed:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode())
        except OSError as error:
            self.failed = True  # said once, not every second
            log.warning("cannot notify systemd at NOTIFY_SOCKET: %s", error)


class Watchdog:
    def __init__(
        self,
        limit: float = STUCK_AFTER_SECONDS,
        *,
        beat: float = 1.0,
        systemd: Systemd | None = None,
    ) -> None:
        self.limit, self.beat = limit, beat
        self.systemd = systemd or Systemd(None)
        self.beats = 0
        self.stopped = threading.Event()

    async def heartbeat(self) -> None:
        while True:
            self.beats += 1
            self.systemd.notify("WATCHDOG=1")
            await asyncio.sleep(self.beat)

    def watch(self, loop: asyncio.AbstractEventLoop, loop_thread: int) -> None:
        """The thread: count the time without a beat. Each check adds at most two beats'
        time, so a process that was suspended as a whole (SIGSTOP, a sleeping host) is
        not taken for a stuck one when it resumes."""
        seen, stale, last = self.beats, 0.0, time.monotonic()
        while not self.stopped.wait(self.beat):
            now = time.monotonic()
            if self.beats != seen:
                seen, stale = self.beats, 0.0
            else:
                stale += min(now - last, 2 * self.beat)
            last = now
            if stale >= self.limit:
                reporter = threading.Thread(
                    target=self.report, args=(loop, loop_thread, stale), daemon=True
                )
                reporter.start()
                reporter.join(REPORT_WITHIN_SECONDS)
                os._exit(EXIT_STUCK)

    def report(self, loop: asyncio.AbstractEventLoop, loop_thread: int, stale: float) -> None:
        frame = sys._current_frames().get(loop_thread)
        stack = "".join(traceback.format_stack(frame)) if frame else "(no stack)\n"
        task = asyncio.current_task(loop)
        running = f"task {task.get_name()!r}" if task else "no task (a callback)"
        log.critical(
            "event loop stuck for %.0f s in %s; exiting so the bot is restarted. "
            "Stack of the loop's thread, most recent call last:\n%s",
            stale,
            running,
            stack.rstrip(),
        )
        for handler in logging.getLogger().handlers:
            handler.flush()


@asynccontextmanager
async def watching(
    limit: float = STUCK_AFTER_SECONDS, *, beat: float = 1.0, systemd: Systemd | None = None
) -> AsyncIterator[Watchdog]:
    """The running loop watched while inside."""
    watchdog = Watchdog(limit, beat=beat, systemd=systemd)
    loop = asyncio.get_running_loop()
    heart = asyncio.create_task(watchdog.heartbeat(), name="watchdog heartbeat")
    thread = threading.Thread(
        target=watchdog.watch, args=(loop, threading.get_ident()), name="watchdog", daemon=True
    )
    thread.start()
    try:
        yield watchdog
    finally:
        watchdog.stopped.set()
        heart.cancel()
        with suppress(asyncio.CancelledError):
            await heart
        thread.join()
