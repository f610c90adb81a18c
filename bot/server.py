"""`paperbot serve`: the aiohttp application around the Slack app.

Routes: `POST /slack/events` (commands, buttons, events, all through Bolt) and
`GET /healthz`. Every resource lives in a cleanup context, so it is opened at start and
closed, in reverse order, on shutdown; background work is given time to finish first.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.typedefs import Handler
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import logs
from bot.app import build_app, slack_client
from bot.scheduling import build_scheduler
from bot.services import Services
from bot.settings import Settings
from storage import db

log = logging.getLogger(__name__)

SETTINGS = web.AppKey("settings", Settings)
SOCKET_MODE = web.AppKey("socket_mode", bool)
SERVICES = web.AppKey("services", Services)
BOLT = web.AppKey("bolt", AsyncApp)
SHUTDOWN_GRACE_SECONDS = 20.0


async def _store(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    async with db.open_engine(settings.database_url) as engine:
        await db.upgrade(engine)
        app[SERVICES] = Services(settings, db.session_factory(engine))
        yield


async def _slack(app: web.Application) -> AsyncIterator[None]:
    settings, services = app[SETTINGS], app[SERVICES]
    assert settings.slack_signing_secret is not None
    client = slack_client(settings.slack_bot_token, settings.slack_api_url)
    bolt = build_app(services, client=client, signing_secret=settings.slack_signing_secret)
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
    scheduler = build_scheduler(services, client)
    scheduler.start()
    yield
    scheduler.shutdown(wait=False)
    if socket is not None:
        await socket.close_async()  # type: ignore[no-untyped-call]
    await services.drain(grace=SHUTDOWN_GRACE_SECONDS)


@web.middleware
async def request_log(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Each request under its own id (the error id users see), with one line when done."""
    with logs.tagged(logs.new_id("r")):
        started = time.monotonic()
        response = await handler(request)
        took = (time.monotonic() - started) * 1000
        # Health checks come every few seconds: only failures are worth a line.
        level = (
            logging.DEBUG if request.path == "/healthz" and response.status == 200 else logging.INFO
        )
        log.log(level, "%s %s %d %.0f ms", request.method, request.path, response.status, took)
        return response


async def slack_events(request: web.Request) -> web.Response:
    bolt = request.app[BOLT]
    return await to_aiohttp_response(await bolt.async_dispatch(await to_bolt_request(request)))


async def healthz(request: web.Request) -> web.Response:
    services = request.app[SERVICES]
    try:
        dialect = await asyncio.wait_for(db.ping(services.sessions), timeout=2)
    except Exception as error:  # any failure to answer means: not healthy
        log.warning("health check: database not answering: %s", type(error).__name__)
        return web.json_response({"status": "unavailable", "database": "not answering"}, status=503)
    return web.json_response({"status": "ok", "database": dialect})


def web_app(settings: Settings, *, socket_mode: bool = False) -> web.Application:
    app = web.Application(middlewares=[request_log])
    app[SETTINGS] = settings
    app[SOCKET_MODE] = socket_mode
    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_slack)
    app.router.add_post("/slack/events", slack_events)
    app.router.add_get("/healthz", healthz)
    return app


@asynccontextmanager
async def running(
    settings: Settings, *, host: str, port: int, socket_mode: bool = False
) -> AsyncIterator[int]:
    """The bot serving on host:port (0 picks a free port, which is yielded)."""
    runner = web.AppRunner(web_app(settings, socket_mode=socket_mode), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        yield site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    finally:
        await runner.cleanup()


async def serve(settings: Settings, *, port: int, socket_mode: bool) -> None:
    """Run until SIGTERM or SIGINT, then shut down cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with running(settings, host="0.0.0.0", port=port, socket_mode=socket_mode) as bound:
        mode = "Socket Mode" if socket_mode else "HTTP mode (POST /slack/events)"
        log.info("paperbot serving on port %d, %s", bound, mode)
        await stop.wait()
        log.info("shutting down")
