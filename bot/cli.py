"""The `paperbot` command line: parse arguments, read settings once, run one command.

Exit status: 0 success; 1 failure at run time (some or all of the work failed);
2 usage or configuration error. Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, TypeVar

from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession
from tqdm import tqdm

from bot import logs, version
from bot.command_table import COMMANDS, NAMES
from bot.settings import ConfigError, Settings, load_settings
from jobs.check import check
from jobs.ingest import PARSE_WORKERS, ingest, parse_processes
from storage import db

if TYPE_CHECKING:
    from bot.shell import Sent
    from jobs.embedding import EmbedReport
    from storage.embedders import EmbedderChoice

# The Slack app, the server, the summary, the saved papers' export, the manifest (YAML),
# and search, embedding and the store's status (numpy, usearch) are imported by the
# commands that use them: `paperbot ingest` starts in about half the time without them,
# and its parse processes, forked once it has, start that much sooner.

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

T = TypeVar("T")
Command = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]


class UsageError(Exception):
    """The command cannot run as asked; the message says why (exit status 2)."""


class Failed(Exception):
    """The command ran and failed, for example on a file's content; the message says why
    (exit status 1)."""


class IngestBar:
    """The ingest's progress as a bar on stderr (files, papers so far, rate), drawn only
    when stderr is a terminal: stdout, and `--json`, stay exactly as they were."""

    def __init__(self) -> None:
        self._bar: tqdm[Any] | None = None
        self._papers = 0

    def started(self, files: int) -> None:
        self._bar = tqdm(
            total=files,
            unit="file",
            desc="ingest",
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            mininterval=0.5,
        )

    def file_done(self, papers: int) -> None:
        if self._bar is not None:
            self._papers += papers
            self._bar.set_postfix(papers=self._papers, refresh=False)
            self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class EmbeddingBar:
    """Embedding's progress as a bar on stderr (items embedded of those waiting), drawn
    only when stderr is a terminal."""

    def __init__(self) -> None:
        self._bar = tqdm(
            desc="embedding",
            unit="item",
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            mininterval=0.5,
        )

    def __call__(self, done: int, total: int) -> None:
        self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()


def embedder_of(settings: Settings) -> EmbedderChoice:
    from storage.embedders import EmbedderUnavailable, load_embedder

    try:
        return load_embedder(settings.embedder)
    except EmbedderUnavailable as error:
        raise UsageError(str(error)) from None


async def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    paths = [Path(p) for p in args.paths] or [settings.digest_dir]
    if args.check:
        return await _check(paths, settings, as_json=args.json)
    with parse_processes(PARSE_WORKERS) as parse_pool:  # first: before any thread starts
        choice = None if args.no_embed else await asyncio.to_thread(embedder_of, settings)
        embedded: EmbedReport | None = None
        bar = IngestBar()
        async with db.open_store(settings.database_url) as sessions:
            try:
                report = await ingest(
                    sessions,
                    paths,
                    force=args.force,
                    max_file_mb=settings.max_file_mb,
                    accept_losses=args.force,
                    settle_seconds=settings.settle_seconds,
                    progress=bar,
                    parse_pool=parse_pool,
                )
            finally:
                bar.close()
            if choice is not None and choice.embedder is not None:
                from jobs.embedding import embed_pending

                embedding = EmbeddingBar()
                try:
                    embedded = await embed_pending(sessions, choice.embedder, progress=embedding)
                finally:
                    embedding.close()
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        papers = report.papers
        print(
            f"documents: {report.files_line}; "
            f"papers: {papers['new']} new, {papers['updated']} updated"
        )
        for skipped in report.skipped:  # not digests: worth a line, not a failure
            print(f"skipped {skipped['path']}: {skipped['reason']}")
        if embedded is not None and choice is not None:
            print(
                f"vectors: {embedded.embedded} embedded, {embedded.waiting} waiting "
                f"({choice.description})"
            )
        elif choice is not None:
            print(f"vectors: {choice.description}")
    for error in report.errors:
        print(f"paperbot: {error['path']}: {error['error']}", file=sys.stderr)
    for warning in report.warnings:  # the file loaded; this part of it did not
        print(f"paperbot: {warning['path']}: warning: {warning['warning']}", file=sys.stderr)
    return EXIT_FAILED if report.errors else EXIT_OK


async def _check(paths: list[Path], settings: Settings, *, as_json: bool) -> int:
    """`ingest --check`: problems on stdout, one a line; nothing is written."""
    report = await asyncio.to_thread(check, paths, settings.max_file_mb)
    if as_json:
        print(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        for problem in report.problems:
            print(f"{problem['path']}: {problem['problem']}")
        for skipped in report.skipped:
            print(f"skipped {skipped['path']}: {skipped['reason']}")
        files, problems = report.files, len(report.problems)
        print(
            f"checked {files} file{'s' if files != 1 else ''}, {report.papers} papers: "
            f"{problems or 'no'} problem{'s' if problems != 1 else ''}"
        )
    return EXIT_FAILED if report.problems else EXIT_OK


@asynccontextmanager
async def _existing_store(settings: Settings) -> AsyncIterator[AsyncSession]:
    """A session on a store that exists at the current schema: reading creates nothing."""
    missing = db.missing_file(settings.database_url)
    if missing is not None:
        raise UsageError(f"no database at {missing}: `paperbot ingest` creates and fills it")
    async with db.open_engine(settings.database_url) as engine:
        if not await db.schema_is_current(engine):
            raise UsageError("the database schema is not current: run `paperbot db upgrade`")
        async with db.session_factory(engine)() as session:
            yield session


async def cmd_status(args: argparse.Namespace, settings: Settings) -> int:
    from storage.status import store_status

    choice = await asyncio.to_thread(embedder_of, settings)
    async with _existing_store(settings) as session:
        status = await store_status(session, choice.embedder, choice.description)
    if args.json:
        print(json.dumps(status.__dict__, ensure_ascii=False))
        return EXIT_OK
    where = settings.database_url.render_as_string(hide_password=True)
    print(f"database   {status.database} ({where})")
    print(f"documents  {status.documents}")
    print(f"papers     {status.papers}")
    print(f"claims     {status.claims}")
    print(f"embedder   {status.embedder}")
    if status.vectors_waiting is not None:
        print(f"vectors    {status.vectors_waiting} items wait to be embedded")
    run = status.last_ingest
    if run is None:
        print("last ingest  never")
    else:
        docs = run["documents"]
        print(
            f"last ingest  #{run['id']} {run['status']} by {run['trigger']} "
            f"at {run['started_at']}: {docs['new']} new, {docs['changed']} changed, "
            f"{docs['unchanged']} unchanged, {docs['failed']} failed documents"
        )
    if status.warnings:
        files = len({warning["path"] for warning in status.warnings})
        print(f"warnings   parts left out, in {files} of the loaded files")
        for warning in status.warnings:
            print(f"  {warning['path']}: {warning['warning']}")
    for refused in status.suspect:
        print(
            f"suspect    {refused['path']}: its new version would remove "
            f"{refused['would_lose']}; the "
            "store keeps the earlier one (accept it: paperbot ingest --force PATH)"
        )
    post = status.last_digest
    if post is not None:
        print(
            f"last summary  {post['status']} to {post['channel']} for {post['period']}"
            + (f": {post['error']}" if post["error"] else "")
        )
    return EXIT_OK


async def cmd_db_upgrade(args: argparse.Namespace, settings: Settings) -> int:
    async with db.open_engine(settings.database_url) as engine:
        await db.upgrade(engine)
    print("database schema is current")
    return EXIT_OK


async def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from bot.shell import UnknownCommand, offline_bot

    async with offline_bot(settings) as bot:
        try:
            sent = await bot.ask(args.text, user=args.user, channel=args.channel)
        except UnknownCommand as error:
            raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps([{"via": s.via, "payload": s.payload} for s in sent], ensure_ascii=False))
    else:
        print(as_plain_text(sent))
    return EXIT_OK


def as_plain_text(sent: list[Sent]) -> str:
    from bot.text_view import as_text

    return "\n\n".join(as_text(message.payload) for message in sent)


def shell_help() -> str:
    lines = [f"  {c.name} {c.usage}\n      {c.description}" for c in COMMANDS]
    return "\n".join(
        [
            "Slash commands (`/paper help` and the like say more):",
            *lines,
            "  quit  leaves the shell",
        ]
    )


async def cmd_shell(args: argparse.Namespace, settings: Settings) -> int:
    from bot.shell import UnknownCommand, offline_bot

    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    print(f"paperbot shell: type a slash command ({', '.join(NAMES)}), `help`, or `quit`.")
    async with offline_bot(settings) as bot:
        while True:
            try:
                line = (await asyncio.to_thread(input, "paperbot> ")).strip()
            except EOFError:
                print()
                return EXIT_OK
            if line in ("quit", "exit", "q"):
                return EXIT_OK
            if not line:
                continue
            if line in ("help", "?"):
                print(shell_help() + "\n")
                continue
            try:
                sent = await bot.ask(line, user=args.user, channel="CLOCAL")
            except UnknownCommand as error:
                print(error)
                continue
            print(as_plain_text(sent) + "\n")


async def cmd_digest(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import slack_client
    from bot.blocks import summary_messages
    from bot.messenger import SlackMessenger
    from bot.text_view import as_text
    from jobs import summary

    channel = args.channel or settings.digest_channel
    today = datetime.now(settings.timezone).date()
    async with db.open_store(settings.database_url) as sessions:
        if args.preview:
            payloads = await summary.preview(sessions, channel or "", summary_messages, today=today)
            print(
                "\n\n".join(as_text(p) for p in payloads) or "Nothing new since the last summary."
            )
            return EXIT_OK
        if not channel:
            raise UsageError("no channel: set PAPERBOT_DIGEST_CHANNEL or pass --channel")
        if not settings.slack_bot_token:
            raise UsageError("missing required environment variables: SLACK_BOT_TOKEN")
        slack = SlackMessenger(slack_client(settings.slack_bot_token, settings.slack_api_url))
        outcome = await summary.post(
            sessions, slack, channel, summary.manual_period(), summary_messages, today=today
        )
    print(
        f"{outcome.status}: {outcome.papers} papers"
        + (f" ({outcome.error})" if outcome.error else "")
    )
    return EXIT_FAILED if outcome.status == "failed" else EXIT_OK


async def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from bot.server import CannotListen, serve
    from storage.embedders import EmbedderUnavailable

    settings.require_slack(socket_mode=args.socket)
    host, port = args.host or settings.host, args.port or settings.port
    try:
        await serve(settings, host=host, port=port, socket_mode=args.socket)
    except CannotListen as error:
        if not error.in_use:  # an address that is not this host's: configuration
            raise UsageError(str(error)) from None
        raise Failed(f"{error}: stop what uses it, or choose another with --port") from None
    except EmbedderUnavailable as error:  # PAPERBOT_EMBEDDER names what cannot load
        raise UsageError(str(error)) from None
    return EXIT_OK


async def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from storage import transfer

    if args.saved is not None or args.bibtex:
        return await _export_saved(args, settings)
    async with _existing_store(settings) as session:
        out = sys.stdout if args.file == "-" else await _open_for_writing(args.file)
        rows = -1  # the header line is not a row
        try:
            async for line in transfer.export_lines(session, db.schema_heads()):
                out.write(line + "\n")
                rows += 1
        finally:
            if out is not sys.stdout:
                out.close()
    print(f"exported {rows} rows", file=sys.stderr if out is sys.stdout else sys.stdout)
    return EXIT_OK


async def _export_saved(args: argparse.Namespace, settings: Settings) -> int:
    """`export --saved USER --bibtex`: BibTeX of a user's saved papers with an arXiv ID."""
    if args.saved is None or not args.bibtex:
        raise UsageError(
            "--saved USER and --bibtex go together: paperbot export --saved U… --bibtex"
        )
    from storage import saved

    async with _existing_store(settings) as session:
        text, left_out = await saved.bibtex(session, args.saved)
    out = sys.stdout if args.file == "-" else await _open_for_writing(args.file)
    try:
        out.write(text + "\n" if text else "")
    finally:
        if out is not sys.stdout:
            out.close()
    entries = text.count("@misc{")
    note = f"exported {entries} BibTeX entries"
    if left_out:
        note += f"; {left_out} saved papers without an arXiv ID left out"
    print(note, file=sys.stderr if out is sys.stdout else sys.stdout)
    return EXIT_OK


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from storage import transfer
    from storage.status import store_status

    source = sys.stdin.buffer if args.file == "-" else await _open_bytes(args.file)
    with source:
        async with (
            db.open_store(settings.database_url) as sessions,
            db.writing(sessions) as session,
        ):
            if not await transfer.is_empty(session):
                raise UsageError("the database is not empty: import into a new database")
            try:
                counts = await transfer.import_lines(session, source, db.schema_heads())
            except transfer.BadExport as error:
                raise Failed(f"{args.file}: {error}; nothing was imported") from None
            claims = (await store_status(session)).claims
    # The claims table also holds abstracts' result sentences; `status` counts claims only.
    rows = [f"{n} {table}" for table, n in counts.items() if table != "claims"]
    sentences = counts.get("claims", 0) - claims
    print(f"imported {claims} claims, {sentences} abstract result sentences, " + ", ".join(rows))
    return EXIT_OK


async def _open_for_writing(name: str) -> TextIO:
    return await _opening(name, lambda: open(name, "w", encoding="utf-8"))


async def _open_bytes(name: str) -> BinaryIO:
    """For reading; its lines are decoded one by one, so bad text is refused at its line."""
    return await _opening(name, lambda: open(name, "rb"))


async def _opening(name: str, opened: Callable[[], T]) -> T:
    try:
        return await asyncio.to_thread(opened)
    except OSError as error:
        raise UsageError(f"cannot open {name}: {error.strerror or error}") from None


async def cmd_manifest(args: argparse.Namespace, settings: Settings) -> int:
    from bot import manifest

    try:
        url = manifest.request_url(args.request_url) if args.request_url is not None else None
    except manifest.BadRequestUrl as error:
        raise UsageError(str(error)) from None
    print(manifest.manifest_yaml(url), end="")
    return EXIT_OK


def port_number(raw: str) -> int:
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port number: {raw!r}")
    return int(raw)


class _Version(argparse.Action):
    """`--version`: the line is made only when asked (it reads the migration scripts)."""

    def __init__(self, option_strings: Sequence[str], dest: str) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="print the package, parser and schema versions and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version.describe())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paperbot",
        description="Slack bot for research teams: paper digests, searchable claims.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Command, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p

    p = command("ingest", cmd_ingest, "parse and load digest files or folders")
    p.add_argument("paths", nargs="*", metavar="PATH", help="default: $PAPERBOT_DIGEST_DIR")
    p.add_argument(
        "--force",
        action="store_true",
        help="re-parse files whose content is unchanged, and accept new versions that remove "
        "papers or claims (refused as suspect without it)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--check",
        action="store_true",
        help="parse and report problems with their lines; write nothing (exit 1 on problems)",
    )
    p.add_argument(
        "--no-embed",
        action="store_true",
        help="do not embed new claims and papers for search by meaning",
    )

    p = command("status", cmd_status, "counts and the last ingest run")
    p.add_argument("--json", action="store_true", help="print as JSON")

    p = command("ask", cmd_ask, "run one slash command and print the reply")
    p.add_argument("text", metavar='"/COMMAND ARGS"', help='e.g. "/paper GAPO"')
    p.add_argument("--user", default="ULOCAL", help="Slack user ID asking (default ULOCAL)")
    p.add_argument("--channel", default="CLOCAL", help="Slack channel ID (default CLOCAL)")
    p.add_argument("--json", action="store_true", help="print the Slack payload as JSON")

    p = command("shell", cmd_shell, "an interactive prompt for slash commands")
    p.add_argument("--user", default="ULOCAL", help="Slack user ID asking (default ULOCAL)")

    p = command("serve", cmd_serve, "run the bot (HTTP or Socket Mode) and its scheduler")
    p.add_argument("--port", type=port_number, help="HTTP port (default $PAPERBOT_PORT or 3000)")
    p.add_argument("--host", help="address to listen on (default $PAPERBOT_HOST or 0.0.0.0)")
    p.add_argument("--socket", action="store_true", help="use Socket Mode ($SLACK_APP_TOKEN)")

    p = command("digest", cmd_digest, "show or post the daily summary now")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--preview", action="store_true", help="print the summary")
    mode.add_argument("--post", action="store_true", help="post it to the channel")
    p.add_argument("--channel", help="channel ID (default $PAPERBOT_DIGEST_CHANNEL)")

    p = command("db", cmd_db_upgrade, "database maintenance")
    db_sub = p.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    db_sub.add_parser("upgrade", help="apply migrations", description="apply migrations")

    p = command("export", cmd_export, "write the whole store as JSON lines (to move it)")
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="default: stdout")
    p.add_argument("--saved", metavar="USER", help="a Slack user ID: their saved papers instead")
    p.add_argument("--bibtex", action="store_true", help="with --saved: as BibTeX")

    p = command("import", cmd_import, "load an export into an empty database")
    p.add_argument("file", metavar="FILE", help="a file from `paperbot export`, or - for stdin")

    p = command("manifest", cmd_manifest, "print the Slack app manifest")
    p.add_argument(
        "--request-url",
        metavar="URL",
        help="the bot's public https address (HTTP mode); without it: Socket Mode",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    sys.exit(run(build_parser().parse_args(argv)))


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
        logs.configure(settings.log_format, settings.log_level, settings.secrets)
        handler: Command = args.handler
        with logs.tagged(logs.new_id("cli")):
            return asyncio.run(handler(args, settings))
    except (ConfigError, UsageError) as error:
        return fail(str(error), EXIT_USAGE)
    except Failed as error:
        return fail(str(error), EXIT_FAILED)
    except DBAPIError as error:  # the driver's own message says what went wrong
        return fail(f"database error: {str(error.orig).splitlines()[0]}", EXIT_FAILED)
    except SQLAlchemyError as error:
        return fail(f"database error: {str(error).splitlines()[0]}", EXIT_FAILED)
    except BrokenPipeError:  # `paperbot export | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except (ConnectionError, socket.gaierror, TimeoutError) as error:
        return fail(f"cannot connect to the database: {error}", EXIT_FAILED)
    except OSError as error:  # a file or folder of ours: its name and what is wrong
        where = f"{error.filename}: " if error.filename else ""
        return fail(f"{where}{error.strerror or error}", EXIT_FAILED)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_FAILED)


def fail(message: str, status: int) -> int:
    print(f"paperbot: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    main()
