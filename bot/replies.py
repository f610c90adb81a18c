"""What the bot answers: domain calls plus rendering, shared by Slack, `ask` and `shell`.

Listeners stay thin: they acknowledge, call one of these, and send what it returns.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import date
from typing import Any, ParamSpec

from sqlalchemy.ext.asyncio import AsyncSession

from bot import blocks
from bot.blocks import Message
from bot.command_table import asks_help
from bot.compare_view import comparison, related
from bot.ids import is_channel_id
from bot.review_view import review_modal, review_opened
from bot.saved_view import HOME_SAVED, saved_bibtex, saved_items, saved_list
from bot.settings import TIME_OF_DAY
from bot.suggesting import better_searches, shown_at_once
from jobs import summary
from storage import db, paper_keys, saved, subscriptions
from storage.authors import author_spans
from storage.compare import compare, related_claims
from storage.db import Sessions
from storage.dense import DenseSearch
from storage.ledger import latest_post
from storage.review import full_review
from storage.search import (
    PaperMatches,
    UnknownPaper,
    claims_of,
    filter_spans,
    find_by_identity,
    find_claim,
    lookup_paper,
    paper_details,
    search_claims,
    with_paper,
)
from storage.search_text import BadQuery
from storage.status import store_status
from storage.suggestions import Suggester

P = ParamSpec("P")


def refusing(
    use_case: Callable[P, Coroutine[Any, Any, Message]],
) -> Callable[P, Coroutine[Any, Any, Message]]:
    """A search that cannot run as typed (BadQuery: too long, too costly, nothing left to
    search) is answered with the sentence that says why."""

    @functools.wraps(use_case)
    async def answer(*args: P.args, **kwargs: P.kwargs) -> Message:
        try:
            return await use_case(*args, **kwargs)
        except BadQuery as refusal:
            return blocks.refusal(str(refusal))

    return answer


def wants_help(text: str) -> bool:
    return not text.strip() or asks_help(text)


@refusing
async def paper(
    sessions: Sessions,
    text: str,
    page: int = 1,
    suggester: Suggester | None = None,
    dense: DenseSearch | None = None,
) -> Message:
    """`/paper`: a card, a page of a list, or none; fused with search by meaning when
    `dense` is ready. When the words as typed find little (whatever meaning adds) and
    `suggester` knows better words, "Did you mean …"; the results of the one that stands
    out instead, when nothing was found or it corrects a misspelling (`shown_at_once`)."""
    if wants_help(text):
        return blocks.help_for("/paper")
    async with sessions() as session:
        matches = await lookup_paper(session, text, page=page, dense=dense)
        fixes = await better_searches(
            suggester if page == 1 else None,
            sessions,
            text,
            matches.matching_words,
            lambda corrected: lookup_paper(session, corrected, all_but_one=False),
            names_first=True,
            keep=author_spans(text),
        )
        lead = shown_at_once(fixes, text, matches.total, matches.matching_words)
        offered = [fix.text for fix in fixes if fix is not lead]
        if lead:
            used = await lookup_paper(session, lead.text, dense=dense)
            found = await _paper_reply(session, lead.text, used)
            reply = blocks.corrected(found, lead.text, text.strip())
        else:
            reply = await _paper_reply(session, text, matches)
    return blocks.with_suggestions(reply, "/paper", offered)


async def _paper_reply(session: AsyncSession, text: str, matches: PaperMatches) -> Message:
    if not matches.papers:
        if matches.page > 1:
            return blocks.text_reply("No more papers on that page; run the search again.")
        return blocks.no_paper(text.strip(), matches.notes)
    if matches.one is None:
        return blocks.paper_list(text.strip(), matches)
    details = await paper_details(session, matches.one.key)
    return blocks.paper_card(details) if details else blocks.no_paper(text.strip())


@refusing
async def claims(
    sessions: Sessions,
    text: str,
    page: int = 1,
    suggester: Suggester | None = None,
    dense: DenseSearch | None = None,
) -> Message:
    """`/claims`: one claim by its address, or a page of hits (fused with search by
    meaning when `dense` is ready); when little is found, "Did you mean …" as for `/paper`."""
    if wants_help(text):
        return blocks.help_for("/claims")
    verb, _, rest = text.strip().partition(" ")
    if verb.lower() == "compare" and page == 1:
        return await compare_on(sessions, rest)
    if verb.lower() == "related" and page == 1:
        return await related_by_address(sessions, rest, dense)
    async with sessions() as session:
        addressed = await find_claim(session, text) if page == 1 else None
        if addressed is not None:
            return blocks.addressed_claim(addressed)
        try:
            found = await search_claims(session, text, page=page, dense=dense)
        except UnknownPaper as unknown:
            meant = await papers_meant(suggester, sessions, session, unknown.name)
            named = [with_paper(text, address) for address in meant]
            return blocks.with_suggestions(blocks.refusal(str(unknown)), "/claims", named)
        fixes = await better_searches(
            suggester if page == 1 else None,
            sessions,
            text,
            found.matching_words,
            lambda corrected: search_claims(session, corrected, all_but_one=False),
            keep=filter_spans(text),
        )
        lead = shown_at_once(fixes, text, found.total, found.matching_words)
        offered = [fix.text for fix in fixes if fix is not lead]
        if lead:
            used = await search_claims(session, lead.text, dense=dense)
            reply = blocks.corrected(blocks.claim_page(lead.text, used), lead.text, text.strip())
        else:
            reply = blocks.claim_page(text.strip(), found)
    return blocks.with_suggestions(reply, "/claims", offered)


async def papers_meant(
    suggester: Suggester | None, sessions: Sessions, session: AsyncSession, name: str
) -> list[str]:
    """The addresses of the papers a `paper:` filter naming none most likely meant: those
    `/paper` finds for the name as typed (a part of it: `Hunyuan`) or with its misspelt
    words corrected (`Hunyaun`, `Enok`); a few at most."""
    vocabulary = await suggester.vocabulary(sessions) if suggester is not None else None
    tried = [name]
    if vocabulary is not None:
        tried += await asyncio.to_thread(vocabulary.corrections, name, names_first=True)
    meant: dict[str, None] = {}
    for words in tried:
        try:
            found = await lookup_paper(session, words, all_but_one=False)
        except BadQuery:  # nothing searchable in it (`paper:"!!!"`)
            continue
        if 0 < found.total <= MEANT_PAPERS:
            meant |= dict.fromkeys(ref.address for ref in found.papers if ref.address)
    return list(meant)[:MEANT_PAPERS]


MEANT_PAPERS = 3  # papers offered for a `paper:` filter that names none


async def open_paper(sessions: Sessions, key: str, *, shared_by: str | None = None) -> Message:
    async with sessions() as session:
        details = await paper_details(session, key)
    if details is None:
        return blocks.text_reply("That paper is no longer in the store.")
    return blocks.paper_card(details, shared_by=shared_by)


async def show_claims(sessions: Sessions, key: str) -> Message:
    async with sessions() as session:
        details = await paper_details(session, key)
        if details is None:
            return blocks.text_reply("That paper is no longer in the store.")
        hits = await claims_of(session, details.ref.id)
    if not hits:
        return blocks.text_reply("This paper has no claims in the store.")
    return blocks.paper_claims(details, hits)


@refusing
async def compare_on(sessions: Sessions, name: str) -> Message:
    """`/claims compare AIME24`: per paper, the claims reporting that name."""
    async with sessions() as session:
        found = await compare(session, name)
    return comparison(found)


@refusing
async def related_to(
    sessions: Sessions, claim_id: int, dense: DenseSearch | None = None
) -> Message:
    """*Related* on a claim: other papers' claims reporting the same names, then those
    closest in meaning."""
    async with sessions() as session:
        found = await related_claims(session, claim_id, dense)
    return related(found)


async def related_by_address(
    sessions: Sessions, address: str, dense: DenseSearch | None = None
) -> Message:
    """`/claims related GAPO#1`: the *Related* button, typed."""
    async with sessions() as session:
        addressed = await find_claim(session, address)
    if addressed is None or not addressed.hits:
        return blocks.refusal(
            f"“{address[:80]}” is not a claim's address; write one like `/claims related GAPO#1`."
        )
    return await related_to(sessions, addressed.hits[0].claim_id, dense)


# --- the full review ------------------------------------------------------------------

# Opens a modal (Slack's views.open or views.push), given its view.
OpenView = Callable[[dict[str, Any]], Awaitable[None]]


async def review_view(sessions: Sessions, key: str, page: int = 1) -> dict[str, Any]:
    """The *Full review* modal of a paper, at `page`."""
    async with sessions() as session:
        review = await full_review(session, key)
    return review_modal(review, page)


@refusing
async def review_command(sessions: Sessions, text: str, open_view: OpenView) -> Message:
    """`/paper review <paper>`: the full review of the one paper `text` names, opened as a
    modal; several or none: the list, or the sentence, `/paper` would answer."""
    if wants_help(text):
        return blocks.help_for("/paper")
    async with sessions() as session:
        matches = await lookup_paper(session, text)
        if matches.one is None:
            return await _paper_reply(session, text, matches)
        review = await full_review(session, matches.one.key)
    await open_view(review_modal(review))
    return review_opened(review)


async def summary_preview(
    sessions: Sessions, channel: str, today: date, *, offline: bool = False
) -> Message:
    """The next summary's first message; `offline` (`ask`, `shell`) for `/digest post`,
    which there posts nothing and records nothing."""
    payloads = await summary.preview(sessions, channel, blocks.summary_messages, today=today)
    unposted = (
        "Offline, nothing was posted or recorded: `paperbot digest --post` posts for real. "
        if offline
        else ""
    )
    if not payloads:
        return blocks.text_reply(unposted + "Nothing new since the last summary.")
    first = payloads[0]
    replies = f"{len(payloads) - 1} thread replies not shown"
    note = unposted + f"Preview of the next summary ({replies})."
    return Message(text=first["text"], blocks=[blocks.context(note), *first["blocks"]][:50])


# --- subscriptions --------------------------------------------------------------------

SUBSCRIPTION_VERBS = ("subscribe", "subscriptions", "unsubscribe")
_AT = re.compile(r"\bat:(\S*)", re.IGNORECASE)


@dataclass(frozen=True)
class Asker:
    """Who typed a command, and where."""

    user: str
    channel: str
    admin: bool


# Posts a message in a channel; False when the bot cannot post there (not invited).
Announce = Callable[[str, Message], Awaitable[bool]]


@refusing
async def subscription_command(
    sessions: Sessions, verb: str, rest: str, asker: Asker, announce: Announce
) -> Message:
    """`/paper subscribe …`, `/paper subscriptions`, `/paper unsubscribe …`. A channel's
    new subscription is announced in the channel, which also proves the bot can post
    there: where it cannot, the subscription is not kept."""
    rest = rest.strip()
    if verb == "subscriptions":
        return await subscription_list(sessions, asker)
    if wants_help(rest):
        return blocks.help_for("/paper subscribe")
    if verb == "unsubscribe":
        async with db.writing(sessions) as session:
            removed = await subscriptions.remove_words(session, asker.user, rest)
        if not removed:
            return blocks.refusal(f"You don't follow “{rest[:200]}”.")
        return await subscription_list(sessions, asker, note=f"Removed “{rest[:200]}”.")
    subscriber, post_time = asker.user, None
    first, _, words = rest.partition(" ")
    if first.lower() == "channel":  # admins only (bot/command_table.py)
        if not is_channel_id(asker.channel) or asker.channel.startswith("D"):
            return blocks.text_reply("Run `/paper subscribe channel …` in the channel itself.")
        subscriber, rest = asker.channel, words
        at = _AT.search(rest)
        if at:
            if not TIME_OF_DAY.fullmatch(at.group(1)):
                return blocks.refusal(f"`at:` needs a time like 08:30, not “{at.group(1)[:20]}”.")
            post_time, rest = at.group(1), _AT.sub(" ", rest)
    elif _AT.search(rest):
        return blocks.text_reply(
            "`at:` sets a channel's own time; your messages come with everyone's, once a day."
        )
    async with db.writing(sessions) as session:
        added = await subscriptions.subscribe(
            session, subscriber, rest, created_by=asker.user, post_time=post_time
        )
    words = " ".join(rest.split())[:200]
    if added is None:
        return await subscription_list(sessions, asker, note=f"Already following “{words}”.")
    if not added.is_user:
        news = blocks.channel_subscribed(words, post_time, asker.user)
        if not await announce(subscriber, news):
            async with db.writing(sessions) as session:
                await subscriptions.remove(session, added.id)
            return blocks.cannot_post_here()
        where = "this channel gets"
    else:
        where = "you get"
    note = f"Following “{words}”: {where} new papers that match, once a day."
    return await subscription_list(sessions, asker, note=note)


async def subscription_list(sessions: Sessions, asker: Asker, *, note: str = "") -> Message:
    async with sessions() as session:
        followed = await subscriptions.of(session, asker.user, asker.channel)
    return blocks.subscription_list(followed, note=note)


async def remove_subscription(sessions: Sessions, subscription_id: int, asker: Asker) -> Message:
    async with db.writing(sessions) as session:
        item = await subscriptions.get(session, subscription_id)
        allowed = item is not None and (item.subscriber == asker.user or asker.admin)
        if allowed:
            await subscriptions.remove(session, subscription_id)
    if item is None:
        return await subscription_list(sessions, asker, note="That one was already removed.")
    if not allowed:
        return blocks.not_admin("removing a channel's subscription")
    return await subscription_list(sessions, asker, note=f"Removed “{item.words}”.")


# --- the saved list -------------------------------------------------------------------


async def saved_command(sessions: Sessions, rest: str, user: str) -> Message:
    """`/paper saved` (the list, with *Remove*) and `/paper saved bibtex`."""
    wanted = rest.strip().lower()
    if wanted == "bibtex":
        async with sessions() as session:
            text, left_out = await saved.bibtex(session, user)
        return saved_bibtex(text, left_out)
    if wanted:
        return blocks.text_reply(
            "`/paper saved` lists your saved papers; `/paper saved bibtex` gives their BibTeX."
        )
    return await saved_papers(sessions, user)


async def saved_papers(sessions: Sessions, user: str, *, note: str = "") -> Message:
    async with sessions() as session:
        items = await saved.saved(session, user)
    return saved_list(items, note=note)


@refusing
async def save_paper(sessions: Sessions, user: str, key: str) -> Message:
    """*Save* on a card."""
    async with db.writing(sessions) as session:
        added, count = await saved.save(session, user, key)
    said = "Saved" if added else "Already saved"
    return blocks.text_reply(
        f"{said}: {count} of at most {saved.MAX_SAVED} in your list. `/paper saved` lists them."
    )


async def remove_saved(sessions: Sessions, user: str, key: str) -> Message:
    async with db.writing(sessions) as session:
        label = await saved.remove(session, user, key)
    note = f"Removed “{label[:200]}”." if label else "That one was already removed."
    return await saved_papers(sessions, user, note=note)


# --- unfurls and the Home tab ---------------------------------------------------------

MAX_UNFURLS = 5


async def unfurls(
    sessions: Sessions, urls: list[str], *, buttons: bool = True
) -> dict[str, dict[str, Any]]:
    """Compact cards for the links of papers in the store; other links are left alone."""
    found: dict[str, dict[str, Any]] = {}
    async with sessions() as session:
        for url in urls:
            if len(found) == MAX_UNFURLS:
                break
            identity = await find_by_identity(session, url) if paper_keys.arxiv_id(url) else None
            if identity is None or not identity.papers:
                continue  # not an arXiv link, or a paper not in the store: left alone
            details = await paper_details(session, identity.papers[0].key)
            if details is not None:
                found[url] = blocks.paper_unfurl(details, show=buttons)
    return found


async def home(sessions: Sessions, user: str, summary_channel: str | None) -> dict[str, Any]:
    async with sessions() as session:
        status = await store_status(session)
        latest = await latest_post(session, summary_channel) if summary_channel else None
        followed = await subscriptions.of(session, user)
        kept = await saved.saved(session, user)
    return blocks.home_view(
        blocks.Home(
            latest,
            status.papers,
            status.claims,
            status.documents,
            followed,
            saved_items(kept, limit=HOME_SAVED),
        )
    )
