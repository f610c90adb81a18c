"""`paperbot serve`: the aiohttp application around the Slack app.

Routes: `POST /slack/events` (commands, buttons, events, all through Bolt) and
`GET /healthz`. Every resource lives in a cleanup context, so it is opened at start and
closed, in reverse order, on shutdown; background work is given time to finish first.
The address is bound before any of them starts, so a busy port stops nothing half-begun.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import socket
import time
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.typedefs import Handler
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bot import logs, memory, replies
from bot.app import build_app
from bot.meaning import Meaning
from bot.messenger import SlackMessenger
from bot.scheduling import build_scheduler
from bot.services import Services
from bot.settings import Settings
from bot.signing import is_signed
from bot.version import describe, versions
from bot.watchdog import Systemd, watching
from storage import db
from storage.search import read_dictionary
from storage.warming import warm_store

log = logging.getLogger(__name__)

SETTINGS = web.AppKey("settings", Settings)
SOCKET_MODE = web.AppKey("socket_mode", bool)
SERVICES = web.AppKey("services", Services)
BOLT = web.AppKey("bolt", AsyncApp)
VERSION = web.AppKey("version", str)  # paperbot's, shown by /healthz
REJECTED = web.RequestKey("rejected", str)
SHUTDOWN_GRACE_SECONDS = 20.0
# Slack's requests are a few kilobytes; aiohttp refuses bodies over this anyway.
MAX_BODY_BYTES = 1024**2
WARM_UP_SECONDS = 5.0
WARM_UP_TEXT = "zzwarmupzz"


class CannotListen(Exception):
    """The address cannot be bound; the message says why in one line."""

    def __init__(self, message: str, *, in_use: bool = False) -> None:
        super().__init__(message)
        self.in_use = in_use


async def _store(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    async with db.open_store(settings.database_url) as sessions:
        meaning = await asyncio.to_thread(
            Meaning.load, settings.embedder, settings.index_dir, settings.database_url
        )
        services = app[SERVICES] = Services(settings, sessions, meaning=meaning)
        log.info("search by meaning: %s", meaning.description)
        # "Did you mean" needs the store's words: read them now, not on the first typo.
        services.spawn(services.suggester.refresh(services.sessions), "vocabulary")
        if meaning.search is not None:
            # Saved indexes are loaded before serving (seconds), so the first query is
            # searched by meaning too; what they lack is added (or, without them, they are
            # built) in the background, and anything not embedded yet is embedded.
            try:
                await meaning.search.restore()
            except Exception:  # a cache: without it the build below starts from scratch
                log.exception("loading the saved index for search by meaning failed")
            services.embedding_work(_build_then_embed(services), "search index")
        yield


async def _build_then_embed(services: Services) -> None:
    try:
        await services.meaning.start(services.sessions)
    except Exception:  # the bot keeps serving, lexically
        log.exception("building the index for search by meaning failed: search is lexical")
        return
    dense = services.dense
    if dense is not None:
        log.info(
            "search by meaning ready: %d claims and %d papers indexed",
            len(dense.claims),
            len(dense.papers),
        )
    services.embed_in_background()


async def _warm(app: web.Application) -> AsyncIterator[None]:
    """The store's pages read into memory (storage/warming.py), then a search of each kind
    before serving, so that the first command after start does not pay for what is done
    once per process: reading the bilingual dictionary, compiling the SQL, the store's first
    statements, imports on first use, the model's first query. The searches match nothing;
    if anything here fails or is slow, serving starts anyway."""
    services = app[SERVICES]
    sessions, dense = services.sessions, services.dense
    try:
        log.info("%s", await warm_store(sessions))
    except Exception as error:
        log.warning("warming the store failed: %s; serving anyway", type(error).__name__)
    # Read before serving (seconds, in a thread), as the model and the saved index are: a
    # first command that waited for it took up to half a second.
    await read_dictionary(app[SETTINGS].index_dir)
    # The "Did you mean" vocabulary, whose load began with the store (0.6 s of work at
    # 10,000 papers): the first commands would otherwise share the CPU with it.
    try:
        async with asyncio.timeout(WARM_UP_SECONDS):
            await services.suggester.settled()
    except TimeoutError:  # it goes on loading in the background
        log.info("the vocabulary for suggestions is still loading; serving anyway")
    try:
        async with asyncio.timeout(WARM_UP_SECONDS):
            if dense is not None:
                await dense.warm()
            await replies.paper(sessions, WARM_UP_TEXT, dense=dense)
            await replies.claims(sessions, WARM_UP_TEXT, dense=dense)
            await replies.open_paper(sessions, WARM_UP_TEXT)
    except Exception as error:  # a cold first command is better than no bot
        log.warning("warm-up search failed: %s; serving anyway", type(error).__name__)
    yield


async def _settle(app: web.Application) -> AsyncIterator[None]:
    """Keep what start-up made (the bilingual dictionary, the Slack app) out of the
    garbage collector's full collections (bot/memory.py)."""
    memory.settle(full=True)
    yield


async def _slack(app: web.Application) -> AsyncIterator[None]:
    settings, services = app[SETTINGS], app[SERVICES]
    assert settings.slack_signing_secret is not None
    bolt = build_app(
        services,
        token=settings.slack_bot_token,
        api_url=settings.slack_api_url,
        signing_secret=settings.slack_signing_secret,
    )
    app[BOLT] = bolt
    socket = None
    if app[SOCKET_MODE]:
        socket = AsyncSocketModeHandler(
            bolt,
            app_token=settings.slack_app_token,
            web_client=AsyncWebClient(
                token=settings.slack_app_token, base_url=settings.slack_api_url
            ),
        )
        await socket.connect_async()  # type: ignore[no-untyped-call]
    scheduler = build_scheduler(services, SlackMessenger(bolt.client))
    scheduler.start()
    yield
    scheduler.shutdown(wait=False)
    services.stop_embedding()
    if socket is not None:
        await socket.close_async()  # type: ignore[no-untyped-call]
    await services.drain(grace=SHUTDOWN_GRACE_SECONDS)


@web.middleware
async def request_log(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Each request under its own id (the error id users see), with one line when done;
    a rejected request's line is a warning that says why."""
    with logs.tagged(logs.new_id("r")):
        started = time.monotonic()
        response = await handler(request)
        took = (time.monotonic() - started) * 1000
        line = f"{request.method} {request.path} {response.status} {took:.0f} ms"
        if REJECTED in request:
            log.warning("%s: %s", line, request[REJECTED])
        elif request.path == "/healthz" and response.status == 200:
            log.debug("%s", line)  # health checks come every few seconds
        else:
            log.info("%s", line)
        return response


def reject(request: web.Request, status: int, why: str) -> web.Response:
    request[REJECTED] = why
    error = "invalid request" if status == 401 else "bad request"
    return web.json_response({"error": error}, status=status)


async def slack_events(request: web.Request) -> web.Response:
    """Bolt parses a body before it checks the signature, and fails on what it cannot
    parse: so the signature is checked here first, then whether Bolt can read the body."""
    if (request.content_length or 0) > MAX_BODY_BYTES:
        return reject(request, 413, f"body of {request.content_length} bytes is too large")
    try:
        body = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return reject(request, 413, "body is too large")
    secret = request.app[SETTINGS].slack_signing_secret or ""
    if not is_signed(secret, request.headers, body, now=time.time()):
        return reject(request, 401, "no valid Slack signature")
    try:
        bolt_request = AsyncBoltRequest(
            body=body.decode(), query=request.query_string, headers=dict(request.headers)
        )
    except Exception as error:  # parsing only: what fails here is the body
        return reject(request, 400, f"body is not a Slack request: {_where(error)}")
    if not body.strip() or not isinstance(bolt_request.body, dict):
        return reject(request, 400, "body is not a Slack request")
    try:
        response = await request.app[BOLT].async_dispatch(bolt_request)
    except Exception as error:  # listeners' errors go to the app's error handler, not here
        return reject(request, 400, f"Bolt cannot read this request: {_where(error)}")
    return await to_aiohttp_response(response)


def _where(error: Exception) -> str:
    """The error and the line that raised it, in one line (the body's fields are not
    shown: they may be anyone's text)."""
    frames = traceback.extract_tb(error.__traceback__)
    at = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{at}"


async def healthz(request: web.Request) -> web.Response:
    services = request.app[SERVICES]
    running_version = request.app[VERSION]
    try:
        dialect = await asyncio.wait_for(db.ping(services.sessions), timeout=2)
    except Exception as error:  # any failure to answer means: not healthy
        log.warning("health check: database not answering: %s", type(error).__name__)
        return web.json_response(
            {"status": "unavailable", "database": "not answering", "version": running_version},
            status=503,
        )
    return web.json_response({"status": "ok", "database": dialect, "version": running_version})


def web_app(settings: Settings, *, socket_mode: bool = False) -> web.Application:
    app = web.Application(middlewares=[request_log])
    app[SETTINGS] = settings
    app[SOCKET_MODE] = socket_mode
    app[VERSION] = versions()["version"]
    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_warm)
    app.cleanup_ctx.append(_slack)
    app.cleanup_ctx.append(_settle)
    app.router.add_post("/slack/events", slack_events)
    app.router.add_get("/healthz", healthz)
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (not yet accepting), or CannotListen saying why."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as error:
        why = getattr(error, "strerror", None) or error
        raise CannotListen(f"cannot listen on {host!r}: {why}") from None
    listening = socket.socket(family, kind, proto)
    # A restart may bind at once, while connections of the old process are in TIME_WAIT.
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise CannotListen(f"port {port} is in use", in_use=True) from None
        raise CannotListen(f"cannot listen on {host}:{port}: {error.strerror}") from None
    return listening


@asynccontextmanager
async def running(
    settings: Settings, *, host: str, port: int, socket_mode: bool = False
) -> AsyncIterator[int]:
    """The bot serving on host:port (0 picks a free port, which is yielded)."""
    listening = listening_socket(host, port)
    runner = web.AppRunner(web_app(settings, socket_mode=socket_mode), access_log=None)
    try:
        await runner.setup()
        await web.SockSite(runner, listening).start()
        yield listening.getsockname()[1]
    finally:
        await runner.cleanup()
        listening.close()


async def serve(settings: Settings, *, host: str, port: int, socket_mode: bool) -> None:
    """Run until SIGTERM or SIGINT, then shut down cleanly; exit at once if the event
    loop gets stuck (bot/watchdog.py), so that the service manager restarts the bot."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    systemd = Systemd.from_environment()
    async with (
        watching(systemd=systemd),
        running(settings, host=host, port=port, socket_mode=socket_mode) as bound,
    ):
        mode = "Socket Mode" if socket_mode else "HTTP mode (POST /slack/events)"
        log.info("%s serving on %s port %d, %s", describe(), host, bound, mode)
        systemd.notify("READY=1")
        await stop.wait()
        systemd.notify("STOPPING=1")
        log.info("shutting down")
