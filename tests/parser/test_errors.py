"""Input the parser refuses, with the exact error each gets (one table, one row a case)."""

import pytest

from jobs.parser import DigestParseError, decode_digest, parse_digest

NO_QUOTE = (
    "has no English quote: expected an indented paragraph (3+ spaces) after it; "
    "the claim is left out"
)
NO_TEXT = "has no paper text before it: a deep read starts with its positioning paragraph; "
LEFT_OUT = NO_TEXT + "this paper is left out"
READ_WITHOUT = NO_TEXT + "read without it, named from its first claim"
ORDER = "(claims are numbered 1, 2, 3, … within each paper)"

DEEP_READ_HEAD = "2026-01-01\n\n本文提出 FooNet，一个方法。\n\n"
CLAIM = "1. 声明一。\n\n   The first quote.\n\n"
OTHER_CLAIM = "1. 另一篇的声明。\n\n   Another paper's first quote.\n\n"
REVIEW = "Novelty：中等。 Soundness：可靠。 Significance：一般。\n\n"
NOTE = "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。\n\n"
ABSTRACT = (  # English of an abstract's length
    "We study how language models forget during fine-tuning and propose a simple replay method "
    "that keeps earlier skills intact while new ones are learned, evaluated on twelve tasks "
    "across three model families.\n\n"
)

ORPHAN = (
    "paragraph belongs to no paper: a deep read needs numbered claims or a review after its "
    "text, and ends with its limitations and follow-ups; an abstract needs the note "
    "'仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。' after it"
)
UNKNOWN = (
    "unknown digest format: first line should be a date (YYYY-MM-DD) "
    "or 'HuggingFace Papers YYYY-MM-DD'"
)

CASES = [
    ("empty file", b"", "file is empty"),
    ("only a BOM", b"\xef\xbb\xbf", "file is empty"),
    ("whitespace only", b" \r\n\t\n  \n", "file holds only whitespace"),
    (
        "not UTF-8",
        b"2026-01-01\n\xff\xfe",
        "line 2: file is not valid UTF-8 (byte 0xff at offset 11)",
    ),
    (
        "not UTF-8 after a BOM",
        b"\xef\xbb\xbf2026-01-01\n\xc3(",
        "line 2: file is not valid UTF-8 (byte 0xc3 at offset 14)",
    ),
    ("NUL bytes", b"2026-01-01\n\x00\x01\x02", "file is binary, not a text digest"),
    (
        "UTF-16 with a broken character",
        b"\xff\xfe" + "2026-01-01\n".encode("utf-16-le") + b"\x00\xd8",
        "line 2: file is not valid UTF-16 (byte 0x00 at offset 24)",
    ),
    (
        "UTF-16 holding NULs",
        b"\xfe\xff" + "2026\x00".encode("utf-16-be"),
        "file is binary, not a text digest",
    ),
    ("only a UTF-16 mark", b"\xff\xfe", "file is empty"),
    (
        "mostly control characters",
        b"\x01\x02\x03\x04abc\x05\x06",
        "file is binary, not a text digest",
    ),
    ("unknown first line", b"hello\n\nworld\n", f"line 1: {UNKNOWN}"),
    ("unknown first line after blanks", b"\n\n  hello\n", f"line 3: {UNKNOWN}"),
    ("date without its day", b"2026/01\n", "line 1: '2026/01' is not a date in YYYY-MM-DD form"),
    (
        "date and more",
        b"2026-01-01 12:00\n",
        "line 1: '2026-01-01 12:00' is not a date in YYYY-MM-DD form",
    ),
    (  # a file flattened to one line: the reason quotes the start of it
        "date and a whole file on one line",
        ("2026-01-01 12:00 " + "本文提出 FooNet，一个方法。" * 2000).encode(),
        "line 1: '2026-01-01 12:00 本文提出 FooNet，一个方法。本文提出 FooNet，"
        "一个方法。本文提出 FooNet，一个方法。本文提出 FooNet…' is not a date in YYYY-MM-DD form",
    ),
    (
        "impossible date written otherwise",
        b"2026/02/30\n",
        "line 1: '2026/02/30' is not a valid date",
    ),
    ("impossible date", b"2026-13-45\n", "line 1: '2026-13-45' is not a valid date"),
    (
        "the year last, either number the month",
        b"04/10/2026\n",
        "line 1: '04/10/2026' is a date of either day 4 or day 10: write it as YYYY-MM-DD",
    ),
    (
        "the year last, an impossible date",
        b"31/02/2026\n",
        "line 1: '31/02/2026' is not a valid date",
    ),
    ("29 February of a common year", b"2026-02-29\n", "line 1: '2026-02-29' is not a valid date"),
    (
        "HuggingFace header without date",
        b"HuggingFace Papers\n",
        "line 1: HuggingFace header has no date: expected 'HuggingFace Papers YYYY-MM-DD'",
    ),
    (
        "HuggingFace header with a date without its day",
        b"HuggingFace Papers 2026-10\n",
        "line 1: '2026-10' is not a date in YYYY-MM-DD form",
    ),
    (
        "HuggingFace header with an impossible date",
        b"HuggingFace Papers 2026-10-32\n",
        "line 1: '2026-10-32' is not a valid date",
    ),
    (
        "note without abstract",
        ("2026-01-01\n\n" + NOTE).encode(),
        "line 3: note paragraph has no abstract paragraph before it",
    ),
    ("text that is no paper", b"2026-01-01\n\njust some text\n", f"line 3: {ORPHAN}"),
    (
        "English of an abstract's length, and nothing of a digest",
        ("2026-01-01\n\n" + ABSTRACT).encode(),
        f"line 3: {ORPHAN}",
    ),
]


@pytest.mark.parametrize(
    ("data", "message"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_refused_input_names_the_problem(data: bytes, message: str) -> None:
    with pytest.raises(DigestParseError) as caught:
        parse_digest(decode_digest(data))
    assert str(caught.value) == message


def test_parse_digest_refuses_empty_text() -> None:
    with pytest.raises(DigestParseError, match=r"^digest is empty$"):
        parse_digest(" \n\t\n")


def test_error_keeps_message_and_line_apart() -> None:
    error = DigestParseError("claim 1 has no English quote", 12)
    assert (error.message, error.line, str(error)) == (
        "claim 1 has no English quote",
        12,
        "line 12: claim 1 has no English quote",
    )
    assert str(DigestParseError("file is empty")) == "file is empty"
    assert isinstance(error, ValueError)


# A fault the rest of the file survives: (case, text, warnings, claim numbers loaded per paper).
WARNING_CASES = [
    (
        "claim without quote before the review",
        DEEP_READ_HEAD + "1. 声明一。\n\n" + REVIEW,
        [f"line 5: claim 1 {NO_QUOTE}"],
        [[]],
    ),
    (
        "claim without quote after another claim",
        DEEP_READ_HEAD + CLAIM + "2. 声明二。\n\n" + REVIEW,
        [f"line 9: claim 2 {NO_QUOTE}"],
        [[1]],
    ),
    (
        "claim without quote at the end of the file",
        DEEP_READ_HEAD + CLAIM + "2. 声明二。\n",
        [f"line 9: claim 2 {NO_QUOTE}"],
        [[1]],
    ),
    (
        "quote indented by too few spaces",
        DEEP_READ_HEAD + "1. 声明一。\n\n  The quote.\n\n" + REVIEW,
        ["line 7: the quote of claim 1 should be indented by 3+ spaces; read as its quote"],
        [[1]],
    ),
    (
        "quote not indented",
        DEEP_READ_HEAD + "1. 声明一。\n\nThe quote.\n\n" + REVIEW,
        ["line 7: the quote of claim 1 should be indented by 3+ spaces; read as its quote"],
        [[1]],
    ),
    (
        "claims out of order",
        DEEP_READ_HEAD + CLAIM + "3. 声明三。\n\n   The third quote.\n\n",
        [f"line 9: claim 3 is out of order: expected claim 2 {ORDER}; loaded as claim 3"],
        [[1, 3]],
    ),
    (
        "claims in falling order",
        DEEP_READ_HEAD + "2. 声明二。\n\n   The quote.\n\n" + CLAIM,
        [
            f"line 5: claim 2 is out of order: expected claim 1 {ORDER}; loaded as claim 2",
        ],
        [[1, 2]],
    ),
    (
        "claims that do not start at 1",
        DEEP_READ_HEAD + "2. 声明二。\n\n   The quote.\n\n",
        [f"line 5: claim 2 is out of order: expected claim 1 {ORDER}; loaded as claim 2"],
        [[2]],
    ),
    (
        "claims numbered from 2: one slip, at the first",
        DEEP_READ_HEAD
        + "".join(f"{n}. 声明{n}。\n\n   Quote {n}.\n\n" for n in (2, 3, 4))
        + REVIEW,
        [f"line 5: claim 2 is out of order: expected claim 1 {ORDER}; loaded as claim 2"],
        [[2, 3, 4]],
    ),
    (
        "a number skipped: warned where it is skipped, the next number expected",
        DEEP_READ_HEAD
        + "".join(f"{n}. 声明{n}。\n\n   Quote {n}.\n\n" for n in (1, 2, 4, 5))
        + REVIEW,
        [f"line 13: claim 4 is out of order: expected claim 3 {ORDER}; loaded as claim 4"],
        [[1, 2, 4, 5]],
    ),
    (
        "a claim numbered 2、",
        DEEP_READ_HEAD + CLAIM + "2、声明二。\n\n   Second.\n\n" + REVIEW,
        ["line 9: claim 2 should start '2. ', found '2、'; read as claim 2"],
        [[1, 2]],
    ),
    (
        "新颖性： for Novelty：",
        DEEP_READ_HEAD + CLAIM + "新颖性：中等。 可靠性：可靠。\n\n",
        ["line 9: the review should start with 'Novelty：', found '新颖性：'; read as the review"],
        [[1]],
    ),
    (  # an item of the follow-ups' list (nothing opens a paper's text): the next paper,
        # whose claims number from 1, lost its text
        "numbered paragraph without quote as a third paragraph after the review",
        DEEP_READ_HEAD + CLAIM + REVIEW + "局限。\n\n跟进。\n\n1. 新论文？\n\n" + OTHER_CLAIM,
        [
            "line 17: claim 1 has no paper text before it: a deep read starts with its "
            "positioning paragraph; read without it, named from its first claim"
        ],
        [[1], [1]],
    ),
    (
        "a quote given in Chinese",
        DEEP_READ_HEAD
        + "1. 声明一。\n\n   这一增益在三个基准上都显著。\n\n"
        + OTHER_CLAIM.replace("1. ", "2. ", 1)
        + REVIEW,
        [
            "line 7: the quote of claim 1 is not in English (expected the paper's own words, "
            "verbatim, in an indented paragraph); read as its quote"
        ],
        [[1, 2]],
    ),
    (
        "an indented Chinese note after a quote on the claim's line",
        DEEP_READ_HEAD
        + "1. 声明一。 The first quote, written on the claim's line.\n\n"
        + "   注：该数字来自表 5。\n\n"
        + OTHER_CLAIM.replace("1. ", "2. ", 1)
        + REVIEW,
        [
            "line 5: the quote of claim 1 should be an indented paragraph after it, found at "
            "the end of the claim; read as its quote",
            "line 7: an indented paragraph in Chinese after the quote of claim 1 (a note, a "
            "translation); read as part of the claim's statement",
        ],
        [[1, 2]],
    ),
    (  # a line lost: the claims' numbers tell a second quote from a wrapped one
        "a claim whose statement was lost, its quote kept",
        DEEP_READ_HEAD
        + CLAIM
        + "   The second claim's quote.\n\n"
        + OTHER_CLAIM.replace("1. ", "3. ", 1)
        + REVIEW,
        [
            "line 9: a second indented quote after claim 1, and claim 3 next: claim 2's "
            "statement is missing; read as claim 2's quote, with no statement"
        ],
        [[1, 2, 3]],
    ),
    (  # the quote goes on mid-sentence: a claim deleted left the gap, no statement was lost
        "a quote wrapped mid-sentence in two paragraphs, a claim deleted after it",
        DEEP_READ_HEAD
        + "1. 声明一。\n\n   The first quote goes on\n\n   across a blank line.\n\n"
        + OTHER_CLAIM.replace("1. ", "3. ", 1)
        + REVIEW,
        [
            "line 11: claim 3 is out of order: expected claim 2 (claims are numbered 1, 2, 3, "
            "… within each paper); loaded as claim 3"
        ],
        [[1, 3]],
    ),
    (
        "a quote wrapped in two paragraphs",
        DEEP_READ_HEAD
        + CLAIM
        + "   The quote goes on.\n\n"
        + OTHER_CLAIM.replace("1. ", "2. ", 1)
        + REVIEW,
        [],
        [[1, 2]],
    ),
    (
        "numbered paragraph without quote among claims",
        DEEP_READ_HEAD + CLAIM + "2. 声明二。\n\n" + OTHER_CLAIM.replace("1. ", "3. ", 1) + REVIEW,
        [f"line 9: claim 2 {NO_QUOTE}"],
        [[1, 3]],
    ),
    (  # the paper whose text was lost keeps its claims
        "claim right after the date",
        "2026-01-01\n\n" + OTHER_CLAIM + DEEP_READ_HEAD[12:] + CLAIM,
        [f"line 3: claim 1 {READ_WITHOUT}"],
        [[1], [1]],
    ),
    (
        "claims right after a review",
        DEEP_READ_HEAD + CLAIM + REVIEW + OTHER_CLAIM + "局限。\n",
        [f"line 11: claim 1 {READ_WITHOUT}"],
        [[1], [1]],
    ),
    (
        "two reviews",
        DEEP_READ_HEAD + CLAIM + REVIEW + REVIEW,
        ["line 11: this paragraph repeats the one at line 9; read once"],
        [[1]],
    ),
    (
        "a quote on its claim's line",
        DEEP_READ_HEAD + "1. 声明一。 The first quote, written on the claim's line.\n\n" + REVIEW,
        [
            "line 5: the quote of claim 1 should be an indented paragraph after it, found at "
            "the end of the claim; read as its quote"
        ],
        [[1]],
    ),
    (
        "review labels in lower case",
        DEEP_READ_HEAD + CLAIM + "novelty：中等。 soundness：可靠。 significance：一般。\n\n",
        ["line 9: the review should start with 'Novelty：', found 'novelty：'; read as the review"],
        [[1]],
    ),
    (
        "indented English that follows no claim",
        DEEP_READ_HEAD + "   An indented English paragraph, as a quote is.\n\n" + CLAIM,
        [
            "line 5: indented English that follows no claim: a quote whose claim was not "
            "recognised (expected 'N. <claim>' before it); kept as the paper's text"
        ],
        [[1]],
    ),
    (
        "text before an abstract-only entry",
        "2026-01-01\n\nstray text\n\nAn abstract.\n\n" + NOTE,
        [f"line 3: {ORPHAN}; left out"],
        [[]],
    ),
    (
        "a footer after an abstract-only entry",
        "2026-01-01\n\nAn abstract.\n\n" + NOTE + "Generated by the digest pipeline.\n",
        [f"line 7: {ORPHAN}; left out"],
        [[]],
    ),
    (
        "a note whose abstract was lost",
        DEEP_READ_HEAD + CLAIM + REVIEW + "局限。\n\n跟进。\n\n" + NOTE,
        ["line 15: note paragraph has no abstract paragraph before it; left out"],
        [[1]],
    ),
    (
        "an abstract whose note was lost, between deep reads",
        DEEP_READ_HEAD + CLAIM + REVIEW + ABSTRACT + DEEP_READ_HEAD[12:] + OTHER_CLAIM,
        [
            f"line 11: abstract has no note after it: expected '{NOTE.strip()}'; read as an "
            "abstract-only entry"
        ],
        [[1], [], [1]],
    ),
    (
        "a digest's opening line before its first deep read",
        "2026-01-01\n\n今日精读 1 篇。\n\n"
        + DEEP_READ_HEAD[12:]
        + "背景。\n\n机制。\n\n实验。\n\n"
        + CLAIM,
        [
            "line 3: paragraph before this deep read's text belongs to no paper (a deep read "
            "opens with its positioning: '本文…', '<Name> 是一篇…'); left out"
        ],
        [[1]],
    ),
]


@pytest.mark.parametrize(
    ("text", "warnings", "claims"),
    [case[1:] for case in WARNING_CASES],
    ids=[c[0] for c in WARNING_CASES],
)
def test_a_faulty_claim_is_a_warning_on_its_line_and_the_rest_loads(
    text: str, warnings: list[str], claims: list[list[int]]
) -> None:
    digest = parse_digest(text)
    assert [str(warning) for warning in digest.warnings] == warnings
    assert [[claim.number for claim in paper.claims] for paper in digest.papers] == claims


def test_a_claim_that_lost_its_statement_keeps_its_quote_apart() -> None:
    text = (
        DEEP_READ_HEAD
        + CLAIM
        + "   The second claim's quote.\n\n"
        + OTHER_CLAIM.replace("1. ", "3. ", 1)
        + REVIEW
    )
    [paper] = parse_digest(text).papers
    assert [(claim.text_zh, claim.quote_en) for claim in paper.claims] == [
        ("声明一。", "The first quote."),
        ("", "The second claim's quote."),
        ("另一篇的声明。", "Another paper's first quote."),
    ]
