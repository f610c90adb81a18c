"""Every paper of the seeds has a human name on every surface; no internal key is shown,
every claim has an address, and `paper:` can name every paper."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot import blocks
from bot.text_view import as_text
from storage import search
from storage.ledger import LatestPost
from storage.models import Paper
from storage.subscriptions import Match

INTERNAL_KEY = re.compile(r"\b(?:text|arxiv):[0-9a-z]")
DAY = date(2026, 9, 28)


def shown(payload: dict[str, Any]) -> str:
    """What a user can see of a payload: its JSON without button values (data Slack hands
    back, never shown), and its text rendering."""
    rendered = json.dumps(payload, ensure_ascii=False, default=str)
    rendered = re.sub(r'\\?"value\\?": ?\\?"(?:[^"\\]|\\.)*"', "", rendered)
    return rendered + "\n" + as_text(payload)


async def test_every_surface_names_every_seed_paper_without_its_key(
    seeded: AsyncSession,
) -> None:
    keys = list((await seeded.execute(select(Paper.key).order_by(Paper.id))).scalars())
    cards = await search.papers_details(seeded, keys)
    assert len(cards) == 36
    payloads: list[dict[str, Any]] = []
    for card in cards:
        ref = card.ref
        assert ref.title or ref.name, ref.subtitle
        hits = await search.claims_of(seeded, ref.id)
        assert all(hit.address for hit in hits), ref.label  # every claim can be cited
        payloads += [
            blocks.paper_card(card).as_payload(),
            blocks.paper_card(card, shared_by="U999").as_payload(),
            blocks.paper_unfurl(card),
            blocks.paper_claims(card, hits).as_payload(),
        ]
        # `paper:` names every paper, by its name or else its title.
        page = await search.search_claims(seeded, f'paper:"{ref.name or ref.title}"')
        assert ref.id in {p.id for p in page.papers}, ref.label
        payloads.append(blocks.claim_page("", page).as_payload())
        if hits:
            address = hits[0].address or ""
            found = await search.find_claim(seeded, address)
            assert found is not None and found.hits, address
            payloads.append(blocks.addressed_claim(found).as_payload())
    refs = [card.ref for card in cards]
    payloads.append(blocks.paper_list("papers", search.PaperMatches("text", refs)).as_payload())
    for words in ("86.20%", "AIME24", "causal", "latency", "benchmark"):
        page = await search.search_claims(seeded, words)
        payloads.append(blocks.claim_page(words, page).as_payload())
    payloads += blocks.summary_messages(DAY, cards)
    payloads += blocks.subscription_messages(DAY, [Match(card, ["model"]) for card in cards])
    latest = LatestPost("CPAPERS", datetime(2026, 9, 28, 9, tzinfo=UTC), cards)
    payloads.append(blocks.home_view(blocks.Home(latest, 36, 133, 3, [])))

    for payload in payloads:
        leaked = INTERNAL_KEY.findall(shown(payload))
        assert not leaked, shown(payload)[:400]
    text = "\n".join(shown(p) for p in payloads)
    for name in ("CFM", "自主数学发现", "ENEAS", "GAPO"):  # the named deep reads show up
        assert name in text
    assert "Reinforcement learning has become a central component" in text
