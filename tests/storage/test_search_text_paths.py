"""The tokenizer's quick paths give the text the long way would: ingest takes them for
speed, and search must keep matching what was indexed before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import search_text
from storage.search_text import index_text, normalise

# Letters, Chinese, accents, zero-width and width variants, controls, other planes.
_PIECES = st.sampled_from(
    [
        "a",
        "É",
        "ß",
        "ﬁ",
        "Ａ",
        "中",
        "延迟",
        "\u0301",
        "\u200b",
        "\x00",
        "\n",
        "-",
        "2.5",
        "x-planner",
        "AIME2024",
        "한국",
        "カタ",
        "\U00020000",
        "\U0001d400",
        "①",
        "²",
        "\u3000",
        " ",
        "，",
        "（",
        "\xa0",
        "︱",
    ]
)
_TEXTS = st.lists(_PIECES | st.text(max_size=8), max_size=12).map("".join)


@contextmanager
def _the_long_way() -> Iterator[None]:
    """Every text through the decomposition and the cleaning table."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_text, "_needs_cleaning", lambda: re.compile(r"[\s\S]"))
        yield


def test_every_character_of_the_first_plane_normalises_as_the_long_way() -> None:
    texts = [f"a{chr(code)}b" for code in range(0x80, 0x10000)]
    quick = [normalise(text) for text in texts]
    with _the_long_way():
        assert [normalise(text) for text in texts] == quick


@given(_TEXTS)
def test_any_text_normalises_as_the_long_way(text: str) -> None:
    quick = normalise(text)
    with _the_long_way():
        assert normalise(text) == quick


@given(st.lists(_TEXTS | st.none(), max_size=4))
def test_fields_are_indexed_as_their_text_joined(parts: list[str | None]) -> None:
    assert index_text(*parts) == index_text(" ".join(p for p in parts if p))


@given(st.lists(_TEXTS, min_size=1, max_size=6))
def test_the_token_cache_never_changes_what_is_indexed(texts: list[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_text, "_INDEXED", {})
        fresh = []
        for text in texts:
            search_text._INDEXED.clear()
            fresh.append(index_text(text))
        patch.setattr(search_text, "_WORD_CACHE", 3)  # full, and emptied, on most texts
        assert [index_text(text) for text in texts] == fresh
        assert [index_text(text) for text in texts] == fresh


_ENGLISH = st.lists(
    st.sampled_from(["a", "Z", "0", "2.5", ".", ". ", "-", "x-planner", "e.g.", "1.2.3", "\n", " "])
    | st.text(st.characters(max_codepoint=127), max_size=6),
    max_size=12,
).map("".join)


@contextmanager
def _the_token_pattern_way() -> Iterator[None]:
    """Every text normalised whole, then read by the token pattern, through a fresh cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_text, "_INDEXED", {})
        patch.setattr(
            search_text, "_pieces", lambda text: search_text._INDEXED_TOKEN.findall(normalise(text))
        )
        yield


@given(st.lists(_ENGLISH | _TEXTS, min_size=1, max_size=4))
def test_text_cut_the_quick_way_is_indexed_as_the_token_pattern_reads_it(
    texts: list[str],
) -> None:
    quick = [index_text(text) for text in texts]
    with _the_token_pattern_way():
        assert [index_text(text) for text in texts] == quick


def test_every_punctuation_read_as_a_space_is_indexed_as_its_folded_form() -> None:
    marks = [chr(c) for c in range(0x10000) if search_text._punctuation_folded().match(chr(c))]
    assert {"，", "（", "：", "；", "\u3000"} <= set(marks)
    beside = [
        "a",
        "1",
        "2.5",
        ".5",
        "-b",
        "延迟",
        "Ａ",
        "\u0301",
        "\u200b",
        "ᄀ",
        "ᅡ",
        " ",
        "é",
        "-",
    ]
    texts = [f"{before}{mark}{after}" for mark in marks for before in beside for after in beside]
    quick = [index_text(text) for text in texts]
    with _the_token_pattern_way():
        assert [index_text(text) for text in texts] == quick


class _EmptiedByAnotherThread(dict[str, object]):
    """The token cache as one thread sees it while another empties it after each write."""

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self.clear()


@given(st.lists(_TEXTS, min_size=1, max_size=6))
def test_a_cache_emptied_by_another_thread_meanwhile_changes_nothing(texts: list[str]) -> None:
    """`serve` may parse a file in one thread while it re-tokenises edited papers in another."""
    expected = [index_text(text) for text in texts]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_text, "_INDEXED", _EmptiedByAnotherThread())
        assert [index_text(text) for text in texts] == expected
