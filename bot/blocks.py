"""Block Kit rendering: pure functions from domain values to Slack messages.

Every piece of digest or user text goes through `esc` (Slack's own escaping of `&`, `<`,
`>`), so nothing from the data can mention @channel, a user or a group, or make a link;
and through `clip`, so no message breaks Slack's limits. Links are the only `<…>` made
here, from URLs the store holds, and their labels are escaped too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from bot import ids
from bot.command_table import HELP
from jobs.ingest import IngestReport, RunningIngest
from jobs.summary import Outcome
from storage.ledger import LatestPost
from storage.search import (
    PAGE_SIZE,
    AddressedClaim,
    ClaimHit,
    ClaimPage,
    PaperDetails,
    PaperMatches,
)
from storage.subscriptions import Followed, Match

Block = dict[str, Any]

# Slack's limits (https://api.slack.com/reference/block-kit/blocks).
MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_HEADER = 150
MAX_BUTTON_LABEL = 75
MAX_BUTTON_VALUE = 2000
MAX_CONTEXT_ELEMENTS = 10
MAX_MESSAGE_TEXT = 3000  # the notification fallback; Slack allows more, nobody reads it
MAX_BLOCKS_CHARS = 12_000  # Slack refuses messages past ~13,000 characters of blocks
CLAIM_PREVIEW = 400  # a Chinese claim, as shown in a list of hits
QUOTE_PREVIEW = 500  # its evidence quote


@dataclass(frozen=True)
class Message:
    """What the bot sends: fallback text plus blocks, ephemeral unless shared."""

    text: str
    blocks: list[Block] = field(default_factory=list)
    in_channel: bool = False

    def as_payload(self) -> dict[str, Any]:
        return {
            "response_type": "in_channel" if self.in_channel else "ephemeral",
            "text": self.text,
            "blocks": self.blocks[:MAX_BLOCKS],
        }


_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _squash(text: str) -> str:
    # One line stays one line with single spaces; text with line breaks keeps them.
    return " ".join(text.split()) if "\n" not in text else text.strip()


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis where text was cut."""
    text = _squash(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_escaped(text: str, limit: int) -> str:
    """`text` escaped, at most `limit` characters once escaped, with an ellipsis where
    it was cut. One pass over at most `limit` characters, whatever the text."""
    text = _squash(text)
    if len(text) <= limit and len(escaped := esc(text)) <= limit:
        return escaped
    out, room = [], limit - 1  # one character is kept for the ellipsis
    for char in text:
        piece = _ESCAPES.get(char, char)
        if len(piece) > room:
            break
        out.append(piece)
        room -= len(piece)
    return "".join(out).rstrip() + "…"


def cut_mrkdwn(text: str, limit: int) -> str:
    """Rendered mrkdwn cut to `limit` characters without splitting an escape (`&amp;`) or
    a link or mention (`<…>`) in two."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for opener, closer in (("&", ";"), ("<", ">")):
        start = cut.rfind(opener)
        if start >= 0 and cut.find(closer, start) < 0:
            cut = cut[:start]
    head, _, last = cut.rpartition("\n")
    if last.strip() == ">":  # a quote marker left without its quote
        cut = head
    return cut + "…"


def mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": cut_mrkdwn(text, MAX_SECTION_TEXT)}


def section(text: str) -> Block:
    return {"type": "section", "text": mrkdwn(text)}


def header(text: str) -> Block:
    return {
        "type": "header",
        "text": {"type": "plain_text", "text": clip_escaped(text, MAX_HEADER)},
    }


def context(*parts: str) -> Block:
    elements = [mrkdwn(part) for part in parts if part][:MAX_CONTEXT_ELEMENTS]
    return {"type": "context", "elements": elements}


def button(label: str, action_id: str, encoded: str, *, style: str | None = None) -> Block:
    """A button carrying `encoded`, a value made by bot.ids, which also reads it back."""
    if len(encoded) > MAX_BUTTON_VALUE:
        raise ValueError(f"button value too long for {action_id}")
    element: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": clip_escaped(label, MAX_BUTTON_LABEL)},
        "action_id": action_id,
        "value": encoded,
    }
    if style:
        element["style"] = style
    return element


MAX_OPTION_VALUE = 150


def overflow(action_id: str, options: Sequence[tuple[str, str]]) -> Block:
    """A menu of 2 to 5 choices, each with a short value made by bot.ids."""
    choices = []
    for label, encoded in options[:5]:
        if len(encoded) > MAX_OPTION_VALUE:
            raise ValueError(f"option value too long for {action_id}")
        text = {"type": "plain_text", "text": clip_escaped(label, MAX_BUTTON_LABEL)}
        choices.append({"text": text, "value": encoded})
    return {"type": "overflow", "action_id": action_id, "options": choices}


def actions(*elements: Block) -> Block:
    return {"type": "actions", "elements": list(elements)}


def channel_mention(channel: str) -> str:
    return f"<#{channel}>" if ids.is_channel_id(channel) else esc(channel)


def link(url: str | None, label: str) -> str:
    """A mrkdwn link for a URL from the store; only http(s) URLs become links."""
    if not url or not url.startswith(("https://", "http://")) or any(c in url for c in "<>| "):
        return ""
    return f"<{url}|{esc(label)}>"


def bold_spans(text: str, spans: Sequence[tuple[int, int]], limit: int) -> str:
    """`text` escaped, its matched spans in bold, clipped to about `limit` characters
    around the first match so that the match stays visible."""
    start = 0
    if spans and len(text) > limit:
        start = max(0, min(spans[0][0] - limit // 4, len(text) - limit))
    end = min(len(text), start + limit)
    out, cursor = [], start
    for a, b in spans:
        a, b = max(a, start), min(b, end)
        if a >= b or a < cursor:
            continue
        out.append(esc(text[cursor:a]))
        out.append(f"*{esc(text[a:b])}*")
        cursor = b
    out.append(esc(text[cursor:end]))
    return ("…" if start else "") + "".join(out).strip() + ("…" if end < len(text) else "")


def _fit(
    blocks: list[Block], max_blocks: int = MAX_BLOCKS, max_chars: int = MAX_BLOCKS_CHARS
) -> list[Block]:
    """As many blocks as fit Slack's count and size limits, saying so when some are cut."""
    kept: list[Block] = []
    size = 0
    for block in blocks:
        size += len(json.dumps(block, ensure_ascii=False))
        if size > max_chars or len(kept) == max_blocks - 1:
            kept.append(context(f"…{len(blocks) - len(kept)} more not shown."))
            return kept
        kept.append(block)
    return kept


def _finish(text: str, blocks: list[Block]) -> Message:
    # The fallback text is mrkdwn too (it is what notifications show): plain, escaped.
    return Message(text=clip_escaped(text, MAX_MESSAGE_TEXT), blocks=_fit(blocks))


# --- papers ---------------------------------------------------------------------------


_RATING = re.compile(
    r"\b(novelty|soundness|significance)\s*(?:为|是|属于|只能判为|判断为|判为)?\s*"
    r"(中等偏上|中等偏下|中等|较高|较低|偏高|偏低|很高|很低|良好|较好|较差|较弱|一般|高|低|强|弱)",
    re.IGNORECASE,
)


def verdict(details: PaperDetails) -> str | None:
    """The reviewer's view in one line: the rating each part of the review gives, where it
    says one (`总体 novelty 中等偏上` -> `Novelty 中等偏上`), else its first sentence."""
    ratings = []
    for part in (details.novelty, details.soundness, details.significance):
        match = _RATING.search(part or "")
        if match:
            ratings.append(f"{match.group(1).capitalize()} {match.group(2)}")
    if ratings:
        return " · ".join(ratings)
    first = re.split(r"(?<=[。.!?！？])", details.novelty or "", maxsplit=1)[0]
    return clip(first, 160) if first else None


def paper_card(card: PaperDetails, *, shared_by: str | None = None) -> Message:
    ref = card.ref
    title = ref.label
    blocks: list[Block] = [header(title)]
    summary = card.positioning or card.abstract_en
    subtitle = (ref.subtitle or "").rstrip("…")
    if ref.name and subtitle and not ref.title and not (summary or "").startswith(subtitle):
        blocks.append(section(f"_{clip_escaped(subtitle, 500)}_"))
    facts = []
    if ref.digest_date:
        facts.append(f"Digest {ref.digest_date.isoformat()}")
    if ref.arxiv_id:
        facts.append(f"arXiv {esc(ref.arxiv_id)}")
    facts.append(
        {
            "huggingface": "HF Daily Papers",
            "deep_read": "Deep read",
            "abstract_only": "Abstract only",
        }.get(ref.kind, esc(ref.kind))
    )
    links = " · ".join(filter(None, (link(card.arxiv_url, "arXiv"), link(card.pdf_url, "PDF"))))
    blocks.append(context(" · ".join(facts), links))
    if card.authors:
        blocks.append(context(clip_escaped(first_authors(card.authors), 300)))
    if summary:
        blocks.append(section(clip_escaped(summary, 1200)))
    if card.claim_count:
        cite = f" · cite one as `{esc(ref.address)}#1`" if ref.address else ""
        blocks.append(context(f"{card.claim_count} numbered claims with evidence quotes{cite}"))
    view = verdict(card)
    if view:
        blocks.append(section(f"*Reviewer:* {clip_escaped(view, 600)}"))
    buttons = []
    if card.claim_count:
        label = f"Show claims ({card.claim_count})"
        buttons.append(button(label, ids.SHOW_CLAIMS, ids.paper_value(ref.key), style="primary"))
    if card.positioning or card.abstract_en or card.novelty:
        buttons.append(button("Full review", ids.FULL_REVIEW, ids.paper_value(ref.key)))
    buttons.append(button("Save", ids.SAVE_PAPER, ids.paper_value(ref.key)))
    if shared_by is None:
        buttons.append(button("Share in channel", ids.SHARE_PAPER, ids.paper_value(ref.key)))
    else:
        blocks.append(context(f"Shared by <@{shared_by}>" if ids.is_user_id(shared_by) else ""))
    if buttons:
        blocks.append(actions(*buttons))
    return _finish(f"{title} ({ref.arxiv_id})" if ref.arxiv_id else title, blocks)


def first_authors(authors: Sequence[str], shown: int = 3) -> str:
    """`Zeng, Yang, Zhang et al.`: the family names (the last word) of the first authors."""
    names = [name.split()[-1] for name in authors[:shown] if name.split()]
    return ", ".join(names) + (" et al." if len(authors) > shown else "")


def search_notes(notes: Sequence[str]) -> list[Block]:
    """What a search left out of what was typed (our own sentences), as a line of small
    print; nothing when it searched everything."""
    return [context(" ".join(notes))] if notes else []


def count_of(total: int, capped: bool, what: str) -> str:
    """`12 papers`, `1 paper`, `1,000+ claims` (a count that stopped at its limit)."""
    return f"{total:,}{'+' if capped else ''} {what}{'' if total == 1 and not capped else 's'}"


def next_page_button(action_id: str, typed: str, page: int) -> Block:
    return actions(button("Next page", action_id, ids.next_page_value(typed, page + 1)))


def paper_list(query: str, matches: PaperMatches) -> Message:
    count = count_of(matches.total, matches.capped, "paper")
    first = (matches.page - 1) * PAGE_SIZE + 1
    shown = f"{first}–{first + len(matches.papers[:15]) - 1}"
    verb = "matches" if count.startswith("1 ") else "match"
    blocks: list[Block] = [section(f"{count} {verb} “{clip_escaped(query, 200)}” · {shown}")]
    blocks += search_notes(matches.notes)
    if matches.all_but_one:
        blocks.append(context(all_but_one_line(matches.matching_words, "paper")))
    for ref in matches.papers[:15]:
        line = f"*{clip_escaped(ref.label, 200)}*"
        if ref.subtitle and not ref.title:
            line += f"\n{clip_escaped(ref.subtitle, 200)}"
        facts = [ref.digest_date.isoformat()] if ref.digest_date else []
        if ref.id in matches.via_claims:  # exact words, in its claims only
            facts.append("named in its claims")
        elif ref.matched_by:  # why it is here (hybrid search)
            facts.append(esc(ref.matched_by))
        if facts:
            line += f"\n_{' · '.join(facts)}_"
        blocks.append(
            {
                "type": "section",
                "text": mrkdwn(line),
                "accessory": button("Open", ids.OPEN_PAPER, ids.paper_value(ref.key)),
            }
        )
    if matches.has_next:
        blocks.append(next_page_button(ids.PAPER_NEXT_PAGE, query, matches.page))
    return _finish(f"{count} {verb} “{query}”", blocks)


def no_paper(query: str, notes: Sequence[str] = ()) -> Message:
    return _finish(
        f"No paper matches “{query}”.",
        [
            section(
                f"No paper matches “{clip_escaped(query, 200)}”.\n"
                "Try an arXiv ID (`2609.35259`) or link, a title, a method name (`GAPO`), "
                "or a few words from the abstract."
            ),
            *search_notes(notes),
        ],
    )


# --- claims ---------------------------------------------------------------------------


def claim_hit(hit: ClaimHit, *, preview: bool = True) -> Block:
    paper = clip_escaped(hit.paper.label, 150)
    zh, en = (CLAIM_PREVIEW, QUOTE_PREVIEW) if preview else (1200, 1500)
    if hit.source == "review":
        where = f"*{paper}* · claim {hit.number}"
        body = bold_spans(hit.text_zh, hit.zh_spans, zh)
        body += f"\n> {bold_spans(hit.quote_en, hit.en_spans, en)}"
    else:
        where = f"*{paper}* · _from the abstract, not a reviewed claim_"
        body = f"> {bold_spans(hit.quote_en, hit.en_spans, en)}"
        if hit.text_zh:  # the same sentence in the digest's Chinese abstract
            body += f"\n中文摘要：{bold_spans(hit.text_zh, hit.zh_spans, zh)}"
    if hit.address:
        where += f" · `{esc(hit.address)}`"
    if hit.matched_by:  # why it is here (hybrid search): "exact words" or "similar meaning"
        where += f" · _{esc(hit.matched_by)}_"
    block = section(f"{where}\n{body}")
    # A menu, as a section holds one accessory: other papers' claims reporting the same
    # benchmarks, baselines or models, and saving the claim's paper.
    block["accessory"] = overflow(
        ids.CLAIM_MENU,
        [
            ("Related claims", ids.claim_value(hit.claim_id)),
            ("Save the paper", ids.paper_value(hit.paper.key)),
        ],
    )
    return block


def addressed_claim(found: AddressedClaim) -> Message:
    """`/claims GAPO#3`: that claim in full, with the way back to its paper."""
    blocks: list[Block] = [claim_hit(hit, preview=False) for hit in found.hits[:5]]
    papers = {hit.paper.key: hit.paper for hit in found.hits} or {p.key: p for p in found.papers}
    if not found.hits:
        name = clip_escaped(found.papers[0].label, 150)
        blocks.append(section(f"*{name}* has no claim `{esc(found.address)}`."))
    buttons = [
        button(f"Open {ref.label}", ids.OPEN_PAPER, ids.paper_value(ref.key))
        for ref in list(papers.values())[:5]
    ]
    blocks.append(actions(*buttons))
    return _finish(f"{found.address}", blocks)


def claim_page(typed: str, page: ClaimPage) -> Message:
    if not page.hits:
        what = "on that page" if page.page > 1 else "for that search"
        return _finish(
            f"No claims {what}.",
            [
                section(
                    f"No claims match “{clip_escaped(typed, 200)}”"
                    + (f" (page {page.page})." if page.page > 1 else ".")
                    + "\nTry fewer words, another spelling, or drop `paper:` / `since:` / `until:`."
                ),
                *search_notes(page.notes),
            ],
        )
    first = (page.page - 1) * PAGE_SIZE + 1
    count = count_of(page.total, page.capped, "claim")
    verb = "matches" if count.startswith("1 ") else "match"
    blocks: list[Block] = [
        context(
            f"{count} {verb} “{clip_escaped(typed, 200)}” · {first}–{first + len(page.hits) - 1}"
        )
    ]
    blocks += search_notes(page.notes)
    if page.first:
        named = " and ".join(f"*{clip_escaped(ref.label, 100)}*" for ref in page.first[:3])
        them = "them" if len(page.first) > 1 else "it"
        blocks.append(context(f"The claims of {named} come first: the search names {them}."))
    if page.all_but_one:
        blocks.append(context(all_but_one_line(page.matching_words, "claim")))
    blocks += [claim_hit(hit) for hit in page.hits]
    if page.has_next:
        blocks.append(next_page_button(ids.NEXT_PAGE, typed, page.page))
    return _finish(f"{count} {verb} “{typed}”", blocks)


def all_but_one_line(matching: int, what: str) -> str:
    """What the `what`s marked "all but one word" are, after the `matching` holding all."""
    held = f"{matching:,} {what}s hold" if matching > 1 else f"{matching or 'No'} {what} holds"
    return f"{held} every word; those marked _all but one word_ hold all of them but one."


# --- did you mean ----------------------------------------------------------------------


def suggestions(command: str, texts: Sequence[str]) -> list[Block]:
    """ "Did you mean …" with a button running each corrected search (at most 300
    characters, as typed searches are)."""
    if not texts:
        return []
    options = " or ".join(f"*{clip_escaped(text, 100)}*" for text in texts)
    buttons = [
        button(text, ids.RUN_SUGGESTION, ids.suggestion_value(command, text)) for text in texts[:5]
    ]
    return [section(f"Did you mean {options}?"), actions(*buttons)]


def with_suggestions(message: Message, command: str, texts: Sequence[str]) -> Message:
    """`message` with "Did you mean …" after its first line (where a long list cannot
    push it out of Slack's limits)."""
    if not texts:
        return message
    added = suggestions(command, texts)
    blocks = [*message.blocks[:1], *added, *message.blocks[1:]]
    said = "Did you mean " + " or ".join(f"“{text}”" for text in texts) + "?"
    text = clip_escaped(said, 600) + " " + message.text
    return replace(message, text=cut_mrkdwn(text, MAX_MESSAGE_TEXT), blocks=_fit(blocks))


def corrected(message: Message, used: str, typed: str) -> Message:
    """The results of a corrected search, saying so: nothing matched what was typed."""
    note = (
        f"Showing results for *{clip_escaped(used, 200)}* — "
        f"no match for “{clip_escaped(typed, 200)}”."
    )
    text = cut_mrkdwn(f"Showing results for “{esc(used)}”: {message.text}", MAX_MESSAGE_TEXT)
    return replace(message, text=text, blocks=_fit([context(note), *message.blocks]))


def paper_claims(card: PaperDetails, hits: Iterable[ClaimHit]) -> Message:
    title = card.ref.label
    blocks: list[Block] = [header(f"Claims of {title}")]
    blocks += [claim_hit(hit) for hit in hits]
    return _finish(f"Claims of {title}", blocks)


# --- plain replies --------------------------------------------------------------------


def text_reply(text: str) -> Message:
    """A reply of our own words (no data in it)."""
    return _finish(text, [section(text)])


def refusal(text: str) -> Message:
    """A sentence for the user about their input (which may quote it: escaped)."""
    return _finish(text, [section(esc(text))])


# --- help, refusals, errors -----------------------------------------------------------


def help_for(command: str) -> Message:
    # `<words>` would be read as a link in mrkdwn: the usage lines are escaped too.
    return _finish(HELP[command], [section(esc(HELP[command]))])


def error_message(error_id: str, *, timed_out: bool) -> Message:
    if timed_out:
        return text_reply(
            f"The paper store is not answering right now; please try again in a minute. "
            f"(error id `{error_id}`)"
        )
    return text_reply(f"Sorry, something went wrong on our side. (error id `{error_id}`)")


WORKING = text_reply("Looking… the answer will appear here in a moment.")


# --- the daily summary ----------------------------------------------------------------

DIGEST_PARENT_PAPERS = 10  # the rest go to thread replies
DIGEST_REPLY_PAPERS = 15

_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s")


def first_sentence(text: str | None) -> str | None:
    return _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0] if text else None


def summary_paper(paper: PaperDetails) -> Block:
    ref = paper.ref
    title = clip_escaped(ref.label, 200)
    if ref.title or ref.name:  # the subtitle is shown as the summary below instead
        ref = replace(ref, subtitle=None)
    arxiv = link(paper.arxiv_url, f"arXiv {ref.arxiv_id}") if ref.arxiv_id else ""
    lines = [f"*{title}*" + (f" · {arxiv}" if arxiv else "")]
    summary = first_sentence(paper.positioning or paper.abstract_en)
    if summary and not summary.startswith((ref.subtitle or "-").rstrip("…")):
        lines.append(clip_escaped(summary, 240))
    facts = [f"{paper.claim_count} claims"] if paper.claim_count else []
    view = verdict(paper)
    if view:
        facts.append(f"Reviewer: {clip_escaped(view, 160)}")
    if facts:
        lines.append("_" + " · ".join(facts) + "_")
    return section("\n".join(lines))


def summary_messages(
    day: date, papers: list[PaperDetails], more: int = 0, earliest: date | None = None
) -> list[dict[str, Any]]:
    """The summary: one parent message with the first papers, the rest as thread replies,
    each message inside Slack's limits. `more` papers beyond those listed are counted and
    pointed to (`/claims since:` their earliest digest date)."""
    if not papers and not more:
        return [
            {
                "text": f"No new papers · {day.isoformat()}",
                "blocks": [
                    header(f"Papers · {day.isoformat()}"),
                    context("No new papers since the last summary."),
                ],
            }
        ]
    total = len(papers) + more
    count = f"{total:,} new paper{'s' if total != 1 else ''}"
    head: list[Block] = [
        header(f"Papers · {day.isoformat()}"),
        context(
            f"{count} since the last summary"
            + (f", the newest {len(papers)} listed" if more else "")
        ),
    ]
    head += [summary_paper(p) for p in papers[:DIGEST_PARENT_PAPERS]]
    rest = papers[DIGEST_PARENT_PAPERS:]
    if rest:
        head.append(context(f"…and {len(rest)} more in the thread."))
    if more:
        search = esc(f"`/claims <words> since:{earliest}`") if earliest else "`/claims`"
        head.append(
            context(f"…and {more:,} earlier papers, not listed here: search them with {search}.")
        )
    messages = [_finish(f"{count} · {day.isoformat()}", head)]
    for start in range(0, len(rest), DIGEST_REPLY_PAPERS):
        chunk = rest[start : start + DIGEST_REPLY_PAPERS]
        first = DIGEST_PARENT_PAPERS + start + 1
        messages.append(
            _finish(f"Papers {first}–{first + len(chunk) - 1}", [summary_paper(p) for p in chunk])
        )
    return [{"text": m.text, "blocks": m.blocks} for m in messages]


# --- subscriptions --------------------------------------------------------------------

MAX_SUBSCRIPTION_PAPERS = 20


def subscription_messages(
    day: date, matches: list[Match], total: int | None = None
) -> list[dict[str, Any]]:
    """The daily message of a subscriber: new papers matching the words they follow
    (`total` of them, when only some are given)."""
    shown = matches[:MAX_SUBSCRIPTION_PAPERS]
    total = max(total or 0, len(matches))
    count = f"{total:,} new paper{'s' if total != 1 else ''}"
    blocks: list[Block] = [
        header(f"Papers you follow · {day.isoformat()}"),
        context(f"{count} matching your subscriptions · `/paper subscriptions` to change them"),
    ]
    for match in shown:
        blocks.append(summary_paper(match.paper))
        words = ", ".join(f"“{clip_escaped(w, 60)}”" for w in match.words)
        blocks.append(context(f"matches {words}"))
    if total > len(shown):
        blocks.append(context(f"…and {total - len(shown):,} more: search with `/paper`."))
    message = _finish(f"{count} you follow · {day.isoformat()}", blocks)
    return [{"text": message.text, "blocks": message.blocks}]


def subscription_list(followed: list[Followed], *, note: str = "") -> Message:
    """A subscriber's subscriptions, each with a Remove button; `note` may quote the user."""
    blocks: list[Block] = [section(esc(note))] if note else []
    if not followed:
        blocks.append(
            section(
                "You follow nothing yet. `/paper subscribe AUROC` sends you a message each day "
                "listing new papers that match."
            )
        )
    for item in followed:
        where = "you" if item.is_user else channel_mention(item.subscriber)
        when = f" at {esc(item.post_time)}" if item.post_time else ""
        blocks.append(
            {
                "type": "section",
                "text": mrkdwn(f"“{clip_escaped(item.words, 200)}” · for {where}{when}"),
                "accessory": button(
                    "Remove", ids.REMOVE_SUBSCRIPTION, ids.subscription_value(item.id)
                ),
            }
        )
    return _finish(note or f"{len(followed)} subscriptions", blocks)


def channel_subscribed(words: str, post_time: str | None, by: str) -> Message:
    """Told in a channel when an admin subscribes it."""
    when = f" at {esc(post_time)}" if post_time else ""
    who = f", set up by <@{by}>" if ids.is_user_id(by) else ""
    text = f"This channel now gets a daily list of new papers matching “{esc(words)}”{when}{who}."
    return _finish(f"This channel now follows “{words}”", [section(text)])


# --- link unfurls and the Home tab -----------------------------------------------------


def paper_unfurl(card: PaperDetails, *, show: bool = True) -> dict[str, Any]:
    """A compact card for a pasted arXiv link: title, one line, claim count, and (`show`)
    a Show claims button."""
    ref = card.ref
    lines = [f"*{clip_escaped(ref.label, 200)}*"]
    summary = first_sentence(card.positioning or card.abstract_en)
    if summary:
        lines.append(clip_escaped(summary, 280))
    facts = [f"arXiv {esc(ref.arxiv_id)}"] if ref.arxiv_id else []
    facts.append(f"{card.claim_count} claims" if card.claim_count else "no reviewed claims")
    if card.finding_count:
        facts.append(f"{card.finding_count} result sentences in the abstract")
    blocks: list[Block] = [section("\n".join(lines)), context(" · ".join(facts))]
    if show and (card.claim_count or card.finding_count):
        blocks.append(actions(button("Show claims", ids.SHOW_CLAIMS, ids.paper_value(ref.key))))
    return {"blocks": blocks}


MAX_HOME_BLOCKS = 100
MAX_HOME_CHARS = 60_000


@dataclass(frozen=True)
class Home:
    """What one user's Home tab shows."""

    latest: LatestPost | None
    papers: int
    claims: int
    documents: int
    followed: list[Followed]
    saved: list[Block] = field(default_factory=list)  # the saved list's blocks, rendered


def home_view(home: Home) -> dict[str, Any]:
    """The App Home tab: the latest summary, the store, the user's subscriptions, how-to."""
    blocks: list[Block] = [header("paperbot")]
    latest = home.latest
    blocks.append(section("*Latest daily summary*"))
    if latest is None:
        blocks.append(context("No summary has been posted yet."))
    else:
        where = channel_mention(latest.channel)
        blocks.append(
            context(
                f"{latest.posted_at:%Y-%m-%d %H:%M} UTC in {where} · {len(latest.papers)} papers"
            )
        )
        blocks += [summary_paper(paper) for paper in latest.papers[:15]]
        if len(latest.papers) > 15:
            blocks.append(context(f"…and {len(latest.papers) - 15} more in the channel."))
    blocks.append(
        section(
            f"*In the store:* {home.papers} papers, {home.claims} numbered claims, "
            f"{home.documents} digest files"
        )
    )
    blocks.append(section("*Your subscriptions*"))
    blocks += subscription_list(home.followed).blocks
    if home.saved:
        blocks.append(section("*Your saved papers*"))
        blocks += home.saved
    blocks.append(section("*How to use it*"))
    blocks += [help_for(c).blocks[0] for c in ("/paper", "/claims", "/paper subscribe")]
    return {"type": "home", "blocks": _fit(blocks, MAX_HOME_BLOCKS, MAX_HOME_CHARS)}


# --- admin commands -------------------------------------------------------------------


def not_admin(command: str) -> Message:
    return text_reply(
        f"Only admins can run `{command}`. Ask one of them, or an operator to add you to "
        "`PAPERBOT_ADMINS`."
    )


def ingest_busy(running: RunningIngest | None) -> Message:
    if running is None:
        return text_reply("An ingest was just running; try again.")
    who = running.triggered_by
    by = f"<@{who}>" if who and ids.is_user_id(who) else f"the {running.trigger}"
    return text_reply(
        f"An ingest is already running, started by {by} at "
        f"{running.started_at:%Y-%m-%d %H:%M:%S} UTC. Try again when it is done."
    )


def ingest_started(force: bool) -> Message:
    what = "Re-parsing every file" if force else "Reading new and changed files"
    return text_reply(f"{what} in the digest folder… I'll report here when it's done.")


def ingest_done(report: IngestReport) -> Message:
    papers = report.papers
    text = (
        f"Ingest #{report.run_id} done: files {report.files_line}; "
        f"{papers['new']} new and {papers['updated']} updated papers."
    )
    lines = [esc(text)]
    for error in report.errors[:10]:
        lines.append(f"• `{esc(error['path'])}`: {esc(error['error'])}")
    if len(report.errors) > 10:
        lines.append(f"…and {len(report.errors) - 10} more errors (see `paperbot status`).")
    if report.warnings:
        first_warning = report.warnings[0]
        files = count_of(len({warning["path"] for warning in report.warnings}), False, "file")
        lines.append(
            f"{files} loaded with parts left out, first "
            f"`{esc(first_warning['path'])}`: {esc(first_warning['warning'])} "
            "(see `paperbot status`)."
        )
    if report.skipped:
        first = report.skipped[0]
        more = f" (and {len(report.skipped) - 1} more)" if len(report.skipped) > 1 else ""
        lines.append(f"Skipped: `{esc(first['path'])}`: {esc(first['reason'])}{more}.")
    return Message(text=text, blocks=[section("\n".join(lines))])


def cannot_post_here() -> Message:
    return text_reply(
        "I can't post in this conversation. Invite me first (`/invite @paperbot`), "
        "then share again."
    )


def summary_outcome(outcome: Outcome, channel: str) -> Message:
    where = channel_mention(channel)
    text = {
        "posted": f"Posted the summary of {outcome.papers} papers to {where}.",
        "nothing new": f"Nothing new to post to {where}.",
        "already claimed": f"A summary for {where} is being posted right now.",
        "failed": f"Posting to {where} failed; the papers stay queued for the next run.",
    }[outcome.status]
    return text_reply(text)


def no_digest_channel() -> Message:
    return text_reply(
        "No summary channel is configured: an operator sets `PAPERBOT_DIGEST_CHANNEL`."
    )
