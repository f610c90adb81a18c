"""Did you mean: the vocabulary read from the seeds on both stores, and the corrections
it gives, bounded whatever is typed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncSession

from jobs.ingest import ingest
from storage import db, suggestions
from storage.search import filter_spans
from storage.suggestions import (
    MAX_CORRECTED_WORDS,
    Suggester,
    Vocabulary,
    build_vocabulary,
    load_vocabulary,
)
from tests.digests import SEEDS, Entry, huggingface_digest, write


@pytest.fixture
async def vocabulary(seeded: AsyncSession) -> Vocabulary:
    return await load_vocabulary(seeded)


async def test_the_vocabulary_holds_names_title_and_claim_words(vocabulary: Vocabulary) -> None:
    assert vocabulary.display["gapo"] == "GAPO"  # a name, shown as written
    assert "gapo" in vocabulary.names
    assert vocabulary.counts["latency"] >= 5  # claim words, with the claims holding them
    assert "onestreamer" in vocabulary.counts  # a word of a title
    assert not any("延" in word for word in vocabulary.counts)  # Latin-script words only


@pytest.mark.parametrize(
    ("typed", "names_first", "expected"),
    [
        ("GAOP", True, ["GAPO"]),
        ("latncy", False, ["latency"]),
        ("Latncy", False, ["Latency"]),
        ("benchmrk agnet", False, ["benchmark agent"]),
        ("Hunyan-A13B", True, ["Hunyuan-A13B"]),
    ],
)
async def test_a_mistyped_word_is_corrected_from_the_store(
    vocabulary: Vocabulary, typed: str, names_first: bool, expected: list[str]
) -> None:
    assert vocabulary.corrections(typed, names_first=names_first) == expected


async def test_several_close_words_are_all_offered_the_likelier_first(
    vocabulary: Vocabulary,
) -> None:
    assert vocabulary.corrections("modle") == ["model", "mode"]


async def test_two_swapped_letters_come_before_a_wrong_one(vocabulary: Vocabulary) -> None:
    assert vocabulary.corrections("AUORC") == ["AUROC", "AUPRC"]


async def test_known_words_and_filters_are_left_as_typed(vocabulary: Vocabulary) -> None:
    assert vocabulary.corrections("latency") == []
    text = "latncy paper:GAOP since:2026-09-01"
    assert vocabulary.corrections(text, keep=filter_spans(text)) == [
        "latency paper:GAOP since:2026-09-01"
    ]


@pytest.mark.parametrize(
    "typed",
    [
        "延" * 300,
        "😀" * 100,
        "a\x00b",
        "\x00",
        "?!.,;:" * 20,
        "",
        "   ",
        "x" * 300,
        "zzzzqqqq " * 33,
    ],
)
async def test_hostile_input_gives_no_correction_or_a_bounded_one(
    vocabulary: Vocabulary, typed: str
) -> None:
    started = time.thread_time()  # this thread's CPU: what a runaway spends
    found = vocabulary.corrections(typed, names_first=True)
    assert time.thread_time() - started < 0.5
    assert len(found) <= suggestions.MAX_SUGGESTIONS
    assert all(isinstance(text, str) and len(text) <= len(typed) + 60 for text in found)


async def test_at_most_a_few_words_of_a_long_search_are_corrected(
    vocabulary: Vocabulary,
) -> None:
    typed = " ".join(["latncy"] * 10)
    (corrected,) = vocabulary.corrections(typed)
    assert corrected.split().count("latency") == MAX_CORRECTED_WORDS
    assert corrected.split().count("latncy") == 10 - MAX_CORRECTED_WORDS


def test_a_rare_known_word_is_corrected_only_when_the_search_found_little() -> None:
    vocabulary = build_vocabulary([], [("latency", 500), ("latncy", 1), ("model", 3), ("mode", 1)])
    assert vocabulary.corrections("latncy") == []
    assert vocabulary.corrections("latncy", few=True) == ["latency"]
    assert vocabulary.corrections("mode", few=True) == []  # not far more common


def test_the_vocabulary_keeps_the_most_common_words_within_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(suggestions, "MAX_VOCABULARY", 2)
    vocabulary = build_vocabulary(
        [("GAPO", "Group Policy")], [("latency", 9), ("policy", 5), ("rare", 1)]
    )
    assert set(vocabulary.counts) == {"latency", "policy"}
    assert sum(len(words) for words in vocabulary.by_first.values()) == 2
    assert sum(len(words) for words in vocabulary.by_tail.values()) == 2


@pytest.mark.parametrize("typed", ["xatency", "atency", "alatency", "altency", "latnecy", "latncy"])
def test_a_mistake_anywhere_in_the_word_is_found(typed: str) -> None:
    vocabulary = build_vocabulary([], [("latency", 50), ("lately", 1), ("patent", 9)])
    assert vocabulary.corrections(typed) == ["latency"]


async def test_searches_do_not_wait_long_for_the_first_vocabulary(
    seeded_url: URL, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suggestions, "FIRST_LOAD_WAIT", 0.0)
    suggester = Suggester()
    async with db.open_engine(seeded_url) as engine:
        sessions = db.session_factory(engine)
        assert await suggester.vocabulary(sessions) is None  # still loading: no suggestion
        for _ in range(100):
            await asyncio.sleep(0.05)
            found = await suggester.vocabulary(sessions)
            if found is not None:
                break
        assert found is not None and "gapo" in found.names


async def test_the_vocabulary_is_rebuilt_after_an_ingest(
    database_url: URL, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suggestions, "REFRESH_SECONDS", 0.0)
    suggester = Suggester()
    async with db.open_engine(database_url) as engine:
        await db.upgrade(engine)
        sessions = db.session_factory(engine)
        await ingest(sessions, [SEEDS])
        await suggester.refresh(sessions)
        before = await suggester.vocabulary(sessions)
        assert before is not None and "quokkaformer" not in before.counts
        entry = Entry("2610.88888", "QuokkaFormer: Small Models", abstract="We add one.")
        await ingest(
            sessions, [write(tmp_path / "new.txt", huggingface_digest("2026-10-07", [entry]))]
        )
        after = before
        for _ in range(100):  # rebuilt in the background; the old one serves meanwhile
            found = await suggester.vocabulary(sessions)
            assert found is not None
            after = found
            if "quokkaformer" in after.counts:
                break
            await asyncio.sleep(0.05)
        assert after.display["quokkaformer"] == "QuokkaFormer"
