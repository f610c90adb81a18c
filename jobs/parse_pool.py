"""Processes that parse files beside the process that stores them, each one file at a time,
sent over a pipe of its own. A process that dies (killed, out of memory) takes only the file
it was parsing with it; the next file starts another. (A ProcessPoolExecutor failed every
later file once a worker died, and on Python 3.11.2 could hang for good sending the next
file to the dead one: CPython issue 94777.) A parse whose file is no longer wanted (the
ingest cancelled) ends with its process at once."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext, SpawnContext
from typing import Any, Generic, NamedTuple, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
Context = ForkContext | SpawnContext
NICENESS = 10  # the writer, and a bot on the same machine, go first


class ParserDied(Exception):
    """The process parsing a file ended before it answered."""


class ParsePool(Generic[T]):
    """`workers` processes that each run `parse` on the files sent to them, one at a time:
    started by `start` (a fork must come before any thread starts), else when first
    needed."""

    def __init__(self, context: Context, parse: Callable[[bytes], T], workers: int) -> None:
        self.workers = workers
        self._context, self._parse = context, parse
        self._turns = asyncio.Semaphore(workers)
        self._idle: list[_Parser] = []
        # Files are sent and answers read in one thread, not one a process: what a thread
        # unpickles stays in its own malloc arena (two threads: a fifth more memory).
        self._pipes = ThreadPoolExecutor(1, thread_name_prefix="parse-pipes")

    def start(self) -> None:
        while len(self._idle) < self.workers:
            self._idle.append(_Parser(self._context, self._parse))

    async def parse(self, data: bytes) -> T:
        async with self._turns:
            parser = self._idle.pop() if self._idle else _Parser(self._context, self._parse)
            try:
                answer = await parser.parse(data, self._pipes)
            except BaseException:  # it died, or its file is no longer wanted
                parser.stop()
                raise
            self._idle.append(parser)
        if isinstance(answer, _Failed):
            raise answer.error
        result: T = answer
        return result

    def close(self) -> None:
        for parser in self._idle:
            parser.stop()
        self._idle.clear()
        self._pipes.shutdown()


class _Failed(NamedTuple):
    error: Exception  # raised by `parse` in the process


class _Parser:
    def __init__(self, context: Context, parse: Callable[[bytes], Any]) -> None:
        self._connection, theirs = context.Pipe()
        self._process = context.Process(
            target=_parse_sent, args=(theirs, self._connection, parse), daemon=True
        )
        self._process.start()
        theirs.close()  # its end is the process's alone: if it dies, ours reads the end
        niceness = min(os.getpriority(os.PRIO_PROCESS, 0) + NICENESS, 19)
        os.setpriority(os.PRIO_PROCESS, self._process.pid or 0, niceness)

    async def parse(self, data: bytes, pipes: Executor) -> Any:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(pipes, self._connection.send_bytes, data)
            answered: asyncio.Future[None] = loop.create_future()
            # Called again while readable, until removed once this task runs on.
            loop.add_reader(self._connection.fileno(), _set_once, answered)
            try:
                await answered  # the answer, or the end of the pipe
            finally:
                loop.remove_reader(self._connection.fileno())
            return await loop.run_in_executor(pipes, self._connection.recv)
        except (EOFError, OSError) as error:
            self._process.join(1)  # its end of the pipe closed: it has ended, or is ending
            raise ParserDied(_ended(self._process.exitcode)) from error

    def stop(self) -> None:
        self._process.terminate()  # waiting for a file or parsing one no longer wanted
        self._process.join(5)
        if self._process.exitcode is None:
            self._process.kill()
            self._process.join()


def _set_once(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _parse_sent(connection: Connection, ours: Connection, parse: Callable[[bytes], Any]) -> None:
    # A fork holds both ends of its pipe: with the parent's end closed here, the pipe ends
    # when the parent does, however it ends (killed: SIGKILL, out of memory), and this
    # process with it. A process forked later holds a copy of that end too: it ends first,
    # its own pipe then having no other copy.
    ours.close()
    while True:
        try:
            data = connection.recv_bytes()
        except EOFError:
            return
        try:
            answer = parse(data)
        except Exception as error:
            log.exception("parsing a file failed")
            answer = _Failed(error)
        try:
            connection.send(answer)
        except BrokenPipeError:  # the parent has ended
            return


def _ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        how = f"killed by {signal.Signals(-exitcode).name}"
        if -exitcode == signal.SIGKILL:
            how += ", as the system ends a process out of memory"
    else:
        how = f"exit status {exitcode}"
    return f"the process parsing it ended ({how}); the other files load"
