"""Short names and subtitles for papers that carry no title (deep reads, abstract-only).

The rule for a name: the method or system the entry is about is the name-like token that
the first paragraph *introduces*, and among several, the one the whole entry talks about
most.

1. Candidates are tokens that look like names: Latin or Greek letters with digits, dots or
   hyphens inside (`AV-GRPO`, `Ψ-Spec`, `Hunyuan-A13B`), at least one capital, not a bare
   size (`27B`), and not a class of things: a token whose plural also occurs (`CFM` next
   to `CFMs`) or an acronym plural (`LLMs`) names a kind of model, not this paper's.
2. A candidate counts only when the first paragraph introduces it with a cue:
   `提出 X`, `贡献 X`, `发布的 X`, `X 的核心/主张`, `X（Full English Name）`,
   sentence-initial `X 是`, `核心产物是 X`, or in English `we introduce/propose/present X`,
   `called/named/dubbed X`. Frequency alone is not enough: in the seeds the most
   frequent names are baselines and components (Jev, Harness, SAM), never the paper's own.
3. Several cued candidates are ranked by how often the whole entry mentions them, variants
   included (`WanPE-397B` counts for `WanPE`), then by first mention.
4. A size suffix is dropped when the first paragraph also uses the bare name
   (`WanPE-397B` -> `WanPE`); `Hunyuan-A13B` stays, as there `Hunyuan` alone only names
   the model family, later in the entry.

No cue: `fallback_name` gives a deep read a name all the same, so every paper can be
shown, searched with `paper:` and cited (`CFM#3`): the acronym its first paragraph defines
(`（Causal Foundation Models, CFMs）` -> `CFM`), else the term it puts in quotes
(`"自主数学发现"`), else its first clause. An abstract-only entry without a name gets a
title from its first sentence (`short_title`).
"""

import re

from .text import is_cjk

_TOKENS = re.compile(r"[0-9]*[A-Za-zΑ-Ωα-ω][A-Za-z0-9Α-Ωα-ω]*(?:[-.+][A-Za-z0-9Α-Ωα-ω]+)*")
# Cues around a token, checked only at the tokens of the first paragraph (cheap, linear).
_CUE_BEFORE = re.compile(
    r"(?:(?:提出|贡献|推出|发布|介绍|引入)(?:了|的)?\s*(?:名为)?"
    r"|(?:产物|贡献|方法|系统|框架|模型)(?:是|为)"
    r"|\b(?:introduce[sd]?|propose[sd]?|present(?:s|ed)?|release[sd]?|call(?:s|ed)?"
    r"|name[sd]?|dub(?:s|bed)?|term(?:s|ed)?)\s(?:the\s+)?)\s*\Z"
)
_CUE_AFTER = re.compile(
    r"\s*(?:的(?:核心|主张|主要|关键)|核心主张"  # `X 核心主张是`: the 的 is often left out
    r"|[（(]\s*[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z][A-Za-z0-9-]*)+\s*[）)])"
)
_SENTENCE_BREAK = re.compile(r"[。！？；]\s*\Z")
_IS = re.compile(r"\s*是")
_WINDOW = 24
_EXPANSION_WINDOW = 160
# A name is introduced where an entry starts, and counted in the text about it: what lies
# further, in a paragraph or a text far longer than any review's, is not read. Each word
# that looks like a name is counted through the text, so an endless first paragraph of
# such words cost its length squared (0.44 MB: 5 s; the size cap: hours).
_INTRODUCED_WITHIN = 2_000
_COUNTED_WITHIN = 100_000

_SIZE = re.compile(r"A?[0-9]+(?:\.[0-9]+)?[BMKT]")
_SIZE_SUFFIX = re.compile(r"(.+?)-A?[0-9]+(?:\.[0-9]+)?[BMKT]")

_SENTENCE_END = re.compile(r"[。！？]|[.!?](?=\s+[A-Z\"“(]|\s*$)")
SUBTITLE_LIMIT = 120
_TRAILING = " ，,、；;：:（(—-"


# Letters, digits and hyphens typed full width (`ＧＡＰＯ`: a Chinese input method left in
# that mode) are read as the ASCII ones they stand for, one character for one; so are the
# hyphens and dashes a copy from a PDF or LaTeX puts in a name (`AV‐GRPO`, `AV–GRPO`),
# which would otherwise cut it in two. The invisible characters a copy from a web page or
# an office document leaves around or inside a name (joiners, direction embeddings and
# isolates, invisible operators) are dropped: they too would cut it, or join it to a verb.
_HYPHENS = "\u2010\u2011\u2012\u2013\u2212\ufe63"
_INVISIBLE_CODES = (0xAD, 0x180E, 0xFEFF, *range(0x200B, 0x2010), *range(0x202A, 0x202F))
_INVISIBLE = "".join(map(chr, (*_INVISIBLE_CODES, *range(0x2060, 0x206A))))
_NARROWABLE = re.compile(f"[{_HYPHENS}{_INVISIBLE}\uff0d\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_NARROWED: dict[int, int | None] = {
    code: code - 0xFEE0
    for code in (0xFF0D, *range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))
} | dict.fromkeys(map(ord, _HYPHENS), ord("-"))
_NARROWED |= dict.fromkeys(map(ord, _INVISIBLE))


def _narrow(text: str) -> str:
    return text.translate(_NARROWED) if _NARROWABLE.search(text) else text


def derive_name(first_paragraph: str, entry_text: str) -> str | None:
    """The short name of the method or system an untitled entry is about, or None."""
    first_paragraph = _narrow(first_paragraph[:_INTRODUCED_WITHIN])
    entry_text = _narrow(entry_text[:_COUNTED_WITHIN])
    cued = dict.fromkeys(  # ordered, so ties resolve the same way in every process
        match.group()
        for match in _TOKENS.finditer(first_paragraph)
        # The shape first: most words are no name, and the cues take regex searches.
        if _looks_like_name(match.group(), entry_text)
        and _introduced(first_paragraph, match.start(), match.end())
    )
    if not cued:
        return None
    name = min(cued, key=lambda t: (-_mentions(entry_text, t), first_paragraph.find(t)))
    bare = _SIZE_SUFFIX.fullmatch(name)
    if bare and _mentions(first_paragraph, bare.group(1), variants=False):
        return bare.group(1)
    return name


# `（Full English Name, ACR）`, `(ACR)`: an acronym that the text defines.
_DEFINED_ACRONYM = re.compile(
    r"[（(]\s*(?:[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*)*\s*[,，;；:：]\s*)?"
    r"([A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*)\s*[）)]"
)
_QUOTED_TERM = re.compile(r"[“\"「『]([^”\"」』\s]{2,16})[”\"」』]")
_CLAUSE_END = re.compile(r"[，,：:；;。！？!?（(]")
_SELF_REFERENCE = re.compile(
    r"^(?:本文|本论文|该文|该论文|这篇论文|这篇文章|本工作)(?:是|为)?(?:一篇)?"
)
NAME_LIMIT = 24
TITLE_LIMIT = 80


def fallback_name(first_paragraph: str, entry_text: str) -> str:
    """A name for a deep read that introduces none (see the module): never empty."""
    first_paragraph, entry_text = _narrow(first_paragraph), _narrow(entry_text)
    acronym = _DEFINED_ACRONYM.search(first_paragraph)
    if acronym:
        token = acronym.group(1)
        singular = token[:-1] if token.endswith("s") and token[:-1].isupper() else token
        return singular if _mentions(entry_text, singular, variants=False) else token
    sentence = (subtitle(first_paragraph) or first_paragraph).rstrip("…")
    quoted = _QUOTED_TERM.search(sentence)
    if quoted:
        return quoted.group(1)
    clause = _CLAUSE_END.split(_SELF_REFERENCE.sub("", sentence.strip()), maxsplit=1)[0]
    clause = "".join(clause.split()) if all(map(is_cjk, clause.replace(" ", ""))) else clause
    return shorten(clause.strip() or sentence, NAME_LIMIT) or "untitled"


def short_title(first_paragraph: str) -> str:
    """A title for an untitled abstract: its first sentence, cut short at a word."""
    sentence = (subtitle(first_paragraph) or first_paragraph).rstrip("…").rstrip(".。")
    return shorten(sentence, TITLE_LIMIT) or "untitled"


def _introduced(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - _WINDOW) : start]
    after = text[end : end + _EXPANSION_WINDOW]
    if _CUE_BEFORE.search(before) or _CUE_AFTER.match(after):
        return True
    sentence_start = (start <= _WINDOW and not before.strip()) or _SENTENCE_BREAK.search(before)
    return bool(sentence_start and _IS.match(after))


def _looks_like_name(token: str, entry_text: str) -> bool:
    # A capital first (`_TOKENS` are Latin and Greek letters and digits): most words lack one.
    if token.lower() == token or len(token) < 2 or _SIZE.fullmatch(token):
        return False
    is_acronym_plural = token.endswith("s") and token[:-1].isupper()
    return not is_acronym_plural and not _mentions(entry_text, token + "s", variants=False)


def _mentions(text: str, token: str, *, variants: bool = True) -> int:
    """How often `token` occurs as a whole token; with `variants`, `token-…` counts too."""
    count = 0
    start = text.find(token)
    while start != -1:
        end = start + len(token)
        after = text[end : end + 1]
        whole_before = start == 0 or not _in_token(text[start - 1])
        whole_after = not after or not _in_token(after) or (variants and after == "-")
        count += whole_before and whole_after
        start = text.find(token, end)
    return count


def _in_token(char: str) -> bool:
    return (char.isalnum() and not is_cjk(char)) or char == "-"


def subtitle(first_paragraph: str) -> str | None:
    """The first sentence of the first paragraph, cut to about SUBTITLE_LIMIT characters."""
    text = first_paragraph.strip()
    end = _SENTENCE_END.search(text)
    sentence = text[: end.end()] if end else text
    return shorten(sentence) or None


def shorten(text: str, limit: int = SUBTITLE_LIMIT) -> str:
    """Cut at a character boundary in Chinese, at a word boundary in Latin text, add '…'."""
    if len(text) <= limit:
        return text
    cut = limit - 1
    if _in_word(text[cut - 1]) and _in_word(text[cut]):
        start = cut
        while start > 0 and _in_word(text[start - 1]):
            start -= 1
        if start > limit // 2:
            cut = start
    return text[:cut].rstrip(_TRAILING) + "…"


QUOTED_CHARS = 80


def quoted(text: str) -> str:
    """Text of the file quoted in a message, in quotes, cut to QUOTED_CHARS characters: a
    reason is one line to read at a glance, even when a file's "line" is all of it."""
    return f"'{shorten(text.strip(), QUOTED_CHARS)}'"


def _in_word(char: str) -> bool:
    return (char.isalnum() and not is_cjk(char)) or char in "-_.'’"
