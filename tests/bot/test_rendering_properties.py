"""Every renderer ends, on any text, with a message inside Slack's limits that can neither
mention anyone nor make a link the store did not hold.

The inputs are what a hostile member can type or a digest can carry: runs of `&`, `<`, `>`,
mentions, Chinese, emoji, combining marks, zero-width characters and line breaks, up to
tens of thousands of characters. Each rendering runs under an alarm, so a renderer that
loops fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import blocks
from storage.ledger import LatestPost
from storage.search import (
    AddressedClaim,
    ClaimHit,
    ClaimPage,
    PaperDetails,
    PaperMatches,
    PaperRef,
)
from storage.subscriptions import Followed, Match
from tests.bot.limits import limit_violations

RENDER_SECONDS = 5.0  # generous: each rendering takes milliseconds; a loop never ends

PIECES = st.sampled_from(
    [
        "&",
        "<",
        ">",
        "&amp;",
        "<!channel>",
        "<@U123>",
        "<!subteam^S1>",
        "<https://evil.example|x>",
        "*",
        "_",
        "`",
        "~",
        "|",
        "显存",
        "延迟",
        "😀",
        "👩‍🔬",
        "e\u0301",
        "\u200b",
        "\ufeff",
        "\u202e",
        "\n",
        "   ",
        "\t",
        "a",
        "AUROC",
        "0.886",
        "#",
        ":",
        '"',
        "\\",
        "\x00",
    ]
)
TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(PIECES, max_size=200).map("".join),
    # long runs: the same few characters thousands of times (the freezing inputs were these)
    st.builds(
        lambda piece, n: piece * n,
        st.lists(PIECES, min_size=1, max_size=4).map("".join),
        st.integers(1, 5000),
    ),
)
OPTIONAL = st.none() | TEXT
URL = (
    st.none()
    | st.sampled_from(
        [
            "https://arxiv.org/abs/2609.35259",
            "javascript:alert(1)",
            "https://x.org/<!channel>",
            "http://a b",
        ]
    )
    | TEXT
)
SPANS = st.lists(st.tuples(st.integers(0, 12_000), st.integers(0, 12_000)), max_size=6).map(
    lambda pairs: sorted((min(a, b), max(a, b)) for a, b in pairs)
)

# Keys are made by the parser (`arxiv:<id>`, `text:<hash>`), never typed.
KEYS = st.sampled_from(["arxiv:2609.35259", "arxiv:hep-th/9901001", "text:0123456789abcdef0123"])
REFS = st.builds(
    PaperRef,
    id=st.integers(1, 10**6),
    key=KEYS,
    kind=st.sampled_from(["deep_read", "huggingface", "abstract_only"]) | TEXT,
    arxiv_id=OPTIONAL,
    title=OPTIONAL,
    name=OPTIONAL,
    subtitle=OPTIONAL,
    digest_date=st.none() | st.just(date(2026, 9, 9)),
)
DETAILS = st.builds(
    PaperDetails,
    ref=REFS,
    authors=st.lists(TEXT, max_size=30),
    arxiv_url=URL,
    pdf_url=URL,
    positioning=OPTIONAL,
    abstract_en=OPTIONAL,
    novelty=OPTIONAL,
    soundness=OPTIONAL,
    significance=OPTIONAL,
    claim_count=st.integers(0, 10**6),
    finding_count=st.integers(0, 99),
)
HITS = st.builds(
    ClaimHit,
    claim_id=st.integers(1, 10**6),
    number=st.integers(1, 10**4),
    source=st.sampled_from(["review", "abstract"]),
    text_zh=TEXT,
    quote_en=TEXT,
    paper=REFS,
    zh_spans=SPANS,
    en_spans=SPANS,
)
FOLLOWED = st.builds(
    Followed,
    id=st.integers(1, 10**6),
    subscriber=st.sampled_from(["U123", "C123", "<!here>"]),
    words=TEXT,
    post_time=st.none() | st.just("08:30") | TEXT,
)
USER = st.sampled_from(["U999", "<!channel>", ""]) | TEXT

RENDERERS: dict[str, Callable[..., Any]] = {
    "paper_card": lambda d, user: blocks.paper_card(d, shared_by=user),
    "paper_list": lambda q, refs, total, page, via, capped: blocks.paper_list(
        q, PaperMatches("text", refs, (), total, page, frozenset(r.id for r in refs[:via]), capped)
    ),
    "no_paper": blocks.no_paper,
    "claim_page": lambda q, h, n, total: blocks.claim_page(q, ClaimPage(h, n, True, total=total)),
    "with_suggestions": lambda q, h, command, texts: blocks.with_suggestions(
        blocks.claim_page(q, ClaimPage(h, 1, True, total=len(h))), command, texts
    ),
    "no_paper_with_suggestions": lambda q, texts: blocks.with_suggestions(
        blocks.no_paper(q), "/paper", texts
    ),
    "corrected": lambda d, used, typed: blocks.corrected(blocks.paper_card(d), used, typed),
    "paper_claims": blocks.paper_claims,
    "addressed_claim": lambda a, refs, h: blocks.addressed_claim(AddressedClaim(a, refs, h)),
    "refusal": blocks.refusal,
    "text_reply": blocks.text_reply,
    "subscription_list": lambda f, note: blocks.subscription_list(f, note=note),
    "channel_subscribed": blocks.channel_subscribed,
    "summary_messages": lambda papers: blocks.summary_messages(date(2026, 9, 9), papers),
    "subscription_messages": lambda m: blocks.subscription_messages(date(2026, 9, 9), m),
    "paper_unfurl": blocks.paper_unfurl,
    "home_view": lambda home: blocks.home_view(home),
}
ARGUMENTS = {
    "paper_card": st.tuples(DETAILS, st.none() | USER),
    "paper_list": st.tuples(
        TEXT,
        st.lists(REFS, max_size=20),
        st.integers(0, 10**6),
        st.integers(1, 200),
        st.integers(0, 20),
        st.booleans(),
    ),
    "no_paper": st.tuples(TEXT),
    "claim_page": st.tuples(
        TEXT, st.lists(HITS, max_size=10), st.integers(1, 10**6), st.integers(0, 10**6)
    ),
    # Corrections are made from what was typed: at most 300 characters and a few more.
    "with_suggestions": st.tuples(
        TEXT,
        st.lists(HITS, max_size=10),
        st.sampled_from(["/paper", "/claims"]),
        st.lists(TEXT.map(lambda t: t[:320]), max_size=3),
    ),
    "no_paper_with_suggestions": st.tuples(TEXT, st.lists(TEXT.map(lambda t: t[:320]), max_size=3)),
    "corrected": st.tuples(DETAILS, TEXT.map(lambda t: t[:320]), TEXT),
    "paper_claims": st.tuples(DETAILS, st.lists(HITS, max_size=60)),
    "addressed_claim": st.tuples(
        TEXT, st.lists(REFS, min_size=1, max_size=6), st.lists(HITS, max_size=6)
    ),
    "refusal": st.tuples(TEXT),
    "text_reply": st.tuples(TEXT),
    "subscription_list": st.tuples(st.lists(FOLLOWED, max_size=25), TEXT),
    "channel_subscribed": st.tuples(TEXT, st.none() | TEXT, USER),
    "summary_messages": st.tuples(st.lists(DETAILS, max_size=40)),
    "subscription_messages": st.tuples(
        st.lists(st.builds(Match, paper=DETAILS, words=st.lists(TEXT, max_size=5)), max_size=25)
    ),
    "paper_unfurl": st.tuples(DETAILS),
    "home_view": st.tuples(
        st.builds(
            blocks.Home,
            latest=st.none()
            | st.builds(
                LatestPost,
                channel=st.sampled_from(["C1", "<!here>"]),
                posted_at=st.just(datetime(2026, 9, 9, tzinfo=UTC)),
                papers=st.lists(DETAILS, max_size=20),
            ),
            papers=st.integers(0, 10**7),
            claims=st.integers(0, 10**8),
            documents=st.integers(0, 10**5),
            followed=st.lists(FOLLOWED, max_size=20),
        )
    ),
}

# Renderers for the bot's own sentences: any length must fit, but they are not escaped.
OUR_WORDS = {"text_reply"}
# What the bot itself may write between < and >: links to http(s) URLs it holds (their
# labels escaped), mentions of user and channel IDs it checked, and quotes (`> ` at the
# start of a line).
OWN_MARKUP = re.compile(r"<(?:https?://[^<>|\s]+\|[^<>]*|@U[A-Z0-9]+|#C[A-Z0-9]+)>|^> ", re.M)
_ENTITY = re.compile(r"&(?!(?:amp|lt|gt);)")


@contextmanager
def alarm(seconds: float) -> Iterator[None]:
    """Interrupt the test when the body runs longer than `seconds`."""

    def expire(*_: object) -> None:
        raise TimeoutError(f"rendering took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def payloads(rendered: Any) -> list[dict[str, Any]]:
    if isinstance(rendered, blocks.Message):
        return [rendered.as_payload()]
    if isinstance(rendered, dict):
        return [rendered]
    return list(rendered)


def mrkdwn_texts(value: Any) -> Iterator[str]:
    """Every text Slack would format: mrkdwn objects and the notification text."""
    if isinstance(value, dict):
        if value.get("type") == "mrkdwn" or ("text" in value and isinstance(value["text"], str)):
            yield value["text"]
        for key, item in value.items():
            if key != "value":  # button values are data handed back to us, never shown
                yield from mrkdwn_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from mrkdwn_texts(item)


def check(payload: dict[str, Any], *, trusted: bool = False) -> None:
    if payload.get("type") == "home":
        assert len(payload["blocks"]) <= blocks.MAX_HOME_BLOCKS
        assert len(json.dumps(payload["blocks"], ensure_ascii=False)) <= blocks.MAX_HOME_CHARS
    else:
        assert limit_violations(payload) == []
    if trusted:
        return
    for text in mrkdwn_texts(payload):
        leftover = OWN_MARKUP.sub("", text)
        assert "<" not in leftover and ">" not in leftover, text[:200]
        assert not _ENTITY.search(leftover), text[:200]  # every & is part of an escape


def make_test(name: str) -> Callable[..., None]:
    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(ARGUMENTS[name])
    def test(arguments: tuple[Any, ...]) -> None:
        with alarm(RENDER_SECONDS):
            rendered = RENDERERS[name](*arguments)
        for payload in payloads(rendered):
            check(payload, trusted=name in OUR_WORDS)

    test.__name__ = f"test_{name}_ends_within_limits_on_any_text"
    return test


for _name in RENDERERS:
    globals()[f"test_{_name}_ends_within_limits_on_any_text"] = make_test(_name)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(1, 3000))
def test_clipped_escaped_text_fits_and_ends(text: str, limit: int) -> None:
    with alarm(RENDER_SECONDS):
        clipped = blocks.clip_escaped(text, limit)
    assert len(clipped) <= limit
    assert "<" not in clipped and ">" not in clipped
    assert not _ENTITY.search(clipped)


def test_the_inputs_that_froze_the_bot_render_at_once() -> None:
    for text in ("&" + "a" * 210, "<" * 300, ">" + "b" * 299, "<!channel>" + "x" * 200):
        with alarm(RENDER_SECONDS):
            empty = ClaimPage([], 1, False)
            for message in (
                blocks.no_paper(text),
                blocks.refusal(text),
                blocks.claim_page(text, empty),
            ):
                check(message.as_payload())
            assert len(blocks.clip_escaped(text, 150)) <= 150
