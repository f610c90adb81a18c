"""A listener hands the request back to Bolt the moment it acknowledges; the rest of its
work goes on in the background, tracked (Services.spawn) so that shutdown waits for it.

Bolt can do this itself (`process_before_response=False`), but it learns of the
acknowledgement by polling for it every 10 ms, which made every command wait about 10 ms
more than its answer took. So the app runs listeners inline, each wrapped by
`returning_on_ack`, which is told of the acknowledgement as it happens.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from bot.listeners.errors import report_after_ack
from bot.services import Services

Listener = Callable[..., Coroutine[Any, Any, None]]


def returning_on_ack(services: Services) -> Callable[[Listener], Listener]:
    def wrap(listener: Listener) -> Listener:
        # functools.wraps keeps the listener's signature, from which Bolt picks the
        # arguments it passes (ack, respond, client, …).
        @functools.wraps(listener)
        async def run(**kwargs: Any) -> None:
            acked = asyncio.get_running_loop().create_future()
            ack = kwargs.get("ack")
            if ack is None:  # an event: Bolt acknowledges it when the listener returns
                acked.set_result(None)
            else:

                async def ack_and_tell(*args: Any, **fields: Any) -> Any:
                    response = await ack(*args, **fields)
                    if not acked.done():
                        acked.set_result(None)
                    return response

                kwargs["ack"] = ack_and_tell

            async def work() -> None:
                try:
                    await listener(**kwargs)
                except Exception as error:
                    if not acked.done():
                        raise  # Bolt's error handler puts it in the acknowledgement
                    await report_after_ack(error, kwargs.get("respond"))

            task = services.spawn(work(), listener.__name__)
            await asyncio.wait({task, acked}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # re-raises what failed before the acknowledgement

        return run

    return wrap
