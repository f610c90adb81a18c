"""The deep-read review digest: deep reads and abstract-only entries, told apart by shape.

Section headings were stripped from this format, so everything is known by position:

    deep read      = prose+ (claim+ review? | review) limitations? follow_ups?
                   | claim+ review? limitations? follow_ups?   (its text lost: a warning)
    abstract-only  = abstract NOTE
    claim          = "N. <Chinese>" + an indented (3+ spaces) English quote

Claims and the review are the anchors. What lies between two anchors is a run of plain
paragraphs: the previous deep read's limitations and follow-ups, then the next entry's
prose (positioning, background, mechanism, experiments), counted back from its claims.
A run of the usual shape (2 + 4) splits there; a run with a paragraph more or less (a
split paragraph, a shorter paper) splits where the next paper's text opens ("本文…",
"<Name> 是一篇…") and not where a limitation or follow-up goes on. So blank lines (extra
or missing: paragraphs run together are cut apart first), leading spaces and split
paragraphs never move a paragraph into another paper; nor do markdown headings and rules
a pipeline left in (read as blank lines). A quote set as a markdown blockquote (`> …`) is
read as indented. Before an abstract-only entry or the end of the file, the whole run is
the previous deep read's tail. Text that belongs to no paper (a footer, a digest's opening
line) is left out with a warning; an English paragraph of an abstract's length among the
Chinese is an abstract-only entry that lost its note.

A fault inside one paper (a claim without its quote, with an under-indented one or with
one on the claim's line, `5、` or `5)` for `5.`, a claim without its number or with one used
twice, `新颖性：` or `novelty：` for `Novelty：`, claims out of order, claims with no paper
text before them, indented English that follows no claim) is a
`DigestWarning` on its exact line: the faulty part, or that paper alone when nothing of it
is sound, is read as it most likely stands or left out, and the rest of the file loads.
"""

import itertools
import operator
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from storage.matching import ends_sentence
from storage.paper_keys import deep_read_key, legacy_key, text_key

from .errors import DigestParseError, DigestWarning
from .model import KIND_ABSTRACT_ONLY, KIND_DEEP_READ, Claim, ParsedPaper
from .naming import TITLE_LIMIT, derive_name, fallback_name, quoted, short_title, subtitle
from .text import (
    CJK_CHARS,
    NOT_LETTER,
    Paragraph,
    cjk_share,
    has_cjk,
    indent_of,
    join_lines,
    list_number,
)

NOTE = "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。"
_NOTE_PREFIX = NOTE[:5]
# The note as exports dress it (`（…）`, `**…**`, `注：…`) or write it (traditional script).
_NOTE_START = re.compile(f"{_NOTE_PREFIX}|僅依據摘要")
_NOTE_REACH = len(_NOTE_PREFIX) + 4
_NOTE_FIRST = frozenset("仅僅*_（(【[注AaBbJjOo")  # how a note starts, dressed or not
# The note as a pipeline wrote it in English ("(Abstract only; soundness … cannot be judged
# reliably …)", "Based on the abstract alone: …"): a sentence or two, no abstract.
_ENGLISH_NOTE = re.compile(
    r"[(*_\[（【]*\s*(?:abstract[- ]only|(?:based|judged) (?:only |solely )?on the abstract"
    r"|only the abstract)",
    re.IGNORECASE,
)
_ENGLISH_NOTE_LONGEST = 300
_NOTE_ON_ITS_LINE = (
    "the note is on the abstract's line: expected a paragraph of its own after it; read as its note"
)
QUOTE_INDENT = 3
TAIL_PARAGRAPHS = 2  # limitations, follow-ups
_HEAD_SECTIONS = 4  # positioning, background, mechanism, experiments
PROSE_PARAGRAPHS = 4  # positioning, background, mechanism, experiments
# An indented paragraph this much Chinese is prose with stray leading spaces, not a quote.
_QUOTE_MAX_CJK_SHARE = 0.3

# A label a template puts before a claim's quote: `Evidence:`, `**原文：**`, `【证据】`.
_QUOTE_LABELS = (
    "Evidence|Quote|Excerpt|Original text|Original|English|EN"
    "|英文原文|证据原文|原文引用|英文引用|引用原文|证据|原文|引文|原句|引用|英文|出处"
)
_QUOTE_LABEL = re.compile(
    rf"(?:\*\*)?(?:(?:{_QUOTE_LABELS})(?:\*\*)?\s*[:：]|[【\[](?:{_QUOTE_LABELS})[】\]])"
    r"(?:\*\*)?\s*",
    re.IGNORECASE,
)
_LABELLED_COLUMN = re.compile(r"[|;,/]\s*[^\W\d_][\w .-]{0,20}[:：]")  # `| ZH:`: another column
_QUOTE_LABEL_STARTS = frozenset(
    "*【[" + "".join(w[0] + w[0].lower() for w in _QUOTE_LABELS.split("|"))
)
_CIRCLED = "\u2460\u2473"  # ① to ⑳
# `N、` is a typo of `N.` that the claim survives (with a warning).
_CLAIM = re.compile(r"([0-9]{1,3})(?:[.．]\s+|(、)\s*)(\S.*)")
# Other ways a number slips: `5)`, `(5)`, `５.`, `5.text`, `5 .`, `- 5.`, `**5.**`, `⑤`,
# `#### 5.`, `Claim 5:`, `声明5：`. Reviewers number their limitations and follow-ups like
# this too, so such a paragraph is a claim (with a warning) only when its English quote
# follows; otherwise it stays plain text.
_LOOSE_CLAIM = re.compile(
    r"((?:[-*•]\s*|#{1,6}\s*)?(?:\*\*)?(?:(?i:Claim|Finding)\s*|声明|主张|论断|结论)?"
    rf"(?:{list_number(3)}|([{_CIRCLED[0]}-{_CIRCLED[1]}])[.．、:：]?)(?:\*\*)?)\s*(\S.*)"
)
_ORDINAL_CLAIM = re.compile(r"(第\s*([0-9]{1,3})\s*条\s*[：:]?)\s*(\S.*)")  # `第5条：`, Chinese
_NUMBERED = re.compile(f"{_CLAIM.pattern}|{_LOOSE_CLAIM.pattern}")  # either, in one C call
_BARE_NUMBER = re.compile(r"[(（\[]?([0-9０-９]{1,3})\s*[.．、)）\]:：]?")  # a claim's number alone
_SPACED_NUMBER = re.compile(r"\s*([0-9]{1,3})\s+(?=\S)")  # `3 全量…`: a number without its stop
# How a list marks an item that has no number: a bullet, a Chinese numeral, a letter; or a
# label with a number no claim pattern read (`主张1：5DAV…`: a digit after the colon).
_ITEM_MARK = re.compile(
    r"\s*(?:[-*•·▪◦●○■□]\s+|[一二三四五六七八九十]{1,3}[、.．]\s*|[(（][一二三四五六七八九十a-z]{1,3}[)）]"
    r"\s*|[a-z][.)）]\s+|(?:声明|主张|论断|结论|(?i:claim|finding)\s*)[0-9]{1,3}\s*[:：]\s*)(?=\S)"
)
_BARE_NUMBER_LENGTH = 8  # the longest line `_BARE_NUMBER` matches, a space or two aside
_DISPLAY = ("$$", "\\[", "\\begin{")  # how a display formula opens
_SUB_CLAIM = re.compile(r"([0-9]{1,3})[.．]([0-9]{1,2})(?:[.．、:：)）]|\s)\s*")  # `3.1 …`
_CHINESE_LABELS = {"新颖性": "Novelty", "可靠性": "Soundness", "重要性": "Significance"}
_ALL_LABELS = "|".join(["Novelty", "Soundness", "Significance", *_CHINESE_LABELS])
_LABEL_STARTS = "".join(
    sorted({c for label in _ALL_LABELS.split("|") for c in label[0] + label[0].lower()})
)
_LONGEST_LABEL = 48  # characters: the longest dressed label, with room to spare
_SEPARATOR = r"\s*[：:]|\s+[-–—|]|\s*[–—]{1,2}"


def _label(labels: str, flags: int = 0) -> re.Pattern[str]:
    """A review label as the format writes it (`Novelty：`), as a list item or in bold
    (`- Novelty：`, `1. Novelty：`, `**Novelty**：`), or dressed otherwise: a heading
    (`### Novelty`), in brackets (`【Novelty】`), with a dash (`Novelty - `), or with the
    other language's name beside it (`Novelty（新颖性）：`). Undressed, a label needs its
    colon or dash: the text says "novelty" too."""
    return re.compile(
        rf"(?=[-*•#\[【〔〖0-9{_LABEL_STARTS}])"  # most paragraphs fail at once
        r"(?:[-*•]\s*|[0-9]{1,2}[.、)）]\s*)?(?P<heading>#{1,6}\s*)?(?P<bold>\*\*)?(?P<open>[【\[〔〖])?"
        rf"(?P<label>{labels})(?:\s*[（(]\s*(?:{_ALL_LABELS})\s*[)）]|\s*/\s*(?:{_ALL_LABELS}))?"
        r"(?(open)[】\]〕〗])"
        rf"(?:\*\*(?:{_SEPARATOR})?|(?:{_SEPARATOR})(?:\*\*)?|(?(open)|(?(heading)(?=\s|$)|(?!))))",
        flags,
    )


# Any case (`novelty：`, `NOVELTY：`: a warning) where a label opens a paragraph or a line.
_REVIEW = _label("Novelty|Soundness|Significance|新颖性", re.IGNORECASE)
# Its later labels on paragraphs (or lines) of their own: the same review, going on.
_REVIEW_GOES_ON = _label("Soundness|Significance|可靠性|重要性", re.IGNORECASE)
# Capitalised labels only: the review text itself says "novelty", "soundness" in lower case.
# The Chinese labels are typos of the English ones that the review survives (a warning).
_REVIEW_LABEL = _label(r"\bNovelty|\bSoundness|\bSignificance|新颖性|可靠性|重要性")
_ANY_CASE_LABEL = re.compile(_REVIEW_LABEL.pattern, re.IGNORECASE)  # a review that opens so
_OPENS_REVIEW = _label("Novelty|新颖性", re.IGNORECASE)  # its first label
# A review's later labels, in its one paragraph (the first, `Novelty：`, lost).
_LATER_LABELS = re.compile(r"\bSoundness\s*[：:].{0,5000}?\bSignificance\s*[：:]", re.DOTALL)
# How the format writes a label, in a list or in bold or not: anything else is a warning.
_PLAIN_LABEL = re.compile(r"(?:[-*•]\s*)?(?:\*\*)?(?:Novelty|Soundness|Significance)(?:\*\*)?[：:]")

# How a deep read's text opens: "本文…", "该论文…", "GAPO 是一篇…", "This paper …".
_OPENS_PAPER = re.compile(
    r"(?:本文|本论文|该文|该论文|这篇|此文|本工作|这项工作|该工作|本研究|该研究|这项研究|作者提出"
    r"|[A-Za-zΑ-Ωα-ω][\w.+-]*\s*是一[篇项个种]"
    r"|(?:this|our) (?:paper|work|article)|we (?:introduce|propose|present)"
    r"|in this (?:paper|work))",
    re.IGNORECASE,
)
# How a paper's positioning paragraph opens, and a limitation or follow-up does not
# (`本文的代码尚未公开` is one of those).
_POSITIONS_PAPER = re.compile(
    r"(?:本文|本论文|该论文|这篇论文|该工作|本研究|该研究|这项研究|这项工作|本工作)"
    r"(?:提出(?!的)|是|的?定位|介绍|研究|针对|聚焦|关注|把|将|旨在)|作者提出(?!的)"
    r"|[A-Za-zΑ-Ωα-ω][\w.+-]*\s*是一篇"
    r"|(?:this|our) (?:paper|work) (?:proposes|introduces|presents|studies|is)"
    r"|we (?:introduce|propose|present)",
    re.IGNORECASE,
)
# How a limitation or follow-up paragraph (or a piece of one) opens.
_LIMITATION_CUES, _FOLLOW_UP_CUES = "局限|保留意见|审稿角度", "未来|后续|跟进|进一步|值得|以下方向"
_CONTINUES_TAIL = re.compile(rf".{{0,12}}(?:{_LIMITATION_CUES}|{_FOLLOW_UP_CUES})")
_FOLLOW_UPS = re.compile(rf".{{0,12}}(?:{_FOLLOW_UP_CUES})")
_LIMITATIONS = re.compile(rf".{{0,12}}(?:{_LIMITATION_CUES}|不足|缺陷)")  # a lone one's

# Markdown structure a pipeline may leave in (`## 评审`, `---`, a code fence around the
# file) at a line's start: this format has no headings, and each would count as a
# paragraph, moving the ones around it.
_MARKUP = re.compile(r"#{1,6}(?:\s.*)?|-{3,}|\*{3,}|_{3,}|```[^`]*|~~~.*")
# The format's section headings, which a pipeline strips (PRODUCT.md): one left on its own
# line, plain (`背景与动机`, `3. 方法机制`, `**实验与证据**：`, `【核心主张】`), or in English
# (`Background`, `Key Claims:`), is no paragraph of the paper.
_SECTION_HEADING = re.compile(
    r"\s*(?:[0-9]{1,2}[.、)]\s*)?(?:\*\*)?[【\[]?(?:一句话定位|定位|背景与动机|背景|动机|方法机制|方法"
    r"|机制|实验与证据|实验|证据|核心主张|主张|评审意见|审稿意见|评审|局限与保留意见|局限|值得跟进|后续跟进"
    r"|(?i:positioning|background(?: and motivation)?|motivation|method(?:s|ology)?|mechanism"
    r"|approach|experiments?(?: and evidence)?|evidence|results|(?:core |key |main )?claims"
    r"|review|limitations?|follow[- ]ups?|future work))[】\]]?(?:\*\*)?\s*[:：]?\s*"
)
_LONGEST_HEADING = 24
# A markdown export may set each quote in a blockquote (`> The results…`, nested `> >`);
# `>50 个基准` and `>= 3` are text.
_MARKUP_STARTS = frozenset(" #-*_>`~")
_LABEL_HEADING = re.compile(rf"#{{1,6}}\s*(?:{_ALL_LABELS})(?:\s*[：:])?", re.IGNORECASE)  # kept
_BLOCKQUOTE = re.compile(r"(?:>(?![0-9=]) ?)+")
# A list number as a markdown exporter escapes it (`1\. `, `2\)`: Turndown, html2text).
_ESCAPED_NUMBER = re.compile(r"\A([0-9]{1,3})\\([.)])")

_PROSE, _NOTE, _CLAIM_ITEM, _REVIEW_ITEM = "prose", "note", "claim", "review"
# A review whose label went unread: its text would join the limitations without a word.
_REVIEW_AFTER_TAIL = (
    "the review comes after {} paragraph(s) of the paper's limitations or follow-ups: "
    "expected right after its last claim; read as this paper's review, those paragraphs as "
    "its limitations and follow-ups"
)
_NO_REVIEW = (
    "no review after this paper's claims: expected a paragraph starting 'Novelty：'; the "
    "{} paragraphs after them are read as its limitations and follow-ups"
)
_ABSTRACT_ITEM = "abstract"  # an abstract-only entry's abstract whose note was lost
_MISTYPED = (
    "claim {0} is out of place: the claims around it make it claim {1} (claims are numbered "
    "1, 2, 3, … within each paper); read as claim {1}"
)
_OUT_OF_ORDER = (
    "claim {0} is out of order: expected claim {1} (claims are numbered 1, 2, 3, … within "
    "each paper); loaded as claim {0}"
)
_TWICE = "claim {} appears twice in this paper: expected claim {}; {}"
_NUMBERED_AGAIN = (
    "the claims are numbered again from 1 here, after claim {0} of the same paper (no review "
    "between them); read on by their place, as claims {1}, …"
)
_NUMBERED_ON = (
    "claims {0}–{1} are numbered on from the paper before (claims are numbered 1, 2, 3, … "
    "within each paper); read as claims 1–{2}"
)
# A quote on its claim's line: the statement's last sentence end, then English without CJK
# (no backtracking beyond it: the quote stops at the first CJK character), perhaps after a
# dash or a label, or in full-width brackets (`…。——The…`, `…。原文：The…`, `…。（The…）`).
_QUOTE_AFTER = re.compile(
    rf"(?P<claim>.*[。！？；…])\s*(?:[—–-]+\s*|(?i:{_QUOTE_LABEL.pattern}))?"
    rf"(?:[（【](?P<enclosed>[\"“'‘]?[A-Za-z0-9][^{CJK_CHARS}]*)[）】]"
    rf"|(?P<quote>[\"“'‘(]?[A-Za-z0-9][^{CJK_CHARS}]*))"
)
_TRANSLATED = (
    "the quote of claim {} is not in English (expected the paper's own words, verbatim, in an "
    "indented paragraph); read as its quote"
)
_ON_ITS_LINE = (
    "the quote of claim {} should be an indented paragraph after it, found at the end of the "
    "claim; read as its quote"
)
_LOST_STATEMENT = (
    "a second indented quote after claim {0}, and claim {2} next: claim {1}'s statement is "
    "missing; read as claim {1}'s quote, with no statement"
)
_SUB_CLAIM_JOINED = (
    "'{}' numbers a part of claim {}, not a claim of its own (the claims after it keep their "
    "numbers); read as part of claim {}"
)
_AFTER_QUOTE = (
    "an indented paragraph in Chinese after the quote of claim {} (a note, a translation); "
    "read as part of the claim's statement"
)
_QUOTE_MIN_WORDS = 4  # fewer is a term the statement ends with, not a quote
# Longer, and it is no statement with its quote; and `_QUOTE_AFTER` tries every `…` of a
# line that fails at its end (a long run of them took seconds): 13 ms at most this way.
_QUOTE_AFTER_LIMIT = 2_000
_STRAY_QUOTE = (
    "indented English that follows no claim: a quote whose claim was not recognised "
    "(expected 'N. <claim>' before it); kept as the paper's text"
)
_LONE_NOTE = "note paragraph has no abstract paragraph before it"
_REVIEW_BEFORE_CLAIMS = (
    "the claims come after the review: expected before it; read as the claims of the paper "
    "the review ends"
)
_ENGLISH_PAST_TAIL = (
    "English after the paper's limitations and follow-ups, right before an abstract: read as "
    "more of its follow-ups (if it is that abstract's first sentences, split off by a blank "
    "line, the abstract lacks them)"
)
_NOVELTY_UNLABELLED = (
    "the review should start with 'Novelty：'; its other labels (Soundness：, Significance：) "
    "show it is the review: read as the review, its opening as the novelty"
)
_ANCHORS = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]+)?")  # what a claim and its quote share
_QUOTE_ABOVE = (
    "claim {} has no quote after it, and the claim before it two: the second is read as "
    "this claim's quote (expected after it)"
)
# A quote set as a list's item under its claim (`- The…`; not `- 0.4`, a negative number, nor
# `* denotes…`, a table's footnote).
_QUOTE_ITEM = re.compile(r"[-•]\s+(?=[A-Za-z\"“'‘(])")
_MARKDOWN_QUOTE_STARTS = frozenset("-*•_")
_QUOTE_DRESSED = (
    "the quote of claim {} is set as Markdown (a list item, italics); read without its marks"
)
# A line over a group of claims, speaking of them: `实验类主张：`, `核心主张如下：`, "Key claims:".
_LEAD_IN = re.compile(
    r"[^\n]{0,16}(?:主张|声明|结论|发现|要点|论断|(?i:claims|findings))[^\n]{0,8}[:：]\s*"
)
_LEAD_IN_LEFT = "a line over the claims (a heading or lead-in of them, not a section); left out"
_CLAIM_NOTE = re.compile(r"\s*(?:[（(]\s*)?(?:注|备注|说明)\s*[0-9]?\s*[:：]")
_NOTE_BETWEEN = "a note after the quote of claim {}; read as part of the claim's statement"
_TEXT_BETWEEN = (
    "a paragraph of the paper's text between claims {} and {} (their numbers run on): read "
    "as its last section before its claims, not as the start of another paper"
)
_MOVED_MOST = 2  # paragraphs between two claims numbered on that stay with their paper
_KIND, _NUMBER = operator.attrgetter("kind"), operator.attrgetter("number")
_KIND_LETTER = {_PROSE: "p", _CLAIM_ITEM: "c", _REVIEW_ITEM: "r", _NOTE: "n", _ABSTRACT_ITEM: "a"}
_BEFORE_A_CLAIM = re.compile("p(?=c)")
_BETWEEN_CLAIMS = re.compile(f"cp{{1,{_MOVED_MOST}}}c")
_START = operator.methodcaller("start")
# What a language model writes around what it was asked for, on a line of its own: in
# Chinese it speaks of the digest (`以下是第二篇论文的精读。`), in English it opens as a reply
# does ("Sure, here is…", "Here's the next one."). Never indented (quotes are), nor a
# lead-in to a list (a colon).
_CHATTER = re.compile(
    r"(?:(?:以下是|下面是|接下来是(?!否)|好的[，,]|当然[，,！!])[^。：:]{0,30}"
    r"(?:精读|论文|文章|评述|解读|摘要|总结|下一篇|模板)[^。：:]{0,20}[。！!]?"
    r"|(?i:(?:sure|certainly|okay|ok)[,!.]\s|here(?:'s| is| are| comes)\b[^:]{0,80}"
    r"(?:paper|digest|review|deep read|summar|next|following|remaining)))[^:：]*"
)
_CHATTER_LONGEST = 160  # characters: a sentence about the digest, not a paragraph of it
_CHATTER_LEFT = (
    "a line written around the digest (a language model's 'here is…'), not a paper's text; left out"
)
_LINES = operator.attrgetter("lines")
_WRITTEN_TWICE = "this paragraph repeats the one at line {}; read once"
_ABSTRACT_GOES_ON = "blank lines split this abstract in {}: read as one paragraph"
_NO_NOTE = f"abstract has no note after it: expected '{NOTE}'; read as an abstract-only entry"
_ABSTRACT_MIN_WORDS = 30  # shorter English on its own is a footer or a heading, not an abstract
# An abstract split by a blank line: its pieces are sentences (a heading is shorter), and
# one of them is shorter than any whole abstract (HuggingFace's run 100-300 words).
_SENTENCE_MIN_WORDS, _WHOLE_ABSTRACT_WORDS = 3, 60
_PREAMBLE = (
    "paragraph before this deep read's text belongs to no paper (a deep read opens with its "
    "positioning: '本文…', '<Name> 是一篇…'); left out"
)
_CUT_PAPER = (
    "this paragraph after the last paper's tail opens like a paper's text: a paper cut short "
    "before its claims (the file looks cut while written or copied); the text from here "
    "on is left out (paragraphs: {}), not taken for the follow-ups of the paper before it"
)
_ORPHAN = (
    "paragraph belongs to no paper: a deep read needs numbered claims or a review after its "
    "text, and ends with its limitations and follow-ups; an abstract needs the note "
    f"'{NOTE}' after it"
)


@dataclass
class _Item:
    kind: str
    _paragraph: Paragraph
    number: int = 0
    claim_lines: list[str] = field(default_factory=list)
    quote_lines: list[str] = field(default_factory=list)
    written: str = ""  # a claim's number as written, when not `N. ` (`5、`, `5)`)
    loose: bool = False  # a `_LOOSE_CLAIM`: a claim only with its quote
    second_quote: int = 0  # where in `quote_lines` a second indented paragraph starts
    _run_on: list[str] = field(default_factory=list)  # lines not yet in `_paragraph`

    @property
    def paragraph(self) -> Paragraph:
        if self._run_on:
            lines = (*self._paragraph.lines, *self._run_on)
            self._paragraph = Paragraph(self._paragraph.line, lines)
            self._run_on.clear()
        return self._paragraph

    def run_on(self, paragraph: Paragraph) -> None:
        """Take in a paragraph that goes on this one (a table under its section, a review's
        next label). Its lines join the paragraph when that is next read, not at each of
        them: a review going on for thousands of paragraphs was copied whole at each."""
        self._run_on.extend(paragraph.lines)

    def last_lines(self, count: int) -> Sequence[str]:
        """The last `count` lines, without joining what ran on into it."""
        if len(self._run_on) >= count:
            return self._run_on[-count:]
        return [*self._paragraph.lines[len(self._run_on) - count :], *self._run_on]

    @property
    def line(self) -> int:
        return self._paragraph.line

    @property
    def text(self) -> str:
        return self.paragraph.text

    def as_claim(self) -> Claim:
        # The quote is English: wrapped lines join with single spaces.
        quote = " ".join(" ".join(self.quote_lines).split())
        return Claim(self.number, join_lines(self.claim_lines), quote)


@dataclass
class _DeepRead:
    prose: list[_Item]
    claims: list[_Item]
    review: _Item | None
    left_out: bool = False  # nothing of it is sound: it only takes its tail along


def is_markup(body: str) -> bool:
    """Whether a line (stripped) is markdown structure: a heading, a rule, a code fence."""
    return _MARKUP.fullmatch(body) is not None


def without_markup(lines: Sequence[str]) -> list[str]:
    """The lines, headings and rules (`_MARKUP`) read as blank, a blockquote's `>` markers
    as a quote's indentation, where they start a line indented less than a quote (or a
    paragraph: a wrapped quote's line may start with `> 0.05`), and a list number escaped
    (`1\\. `) as written."""
    result: list[str] = []
    quoting = False  # in a blockquote: the lines since a blank one all started with `>`
    for index, line in enumerate(lines):
        if 0 < len(line) <= _LONGEST_HEADING and _SECTION_HEADING.fullmatch(line):
            quoting = False
            result.append("")  # a section's heading the pipeline did not strip, as `## …`
            continue
        if line[:1] not in _MARKUP_STARTS:  # most lines: text
            quoting = False
            result.append(_ESCAPED_NUMBER.sub(r"\1\2", line, 1) if "\\" in line[:5] else line)
            continue
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if indent < QUOTE_INDENT and "\\" in body[:5]:
            line = line[:indent] + _ESCAPED_NUMBER.sub(r"\1\2", body, 1)
        marker = _BLOCKQUOTE.match(body) if body[:1] == ">" else None
        if marker and (indent < QUOTE_INDENT or quoting or not result or not result[-1]):
            quoting = True
            rest = body[marker.end() :]
            line = " " * (indent + QUOTE_INDENT) + rest if rest else ""
        elif (
            body[:1] in "#-*_`~"
            and indent < QUOTE_INDENT
            and _MARKUP.fullmatch(body)
            and not _LABEL_HEADING.fullmatch(body)
            and not _claim_heading(body, lines, index)
        ):
            quoting, line = False, ""
        else:
            quoting = False
        result.append(line)
    return result


def _claim_heading(body: str, lines: Sequence[str], index: int) -> bool:
    """Whether a heading is a claim set as one (`#### 5. <text>`): numbered, its quote next."""
    if not (body[:1] == "#" and _LOOSE_CLAIM.fullmatch(body)):
        return False
    following = next((lines[i] for i in range(index + 1, len(lines)) if lines[i].strip()), "")
    return indent_of(following) >= QUOTE_INDENT or following.lstrip()[:1] == ">"


def parse_deep_reads(
    paras: Sequence[Paragraph],
) -> tuple[tuple[ParsedPaper, ...], tuple[DigestWarning, ...]]:
    warnings: list[DigestWarning] = []
    paras = _without_chatter(_without_repeats(paras, warnings), warnings)
    items = _claims_together(_classify(paras, warnings), warnings)
    _renumber_through(items, warnings)
    papers: list[ParsedPaper] = []
    pending: list[_Item] = []  # plain paragraphs since the last anchor
    open_read: _DeepRead | None = None  # the deep read whose tail may still be in `pending`
    index = 0
    while index < len(items):
        item = items[index]
        if item.kind in (_PROSE, _ABSTRACT_ITEM):
            noted = _noted(items, index)
            if noted or item.kind == _ABSTRACT_ITEM:
                if open_read is not None and (english := _english_past_tail(pending)):
                    warnings.append(DigestWarning(english.line, _ENGLISH_PAST_TAIL))
                _finish(open_read, pending, papers, warnings, before_body=False)
                open_read, pending = None, []
                papers.append(_abstract_only(item, len(papers) + 1))
                if not noted:
                    warnings.append(DigestWarning(item.line, _NO_NOTE))
                index += 1 + noted
            else:
                pending.append(item)
                index += 1
            continue
        if item.kind == _NOTE:
            warnings.append(DigestWarning(item.line, f"{_LONE_NOTE}; left out"))
            index += 1
            continue

        if (
            item.kind == _REVIEW_ITEM
            and open_read is not None
            and open_read.claims
            and open_read.review is None
            and len(pending) <= TAIL_PARAGRAPHS
            and not any(_POSITIONS_PAPER.match(paragraph.text) for paragraph in pending)
        ):
            # A section or two of the paper moved above its review (its limitations, its
            # follow-ups): still this paper's review, the paragraphs part of its tail. Taken
            # for the text of a paper without claims, they would make a paper of its own.
            # (A paragraph that positions a paper, `GAPO 是一篇…`, is the next paper's text.)
            open_read.review = item
            warnings.append(DigestWarning(item.line, _REVIEW_AFTER_TAIL.format(len(pending))))
            index += 1
            continue
        end = index
        while end < len(items) and items[end].kind == _CLAIM_ITEM:
            end += 1
        if (
            end > index
            and open_read is not None
            and open_read.review is not None
            and not open_read.claims
            and not pending
            and (end == len(items) or items[end].kind != _REVIEW_ITEM)
        ):
            # Claims right after a review, with no review of their own: the paper's, its
            # review moved above them. Taken for a paper whose text was lost, they made a
            # paper of their own, and the one they belong to had none.
            open_read.claims = _paper_claims(items[index:end], warnings)
            warnings.append(DigestWarning(item.line, _REVIEW_BEFORE_CLAIMS))
            index = end
            continue
        prose = _finish(open_read, pending, papers, warnings, before_body=True)
        if not prose:
            what, outcome = (
                (f"claim {item.number}", "read without it, named from its first claim")
                if item.kind == _CLAIM_ITEM
                else ("review paragraph", "this paper is left out")
            )
            warnings.append(
                DigestWarning(
                    item.line,
                    (
                        f"{what} has no paper text before it: a deep read starts with its "
                        f"positioning paragraph; {outcome}"
                    ),
                )
            )
        claims = _paper_claims(items[index:end], warnings)
        index = end
        review = None
        if index < len(items) and items[index].kind == _REVIEW_ITEM:
            review = items[index]
            index += 1
        sound = bool(claims) or bool(prose and review)  # claims keep a paper their text lost
        if prose and not sound:
            warnings.append(
                DigestWarning(
                    prose[0].line,
                    (
                        "this paper has no sound claim and no review (see the warnings after this "
                        "line); left out"
                    ),
                )
            )
        open_read, pending = _DeepRead(prose, claims, review, left_out=not sound), []
    _finish(open_read, pending, papers, warnings, before_body=False)
    if items and not papers and all(item.kind in (_PROSE, _NOTE) for item in items):
        first = items[0]  # nothing here is a paper: no digest
        raise DigestParseError(_LONE_NOTE if first.kind == _NOTE else _ORPHAN, first.line)
    return tuple(papers), tuple(sorted(warnings, key=lambda warning: warning.line))


def _claims_together(items: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """What an editor or a pipeline puts among a paper's claims, read so that the paper
    stays whole (each taken for the text of a paper of its own, it split the paper in two,
    the second named after it): a short line over the claims (`实验类主张：`) is left out;
    between two claims whose numbers run on (`2`, then `3`), a note (`注：…`) is part of
    the claim before it, and a paragraph or two of the paper's text (its experiments,
    moved) is its last section, moved before its claims. A paragraph that positions a
    paper (`本文提出…`) is another paper's text, wherever it is."""
    # The items' kinds as letters: the places to look at are found in C (most files have
    # no paragraph between claims, and a plain paragraph before claims once a paper).
    kinds = "".join(map(_KIND_LETTER.__getitem__, map(_KIND, items)))
    lead_ins = {
        at
        for at in map(_START, _BEFORE_A_CLAIM.finditer(kinds))
        if len(items[at].paragraph.lines) == 1 and _LEAD_IN.fullmatch(items[at].text)
    }
    if lead_ins:
        warnings.extend(DigestWarning(items[at].line, _LEAD_IN_LEFT) for at in sorted(lead_ins))
        items = [item for at, item in enumerate(items) if at not in lead_ins]
        kinds = "".join(letter for at, letter in enumerate(kinds) if at not in lead_ins)
    if not _BETWEEN_CLAIMS.search(kinds):
        return items
    result: list[_Item] = []
    index = 0
    while index < len(items):
        end = index
        while end < len(items) and items[end].kind == _PROSE:
            end += 1
        between, after = items[index:end], items[end] if end < len(items) else None
        before = result[-1] if result else None
        if (
            between
            and before is not None
            and after is not None
            and before.kind == after.kind == _CLAIM_ITEM
            and after.number == before.number + 1
            and len(between) <= _MOVED_MOST
            and not any(_OPENS_PAPER.match(item.text) for item in between)
        ):
            first = len(result)
            while first and result[first - 1].kind == _CLAIM_ITEM:
                first -= 1
            for item in between:
                if _CLAIM_NOTE.match(item.text):
                    before.claim_lines.extend(item.paragraph.lines)
                    warnings.append(DigestWarning(item.line, _NOTE_BETWEEN.format(before.number)))
                else:
                    result.insert(first, item)
                    first += 1
                    warnings.append(
                        DigestWarning(item.line, _TEXT_BETWEEN.format(before.number, after.number))
                    )
        else:
            result += between
        if after is not None:
            result.append(after)
        index = end + 1
    return result


_NUMBERED_ON_AFTER = 3  # claims at least, of every paper before a run numbered on


def _renumber_through(items: list[_Item], warnings: list[DigestWarning]) -> None:
    """Claims numbered on through the file (`1 … 7`, then `8 … 19`, …) are read as numbered
    within each paper (`1 … 12`), with a warning at each paper's first claim: when every
    paper's claims, each run after its paper's text and without a gap, go on from the
    paper before, of three claims or more. One run that does by chance is a paper whose
    first claims were removed, and keeps its numbers."""
    runs: list[list[_Item]] = []
    index = 0
    while index < len(items):
        end = index
        while end < len(items) and items[end].kind == _CLAIM_ITEM:
            end += 1
        if end == index:
            index += 1
            continue
        if index == 0 or items[index - 1].kind != _PROSE:
            return  # claims without text of their own: no paper's whole run
        runs.append(items[index:end])
        index = end
    numbers = [[claim.number for claim in run] for run in runs]
    if len(runs) < 2 or numbers[0][0] != 1:
        return
    for before, after in itertools.pairwise(numbers):
        if after != list(range(before[-1] + 1, before[-1] + 1 + len(after))):
            return
        if len(before) < _NUMBERED_ON_AFTER:
            return
    for run, written in zip(runs[1:], numbers[1:], strict=True):
        for claim in run:
            claim.number -= written[0] - 1
        warning = _NUMBERED_ON.format(written[0], written[-1], len(run))
        warnings.append(DigestWarning(run[0].line, warning))


def _paper_claims(run: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """A paper's claims with their quotes, in order of number.

    A number used twice is a slip of the hand. When the first of the two came early (the
    number before it was expected), that one is the slip (`1 2 4 4 5`); otherwise the
    second is read as the first number no claim of the paper uses (`1 2 2 4`); numbers
    that start again from 1 are read on (`_read_on`). A claim that repeats an earlier one
    word for word is left out."""
    _read_on(run, warnings)
    _mistyped_between(run, warnings)
    holders: dict[int, _Item] = {}  # number -> the claim read as it
    # number -> (number expected, index of its warning; None when it followed its neighbour)
    early: dict[int, tuple[int, int | None]] = {}
    notes: list[DigestWarning] = []
    starting_over: _Item | None = None  # the last claim left out as numbered again
    expected = 1  # the lowest number no claim is read as yet
    previous = 0  # the number of the claim read last
    # Each step looks numbers and texts up, never goes through the claims again: a file of
    # thousands of claims numbered alike is read in as many steps, not their square.
    said = _Said()
    # The numbers claims have, here or further on, and those given to claims read again:
    # the set only grows, so the first number none has only moves up.
    taken = {claim.number for claim in run}
    unused = 1
    for position, claim in enumerate(run):
        while expected in holders:
            expected += 1
        number = claim.number
        if number not in holders:
            # Warned once where the order breaks: a run numbered from 2 (`2 3 4`) is one
            # slip, at its first claim, and what was expected there is the next number.
            follows = previous > 0 and number == previous + 1
            if number != expected and not follows:
                notes.append(DigestWarning(claim.line, _OUT_OF_ORDER.format(number, previous + 1)))
            if number > expected:
                early[number] = (expected, None if follows else len(notes) - 1)
        elif _repeated(claim, said, holders, starting_over, _next(run, position)):
            notes.append(DigestWarning(claim.line, _TWICE.format(number, expected, "left out")))
            starting_over = claim
            continue
        elif number in early and early[number][0] == expected:
            slip, note = holders.pop(number), early.pop(number)[1]
            slip.number = expected
            holders[expected] = slip
            taken.add(expected)
            warning = DigestWarning(
                slip.line, _TWICE.format(number, expected, f"read as claim {expected}")
            )
            if note is None:
                notes.append(warning)
            else:
                notes[note] = warning
        else:
            unused = max(unused, expected)
            while unused in taken:
                unused += 1
            claim.number = unused
            taken.add(unused)
            notes.append(
                DigestWarning(
                    claim.line, _TWICE.format(number, expected, f"read as claim {claim.number}")
                )
            )
        starting_over = None
        holders[claim.number] = claim
        said.add(claim)
        previous = claim.number
    warnings.extend(notes)
    # One without its quote was reported and is left out; out of order: reported.
    claims = sorted((c for c in holders.values() if c.quote_lines), key=lambda c: c.number)
    for claim in claims:
        _undress_quote(claim, warnings)
        _unlabel_quote(claim, warnings)
    return claims


def _read_on(run: list[_Item], warnings: list[DigestWarning]) -> None:
    """Claims numbered again from 1 within one paper's claims (`1 2 3 4 1 2 3`: groups of
    claims each numbered on its own, a heading between them gone) are read on by place
    (`5 6 7`), with a warning where the numbers start again: nothing comes between them to
    start another paper. Not a run that repeats the first claim word for word (a copy
    pasted again: left out, as any claim repeated)."""
    if 1 not in map(_NUMBER, itertools.islice(run, 1, None)):  # most papers: in C
        return
    read = 0  # the number the claim before was read as
    written = 0  # and the number it was written with
    offset = 0  # what the claims of a run numbered again are read on by
    for position, claim in enumerate(run):
        following = _next(run, position)
        if (
            claim.number == 1
            and read
            and following is not None
            and following.number == 2
            and replace(run[0].as_claim(), number=1) != claim.as_claim()
        ):
            offset = read
            warnings.append(DigestWarning(claim.line, _NUMBERED_AGAIN.format(read, read + 1)))
        elif offset and claim.number != written + 1:
            offset = 0
        written = claim.number
        claim.number += offset
        read = claim.number


def _mistyped_between(run: list[_Item], warnings: list[DigestWarning]) -> None:
    """A claim whose number no other claim of the paper has, between two that leave one
    number free that no claim has (`2 8 4`, or `7 2` at the start), is that number mistyped:
    read as it (a typo kept would give the claim an address its paper never had, and the
    corrected file would then look as if it lost that claim)."""
    numbers = Counter(claim.number for claim in run)
    for position, claim in enumerate(run[:-1]):
        before = run[position - 1].number if position else 0
        free = before + 1
        mistyped = claim.number != free and numbers[claim.number] == 1 and not numbers[free]
        if mistyped and run[position + 1].number == free + 1:
            warnings.append(DigestWarning(claim.line, _MISTYPED.format(claim.number, free)))
            numbers[claim.number], numbers[free] = 0, 1
            claim.number = free


def _undress_quote(claim: _Item, warnings: list[DigestWarning]) -> None:
    """A quote set as Markdown (a list's item under its claim, `- The…`; in italics, `*The
    …*`) is the quote without those marks: it is verbatim, and the first keys its paper."""
    body = claim.quote_lines[0].lstrip(" \t\u3000")
    if body[:1] not in _MARKDOWN_QUOTE_STARTS:  # most quotes
        return
    lines = list(claim.quote_lines)
    indent = lines[0][: len(lines[0]) - len(body)]
    if item := _QUOTE_ITEM.match(body):
        body = body[item.end() :]
    lines[0] = indent + body
    mark, end = body[:1], lines[-1].rstrip()
    wrapped = sum(line.count(mark) for line in lines) == 2  # no other `*` inside: `*GAPO* …`
    if mark in ("*", "_") and wrapped and body[1:2] != mark and end.endswith(mark):
        lines[0] = indent + body[1:]
        lines[-1] = lines[-1].rstrip()[:-1]
    if lines != claim.quote_lines and "".join(lines).strip():
        claim.quote_lines = lines
        warnings.append(DigestWarning(claim.line, _QUOTE_DRESSED.format(claim.number)))


def _unlabel_quote(claim: _Item, warnings: list[DigestWarning]) -> None:
    """A quote a template labelled (`Evidence: …`, `原文：…`) is the quote without its label:
    the quote is verbatim, and the first claim's quote keys its paper."""
    first = claim.quote_lines[0]
    body = first.lstrip(" \t\u3000>")
    label = _QUOTE_LABEL.match(body) if body[:1] in _QUOTE_LABEL_STARTS else None
    if label is None or _LABELLED_COLUMN.search(body, label.end()):
        return  # `English: 44.0 | Chinese: 41.2`: a table row's first column, not a label
    at = first.index(label[0])
    claim.quote_lines[0] = first[:at] + first[at + len(label[0]) :]
    warnings.append(
        DigestWarning(
            claim.line,
            f"the quote of claim {claim.number} starts with a label ('{label[0].strip()}'); "
            "read without it",
        )
    )


def _next(items: Sequence[_Item], position: int) -> _Item | None:
    return items[position + 1] if position + 1 < len(items) else None


class _Said:
    """What the claims read so far say, their numbers aside: read from them only once a
    number is taken twice (most papers never ask), and then once for each claim."""

    def __init__(self) -> None:
        self._known: set[tuple[str, str]] = set()
        self._unread: list[_Item] = []

    def add(self, claim: _Item) -> None:
        self._unread.append(claim)

    def __contains__(self, claim: _Item) -> bool:
        self._known.update(map(self._said, self._unread))
        self._unread.clear()
        return self._said(claim) in self._known

    @staticmethod
    def _said(claim: _Item) -> tuple[str, str]:
        said = claim.as_claim()
        return said.text_zh, said.quote_en


def _repeated(
    claim: _Item,
    said: _Said,
    holders: dict[int, _Item],
    before: _Item | None,
    after: _Item | None,
) -> bool:
    """Whether a claim whose number is taken repeats word for word one read before (what
    those `said`), or is one of a run numbered again (`before`, the claim left out before
    it, or `after`, the one after it, go on from its number with another that is taken)."""
    if claim in said:
        return True
    if before is not None and before.number + 1 == claim.number:
        return True
    return after is not None and after.number == claim.number + 1 and after.number in holders


def _without_chatter(paras: list[Paragraph], warnings: list[DigestWarning]) -> list[Paragraph]:
    """The paragraphs without a line a pipeline's language model wrote around the digest
    (`以下是第二篇论文的精读。`, "Sure, here is the next deep read."), with a warning: taken
    for a paragraph of the paper around it, it moved the sections after it."""
    firsts = [lines[0] for lines in map(_LINES, paras)]
    if not any(map(_CHATTER.match, firsts)):  # most files: one C call a paragraph
        return paras
    kept = []
    for paragraph, first in zip(paras, firsts, strict=True):
        if (
            len(paragraph.lines) == 1
            and len(first) <= _CHATTER_LONGEST
            and _CHATTER.fullmatch(first)
        ):
            warnings.append(DigestWarning(paragraph.line, _CHATTER_LEFT))
        else:
            kept.append(paragraph)
    return kept


def _without_repeats(paras: Sequence[Paragraph], warnings: list[DigestWarning]) -> list[Paragraph]:
    """The paragraphs without one written again right after itself (a copy pasted twice, a
    pipeline's retry), with a warning: a review twice was the end of a paper and then a
    paper without text, which took the real one's limitations and follow-ups with it."""
    texts = list(map(_LINES, paras))
    if not any(map(operator.eq, texts, itertools.islice(texts, 1, None))):  # most files, in C
        return list(paras)
    kept: list[Paragraph] = []
    for paragraph in paras:
        if kept and paragraph.lines == kept[-1].lines:
            warnings.append(DigestWarning(paragraph.line, _WRITTEN_TWICE.format(kept[-1].line)))
        else:
            kept.append(paragraph)
    return kept


def _classify(paras: Sequence[Paragraph], warnings: list[DigestWarning]) -> list[_Item]:
    items: list[_Item] = []
    whole = [*map(_number_with_its_text, _run_together(paras))]
    for at, (paragraph, following) in enumerate(zip(whole, [*whole[1:], None], strict=False)):
        first = paragraph.lines[0]
        body = first.strip()
        after_claim = bool(items) and items[-1].kind == _CLAIM_ITEM
        if after_claim and indent_of(first) >= QUOTE_INDENT and _reads_as_quote(body):
            # An indented paragraph after a claim is its quote, or the next wrapped piece,
            # unless the claims' numbers show that one lost its statement in between: it
            # keeps its quote, as a claim number written without its text does.
            claim = items[-1]
            if _lost_statement(claim, following):
                number = claim.number + 1
                items.append(_Item(_CLAIM_ITEM, paragraph, number, [], list(paragraph.lines)))
                warning = _LOST_STATEMENT.format(claim.number, number, number + 1)
                warnings.append(DigestWarning(paragraph.line, warning))
            else:
                if claim.quote_lines and not claim.second_quote:
                    claim.second_quote = len(claim.quote_lines)
                claim.quote_lines.extend(paragraph.lines)
        elif (
            after_claim and indent_of(first) < QUOTE_INDENT and (part := _part_of(items[-1], body))
        ):
            # `3.1 …` after claim 3: numbered apart, it took claim 4's number, and claim 4
            # itself was then left out as written twice. Its quote joins claim 3's.
            items[-1].claim_lines.extend(paragraph.lines)
            number = items[-1].number
            warnings.append(
                DigestWarning(paragraph.line, _SUB_CLAIM_JOINED.format(part, number, number))
            )
        elif after_claim and _splits_claim(
            items[-1], body, whole[at + 1 : at + 1 + _QUOTE_GOES_ON]
        ):
            # A blank line split the claim: its statement goes on before the quote, or its
            # quote goes on, unindented, before the next claim or the review.
            if items[-1].quote_lines:
                items[-1].quote_lines.extend(paragraph.lines)
                warnings.append(
                    DigestWarning(
                        paragraph.line,
                        (
                            f"the quote of claim {items[-1].number} goes on here without its "
                            f"indentation ({QUOTE_INDENT}+ spaces); read as part of its quote"
                        ),
                    )
                )
            else:
                items[-1].claim_lines.extend(paragraph.lines)
        elif (
            after_claim
            and not items[-1].quote_lines
            and not items[-1].loose
            and _quote_in_translation(first, body)
            and _statement_and_quote(items[-1]) is None
        ):
            # Indented where the claim's quote goes, but Chinese: the quote given translated.
            items[-1].quote_lines.extend(paragraph.lines)
            warnings.append(DigestWarning(paragraph.line, _TRANSLATED.format(items[-1].number)))
        elif (
            after_claim
            and not items[-1].loose
            and _quote_in_translation(first, body)
            and (bool(items[-1].quote_lines) or _quote_on_its_line(items[-1], warnings))
        ):
            # Indented Chinese after a claim's quote: a note on the claim, or the quote's
            # translation; it stays with the claim rather than cut its paper in two.
            items[-1].claim_lines.extend(paragraph.lines)
            warnings.append(DigestWarning(paragraph.line, _AFTER_QUOTE.format(items[-1].number)))
        elif items and items[-1].kind == _PROSE and _display_block(paragraph.lines):
            # A table or a display formula set apart is part of the section before it;
            # counted as a section of its own, it moved every section after it.
            items[-1].run_on(paragraph)
        elif _is_note(body):
            items.append(_Item(_NOTE, paragraph))
        elif (
            items
            and items[-1].kind == _REVIEW_ITEM
            # (Its last lines hold a label it may end with: each line holds a character.)
            and (
                _REVIEW_GOES_ON.match(body)
                or _awaits_its_text(join_lines(items[-1].last_lines(_LONGEST_LABEL)))
            )
        ):
            items[-1].run_on(paragraph)
        elif review := _REVIEW.match(body):
            items.append(_Item(_REVIEW_ITEM, paragraph))
            if not _PLAIN_LABEL.match(review[0]):
                label = _canonical(review["label"])
                warnings.append(
                    DigestWarning(
                        paragraph.line,
                        f"the review should start with '{label}：', found "
                        f"{quoted(review[0])}; read as the review",
                    )
                )
        elif numbered := _numbered(body):
            number, text, written, loose = numbered
            item = _Item(_CLAIM_ITEM, paragraph, number, [text], written=written, loose=loose)
            for line in paragraph.lines[1:]:
                if item.quote_lines or indent_of(line) >= QUOTE_INDENT:
                    item.quote_lines.append(line)
                else:
                    item.claim_lines.append(line)
            items.append(item)
        elif after_claim and _LATER_LABELS.search(body):
            # The review that lost its first label: its later ones say what it is. Taken for
            # the limitations, it left the review empty and the limitations wrong.
            lines = (f"Novelty：{first.strip()}", *paragraph.lines[1:])
            items.append(_Item(_REVIEW_ITEM, Paragraph(paragraph.line, lines)))
            warnings.append(DigestWarning(paragraph.line, _NOVELTY_UNLABELLED))
        elif (
            after_claim
            and not items[-1].quote_lines
            and not items[-1].loose
            and _reads_as_quote(body)
            and not (following is not None and _is_note(following.lines[0].strip()))
        ):
            # English right after a claim that has no quote yet: its quote, under-indented
            # (not after a loosely numbered paragraph, which an indented quote makes a claim;
            # not before the note: that is an abstract-only entry's abstract).
            items[-1].quote_lines.extend(paragraph.lines)
            warnings.append(
                DigestWarning(
                    paragraph.line,
                    (
                        f"the quote of claim {items[-1].number} should be indented by "
                        f"{QUOTE_INDENT}+ spaces; read as its quote"
                    ),
                )
            )
        elif cut := _note_apart(paragraph):
            warnings.append(DigestWarning(cut[1].line, _NOTE_ON_ITS_LINE))
            items += [_Item(_PROSE, cut[0]), _Item(_NOTE, cut[1])]
        else:
            items.append(_Item(_PROSE, paragraph))
    while len(found := _unnumbered_claims(items, warnings)) < len(items):
        items = found  # again: a claim found may be the neighbour that numbers another
    items = _abstracts_whole(items, warnings)
    _resolve_unquoted(items, warnings)
    if any(item.kind != _PROSE for item in items):  # a digest: English alone may be no abstract
        for index, item in enumerate(items):
            if _lost_its_note(items, index):
                item.kind = _ABSTRACT_ITEM
    return items


def _abstracts_whole(items: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """The items, with an abstract that blank lines split one paragraph again (a warning):
    English sentences in a row between the note of the entry before and the abstract's own,
    one of them shorter than a whole abstract. The first pieces were entries of their own,
    a paper too many. (After a deep read, English may be its last section; first in the file,
    a preamble: neither is joined.)"""
    whole: list[_Item] = []
    run: list[_Item] = []  # English paragraphs in a row
    after_note = False  # the run follows a note
    for item in items:
        if _is_english_prose(item):
            run.append(item)
            continue
        if item.kind == _NOTE and after_note and _pieces_of_one(run):
            lines = tuple(line for piece in run for line in piece.paragraph.lines)
            whole.append(_Item(_PROSE, Paragraph(run[0].line, lines)))
            warnings.append(DigestWarning(run[1].line, _ABSTRACT_GOES_ON.format(len(run))))
        else:
            whole += run
        whole.append(item)
        run, after_note = [], item.kind == _NOTE
    return whole + run


def _pieces_of_one(run: list[_Item]) -> bool:
    """Whether English paragraphs before an abstract's note are pieces of that abstract:
    sentences (not a heading), one of them shorter than a whole abstract."""
    words = [len(piece.text.split()) for piece in run]
    return (
        len(run) > 1
        and min(words) < _WHOLE_ABSTRACT_WORDS
        and min(words[:-1]) >= _SENTENCE_MIN_WORDS
        and all(ends_sentence(piece.paragraph.lines[-1]) for piece in run[:-1])
    )


def _is_english_prose(item: _Item) -> bool:
    """A plain paragraph of English, not indented as a quote: an abstract, or a piece of one."""
    return _is_english(item) and indent_of(item.paragraph.lines[0]) < QUOTE_INDENT


def _is_english(item: _Item) -> bool:
    """A plain paragraph without Chinese (most are Chinese: found at once)."""
    return item.kind == _PROSE and not any(map(has_cjk, item.paragraph.lines))


def _noted(items: list[_Item], index: int) -> bool:
    """Whether the paragraph at `index` is an abstract with its note after it."""
    following = items[index + 1] if index + 1 < len(items) else None
    return following is not None and following.kind == _NOTE and not _is_chinese(items[index].text)


def _lost_its_note(items: list[_Item], index: int) -> bool:
    """Whether the paragraph at `index` is an abstract whose note was lost: a deep read's
    prose is Chinese, so a paragraph of English, of an abstract's length, among paragraphs
    that are not (an abstract with its note aside) is an abstract-only entry."""

    def english(at: int) -> bool:
        return 0 <= at < len(items) and _is_english(items[at])

    def whole(at: int) -> bool:  # English as long as a whole abstract: no piece of one
        return english(at) and len(items[at].text.split()) >= _WHOLE_ABSTRACT_WORDS

    def entries_apart(first: int) -> bool:
        """Whether the run of whole English paragraphs from `first` is abstracts that lost
        their notes, one after another: what follows it is no claim of a paper whose
        sections they would be (written in English), but the end, a note, or a paper's
        opening."""
        end = first
        while whole(end):
            end += 1
        after = items[end] if end < len(items) else None
        return after is None or (
            after.kind != _CLAIM_ITEM
            and (after.kind != _PROSE or _OPENS_PAPER.match(after.text) is not None)
        )

    item = items[index]
    return (
        english(index)
        and indent_of(item.paragraph.lines[0]) < QUOTE_INDENT  # indented English: a quote
        and len(item.text.split()) >= _ABSTRACT_MIN_WORDS
        and not _noted(items, index)
        and (not english(index - 1) or (whole(index) and whole(index - 1)))
        and (index == 0 or items[index - 1].kind != _CLAIM_ITEM)  # no quote that lost its indent
        and (
            not english(index + 1)
            or _noted(items, index + 1)
            or (whole(index) and whole(index + 1))
        )
        and (
            not (english(index - 1) or english(index + 1))
            or entries_apart(index - 1 if whole(index - 1) else index)
        )
        and not _positions_in_english(items, index)
    )


def _positions_in_english(items: list[_Item], index: int) -> bool:
    """Whether the English paragraph at `index` is a deep read's positioning written in
    English: a few Chinese paragraphs follow it (its other sections, the first of them not
    opening a paper of its own, as a positioning does), then that paper's claims. An
    abstract that lost its note is followed by a whole deep read, opened by its own
    positioning, or by no claims at all."""
    end = index + 1
    while end < len(items) and items[end].kind == _PROSE and end - index <= _HEAD_SECTIONS:
        end += 1
    sections = items[index + 1 : end]
    return (
        0 < len(sections) < _HEAD_SECTIONS
        and end < len(items)
        and items[end].kind == _CLAIM_ITEM
        and all(_is_chinese(section.text) for section in sections)
        and not _OPENS_PAPER.match(sections[0].text)
    )


def _quote_in_translation(first: str, body: str) -> bool:
    """Whether a paragraph (its first line, and `body` stripped) right after a claim without
    a quote (nor one on its line) is that quote in Chinese: indented as a quote, and no
    claim, review or note."""
    return (
        indent_of(first) >= QUOTE_INDENT
        and not _numbered(body)
        and not _REVIEW.match(body)
        and not _is_note(body)
    )


def _lost_statement(claim: _Item, following: Paragraph | None) -> bool:
    """Whether an indented quote after `claim`'s own is the quote of the claim numbered
    between it and the next (`following`): a line lost, not a quote wrapped in two (which
    goes on mid-sentence) before a gap a claim deleted left."""
    if not claim.quote_lines:
        return False
    numbered = None if following is None else _numbered(following.lines[0].strip())
    return (
        numbered is not None
        and numbered[0] == claim.number + 2
        and ends_sentence(claim.quote_lines[-1].rstrip())
    )


def _splits_claim(claim: _Item, body: str, after: Sequence[Paragraph]) -> bool:
    """Whether the paragraph `body` opens is a piece of `claim` that a blank line cut off:
    Chinese between its statement and its quote (the quote comes next), or English after
    its quote that the next claim or the review follows, perhaps after more English (a
    quote a line a sentence: a plain-text export). `after`: the paragraphs that follow."""
    # Chinese after a quoted claim (most often the next claim) or English before the quote
    # is no piece of it: one scan tells.
    if not after or claim.loose or has_cjk(body) == bool(claim.quote_lines):
        return False
    if _numbered(body) or _REVIEW.match(body):
        return False
    next_first = after[0].lines[0]
    if not claim.quote_lines:
        return indent_of(next_first) >= QUOTE_INDENT and _reads_as_quote(next_first.strip())
    for paragraph in after:
        next_body = paragraph.lines[0].strip()
        if _numbered(next_body) is not None or _REVIEW.match(next_body) is not None:
            return True
        if has_cjk(next_body) or indent_of(paragraph.lines[0]) >= QUOTE_INDENT:
            return False  # another paper's text, or a quote of something else
    return False


def _is_note(body: str) -> bool:
    """Whether a paragraph (stripped) is an abstract-only entry's note."""
    return body[:1] in _NOTE_FIRST and (
        _NOTE_START.search(body, 0, _NOTE_REACH) is not None
        or (len(body) <= _ENGLISH_NOTE_LONGEST and _ENGLISH_NOTE.match(body) is not None)
    )


def _note_apart(paragraph: Paragraph) -> tuple[Paragraph, Paragraph] | None:
    """An abstract and its note that ran onto its last line (English before it), as the two
    paragraphs they are; None for any other paragraph."""
    *before, last = paragraph.lines
    note = last.find(_NOTE_PREFIX, _NOTE_REACH)
    if note < 0:
        return None
    english = [*before, last[:note]]
    if len(" ".join(english).split()) < _ABSTRACT_MIN_WORDS or any(map(has_cjk, english)):
        return None
    abstract = Paragraph(paragraph.line, (*before, last[:note].rstrip()))
    return abstract, Paragraph(paragraph.line + len(before), (last[note:],))


def _display_block(lines: Sequence[str]) -> bool:
    """A Markdown table (`| … |` rows) or a display formula (`$$ … $$`, `\\[ … \\]`,
    `\\begin{…}`) as a paragraph of its own."""
    first = lines[0].lstrip()
    return first.startswith(_DISPLAY) or all(line.lstrip().startswith("|") for line in lines)


def _part_of(claim: _Item, body: str) -> str:
    """The number of a part of `claim` that `body` opens with (`3.1`, `3.2` after claim 3),
    or nothing."""
    sub = _SUB_CLAIM.match(body)
    if sub is None or int(sub[1]) != claim.number or sub.end() == len(body):
        return ""
    return sub[0].strip()


def _number_with_its_text(paragraph: Paragraph) -> Paragraph:
    """A claim's number on a line of its own, its text on the next: one line, `N. <text>`."""
    lines = paragraph.lines
    if len(lines) > 1 and _number_then_text(lines[0], lines[1]):
        return Paragraph(paragraph.line, (f"{lines[0].strip()} {lines[1].strip()}", *lines[2:]))
    return paragraph


def _number_then_text(line: str, following: str) -> bool:
    """Whether `line` is a claim's number alone and `following` (not indented: no quote)
    its text."""
    number = line.strip()
    return (
        len(number) <= _BARE_NUMBER_LENGTH
        and _BARE_NUMBER.fullmatch(number) is not None
        and indent_of(following) < QUOTE_INDENT
    )


def _unnumbered_claims(items: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """A plain paragraph with an indented English one after it, next to a claim or to
    another such pair, is a claim whose number was lost or mistyped (`五、`, `a.`, `- `,
    `5.` on a line of its own): only claims carry indented English. It is read as the claim
    its neighbours imply (the first of a list of them as claim 1), with a warning; taken
    for text, it would start a paper of its own."""
    result: list[_Item] = []
    # Where the indented English from each item on ends, found once (a file of nothing but
    # quotes would otherwise be gone through again from each of them).
    ends = list(range(len(items) + 1))
    for at in reversed(range(len(items))):
        if _is_indented_english(items[at]):
            ends[at] = ends[at + 1]
    index = 0
    while index < len(items):
        item, end = items[index], ends[index + 1]
        listed = (  # another plain paragraph with its quote comes next
            end + 1 < len(items) and items[end].kind == _PROSE and ends[end + 1] > end + 1
        )
        after = items[end] if end < len(items) else None
        claim = _claim_without_number(item, range(index + 1, end), items, result, after, listed)
        if claim is None:
            result.append(item)
            index += 1
            continue
        n = claim.number
        if claim.written:  # warned of as any number written otherwise (_resolve_unquoted)
            result.append(claim)
            index = end
            continue
        problem = (
            f"has no number of its own: expected '{n}. ' before its text"
            if claim.claim_lines
            else f"has no text: expected its statement after '{n}. '"
        )
        warnings.append(DigestWarning(item.line, f"claim {n} {problem}; read as claim {n}"))
        result.append(claim)
        index = end
    return result


def _claim_without_number(
    item: _Item,
    quotes: range,
    items: list[_Item],
    before: list[_Item],
    after: _Item | None,
    listed: bool,
) -> _Item | None:
    """`item` as the claim it is when the `quotes` of `items` (indented English) follow it
    and a claim is next to it (the last of `before`, or `after` when that is not the first
    claim), or another plain paragraph with its quote (`listed`)."""
    if item.kind != _PROSE or not quotes:
        return None
    previous = before[-1] if before and before[-1].kind == _CLAIM_ITEM else None
    following = after if after and after.kind == _CLAIM_ITEM and after.number > 1 else None
    if previous is None and following is None and not listed:
        return None
    if bare := _BARE_NUMBER.fullmatch(item.text):  # `5.` alone: the number, without text
        number, lines = int(bare.group(1)), []
    elif not has_cjk(item.text):  # a statement is Chinese, with English terms at most
        return None
    else:
        number = previous.number + 1 if previous else following.number - 1 if following else 1
        lines = [*item.paragraph.lines]
    # `3 全量…`: the number its neighbours imply, written without its stop, is not text;
    # nor is a list's mark for an item (`• `, `一、`, `a. `).
    spaced = _SPACED_NUMBER.match(lines[0]) if lines else None
    written = spaced[1] if spaced and int(spaced[1]) == number else ""
    if spaced and written:
        lines[0] = lines[0][spaced.end() :]
    elif lines and (mark := _ITEM_MARK.match(lines[0])):
        lines[0] = lines[0][mark.end() :]
    claim = _Item(_CLAIM_ITEM, item.paragraph, number, lines, written=written)
    claim.quote_lines = [line for at in quotes for line in items[at].paragraph.lines]
    return claim


def _is_indented_english(item: _Item) -> bool:
    first = item.paragraph.lines[0]
    return (
        item.kind == _PROSE and indent_of(first) >= QUOTE_INDENT and _reads_as_quote(first.strip())
    )


def _numbered(body: str) -> tuple[int, str, str, bool] | None:
    """A numbered paragraph's number, text, the number as written when it is not `N. `,
    and whether it is a `_LOOSE_CLAIM`."""
    if claim := _CLAIM.fullmatch(body):
        written = f"{claim.group(1)}{claim.group(2)}" if claim.group(2) else ""
        return int(claim.group(1)), claim.group(3), written, False
    if body[:1] == "第" and (claim := _ORDINAL_CLAIM.fullmatch(body)):
        return int(claim.group(2)), claim.group(3), claim.group(1), True
    if claim := _LOOSE_CLAIM.fullmatch(body):
        digits, circled = claim.group(2, 3)
        number = int(digits) if digits else ord(circled) - ord(_CIRCLED[0]) + 1
        return number, claim.group(4), claim.group(1), True
    return None


# A file whose lines run on within its paragraphs this many to one lost its blank lines.
_WHOLE_LINES_SEEN, _WHOLE_LINES_SHARE = 20, 0.8
_QUOTE_GOES_ON = 16  # lines a quote pasted a sentence a line may go on by before the next claim


def _run_together(paras: Sequence[Paragraph]) -> Iterator[Paragraph]:
    """The paragraphs, with those a missing blank line ran into one cut apart: where the
    structure shows a new one starting (`_opens_paragraph`), and at every line when each
    line that the structure leaves open ends a sentence, since this format writes a
    paragraph on one line. A wrapped file breaks lines mid-sentence: it is cut only where
    the structure shows."""
    following = [paragraph.lines[0] for paragraph in paras[1:]] + [""] * bool(paras)
    cuts = [
        _cuts(paragraph.lines, after) for paragraph, after in zip(paras, following, strict=True)
    ]
    endings = [
        ends_sentence(before)  # a wrapped line seldom ends one
        for paragraph, paragraph_cuts in zip(paras, cuts, strict=True)
        for before, cut in zip(paragraph.lines[:-1], paragraph_cuts, strict=True)
        if cut is None
    ]
    # A file that lost its blank lines (and its quotes' indentation: a plain-text export)
    # has a few lines that end without a full stop (quotes, table rows) among hundreds
    # that do; a wrapped one, few that do. One that kept its blank lines is written a
    # sentence a line, perhaps, and its lines are not paragraphs.
    ended = sum(endings)
    blank_lines_lost = len(endings) >= _WHOLE_LINES_SEEN * len(paras)
    whole_lines = ended == len(endings) or (
        blank_lines_lost and ended >= _WHOLE_LINES_SHARE * len(endings)
    )
    for paragraph, paragraph_cuts in zip(paras, cuts, strict=True):
        starts = [
            i for i, cut in enumerate(paragraph_cuts, 1) if cut or (cut is None and whole_lines)
        ]
        if not starts:
            yield paragraph
            continue
        for first, end in itertools.pairwise([0, *starts, len(paragraph.lines)]):
            yield Paragraph(paragraph.line + first, paragraph.lines[first:end])


def _cuts(lines: Sequence[str], after: str) -> list[bool | None]:
    """`_opens_paragraph` of each line but the first; `after` is the next paragraph's."""
    if len(lines) == 1:  # most paragraphs
        return []
    padded = [*lines, after]
    return [
        _opens_paragraph(*padded[index - 1 : index + 2], opening=lines[0])
        for index in range(1, len(lines))
    ]


def _opens_paragraph(before: str, line: str, after: str, *, opening: str = "") -> bool | None:
    """Whether `line` opens a paragraph though no blank line comes before it: True for the
    note, or what follows it; a claim whose quote comes next; Chinese or the review after
    a quote. False for a quote or its next piece (indented English), for a numbered
    list's next item (in a paragraph whose `opening` line is English too: an abstract's
    list of contributions), and for a claim's text after its number's line.
    None where only the file's shape can tell (see `_run_together`)."""
    body, previous = line.strip(), before.strip()
    if _is_note(body) or previous == NOTE:
        return True
    if indent_of(line) >= QUOTE_INDENT and not has_cjk(body):
        return False  # a quote or its next piece: most lines asked, answered at once
    if _is_bare_label(previous):
        return False  # a review label on a line of its own (`**Novelty**`): its text
    if _number_then_text(previous, line):
        return False  # a claim's text after its number's line
    numbered = _NUMBERED.fullmatch(body) is not None
    if (
        numbered
        and opening
        and indent_of(before) < QUOTE_INDENT
        and not has_cjk(opening + previous + body)
    ):
        return False  # an item of a list inside English (an abstract's contributions)
    claim = numbered and has_cjk(body)
    chinese = claim or _is_chinese(body)
    if indent_of(line) >= QUOTE_INDENT and not chinese:
        return False
    if claim and indent_of(after) >= QUOTE_INDENT:
        return True
    if indent_of(before) >= QUOTE_INDENT and not _is_chinese(previous):  # after a quote
        return chinese or _OPENS_REVIEW.match(body) is not None or None
    if claim and _NUMBERED.fullmatch(previous):
        return False
    return None


def _reads_as_quote(body: str) -> bool:
    """Quotes are English; the next claim, the review or prose with stray leading spaces
    are (partly) Chinese."""
    if _NUMBERED.fullmatch(body) or _REVIEW.match(body) or _is_note(body):
        return not has_cjk(body)
    if not has_cjk(body):  # most paragraphs asked are English quotes: one quick scan
        return True
    if label := _QUOTE_LABEL.match(body):
        body = body[label.end() :]  # a quote's label (`原文：`) does not make it Chinese
    return not _is_chinese(body)


def _is_chinese(text: str) -> bool:
    if not has_cjk(text):  # most paragraphs asked are English quotes: one quick scan
        return False
    cjk, letters = cjk_share(text)
    return cjk > letters * _QUOTE_MAX_CJK_SHARE


def _resolve_unquoted(items: list[_Item], warnings: list[DigestWarning]) -> None:
    """A numbered paragraph without a quote is a claim that lost its quote (a warning; the
    claim is left out), except in a list: reviewers write their limitations and follow-ups
    as numbered lists too, and a paper's text its steps. So one numbered loosely
    (`_LOOSE_CLAIM`), one that starts a list among the paragraphs right after a review
    (or goes on with it: the next number), and one a paper's claim 1 follows before any
    other claim or review (`_listed_before_claims`) are text."""
    since_review: int | None = None  # plain paragraphs since the last review
    listed: int | None = None  # the number of the last list item read after a review
    before_claims = _listed_before_claims(items)
    for before, item in zip([None, *items], items, strict=False):
        if (
            item.kind == _CLAIM_ITEM
            and not item.quote_lines
            and before is not None
            and before.kind == _CLAIM_ITEM
            and before.second_quote
            and item.number == before.number + 1
            and _closer(before.quote_lines[before.second_quote :], item, before)
        ):
            # Its quote moved above it, after the claim before's: two quotes there, none here.
            item.quote_lines = before.quote_lines[before.second_quote :]
            del before.quote_lines[before.second_quote :]
            warnings.append(DigestWarning(item.line, _QUOTE_ABOVE.format(item.number)))
        unquoted = item.kind == _CLAIM_ITEM and not item.quote_lines
        if item.kind == _REVIEW_ITEM:
            since_review = 0
        elif item.kind != _PROSE and not unquoted:
            since_review = listed = None
        elif since_review is not None:
            since_review += 1
        if unquoted and (
            item.loose or _in_a_list(item, since_review, listed) or id(item) in before_claims
        ):
            item.kind = _PROSE
            listed = item.number if since_review is not None else None
            continue
        if item.kind != _CLAIM_ITEM:
            continue
        if item.written:
            warnings.append(
                DigestWarning(
                    item.line,
                    (
                        f"claim {item.number} should start '{item.number}. ', found "
                        f"'{item.written}'; read as claim {item.number}"
                    ),
                )
            )
        if unquoted and not _quote_on_its_line(item, warnings):
            warnings.append(
                DigestWarning(
                    item.line,
                    (
                        f"claim {item.number} has no English quote: expected an indented paragraph "
                        f"({QUOTE_INDENT}+ spaces) after it; the claim is left out"
                    ),
                )
            )


def _closer(quote: list[str], claim: _Item, other: _Item) -> bool:
    """Whether the quote says at least as much of what `claim` states as of what `other`
    does, by the numbers and names a claim restates from its quote. (One that says more of
    `other`'s is the second half of `other`'s quote, split by a blank line.)"""
    said = set(_ANCHORS.findall(" ".join(quote).lower()))
    shared = [len(said & set(_ANCHORS.findall(c.text.lower()))) for c in (claim, other)]
    return shared[0] >= shared[1]


def _in_a_list(item: _Item, since_review: int | None, listed: int | None) -> bool:
    """Whether a numbered paragraph without a quote, `since_review` plain paragraphs after a
    review, is an item of the tail's list: one of its usual paragraphs, the one after them,
    or the next number of a list begun there (not a claim with its quote on its line)."""
    if since_review is None:
        return False
    if since_review <= TAIL_PARAGRAPHS:
        return True
    goes_on = since_review == TAIL_PARAGRAPHS + 1 or (
        listed is not None and item.number == listed + 1
    )
    return goes_on and _statement_and_quote(item) is None


def _listed_before_claims(items: list[_Item]) -> set[int]:
    """The numbered paragraphs without a quote (by id) that a claim 1 with its quote follows
    before any other claim with one, or a review: a numbered list in a paper's text, or in
    the tail before the next paper, whose claims number from 1 again."""
    found: set[int] = set()
    claim_1_next = False
    for item in reversed(items):
        quoted = item.kind == _CLAIM_ITEM and bool(
            item.quote_lines or _statement_and_quote(item) is not None
        )
        if item.kind == _REVIEW_ITEM or quoted:
            claim_1_next = quoted and item.number == 1
        elif item.kind == _CLAIM_ITEM and claim_1_next:
            found.add(id(item))
    return found


def _quote_on_its_line(claim: _Item, warnings: list[DigestWarning]) -> bool:
    """A claim written with its quote after its statement (`N. <Chinese>。 "English…"`):
    the English after the statement's last sentence is taken for the quote (a warning)."""
    split = _statement_and_quote(claim)
    if split is not None:
        claim.claim_lines, claim.quote_lines = [split[0]], [split[1]]
        warnings.append(DigestWarning(claim.line, _ON_ITS_LINE.format(claim.number)))
    return split is not None


def _statement_and_quote(claim: _Item) -> tuple[str, str] | None:
    """A claim's statement and the quote written after it on its line, if it holds one."""
    text = join_lines(claim.claim_lines)
    if len(text) > _QUOTE_AFTER_LIMIT:
        return None
    found = _QUOTE_AFTER.fullmatch(text)
    if found is None:
        return None
    quote: str = found["enclosed"] or found["quote"]
    return (found["claim"], quote) if len(quote.split()) >= _QUOTE_MIN_WORDS else None


def _english_past_tail(tail: list[_Item]) -> _Item | None:
    """The first English paragraph after a deep read's two last sections, if one is."""
    return next(filter(_is_english, tail[TAIL_PARAGRAPHS:]), None)


def _finish(
    open_read: _DeepRead | None,
    pending: list[_Item],
    papers: list[ParsedPaper],
    warnings: list[DigestWarning],
    *,
    before_body: bool,
) -> list[_Item]:
    """Close the open deep read with its tail from `pending`; return the rest of `pending`,
    which is the prose of the next deep read (before an abstract-only entry or the end of
    the file: nothing, `_orphans`)."""
    if before_body:
        pending = _without_titles(pending, warnings)
    rest = pending
    if open_read is not None:
        tail_length = _tail_length(pending) if before_body else len(pending)
        if not open_read.left_out:
            tail = pending[:tail_length]
            if not before_body and open_read.review is not None:
                tail = _without_cut_paper(tail, warnings)
            warnings.extend(
                DigestWarning(item.line, _STRAY_QUOTE)
                for item in (*open_read.prose, *tail)
                if _is_indented_english(item)
            )
            if open_read.review is None and len(tail) > TAIL_PARAGRAPHS:
                warnings.append(DigestWarning(tail[0].line, _NO_REVIEW.format(len(tail))))
            papers.append(_deep_read(open_read, tail, len(papers) + 1))
        rest = pending[tail_length:]
    elif before_body:
        rest = _without_preamble(rest, warnings)
    if rest and not before_body:
        _orphans(rest, warnings)
        return []
    return rest


def _without_titles(run: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """The run without the titles a digest put over its deep reads (`**2. X-Planner**`,
    `论文 2：X-Planner`, `Paper 2: X-Planner`): a short line, no sentence, right before a
    paper's positioning, naming the paper that positioning introduces. Each is left out
    with a warning; between two deep reads it would be taken for the first one's tail."""
    kept: list[_Item] = []
    for item, following in itertools.zip_longest(run, run[1:]):
        if following is not None and _title_over(item.text, following):
            warnings.append(DigestWarning(item.line, _PREAMBLE))
        else:
            kept.append(item)
    return kept


def _title_over(text: str, following: _Item) -> bool:
    """Whether `text` is the name the positioning `following` introduces, bare or numbered
    (`**2. X**`, `论文 2：X`, `【2】X`) and little else: a line saying more is the text of a
    paper. Asked of every paragraph between two papers: the cheap tests first."""
    if len(text) > TITLE_LIMIT or ends_sentence(text):
        return False
    positioning = following.text
    if not _OPENS_PAPER.match(positioning):
        return False
    name = derive_name(positioning, positioning) or fallback_name(positioning, positioning)
    named = re.search(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", text, re.IGNORECASE)
    if named is None:
        return False
    around = text[: named.start()] + text[named.end() :]
    wording = NOT_LETTER.sub("", around)
    # A title numbers its paper, or is the bare name: `See also: X` is a paper's text.
    return not wording or (len(wording) <= _TITLE_WORDING and any(map(str.isnumeric, around)))


# Letters (CJK included) besides the name and its number a title holds: `论文`, `Paper`.
_TITLE_WORDING = 10


def _without_preamble(run: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """The prose of a deep read that follows no other, without text that comes before it
    (a digest's own opening line, `今日精读 8 篇`): of more paragraphs than a paper's prose
    has, those before the first that opens like a paper's text, when the first does not."""
    extra = len(run) - PROSE_PARAGRAPHS
    if extra <= 0 or _OPENS_PAPER.match(run[0].text):
        return run
    opening = next((i for i in range(1, extra + 1) if _OPENS_PAPER.match(run[i].text)), 0)
    warnings.extend(DigestWarning(item.line, _PREAMBLE) for item in run[:opening])
    return run[opening:]


def _orphans(run: list[_Item], warnings: list[DigestWarning]) -> None:
    """Paragraphs that belong to no paper (after an abstract-only entry, or before one: a
    footer, a heading line) are left out, each with a warning."""
    warnings.extend(DigestWarning(item.line, f"{_ORPHAN}; left out") for item in run)


def _tail_length(run: list[_Item]) -> int:
    """Where a run of plain paragraphs between two deep reads splits: the closer the two
    parts are to the usual 2 + 4 paragraphs the better, a part that opens the way a
    positioning does (`本文提出…`) is strongly preferred as the start of the next one, one
    that only opens like a paper's text (`本文的…`, which a limitation may too) less so, a
    limitation or follow-up going on is not; at least one paragraph stays for the next deep
    read. Between splits alike, a tail of three at most (a third follow-up happens; more is
    rather a paper that lost its claims), then the next paper's usual four: a paragraph too
    many at the start of a paper renames it, at the end of a tail it does not. A list's
    numbered items (`1. …`) count with the paragraph before them, and open no paper, but
    for one that positions a paper (`1. 本文提出…`: a paper's sections numbered)."""
    texts = [_without_number(item.text) for item in run]
    starts = [
        i
        for i, text in enumerate(texts)
        if i == 0 or text == run[i].text or _POSITIONS_PAPER.match(text)
    ]

    def cost(unit: int) -> tuple[int, bool, int]:
        shape = abs(unit - TAIL_PARAGRAPHS) + abs(len(starts) - unit - PROSE_PARAGRAPHS)
        if unit == len(starts):  # all of it: one loss (the text) rather than two
            shape -= 1
        else:
            opening = texts[starts[unit]]
            shape -= bool(_OPENS_PAPER.match(opening)) + bool(_POSITIONS_PAPER.match(opening))
            shape += 2 * bool(_CONTINUES_TAIL.match(opening))
        return shape, unit > TAIL_PARAGRAPHS + 1, abs(len(starts) - unit - PROSE_PARAGRAPHS)

    # The next deep read may have lost all its text (its claims follow): a run no longer
    # than a tail, ending as a tail does (its follow-ups), nothing of which positions a
    # paper, may be all tail.
    whole_tail = (
        0 < len(starts) <= TAIL_PARAGRAPHS
        and bool(_CONTINUES_TAIL.match(texts[starts[-1]]))
        and not any(map(_POSITIONS_PAPER.match, texts))
    )
    units = range(len(starts) + whole_tail)
    return ([*starts, len(run)])[min(units, key=cost)] if run else 0


def _without_number(text: str) -> str:
    """A paragraph's text without the list number it starts with (`1. 本文…`), if one."""
    numbered = _numbered(text)
    return numbered[1] if numbered else text


def _without_cut_paper(tail: list[_Item], warnings: list[DigestWarning]) -> list[_Item]:
    """The last paper's tail, at the end of the file, up to a paragraph past its usual two
    that opens the way a paper's positioning does (`本文提出…`, "We propose…"): a paper
    whose claims never came (a file cut short). That paragraph and the rest are left out,
    with a warning: taken for the follow-ups, another paper's text would be stored as this
    one's, and stay there when the cut copy arrives under another file name."""
    cut = next(
        (i for i in range(TAIL_PARAGRAPHS, len(tail)) if _POSITIONS_PAPER.match(tail[i].text)),
        None,
    )
    if cut is None:
        return tail
    warnings.append(DigestWarning(tail[cut].line, _CUT_PAPER.format(len(tail) - cut)))
    return tail[:cut]


def _lists_joined(items: list[_Item], usual: int) -> list[str]:
    """The paragraphs' texts, a numbered list's items (an item a paragraph) each joined to
    the paragraph before it (item 1) or the item before it (the next number), when there are
    more paragraphs than the `usual` number of the sections they make."""
    texts: list[str] = []
    before: int | None = None  # the number of the paragraph before, a list item's
    for item in items:
        numbered = _numbered(item.text) if len(items) > usual else None
        number = numbered[0] if numbered else None
        if texts and number is not None and number == (before or 0) + 1:
            texts[-1] += "\n\n" + item.text
        else:
            texts.append(item.text)
        before = number
    return texts


def _tail_sections(tail: list[_Item]) -> tuple[str | None, str | None]:
    """Limitations and follow-ups; a split one of them comes back as one text, and so does
    one written as a numbered list (`_lists_joined`)."""
    texts = _lists_joined(tail, TAIL_PARAGRAPHS)
    if len(texts) == 1 and _FOLLOW_UPS.match(texts[0]) and not _LIMITATIONS.match(texts[0]):
        return None, texts[0]  # the limitations lost: the one left says what to follow up
    if len(texts) <= TAIL_PARAGRAPHS:
        texts += [""] * TAIL_PARAGRAPHS
        return texts[0] or None, texts[1] or None
    follow_ups = next(
        (index for index in range(1, len(texts)) if _FOLLOW_UPS.match(texts[index])),
        len(texts) - 1,
    )
    return "\n\n".join(texts[:follow_ups]), "\n\n".join(texts[follow_ups:])


def _deep_read(read: _DeepRead, tail: list[_Item], position: int) -> ParsedPaper:
    texts = _lists_joined(read.prose, PROSE_PARAGRAPHS)
    numbered = list(map(_numbered, texts))
    if len(texts) > 1 and [n and n[0] for n in numbered] == list(range(1, len(texts) + 1)):
        texts = [n[1] for n in numbered if n]  # its sections numbered: `1. 本文…`
    positioning, background, mechanism, experiments = _prose_sections(texts)
    claims = tuple(item.as_claim() for item in read.claims)
    # One whose text was lost is named from its first claim, and has no key of the first
    # parser version's (that one hashed its text).
    named_by = positioning or claims[0].text_zh
    review = _split_review(read.review.text) if read.review else {}
    limitations, follow_ups = _tail_sections(tail)
    entry_text = "\n".join(
        [
            *texts,
            *(c.text_zh + "\n" + c.quote_en for c in claims),
            *review.values(),
            limitations or "",
            follow_ups or "",
        ]
    )
    return ParsedPaper(
        kind=KIND_DEEP_READ,
        position=position,
        line=(read.prose or read.claims)[0].line,
        key=deep_read_key((c.quote_en for c in claims), named_by),
        aliases=(legacy_key(positioning),) if positioning else (),
        arxiv_id=None,
        title=None,
        name=derive_name(named_by, entry_text) or fallback_name(named_by, entry_text),
        subtitle=subtitle(positioning) if positioning else None,
        positioning=positioning,
        background=background,
        mechanism=mechanism,
        experiments=experiments,
        claims=claims,
        novelty=review.get("Novelty"),
        soundness=review.get("Soundness"),
        significance=review.get("Significance"),
        limitations=limitations,
        follow_ups=follow_ups,
    )


def _prose_sections(
    texts: list[str],
) -> tuple[str | None, str | None, str | None, str | None]:
    """Positioning, background, mechanism, experiments, known only by position.

    A shorter paper does not say which section it left out. The first paragraph is always
    the positioning (key and subtitle rely on it) and the last one summarises the
    experiments that the claims come from; background, the section most often folded into
    the positioning, is the one given up first. So 2 paragraphs are positioning +
    experiments, 3 add the mechanism, and beyond 4 the extras join the background.
    """
    if not texts:
        return None, None, None, None
    positioning, *rest = texts
    experiments = rest.pop() if rest else None
    mechanism = rest.pop() if rest else None
    return positioning, "\n\n".join(rest) or None, mechanism, experiments


def _split_review(text: str) -> dict[str, str]:
    """`Novelty：… Soundness：… Significance：…` -> the three texts (full-width or ASCII
    colons; a missing label leaves its field out)."""
    opening = _REVIEW.match(text)
    labels = (
        _ANY_CASE_LABEL
        if opening and opening["label"] != _canonical(opening["label"])
        else _REVIEW_LABEL
    )
    first: dict[str, re.Match[str]] = {}  # label -> its first mention, in text order
    for match in labels.finditer(text):
        first.setdefault(_canonical(match["label"]), match)
    marks = list(first.items())
    sections: dict[str, str] = {}
    for (label, mark), following in zip(marks, [*marks[1:], None], strict=True):
        end = following[1].start() if following else len(text)
        section = text[mark.end() : end].strip()
        if section:
            sections[label] = section
    return sections


def _awaits_its_text(review: str) -> bool:
    """Whether a review so far ends with a label, its text in the next paragraph (a
    heading `### Novelty` on a paragraph of its own)."""
    end = review[-_LONGEST_LABEL:]  # a dressed label is shorter than this
    labels = list(_ANY_CASE_LABEL.finditer(end))
    return bool(labels) and not end[labels[-1].end() :].strip(" *")


def _is_bare_label(line: str) -> bool:
    """Whether a line is a review label alone (`**Novelty**`, `### Soundness`), its text on
    the next line; asked of every line, most are too long to be one."""
    return len(line) <= _LONGEST_LABEL and _awaits_its_text(line)


def _canonical(label: str) -> str:
    """A review label as the format writes it: `novelty`, `新颖性` -> `Novelty`."""
    return _CHINESE_LABELS.get(label, label.capitalize())


def _abstract_only(item: _Item, position: int) -> ParsedPaper:
    abstract = item.text
    name = derive_name(abstract, abstract)
    return ParsedPaper(
        kind=KIND_ABSTRACT_ONLY,
        position=position,
        line=item.line,
        key=text_key(abstract),
        aliases=(legacy_key(abstract),),
        arxiv_id=None,
        title=None if name else short_title(abstract),
        name=name,
        subtitle=subtitle(abstract),
        abstract_en=abstract,
    )
