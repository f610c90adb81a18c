"""Search work is shared fairly: one search at a time per user, a few at once in all, and a
flood of costly searches leaves the bot healthy and other members answered."""

from __future__ import annotations

import asyncio

import aiohttp

from bot import blocks
from bot.fairness import QUIET_SPELL, WAIT, SearchGate
from bot.text_view import as_text
from tests.bot.conftest import Bot


async def held(release: asyncio.Event, started: list[str], name: str) -> blocks.Message:
    started.append(name)
    await release.wait()
    return blocks.text_reply(name)


async def test_a_second_search_from_the_same_user_is_told_to_wait() -> None:
    gate, release, started = SearchGate(at_once=4), asyncio.Event(), list[str]()
    first = asyncio.create_task(gate.run("U1", held(release, started, "first")))
    await asyncio.sleep(0)
    assert await gate.run("U1", held(release, started, "second")) is WAIT
    other = asyncio.create_task(gate.run("U2", held(release, started, "other")))
    await asyncio.sleep(0)
    assert started == ["first", "other"]  # the refused search never ran
    release.set()
    assert [m.text for m in await asyncio.gather(first, other)] == ["first", "other"]
    assert (await gate.run("U1", held(release, started, "again"))).text == "again"


async def test_searches_beyond_the_slots_queue_in_order() -> None:
    gate, release, started = SearchGate(at_once=2), asyncio.Event(), list[str]()
    tasks = [
        asyncio.create_task(gate.run(f"U{i}", held(release, started, f"s{i}"))) for i in range(5)
    ]
    await asyncio.sleep(0.01)
    assert started == ["s0", "s1"]
    release.set()
    await asyncio.gather(*tasks)
    assert started == ["s0", "s1", "s2", "s3", "s4"]


async def test_background_work_waits_for_a_moment_without_searches() -> None:
    gate, release, started = SearchGate(), asyncio.Event(), list[str]()
    await asyncio.wait_for(gate.quiet(), 0.1)  # no search: at once
    search = asyncio.create_task(gate.run("U1", held(release, started, "first")))
    await asyncio.sleep(0)
    waiting = asyncio.create_task(gate.quiet(at_most=5))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    release.set()
    await search
    await asyncio.sleep(QUIET_SPELL / 2)
    assert not waiting.done()  # a search may follow at once (a member paging): not yet
    await asyncio.wait_for(waiting, QUIET_SPELL)  # none did: background work goes on


async def test_a_search_within_the_spell_puts_background_work_off_again() -> None:
    gate, started = SearchGate(), list[str]()
    done = asyncio.Event()
    done.set()
    await gate.run("U1", held(done, started, "first"))
    waiting = asyncio.create_task(gate.quiet(at_most=5))
    await asyncio.sleep(QUIET_SPELL * 0.6)
    await gate.run("U2", held(done, started, "second"))
    await asyncio.sleep(QUIET_SPELL * 0.6)
    assert not waiting.done()  # a spell counts from the last search's end
    await asyncio.wait_for(waiting, QUIET_SPELL)


async def test_background_work_is_not_starved_by_searches_without_a_break() -> None:
    gate, release, started = SearchGate(), asyncio.Event(), list[str]()
    search = asyncio.create_task(gate.run("U1", held(release, started, "endless")))
    await asyncio.sleep(0)
    await asyncio.wait_for(gate.quiet(at_most=0.05), 1)
    assert not search.done()
    release.set()
    await search


COSTLY = [
    '"' + " ".join(["a"] * 149) + '"',
    " ".join(f'"{w} model"' for w in ("the", "of", "and", "in", "to", "we", "a", "is", "on")),
    " ".join("模型训练推理显存延迟吞吐量召回率准确率评测基准方法"),
    "模" * 290,
]


async def test_a_flood_of_costly_searches_leaves_the_bot_healthy_and_others_answered(
    bot: Bot,
) -> None:
    async def health_checks(stop: asyncio.Event) -> list[int]:
        statuses = []
        while not stop.is_set():
            timeout = aiohttp.ClientTimeout(total=3)
            async with bot.http.get(f"{bot.url}/healthz", timeout=timeout) as response:
                statuses.append(response.status)
            await asyncio.sleep(0.05)
        return statuses

    stop = asyncio.Event()
    checking = asyncio.create_task(health_checks(stop))
    flood = [
        bot.command(f"/claims {COSTLY[i % len(COSTLY)]}", user=f"UFLOOD{i % 5}") for i in range(20)
    ]
    replies = await asyncio.gather(*flood, bot.command("/claims AUROC", user="UQUIET"))
    stop.set()
    statuses = await checking

    assert all(status == 200 for status, _ in replies)
    *flooded, (_, ordinary) = replies
    assert "AUROC" in as_text(ordinary)
    waits = [reply for _, reply in flooded if as_text(reply) == as_text(WAIT.as_payload())]
    assert len(waits) < len(flooded)  # each flooding user got answers too
    assert statuses and set(statuses) == {200}
