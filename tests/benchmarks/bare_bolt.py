"""The reference for the per-command overhead: a bare Bolt app whose `/paper` only acks.

    python -m tests.benchmarks.bare_bolt --port PORT --api-url URL [--process-before-response]

Served by Bolt's own aiohttp adapter, with the same signing secret and fake Slack Web API
as the benchmark gives `paperbot serve` (tests/benchmarks/bench_overhead.py). Bolt's
default (`process_before_response=False`) runs the listener as a task and polls for its
acknowledgement every 10 ms; `--process-before-response` runs it inline.
"""

from __future__ import annotations

import argparse

from aiohttp import web
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

SECRET = "bench-signing-secret"  # the benchmark signs its requests with it


def bare_app(api_url: str, *, process_before_response: bool) -> web.Application:
    app = AsyncApp(
        client=AsyncWebClient(token="xoxb-bench", base_url=api_url),
        signing_secret=SECRET,
        process_before_response=process_before_response,
    )

    @app.command("/paper")
    async def paper(ack: AsyncAck) -> None:
        await ack("ok")

    @app.command("/claims")
    async def claims(ack: AsyncAck) -> None:
        await ack("ok")

    return app.web_app(path="/slack/events")


async def healthz(_: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--api-url", required=True)
    parser.add_argument("--process-before-response", action="store_true")
    args = parser.parse_args()
    app = bare_app(args.api_url, process_before_response=args.process_before_response)
    app.router.add_get("/healthz", healthz)
    web.run_app(app, host="127.0.0.1", port=args.port, access_log=None, print=None)


if __name__ == "__main__":
    main()
