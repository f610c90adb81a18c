"""Rendering is pure: escaping, limits and truncation, checked without any server."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from bot import blocks
from storage.search import ClaimHit, ClaimPage, PaperDetails, PaperRef
from tests.bot.limits import limit_violations

NASTY = "Ping <!channel> & <@U123> <!subteam^S1> via <https://evil.example|click here>"
INJECTIONS = ("<!channel>", "<@U123>", "<!subteam^S1>", "<https://evil.example|click here>")


def ref(**fields: object) -> PaperRef:
    values: dict[str, object] = {
        "id": 1,
        "key": "text:0123456789abcdef",
        "kind": "deep_read",
        "arxiv_id": None,
        "title": None,
        "name": NASTY,
        "subtitle": NASTY,
        "digest_date": date(2026, 9, 9),
    }
    return PaperRef(**(values | fields))  # type: ignore[arg-type]


def details(**fields: object) -> PaperDetails:
    values: dict[str, object] = {
        "ref": ref(),
        "authors": [NASTY],
        "arxiv_url": "https://arxiv.org/abs/2609.35259",
        "pdf_url": "javascript:alert(1)",
        "positioning": NASTY,
        "abstract_en": None,
        "novelty": NASTY,
        "soundness": None,
        "significance": None,
        "claim_count": 3,
    }
    return PaperDetails(**(values | fields))  # type: ignore[arg-type]


def hit(text: str = NASTY) -> ClaimHit:
    return ClaimHit(7, 1, "review", text, text, ref(), [(0, 4)], [(0, 4)])


@pytest.mark.parametrize(
    "message",
    [
        blocks.paper_card(details()),
        blocks.paper_card(details(), shared_by="U999"),
        blocks.claim_page(NASTY, ClaimPage([hit()], 1, True)),
        blocks.paper_claims(details(), [hit()]),
        blocks.no_paper(NASTY),
        blocks.refusal(NASTY),
    ],
    ids=["card", "shared card", "claims", "paper claims", "no paper", "refusal"],
)
def test_digest_and_user_text_can_never_mention_or_link(message: blocks.Message) -> None:
    # Button values are data Slack hands back to us, never shown: leave them out.
    rendered = json.dumps(message.as_payload(), ensure_ascii=False, default=str)
    rendered = re.sub(r'\\?"value\\?": ?\\?"(?:[^"\\]|\\.)*"', "", rendered)
    for injection in INJECTIONS:
        assert injection not in rendered
    assert "&lt;!channel&gt;" in rendered
    assert "&amp;" in rendered


def test_only_http_links_from_the_store_become_links() -> None:
    rendered = json.dumps(blocks.paper_card(details()).as_payload())
    assert "<https://arxiv.org/abs/2609.35259|arXiv>" in rendered
    assert "javascript:" not in rendered


def test_sharing_names_the_user_and_drops_the_share_button() -> None:
    payload = blocks.paper_card(details(), shared_by="U999").as_payload()
    rendered = json.dumps(payload)
    assert "Shared by <@U999>" in rendered
    assert "Share in channel" not in rendered


def test_huge_texts_are_cut_with_an_ellipsis_inside_the_limits() -> None:
    huge = "长" * 20_000 + " & <"
    message = blocks.paper_card(details(ref=ref(title=huge), positioning=huge, authors=[huge] * 50))
    payload = message.as_payload()
    assert limit_violations(payload) == []
    assert payload["blocks"][0]["text"]["text"].endswith("…")
    many = [hit(huge) for _ in range(60)]
    assert limit_violations(blocks.paper_claims(details(), many).as_payload()) == []
    page = ClaimPage(many[:10], 3, True)
    assert limit_violations(blocks.claim_page(huge[:500], page).as_payload()) == []


def test_highlighted_matches_are_bold_and_stay_visible_when_cut() -> None:
    text = "x" * 2000 + "AUROC 0.886" + "y" * 2000
    shown = blocks.bold_spans(text, [(2000, 2005)], 300)
    assert "*AUROC*" in shown
    assert shown.startswith("…") and shown.endswith("…")
    assert len(shown) < 320


@pytest.mark.parametrize(
    ("novelty", "soundness", "expected"),
    [
        (
            "核心新颖点在于…。总体 novelty 中等偏上：机制组合新颖。",
            "整体 soundness 中等：设计合理。",
            "Novelty 中等偏上 · Soundness 中等",
        ),
        ("新颖性中等偏上。其余略。", None, "新颖性中等偏上。"),
        (None, None, None),
    ],
)
def test_reviewer_verdict_in_one_line(
    novelty: str | None, soundness: str | None, expected: str | None
) -> None:
    assert blocks.verdict(details(novelty=novelty, soundness=soundness)) == expected
