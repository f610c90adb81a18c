"""What the bot answers: domain calls plus rendering, shared by Slack, `ask` and `shell`.

Listeners stay thin: they acknowledge, call one of these, and send what it returns.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot import blocks
from bot.blocks import Message
from bot.ids import is_channel_id, is_user_id
from jobs import digest
from jobs.ingest import IngestReport, RunningIngest
from storage.search import (
    claims_of,
    find_claim,
    lookup_paper,
    paper_details,
    search_claims,
)
from storage.search_text import BadQuery

Sessions = async_sessionmaker[AsyncSession]


def wants_help(text: str) -> bool:
    return text.strip().lower() in ("", "help", "-h", "--help", "?")


async def paper(sessions: Sessions, text: str) -> Message:
    if wants_help(text):
        return blocks.help_for("/paper")
    async with sessions() as session:
        try:
            matches = await lookup_paper(session, text)
        except BadQuery as refusal:
            return blocks.refusal(str(refusal))
        if not matches.papers:
            return blocks.no_paper(text.strip())
        if matches.one is None:
            return blocks.paper_list(text.strip(), matches)
        details = await paper_details(session, matches.one.key)
    return blocks.paper_card(details) if details else blocks.no_paper(text.strip())


async def claims(sessions: Sessions, text: str, page: int = 1) -> Message:
    if wants_help(text):
        return blocks.help_for("/claims")
    async with sessions() as session:
        try:
            addressed = await find_claim(session, text) if page == 1 else None
            if addressed is not None:
                return blocks.addressed_claim(addressed)
            found = await search_claims(session, text, page=page)
        except BadQuery as refusal:
            return blocks.refusal(str(refusal))
    return blocks.claim_page(text.strip(), found)


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


def not_admin(command: str) -> Message:
    return blocks.text_reply(
        f"Only admins can run `{command}`. Ask one of them, or an operator to add you to "
        "`PAPERBOT_ADMINS`."
    )


def ingest_busy(running: RunningIngest | None) -> Message:
    if running is None:
        return blocks.text_reply("An ingest was just running; try again.")
    who = running.triggered_by
    by = f"<@{who}>" if who and is_user_id(who) else f"the {running.trigger}"
    return blocks.text_reply(
        f"An ingest is already running, started by {by} at "
        f"{running.started_at:%Y-%m-%d %H:%M:%S} UTC. Try again when it is done."
    )


def ingest_started(force: bool) -> Message:
    what = "Re-parsing every file" if force else "Reading new and changed files"
    return blocks.text_reply(f"{what} in the digest folder… I'll report here when it's done.")


def ingest_done(report: IngestReport) -> Message:
    docs, papers = report.documents, report.papers
    text = (
        f"Ingest #{report.run_id} done: {docs['new']} new, {docs['changed']} changed, "
        f"{docs['unchanged']} unchanged, {docs['failed']} failed files; "
        f"{papers['new']} new and {papers['updated']} updated papers."
    )
    lines = [blocks.esc(text)]
    for error in report.errors[:10]:
        lines.append(f"• `{blocks.esc(error['path'])}`: {blocks.esc(error['error'])}")
    if len(report.errors) > 10:
        lines.append(f"…and {len(report.errors) - 10} more errors (see `paperbot status`).")
    return Message(text=text, blocks=[blocks.section(blocks.clip("\n".join(lines), 2900))])


def cannot_post_here() -> Message:
    return blocks.text_reply(
        "I can't post in this conversation. Invite me first (`/invite @paperbot`), "
        "then share again."
    )


async def digest_preview(sessions: Sessions, channel: str, today: date) -> Message:
    payloads = await digest.preview(sessions, channel, blocks.digest_messages, today=today)
    if not payloads:
        return blocks.text_reply("Nothing new since the last summary.")
    first = payloads[0]
    note = f"Preview of the next summary ({len(payloads) - 1} thread replies not shown)."
    return Message(text=first["text"], blocks=[blocks.context(note), *first["blocks"]][:50])


def digest_outcome(outcome: digest.Outcome, channel: str) -> Message:
    where = f"<#{channel}>" if is_channel_id(channel) else blocks.esc(channel)
    text = {
        "posted": f"Posted the summary of {outcome.papers} papers to {where}.",
        "nothing new": f"Nothing new to post to {where}.",
        "already claimed": f"A summary for {where} is being posted right now.",
        "failed": f"Posting to {where} failed; the papers stay queued for the next run.",
    }[outcome.status]
    return blocks.text_reply(text)


def no_digest_channel() -> Message:
    return blocks.text_reply(
        "No summary channel is configured: an operator sets `PAPERBOT_DIGEST_CHANNEL`."
    )
