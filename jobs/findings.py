"""Result sentences of an abstract: searchable beside the reviewed claims, never mixed up
with them (they are stored with source "abstract").

HuggingFace entries carry no numbered claims, but their abstracts state results: a number
("27.5%", "4B", "0.886") or a comparison ("outperforms", "better than"). Those sentences
are what someone searching claims wants to find too.

Most entries also carry the abstract in Chinese, a translation sentence by sentence. Each
finding takes its Chinese sentence, so a question asked in Chinese finds it (`能耗` finds
"…4,000 times less energy…") and a reader sees it in both languages. The sentences are
paired in order, as a translator writes them (Gale and Church's alignment): by length, by
the numbers and Latin-script words both sides share (`47`, `GPU`, `WeatherBench`), one
English sentence to one Chinese sentence or two, or two to one where the translator
merged them. A finding whose sentence has no Chinese of its own keeps none.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import NamedTuple

from storage.bilingual import HAN

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
_ZH_SENTENCE_END = re.compile(r"(?<=[。！？])")
_DIGIT = re.compile(r"\d")
_COMPARISON = (
    r"\b(outperform\w*|surpass\w*|exceed\w*|beat\w*|better|worse|higher|lower|faster|"
    r"slower|fewer|improv\w*|reduc\w*|increas\w*|decreas\w*|boost\w*|gain\w*|"
    r"state[- ]of[- ]the[- ]art|sota|than)\b"
)
_COMPARISON_LOWER = re.compile(_COMPARISON)
_COMPARISON_ANY_CASE = re.compile(_COMPARISON, re.IGNORECASE)
_MIN_CHARS = 25  # shorter pieces are sentence fragments, not findings

# What both sides of a translation write alike: numbers (`1,380` as `1380`) and words in
# Latin script (names, benchmarks, units).
_ANCHOR = re.compile(r"\d+(?:[.,]\d+)*|[A-Za-z][A-Za-z0-9\-]*")
_ALIGNED_SENTENCES = 100  # on either side; a longer abstract is not aligned (time is n·m)
# Penalties of the alignment, as in Gale and Church (1993): each kind of step by how
# rarely translators make it (one to one most often), a length that strays from the
# abstract's own ratio by its square; each shared number or word is a reward.
_STEP_COST = {(1, 1): 0.0, (1, 2): 2.3, (2, 1): 2.3, (1, 0): 4.5, (0, 1): 4.5}
_LENGTH_SPREAD = 0.3  # natural log of the length ratio within which most pairs fall
_STRAYS_KEPT = 2.5  # a pair further off is not taken for a translation
_SHARED_REWARD = 1.0
_SHARED_COUNTED = 3


class Finding(NamedTuple):
    sentence: str  # as the English abstract gives it
    translation: str  # its sentence(s) of the Chinese abstract, or ""


def findings(abstract_en: str | None, abstract_zh: str | None) -> list[Finding]:
    """The English abstract's sentences that state a result, in order, each with its
    translation from the Chinese abstract when the two can be paired sentence by sentence."""
    if not abstract_en:
        return []
    english = _SENTENCE_END.split(" ".join(abstract_en.split()))
    chinese: list[str] = []
    # No Chinese at all: a pipeline that failed to translate copied the English instead.
    translated = abstract_zh if abstract_zh and HAN.search(abstract_zh) else ""
    for piece in _ZH_SENTENCE_END.split(translated):
        if any(c.isalnum() for c in piece):
            chinese.append(piece.strip())
        elif chinese:  # stray punctuation (`。。`) ends the sentence before it
            chinese[-1] += piece.strip()
    translations = _align(english, chinese)
    return [
        Finding(sentence, translations.get(index, ""))
        for index, sentence in enumerate(english)
        if len(sentence) >= _MIN_CHARS and _states_result(sentence)
    ]


def _states_result(sentence: str) -> bool:
    """A number or a word of comparison. English is lower-cased first: the words are then
    found without folding the case of every character (three times faster)."""
    if _DIGIT.search(sentence):
        return True
    if sentence.isascii():
        return _COMPARISON_LOWER.search(sentence.lower()) is not None
    return _COMPARISON_ANY_CASE.search(sentence) is not None


def _anchors(text: str) -> frozenset[str]:
    return frozenset(a.replace(",", "").lower() for a in _ANCHOR.findall(text))


def _align(english: list[str], chinese: list[str]) -> dict[int, str]:
    """English sentence index -> its Chinese sentence(s), for the sentences aligned one to
    one or one to two whose lengths agree (a Chinese sentence that translates two English
    ones is not split)."""
    n, m = len(english), len(chinese)
    # A translation has about as many sentences as its original (a few merged or split).
    if not n or not m or max(n, m) > _ALIGNED_SENTENCES or abs(n - m) > max(2, min(n, m) // 3):
        return {}
    ratio = sum(map(len, chinese)) / sum(map(len, english))
    # Log lengths of the one or two sentences ending at each position (1-based), English
    # ones scaled by the abstract's ratio: a pair's stray is their difference.
    en_log = _log_lengths(english, ratio)
    zh_log = _log_lengths(chinese, 1.0)

    def stray(i: int, di: int, j: int, dj: int) -> float:
        return (zh_log[dj - 1][j] - en_log[di - 1][i]) / _LENGTH_SPREAD

    # The common case, a translation sentence by sentence, costs no search.
    if n == m and all(abs(stray(i, 1, i, 1)) <= _STRAYS_KEPT for i in range(1, n + 1)):
        return dict(enumerate(chinese))
    en_anchors, zh_anchors = _anchor_runs(english), _anchor_runs(chinese)
    band = abs(n - m) + 2  # how far from the diagonal a path may go, in sentences
    best = [[math.inf] * (m + 1) for _ in range(n + 1)]
    came = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(n + 1):
        middle = i * m // n
        for j in range(max(0, middle - band), min(m, middle + band) + 1):
            for (di, dj), step in _STEP_COST.items():
                if not (i or j) or di > i or dj > j or (before := best[i - di][j - dj]) == math.inf:
                    continue
                total = before + step
                if di and dj:
                    off = stray(i, di, j, dj)
                    shared = len(en_anchors[di - 1][i] & zh_anchors[dj - 1][j])
                    total += off * off / 2 - _SHARED_REWARD * min(shared, _SHARED_COUNTED)
                if total < best[i][j]:
                    best[i][j], came[i][j] = total, (di, dj)
    aligned: dict[int, str] = {}
    i, j = n, m
    while i or j:
        di, dj = came[i][j]
        if (di, dj) == (0, 0):  # no path within the band
            return {}
        if di == 1 and dj and abs(stray(i, di, j, dj)) <= _STRAYS_KEPT:
            aligned[i - 1] = "".join(chinese[j - dj : j])
        i, j = i - di, j - dj
    return aligned


def _log_lengths(sentences: list[str], scale: float) -> tuple[list[float], list[float]]:
    """log(scale × length + 1) of the sentence ending at each position (1-based), and of
    the two ending there."""
    one = [0, *map(len, sentences)]
    two = [0, one[1], *(a + b for a, b in itertools.pairwise(one[1:]))]
    return [math.log(scale * k + 1) for k in one], [math.log(scale * k + 1) for k in two]


def _anchor_runs(sentences: list[str]) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
    """The anchors of the sentence ending at each position (1-based), and of the two."""
    one = [frozenset[str](), *map(_anchors, sentences)]
    two = [one[0], *(a | b for a, b in itertools.pairwise(one))]
    return one, two
