"""A claim numbered the way hands and exporters slip (`5)`, `(5)`, `５.`, `- 5.`, `**5.**`,
`⑤`, `Claim 5:`, `声明5：`, `#### 5.`)
is still that claim, with a warning on its line; numbered like that without a quote after
it, a paragraph stays plain text (reviewers number their limitations that way)."""

import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.parser import parse_digest
from tests.parser.test_boundaries import DEEP_READ_SEEDS, assert_same_papers, papers

HEAD = "2026-01-01\n\n本文提出 FooNet。\n\n背景。\n\n机制。\n\n实验。\n\n"
REVIEW = "Novelty：新。 Soundness：稳。 Significance：大。\n\n"
_CLAIM_LINE = re.compile(r"^([0-9]{1,3})\. ", re.MULTILINE)

# How each slip writes claim N, and what the warning quotes of it.
SLIPS = {
    "{n}) ": "{n})",
    "{n}）": "{n}）",
    "({n}) ": "({n})",
    "（{n}）": "（{n}）",
    "[{n}] ": "[{n}]",
    "{n} . ": "{n} .",
    "{n} ": "{n}",  # no stop at all: read by its place between its neighbours
    "{n}.": "{n}.",
    "{n}．": "{n}．",  # a full-width period (a Chinese input method), even before a digit
    "{n}。": "{n}。",  # a Chinese full stop
    "第{n}条：": "第{n}条：",  # `claim No. n`, as Chinese writes it, even before a digit
    "第{n}条": "第{n}条",
    "{n}：": "{n}：",
    "- {n}. ": "- {n}.",
    "* {n}. ": "* {n}.",
    "**{n}.** ": "**{n}.**",
    "{wide}. ": "{wide}.",
    "{circled} ": "{circled}",
    "{circled}、": "{circled}、",
    "Claim {n}: ": "Claim {n}:",
    "声明{n}：": "声明{n}：",
    "#### {n}. ": "#### {n}.",
}


UNSPACED = ("{n}.", "{n}：")  # no space between the number and the claim's text


def wide(number: str) -> str:
    return "".join(chr(ord(digit) + 0xFEE0) for digit in number)


def circled(number: str) -> str:
    return chr(ord("①") + int(number) - 1)


def numbered(slip: str, number: int | str) -> str:
    """`slip` written for claim `number`."""
    n = str(number)
    return slip.format(n=n, wide=wide(n), circled=circled(n))


@pytest.mark.parametrize("slip", SLIPS)
def test_a_slipped_number_is_read_as_the_claim_with_a_warning(slip: str) -> None:
    text = HEAD + "1. 声明一。\n\n   First.\n\n" + numbered(slip, 2) + "声明二。\n\n"
    text += "   Second.\n\n" + REVIEW
    digest = parse_digest(text)

    (paper,) = digest.papers
    assert [(c.number, c.text_zh, c.quote_en) for c in paper.claims] == [
        (1, "声明一。", "First."),
        (2, "声明二。", "Second."),
    ]
    written = numbered(SLIPS[slip], 2)
    assert [str(w) for w in digest.warnings] == [
        f"line 15: claim 2 should start '2. ', found '{written}'; read as claim 2"
    ]


@pytest.mark.parametrize(
    "slip", ["{n}) ", "（{n}）", "- {n}. ", "**{n}.** ", "{circled} ", "Claim {n}: ", "结论{n}："]
)
def test_a_paragraph_numbered_so_without_a_quote_stays_plain_text(slip: str) -> None:
    limitations = numbered(slip, 1) + "样本太少。"
    follow_ups = numbered(slip, 2) + "扩大规模。 " + numbered(slip, 3) + "Try more seeds."
    text = HEAD + "1. 声明一。\n\n   First.\n\n" + REVIEW + limitations + "\n\n" + follow_ups
    text += "\n\n" + HEAD[12:] + "1. 声明一。\n\n   Another paper's first.\n\n"
    digest = parse_digest(text)

    assert [[c.number for c in paper.claims] for paper in digest.papers] == [[1], [1]]
    assert (digest.papers[0].limitations, digest.papers[0].follow_ups) == (
        limitations,
        follow_ups,
    )
    assert digest.warnings == ()


def test_english_after_a_loosely_numbered_paragraph_is_not_taken_for_its_quote() -> None:
    """Only an indented quote makes such a paragraph a claim: English prose after a numbered
    follow-up is the next paper's opening, not the follow-up's quote."""
    text = HEAD + "1. 声明一。\n\n   First.\n\n" + REVIEW + "局限。\n\n1) 扩大规模。\n\n"
    text += (
        "This paper proposes BarNet.\n\n背景。\n\n机制。\n\n实验。\n\n1. 声明一。\n\n   Its own.\n"
    )
    digest = parse_digest(text)

    assert [paper.follow_ups for paper in digest.papers] == ["1) 扩大规模。", None]
    assert digest.papers[1].positioning == "This paper proposes BarNet."
    assert digest.warnings == ()


SLIPPED = st.lists(
    st.tuples(st.integers(min_value=0), st.sampled_from(sorted(SLIPS))), min_size=1, max_size=8
)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(DEEP_READ_SEEDS))), SLIPPED)
def test_slipped_claim_numbers_change_no_paper_and_each_is_reported_on_its_line(
    seed: int, slips: list[tuple[int, str]]
) -> None:
    text = DEEP_READ_SEEDS[seed]
    starts = [match.start() for match in _CLAIM_LINE.finditer(text)]
    chosen = {starts[where % len(starts)]: slip for where, slip in slips}
    pieces, expected, last = [], [], 0
    for start in sorted(chosen):
        match = _CLAIM_LINE.match(text, start)
        assert match is not None
        if chosen[start] in UNSPACED and text[match.end()].isdigit():
            continue  # `1.5DAV` is the number 1.5: the claim's number is lost, as it would be
        number = match.group(1)
        line = text.count("\n", 0, start) + 1
        written = numbered(SLIPS[chosen[start]], number)
        pieces += [text[last:start], numbered(chosen[start], number)]
        expected.append(
            f"line {line}: claim {number} should start '{number}. ', found '{written}'; "
            f"read as claim {number}"
        )
        last = match.end()
    slipped = "".join([*pieces, text[last:]])

    assert_same_papers(papers(slipped), papers(text))
    assert [str(warning) for warning in parse_digest(slipped).warnings] == expected


LOST_NUMBERS = {
    "no number": ("", "claim 2 has no number of its own: expected '2. ' before its text"),
    "a Chinese numeral": (
        "二、",
        "claim 2 has no number of its own: expected '2. ' before its text",
    ),
    "a word before it": (
        "Point 2: ",
        "claim 2 has no number of its own: expected '2. ' before its text",
    ),
}


@pytest.mark.parametrize("lost", LOST_NUMBERS)
def test_a_claim_that_lost_its_number_is_read_as_the_claim_its_neighbours_imply(lost: str) -> None:
    """Only claims carry indented English quotes: taken for text, the claim would start a
    paper of its own and take the claims after it along."""
    written, warning = LOST_NUMBERS[lost]
    text = HEAD + "1. 声明一。\n\n   First.\n\n" + written + "声明二。\n\n   Second.\n\n"
    text += "3. 声明三。\n\n   Third.\n\n" + REVIEW
    digest = parse_digest(text)

    (paper,) = digest.papers
    assert [(c.number, c.quote_en) for c in paper.claims] == [
        (1, "First."),
        (2, "Second."),
        (3, "Third."),
    ]
    # A list's mark is no part of the statement; a word before it may be.
    assert (
        paper.claims[1].text_zh == ("Point 2: " if lost == "a word before it" else "") + "声明二。"
    )
    assert [str(w) for w in digest.warnings] == [f"line 15: {warning}; read as claim 2"]


CHINESE_NUMERALS = "一二三四五六七八九十"
LIST_MARKERS: dict[str, Callable[[int], str]] = {
    "Chinese numerals": lambda n: ("十" * (n > 10) + CHINESE_NUMERALS[(n - 1) % 10]) + "、",
    "letters": lambda n: "abcdefghijklmnopqrstuvwxyz"[n - 1] + ". ",
    "bullets": lambda n: "- ",
    "round bullets": lambda n: "• ",
    "letters in brackets": lambda n: f"({'abcdefghijklmnopqrstuvwxyz'[n - 1]}) ",
    "nothing": lambda n: "",
}


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
@pytest.mark.parametrize("marker", LIST_MARKERS)
def test_claims_none_of_which_has_a_number_are_read_in_order(seed: int, marker: str) -> None:
    """Claims set as a list of another kind, or not numbered at all, are still claims: a
    plain paragraph with its indented English quote next to another such pair; the list's
    marks are no part of their statements."""
    text = DEEP_READ_SEEDS[seed]
    mark = LIST_MARKERS[marker]
    unnumbered, claims = _CLAIM_LINE.subn(lambda m: mark(int(m[1])), text)
    digest = parse_digest(unnumbered)

    read, original = papers(unnumbered), papers(text)
    assert read.keys() == original.keys()
    for key, paper in original.items():
        as_read = read[key].claims
        assert [(c.number, c.quote_en) for c in as_read] == [
            (c.number, c.quote_en) for c in paper.claims
        ]
        assert [c.text_zh for c in as_read] == [o.text_zh for o in paper.claims]  # no mark
        assert read[key].novelty == paper.novelty
    numbered = [w for w in digest.warnings if "has no number of its own" in w.message]
    assert len(numbered) == claims


def test_a_claim_set_as_a_heading_with_a_blockquote_quote_is_the_claim() -> None:
    text = HEAD + "1. 声明一。\n\n   First.\n\n#### 2. 声明二。\n\n> Second.\n\n" + REVIEW
    (paper,) = parse_digest(text).papers

    assert [(c.number, c.quote_en) for c in paper.claims] == [(1, "First."), (2, "Second.")]


def test_a_claim_number_without_its_text_keeps_its_quote() -> None:
    text = HEAD + "1. 声明一。\n\n   First.\n\n2.\n\n   Second.\n\n" + REVIEW
    digest = parse_digest(text)

    assert [(c.number, c.text_zh, c.quote_en) for c in digest.papers[0].claims] == [
        (1, "声明一。", "First."),
        (2, "", "Second."),
    ]
    assert [str(w) for w in digest.warnings] == [
        "line 15: claim 2 has no text: expected its statement after '2. '; read as claim 2"
    ]


def test_the_first_claims_without_numbers_are_numbered_back_from_the_next() -> None:
    text = HEAD + "声明一。\n\n   First.\n\n声明二。\n\n   Second.\n\n3. 声明三。\n\n   Third.\n"
    digest = parse_digest(text)

    assert [c.number for c in digest.papers[0].claims] == [1, 2, 3]
    assert len(digest.warnings) == 2


UNNUMBERED = st.lists(st.integers(min_value=0), min_size=1, max_size=8)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(DEEP_READ_SEEDS))), UNNUMBERED)
def test_claims_that_lost_their_numbers_change_no_paper(seed: int, picks: list[int]) -> None:
    """Any claims but each paper's first lose their numbers: the same papers and claims."""
    text = DEEP_READ_SEEDS[seed]
    later = [match for match in _CLAIM_LINE.finditer(text) if match.group(1) != "1"]
    starts = sorted({later[pick % len(later)].start() for pick in picks})
    pieces, last = [], 0
    for start in starts:
        match = _CLAIM_LINE.match(text, start)
        assert match is not None
        pieces.append(text[last:start])
        last = match.end()
    stripped = "".join([*pieces, text[last:]])

    assert_same_papers(papers(stripped), papers(text))
    assert len(parse_digest(stripped).warnings) == len(starts)


def _numbered(*numbers: int) -> str:
    claims = "".join(f"{n}. 声明{i}。\n\n   Quote {i}.\n\n" for i, n in enumerate(numbers))
    return HEAD + claims + REVIEW


TWICE = "appears twice in this paper: expected claim"


@pytest.mark.parametrize(
    ("numbers", "order", "warnings"),
    [
        ((1, 2, 3, 3, 5), [0, 1, 2, 3, 4], [f"line 23: claim 3 {TWICE} 4; read as claim 4"]),
        ((1, 1), [0, 1], [f"line 15: claim 1 {TWICE} 2; read as claim 2"]),
        # The first of the two came before its turn: it is the slip.
        ((1, 2, 4, 4, 5), [0, 1, 2, 3, 4], [f"line 19: claim 4 {TWICE} 3; read as claim 3"]),
        ((2, 2, 3), [0, 1, 2], [f"line 11: claim 2 {TWICE} 1; read as claim 1"]),
        # The numbers after it go on from the repeated one: it takes the first free number.
        ((1, 2, 2, 3, 4), [0, 1, 3, 4, 2], [f"line 19: claim 2 {TWICE} 3; read as claim 5"]),
    ],
)
def test_a_number_used_twice_is_read_as_the_claim_it_stands_for(
    numbers: tuple[int, ...], order: list[int], warnings: list[str]
) -> None:
    """A number typed twice costs no claim: each keeps its text and quote under the number
    its place implies, with a warning on the slip's line."""
    digest = parse_digest(_numbered(*numbers))

    (paper,) = digest.papers
    assert [(c.number, c.text_zh, c.quote_en) for c in paper.claims] == [
        (n, f"声明{i}。", f"Quote {i}.") for n, i in enumerate(order, start=1)
    ]
    assert [str(w) for w in digest.warnings] == warnings


def test_a_claim_repeated_word_for_word_is_left_out_once() -> None:
    text = HEAD + "1. 声明一。\n\n   First.\n\n" * 2 + REVIEW
    digest = parse_digest(text)

    assert [(c.number, c.quote_en) for c in digest.papers[0].claims] == [(1, "First.")]
    assert [str(w) for w in digest.warnings] == [f"line 15: claim 1 {TWICE} 2; left out"]


@pytest.mark.parametrize(
    ("numbers", "again_at", "after"),
    [((1, 2, 3, 1, 2), 23, 3), ((1, 2, 3, 4, 1, 2, 3), 27, 4), ((1, 2, 1, 2, 3, 4, 5), 19, 2)],
)
def test_claims_numbered_again_from_one_are_read_on_by_their_place(
    numbers: tuple[int, ...], again_at: int, after: int
) -> None:
    """`1 2 3 4 1 2 3`: groups of one paper's claims, each numbered from 1 (a heading over
    each gone); nothing between them starts another paper. Every claim is kept, numbered
    by its place, with one warning where the numbers start again."""
    digest = parse_digest(_numbered(*numbers))

    assert [(c.number, c.quote_en) for c in digest.papers[0].claims] == [
        (i + 1, f"Quote {i}.") for i in range(len(numbers))
    ]
    assert [str(w) for w in digest.warnings] == [
        f"line {again_at}: the claims are numbered again from 1 here, after claim {after} of "
        f"the same paper (no review between them); read on by their place, as claims "
        f"{after + 1}, …"
    ]


def test_claims_pasted_again_from_one_are_left_out() -> None:
    """The same claims pasted again (a pipeline's retry): left out, as any claim repeated."""
    text = HEAD + "1. 声明一。\n\n   First.\n\n2. 声明二。\n\n   Second.\n\n" * 2 + REVIEW
    digest = parse_digest(text)

    assert [(c.number, c.quote_en) for c in digest.papers[0].claims] == [
        (1, "First."),
        (2, "Second."),
    ]
    assert len(digest.warnings) == 2


# A claim numbered as the one before it, or as the one after it.
TYPED_TWICE = st.lists(st.tuples(st.integers(min_value=0), st.sampled_from([-1, 1])), max_size=6)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(DEEP_READ_SEEDS))), TYPED_TWICE)
def test_numbers_typed_twice_change_no_paper_and_each_is_reported_on_its_line(
    seed: int, slips: list[tuple[int, int]]
) -> None:
    text = DEEP_READ_SEEDS[seed]
    claims = list(_CLAIM_LINE.finditer(text))
    numbers = [int(match.group(1)) for match in claims]
    chosen: dict[int, int] = {}
    for pick, step in slips:
        where = pick % len(claims)
        neighbour = where + (step if step > 0 else -1)  # the claim whose number it takes
        if (
            0 <= neighbour < len(claims)
            and numbers[neighbour] == numbers[where] + step
            and not {where - 1, where, where + 1} & chosen.keys()
        ):
            chosen[where] = step
    pieces, last = [], 0
    for where in sorted(chosen):
        match = claims[where]
        pieces += [text[last : match.start()], f"{numbers[where] + chosen[where]}. "]
        last = match.end()
    slipped = "".join([*pieces, text[last:]])

    assert_same_papers(papers(slipped), papers(text))
    lines = [str(w).split(":")[0] for w in parse_digest(slipped).warnings]
    assert lines == [
        f"line {text.count(chr(10), 0, claims[w].start()) + 1}" for w in sorted(chosen)
    ]


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_list_numbers_a_markdown_exporter_escaped_are_read_as_written(seed: int) -> None:
    """Turndown and html2text write `1\\. ` for a paragraph starting `1. `."""
    text = DEEP_READ_SEEDS[seed]
    escaped = re.sub(r"(?m)^([0-9]+)\. ", r"\1\\. ", text)
    assert escaped != text

    digest = parse_digest(escaped)

    assert digest.papers == parse_digest(text).papers
    assert digest.warnings == parse_digest(text).warnings


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_claims_numbered_on_through_the_file_are_read_as_each_papers_own(seed: int) -> None:
    """A generator that numbers claims 1…75 through the digest: each paper's run, going on
    from the paper before, is read from 1, with one warning at its first claim."""
    text = DEEP_READ_SEEDS[seed]
    count = iter(range(1, 1_000))
    numbered_on = re.sub(r"(?m)^[0-9]+\. ", lambda _: f"{next(count)}. ", text)

    assert_same_papers(papers(numbered_on), papers(text))
    counts = [len(paper.claims) for paper in parse_digest(text).papers if paper.claims]
    warned = [w.message for w in parse_digest(numbered_on).warnings]
    assert [message.rsplit("read as claims ", 1)[1] for message in warned] == [
        f"1–{count}" for count in counts[1:]
    ]


def test_claims_of_a_paper_that_start_at_another_number_are_not_renumbered() -> None:
    """Only a run going on from the paper before is numbered on; a paper whose claims start
    at 3 keeps them as written (its first two were lost), with the out-of-order warning."""
    text = HEAD + "3. 声明三。\n\n   Quote three.\n\n4. 声明四。\n\n   Quote four.\n\n" + REVIEW

    digest = parse_digest(text)

    assert [[claim.number for claim in paper.claims] for paper in digest.papers] == [[3, 4]]
    assert "out of order" in digest.warnings[0].message


def test_a_paper_whose_first_claim_was_removed_after_a_one_claim_paper_keeps_its_numbers() -> None:
    """`1` then `2 3`: a paper of one claim, then one whose claim 1 was removed, not claims
    numbered on through the file (that takes a paper of three claims or more before)."""
    other = "2026-01-01\n\n本文提出 BarNet。\n\n背景。\n\n机制。\n\n实验。\n\n"
    text = (
        HEAD
        + "1. 声明一。\n\n   Quote one.\n\n"
        + REVIEW
        + other[12:]
        + "2. 声明二。\n\n   Quote two.\n\n3. 声明三。\n\n   Quote three.\n\n"
        + REVIEW
    )

    digest = parse_digest(text)

    assert [[claim.number for claim in paper.claims] for paper in digest.papers] == [[1], [2, 3]]


def test_one_run_going_on_from_the_paper_before_is_not_the_files_numbering() -> None:
    """`1 2 3`, `4 5`, `1 2`: the second paper's first claims were removed; the third
    starts over, so the file is not numbered through, and the second keeps its numbers."""

    def paper(name: str, numbers: list[int]) -> str:
        claims = "".join(f"{n}. 声明{n}。\n\n   Quote {name} {n}.\n\n" for n in numbers)
        return f"本文提出 {name}。\n\n背景。\n\n机制。\n\n实验。\n\n{claims}{REVIEW}"

    text = "2026-01-01\n\n" + paper("FooNet", [1, 2, 3]) + paper("BarNet", [4, 5])
    text += paper("BazNet", [1, 2])

    digest = parse_digest(text)

    numbers = [[claim.number for claim in p.claims] for p in digest.papers]
    assert numbers == [[1, 2, 3], [4, 5], [1, 2]]


@pytest.mark.parametrize("number", ["2．", "２．"])
def test_a_full_width_period_numbers_a_claim_whose_text_starts_with_a_digit(number: str) -> None:
    """`2．5 个基准…`: a decimal point is never written full width, so this is claim 2."""
    text = HEAD + "1. 声明一。\n\n   First.\n\n" + number + "5 个基准上均有提升。\n\n"
    text += "   Second.\n\n" + REVIEW
    digest = parse_digest(text)

    (paper,) = digest.papers
    assert [(c.number, c.text_zh) for c in paper.claims] == [
        (1, "声明一。"),
        (2, "5 个基准上均有提升。"),
    ]
    assert [str(w) for w in digest.warnings] == [
        f"line 15: claim 2 should start '2. ', found '{number}'; read as claim 2"
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(range(len(DEEP_READ_SEEDS))),
    st.integers(min_value=0),
    st.integers(min_value=20, max_value=999),
)
def test_a_mistyped_number_between_its_neighbours_is_read_as_the_one_they_leave(
    seed: int, where: int, typed: int
) -> None:
    """`8.` typed for `3.` (no claim 8 in the paper), between claims 2 and 4, or for the
    first claim before claim 2: the claim its neighbours imply, with one warning on its
    line. Kept as typed, it would give an address its paper never had (`AV-GRPO#8`), and
    the corrected file would then look as if it lost that claim."""
    text = DEEP_READ_SEEDS[seed]
    lines = list(_CLAIM_LINE.finditer(text))
    # Not a paper's last claim: nothing after it tells which number it should have.
    inside = [m for m, after in itertools.pairwise(lines) if after.group(1) != "1"]
    match = inside[where % len(inside)]
    mistyped = text[: match.start()] + f"{typed}. " + text[match.end() :]
    line = text.count("\n", 0, match.start()) + 1

    assert_same_papers(papers(mistyped), papers(text))
    assert [str(w) for w in parse_digest(mistyped).warnings] == [
        f"line {line}: claim {typed} is out of place: the claims around it make it claim "
        f"{match.group(1)} (claims are numbered 1, 2, 3, … within each paper); read as claim "
        f"{match.group(1)}"
    ]


@pytest.mark.parametrize("order", [[1, 4, 3, 2, 5], [3, 2, 1, 4], [1, 2, 5, 4, 3]])
def test_claims_listed_out_of_order_keep_the_numbers_written_on_them(order: list[int]) -> None:
    """Each claim numbered right, two of them listed in each other's place: every claim
    keeps its own number (and so its address), not the one its place would give it."""
    claims = "".join(f"{n}. 声明{n}。\n\n   Quote {n}.\n\n" for n in order)
    digest = parse_digest(HEAD + claims + REVIEW)

    (paper,) = digest.papers
    assert sorted((c.number, c.text_zh, c.quote_en) for c in paper.claims) == [
        (n, f"声明{n}。", f"Quote {n}.") for n in sorted(order)
    ]
    assert not any("out of place" in w.message for w in digest.warnings)


def test_a_labelled_number_before_a_statement_that_starts_with_a_digit_is_no_part_of_it() -> None:
    """`主张2：5DAV 由…`: a digit after the colon keeps `2：5` from reading as a number (it
    may be a ratio); the claim is still read by its place, its statement without the label."""
    text = HEAD + "1. 声明一。\n\n   First.\n\n主张2：5DAV 由五维构成。\n\n   Second.\n\n"
    text += "3. 声明三。\n\n   Third.\n\n" + REVIEW
    (paper,) = parse_digest(text).papers

    assert [(c.number, c.text_zh) for c in paper.claims][1] == (2, "5DAV 由五维构成。")


def _claim_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if _CLAIM_LINE.match(line)]


PARTS = [(seed, at) for seed, text in enumerate(DEEP_READ_SEEDS) for at in _claim_lines(text)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PARTS), st.sampled_from(["{n}.{k} ", "{n}.{k}、", "{n}.{k}) "]))
def test_parts_numbered_within_a_claim_stay_in_it_and_the_claims_after_keep_theirs(
    part: tuple[int, int], written: str
) -> None:
    """`3.1 …` and `3.2 …`, each with its quote, after claim 3: parts of claim 3, with a
    warning each; read as claims of their own, they took the numbers of claims 4 and 5, which
    were then left out as written twice."""
    seed, at = part
    lines = DEEP_READ_SEEDS[seed].split("\n")
    n = int(_CLAIM_LINE.match(lines[at])[1])  # type: ignore[index]
    end = next(i for i in range(at + 1, len(lines)) if lines[i] and not lines[i].startswith(" "))
    inserted = []
    for k, (statement, quote) in enumerate(
        [("其中第一部分成立。", "The first part holds on every benchmark."),
         ("第二部分同样成立。", "The second part holds as well, by a wide margin.")], 1
    ):  # fmt: skip
        inserted += [written.format(n=n, k=k) + statement, "", f"   {quote}", ""]
    changed = parse_digest("\n".join([*lines[:end], *inserted, *lines[end:]]))
    original = parse_digest(DEEP_READ_SEEDS[seed])

    assert [p.name for p in changed.papers] == [p.name for p in original.papers]
    differing = [
        (old, new)
        for paper, before in zip(changed.papers, original.papers, strict=True)
        for new, old in zip(paper.claims, before.claims, strict=True)
        if new != old
    ]
    assert [len(p.claims) for p in changed.papers] == [len(p.claims) for p in original.papers]
    [(old, new)] = differing
    assert new.number == old.number == n
    assert new.text_zh.startswith(old.text_zh) and "第二部分同样成立" in new.text_zh
    assert new.quote_en.startswith(old.quote_en) and new.quote_en.endswith("wide margin.")
    added = [w for w in changed.warnings if w not in original.warnings]
    assert [(w.line, f"part of claim {n}" in w.message) for w in added] == [
        (end + 1, True),
        (end + 5, True),
    ]


def keycaps(number: int) -> str:
    return "".join(f"{digit}\ufe0f\u20e3" for digit in str(number))


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_claims_numbered_with_emoji_keycaps_are_the_same_claims(seed: int) -> None:
    """`1️⃣ …`, `1️⃣0️⃣ …`, as chat tools number a list: the claims, numbers out of their text."""
    text = DEEP_READ_SEEDS[seed]
    changed = _CLAIM_LINE.sub(lambda m: f"{keycaps(int(m[1]))} ", text)
    assert changed != text

    assert parse_digest(changed).papers == parse_digest(text).papers
    assert parse_digest(changed).warnings == parse_digest(text).warnings
