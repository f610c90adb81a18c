"""How text is indexed and how queries are read: one tokenizer for both databases.

Text is normalised (NFKC, case folded, accents and zero-width characters removed, traditional
Chinese characters read as simplified ones: `延遲` as `延迟`) and cut
into tokens: decimal numbers, runs of letters and digits, and, for Chinese/Japanese/Korean
runs, overlapping two-character pieces plus the run's last character. The indexed form is
those tokens joined by spaces, which SQLite FTS5 (its `ascii` tokenizer, `.` kept) and
PostgreSQL (`to_tsvector('simple', …)`) both split back into exactly the same tokens, so
both stores match the same rows.

Why pieces of two: Chinese has no spaces, and people search one- and two-character words
(`延迟`, `显存`). A two-character query is one piece; a longer one is a phrase of adjacent
pieces; a single character is a prefix of a piece (the run's last character is indexed on
its own so that it is the start of something too).

Word forms: an English word (Latin letters only) is indexed as its Snowball stem, so
`benchmarks` and `benchmark` are one token, and queries are stemmed the same way; a name
ending in a year as its short form (`aime2024` as `aime24`). Other forms a word is found by
follow the text's own tokens, once each: the word as written when it differs from its
token (which ranks exact words first, see storage/dialect.py), the parts of a
letters-and-digits word (`aime24`: `aim`, `aime`, `24`) and the joined form of a hyphenated
one (`x-planner`: `xplanner`). Appended after the text, they leave the positions of its own
tokens adjacent, so "quoted words" still match as a phrase (a phrase could only match
across the seam between the two, a harmless rarity). A hyphenated word typed in a query is
a phrase of its parts or its joined form, so `x-planner` also finds `xplanner`.

Across languages (queries only; see `parse_query`): once the bilingual dictionary is read
(storage/bilingual.py), a word is also searched as its translations, and a Chinese run as
its dictionary words, and a noun made with a suffix as the word it is made from
(`稳定性` as `稳定`). The stored text holds nothing more for it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, replace
from itertools import chain, compress
from operator import itemgetter, not_
from pathlib import Path
from typing import NamedTuple, cast

import Stemmer

from storage import bilingual, chinese_variants
from storage.chinese_variants import SIMPLIFIED, TRADITIONAL

_CJK = (
    "\u3040-\u309f\u30a1-\u30fa\u30fc-\u30ff"  # Hiragana, Katakana (not its `゠`, `・`)
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    "\uac00-\ud7af"  # Hangul
    "\U00020000-\U0003ffff"  # Han extensions
)
# Decimal numbers stay whole (`0.886`, `2609.35259`): split at the dot, `0` would be in
# every number and phrase queries over it slow. PostgreSQL's parser keeps them whole too.
_NUMBER = r"\d+(?:\.\d+)+"
_LETTERS = rf"[^\W_{_CJK}]+"
_HYPHEN = "-\u2010"  # after NFKC, the hyphens people type
_WORD = rf"{_NUMBER}|{_LETTERS}"
_TOKEN = re.compile(rf"[{_CJK}]+|{_WORD}")
# A hyphenated word (`x-planner`) is read whole, to index its joined form too; its parts are
# the tokens `_TOKEN` gives (a part that starts a decimal number is left to the number).
_TOKEN_KIND = re.compile(
    rf"([{_CJK}]+)|({_NUMBER})|({_LETTERS}(?:[{_HYPHEN}](?!\d+\.\d){_LETTERS})*)"
)
_HYPHENS = re.compile(rf"[{_HYPHEN}]")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
# A chunk typed: `-` before a word or "quoted words" excludes them (`-video`, `-"a b"`).
_QUOTED = re.compile(r'(?:(?<!\S)(-))?(?:"([^"]*)"|“([^”]*)”)|(\S+)')
_EXCLUDED_WORD = re.compile(r"-+(?=[^\W\d_])")
# Where words typed without a space between them part (`GPU显存`, `召回、精度`, `延迟,F1`):
# a change between Chinese and Latin letters or digits, and punctuation that ends a
# word in prose; not what joins a name or a number (`x-planner`, `2.5`, `1,000`, `a/b`).
_GLUED = re.compile(
    rf"(?<=[{_CJK}])(?=[^\W_{_CJK}])|(?<=[^\W_{_CJK}])(?=[{_CJK}])"
    r"|[;!?()\[\]{}<>、。〈〉《》「」『』【】〔〕…]|(?<!\d),|,(?!\d)"
    rf"|(?<=[{_CJK}]):|:(?=[{_CJK}])"
)
_LETTERS_OR_DIGITS = re.compile(r"[a-z]+|[0-9]+")
_NAME_YEAR = re.compile(r"([a-z]+)(19|20)([0-9]{2})")
_YEAR = re.compile(r"(?:19|20)[0-9]{2}")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_VOWELS = frozenset("aeiouy")
_STEMMER = Stemmer.Stemmer("english")
# Words analysed once each: ingest tokenises every claim, and a corpus repeats its words.
# Longer "words" (hashes, encoded data) have no other forms and are not kept, so the cache
# holds at most this many short strings.
_WORD_CACHE = 1 << 16
LONGEST_WORD = 64

_ASCII_CONTROLS = {code: " " for code in (*range(0x20), 0x7F)}

# What one search may ask of the database, whatever is typed in 300 characters: each
# phrase is matched on its first tokens, and the terms and their tokens are counted.
MAX_QUERY_CHARS = 300
MAX_QUERY_TERMS = 12
MAX_PHRASE_TOKENS = 8
MAX_QUERY_TOKENS = 24
MAX_RELAXED_TERMS = 4


# Traditional characters become their simplified form, one character for one, so that a
# folded text keeps the positions of the original (highlighting relies on it).
_TO_SIMPLIFIED = str.maketrans(TRADITIONAL, SIMPLIFIED)


def fold_chinese(text: str) -> str:
    """`text` with traditional Chinese characters as simplified ones, position for position."""
    return text if text.isascii() else text.translate(_TO_SIMPLIFIED)


@functools.cache
def _cleaning_table() -> dict[int, str | None]:
    """Built once, on first use: accents, zero-width/format characters and lone surrogates
    are dropped; control characters (NUL included, which PostgreSQL refuses) become spaces;
    traditional Chinese characters become simplified. Marks, format and control characters
    all live in planes 0, 1 and 14."""
    table: dict[int, str | None] = {code: chr(to) for code, to in _TO_SIMPLIFIED.items()}
    for plane in (range(0, 0x20000), range(0xE0000, 0xE1000)):
        for code in plane:
            category = unicodedata.category(chr(code))
            if category in ("Mn", "Cf", "Cs"):
                table[code] = None
            elif category == "Cc":
                table[code] = " "
    return table


@functools.cache
def _needs_cleaning() -> re.Pattern[str]:
    """A character whose NFKD form holds one that the cleaning table changes (`é`: `e`
    and an accent), or any beyond the first 65,536 (rare: read the long way)."""
    table = _cleaning_table()
    codes = [
        code
        for code in range(0x10000)
        if code in table or any(ord(c) in table for c in unicodedata.normalize("NFKD", chr(code)))
    ]
    runs: list[list[int]] = []  # [first, last] of each run of consecutive codes
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    first_plane = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in runs)
    # Other planes as a second branch: one class holding both would be read range by range.
    return re.compile(f"[{first_plane}]|[\U00010000-\U0010ffff]")


@functools.cache
def _punctuation_folded() -> re.Pattern[str]:
    """Punctuation that NFKC folds into punctuation (full-width `，（）：；`, vertical
    forms): characters of the first plane that `normalise` changes, whose folded and
    decomposed forms hold nothing a token holds (letters, digits, Chinese, dots, hyphens),
    nothing the cleaning table removes and no combining mark. Between tokens it is a
    separator either way, so tokenising may read it as a space: Chinese text then mostly
    has nothing left to fold, and NFKC returns it at once instead of rebuilding it."""
    chars = []
    for code in range(0x10000):
        char = chr(code)
        if unicodedata.is_normalized("NFKC", char) or char.casefold() != char:
            continue
        forms = char + unicodedata.normalize("NFKC", char) + unicodedata.normalize("NFKD", char)
        if not (
            _INDEXED_TOKEN.search(forms)
            or _needs_cleaning().search(forms)
            or any(c in ".-\u2010" or unicodedata.combining(c) for c in forms)
        ):
            chars.append(re.escape(char))
    return re.compile(f"[{''.join(chars)}]")


def build_tables() -> None:
    """Build the tables `normalise` and `index_text` read (a tenth of a second) now
    rather than on first use: a process that forks parse processes builds them once for
    all of them."""
    _needs_cleaning()
    _punctuation_folded()


def normalise(text: str) -> str:
    """Fold width, case, accents and traditional Chinese; drop zero-width characters;
    controls become spaces."""
    if text.isascii():  # the common case, and nothing to fold but case and controls
        return text.lower().translate(_ASCII_CONTROLS)
    text = text.casefold()
    # NFKC(NFKD(x)) is NFKC(x): the decomposition and the per-character table (slow on
    # Chinese) are only needed for text holding something the table removes.
    if _needs_cleaning().search(text):
        text = unicodedata.normalize("NFKD", text).translate(_cleaning_table())
    return unicodedata.normalize("NFKC", text)


def _stem(word: str) -> str:
    """Snowball's English stem, and acronym plurals it keeps: `llms`, `gpus`, `ppos` (no
    vowel before the `s` but the letter next to it) lose the `s`. Over-stemming a word that
    is no acronym (`thus`: `thu`) is harmless: it still matches only itself."""
    stem: str = _STEMMER.stemWord(word)
    if len(stem) >= 4 and stem[-1] == "s" and _VOWELS.isdisjoint(stem[:-2]):
        return stem[:-1]
    return stem


def word_forms(word: str) -> tuple[str, tuple[str, ...]]:
    """The token a normalised word is indexed as, and the other forms it is found by."""
    return _word_forms(word) if len(word) <= LONGEST_WORD else (word, ())


@functools.lru_cache(maxsize=_WORD_CACHE)
def _word_forms(word: str) -> tuple[str, tuple[str, ...]]:
    if not word.isascii() or not word.isalnum() or word.isdigit():
        return word, ()  # digits, decimals, other scripts: as written
    if word.isalpha():
        stem = _stem(word)
        return (stem, (word,)) if stem != word else (word, ())
    # Letters and digits: whole, and found by their parts. A name ending in a year is
    # indexed with its short form (`aime2024` as `aime24`), which people write for it too.
    year = _NAME_YEAR.fullmatch(word)
    token = year.group(1) + year.group(3) if year else word
    forms: dict[str, None] = {word: None} if year else {}
    parts = _LETTERS_OR_DIGITS.findall(token)
    if year:
        parts.append(year.group(2) + year.group(3))
    for part in parts:
        if part.isalpha():
            stem, others = word_forms(part)
            forms[stem] = None
            forms.update(dict.fromkeys(others))
        else:
            forms[part] = None
    forms.pop(token, None)
    return token, tuple(forms)


def _run_tokens(run: str, *, indexing: bool) -> list[str]:
    if not _CJK_RUN.fullmatch(run):
        return [word_forms(run)[0]]
    if len(run) == 1:
        return [run]
    pieces = [run[i : i + 2] for i in range(len(run) - 1)]
    return [*pieces, run[-1]] if indexing else pieces


def index_text(*parts: str | None) -> str:
    """The text stored in the search column for the given fields: its tokens in order,
    then the other forms of its words, once each (see the module's description)."""
    # Ingest's hot path: one lookup per piece, every kind of piece in the same cache, and
    # the loops over pieces in C (map, join); only pieces not yet cached take a call.
    found = list(chain.from_iterable([_pieces(p) for p in parts if p]))
    cached = list(map(_INDEXED.get, found))
    entries = _with_new_pieces(found, cached) if None in cached else cast("list[_Entry]", cached)
    tokens = " ".join(filter(None, map(_OWN, entries)))
    forms = dict.fromkeys(chain.from_iterable(map(_OTHERS, entries)))
    return f"{tokens} {' '.join(forms)}" if forms else tokens


_Entry = tuple[str, tuple[str, ...]]
_OWN, _OTHERS = itemgetter(0), itemgetter(1)  # of an _INDEXED entry


# What index_text adds for a piece of text (see _pieces): its tokens joined by spaces and
# the other forms of its words; looked up once per piece (a plain dict: the cheapest
# lookup on ingest's hot path), emptied when full.
_INDEXED: dict[str, _Entry] = {}
# The runs _TOKEN_KIND reads, without telling their kind: a decimal number holds a dot,
# a Chinese/Japanese/Korean run starts with one of those characters, a word is the rest.
_INDEXED_TOKEN = re.compile(rf"[{_CJK}]+|{_NUMBER}|{_LETTERS}(?:[{_HYPHEN}](?!\d+\.\d){_LETTERS})*")
_LONGEST_KEPT = 24  # words, numbers and short Chinese runs repeat; long runs do not
# ASCII text lower-cased, and every character no token holds made a space: what is left
# between spaces are letters, digits, dots and hyphens, each piece holding whole tokens.
_IN_TOKENS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789.-")
_ASCII_PIECES = bytes(code if code in _IN_TOKENS else 32 for code in bytes(range(256)).lower())


def _pieces(text: str) -> list[str]:
    """Pieces of `text` whose tokens, in order, are the text's tokens. English (ASCII)
    text, most of what ingest indexes, is cut at what no token holds in one pass of C, a
    third of the time the token pattern takes; a dot before a space, which ends a sentence
    and never a number, is cut off too. Other text: its tokens, with the punctuation NFKC
    would fold read as spaces."""
    if text.isascii():
        cut = text.encode().translate(_ASCII_PIECES).replace(b". ", b" ").rstrip(b". ")
        return cut.decode().split()
    return _INDEXED_TOKEN.findall(normalise(_punctuation_folded().sub(" ", text)))


def _with_new_pieces(found: list[str], cached: list[_Entry | None]) -> list[_Entry]:
    """The entries of `found`, given those `cached` (None where not): each new piece's
    computed once, the lookups one C loop still, the shared cache only written to (ingest
    in `serve` may tokenise in two threads at once); long pieces are not kept."""
    new = {piece: _piece_entry(piece) for piece in set(compress(found, map(not_, cached)))}
    entries = list(map(new.get, found, cached))
    if len(_INDEXED) + len(new) > _WORD_CACHE:
        _INDEXED.clear()
    _INDEXED.update({piece: entry for piece, entry in new.items() if len(piece) <= _LONGEST_KEPT})
    return cast("list[_Entry]", entries)


def _piece_entry(piece: str) -> _Entry:
    """A piece's entry: a token's own, or its tokens' joined (`e.g`: `e g`)."""
    tokens = _INDEXED_TOKEN.findall(piece)
    if tokens == [piece]:
        return _indexed(piece)
    entries = [_indexed(token) for token in tokens]
    return " ".join(map(_OWN, entries)), tuple(chain.from_iterable(map(_OTHERS, entries)))


def _indexed(token: str) -> _Entry:
    if "." in token:  # a decimal number, as written
        return token, ()
    if _CJK_RUN.match(token):
        return " ".join([*map(str.__add__, token, token[1:]), token[-1]]), ()
    return _indexed_word(token)


def _indexed_word(word: str) -> _Entry:
    """A word's tokens in the text (joined by spaces) and its other forms. `x-planner`
    gives its parts, and the joined form `xplanner` with that word's own forms; a range of
    numbers (`5-7b` in `2.5-7b`) is not a word and has no joined form."""
    if "-" not in word and "\u2010" not in word:
        return word_forms(word)
    pieces = _HYPHENS.split(word)
    tokens: list[str] = []
    forms: list[str] = []
    for piece in pieces:
        token, others = word_forms(piece)
        tokens.append(token)
        forms.extend(others)
    if not pieces[0].isdigit():
        token, others = word_forms("".join(pieces))
        forms.append(token)
        forms.extend(others)
    return " ".join(tokens), tuple(forms)


@dataclass(frozen=True)
class Term:
    """One thing every hit must contain: adjacent tokens, or a prefix of one token."""

    tokens: tuple[str, ...]
    prefix: bool = False
    runs: tuple[str, ...] = ()  # the normalised words as typed, for highlighting
    # A hyphenated word is also found written as one (`x-planner`: `xplanner`): its token.
    joined: str | None = None
    # The word in the other language (storage/bilingual.py) or a word of its group
    # (ml_related.tsv): each also satisfies the term, ranked below the word as typed.
    also: tuple[Term, ...] = ()
    related: bool = False  # a word of a group standing in for the typed one: ranks lower

    @property
    def exact(self) -> tuple[str, ...]:
        """The words typed in a form other than their stem (`benchmarks`, `aime`): hits
        holding them as written rank first."""
        return tuple(dict.fromkeys(r for r in self.runs if word_forms(r)[1][:1] == (r,)))


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...]
    notes: tuple[str, ...] = ()  # what was left out of the search, told to the user
    # What no hit may contain (`-video`, `-"a phrase"`): terms matched the same way.
    excluded: tuple[Term, ...] = ()
    # Chinese typed as one run but searched as its words: the run itself and the pieces no
    # dictionary word covers (`具身` in `具身智能`). A hit holding them ranks higher, and
    # they are marked; none is required.
    bonus: tuple[Term, ...] = ()
    # Hits hold every term but one, not all of them: what follows the matches of a search
    # that found few (storage/search.py).
    all_but_one: bool = False

    @property
    def relaxable(self) -> bool:
        """Short enough to be searched for all its words but one, each left out in turn."""
        return 2 <= len(self.terms) <= MAX_RELAXED_TERMS and not self.all_but_one

    @property
    def widened(self) -> bool:
        """Some words are also searched in the other language or cut into words: a
        single match is no longer as telling as a name."""
        return bool(self.bonus) or any(term.also for term in self.terms)

    @property
    def empty(self) -> bool:
        return not self.terms

    def needs_words(self) -> None:
        """Excluded words alone would list everything else: ask for a word to search."""
        if self.empty and self.excluded:
            raise BadQuery(
                "Excluded words (`-word`) narrow a search; add a word to search for, "
                "like `diffusion -video`."
            )


class BadQuery(ValueError):
    """Search input that cannot be used; the message is a sentence for the user."""


class QueryTooLong(BadQuery):
    pass


class SearchTooCostly(BadQuery):
    def __init__(self) -> None:
        super().__init__(
            "That search needs more work than one search may take. Try fewer or rarer "
            "words, or narrow it with `paper:` or `since:`."
        )


def parse_query(text: str, *, translate: bool = True) -> Query:
    """Read what a user typed as data: every word must match, "quoted words" as a phrase,
    but function words (FUNCTION_WORDS: `how`, `the`, `是否`) only when nothing else is typed.

    A word is also found in the other language once the dictionary is read (see
    `read_dictionary`): an English word by its Chinese equivalents, a Chinese word by its
    English senses, and either by the other words of its groups (ml_related.tsv); a run of
    Chinese is cut into its words, each of which must match (`降低延迟`: `降低` and `延迟`).
    Quoted and excluded words are matched as typed only.

    Nothing here is ever passed to the database as syntax: terms are made of tokens,
    which hold letters and digits only.
    """
    if len(text) > MAX_QUERY_CHARS:
        raise QueryTooLong(
            f"The search is {len(text):,} characters long; keep it under {MAX_QUERY_CHARS}."
        )
    terms: list[tuple[Term, bool]] = []
    function_words: list[tuple[Term, bool]] = []  # required only if nothing else is typed
    notes: list[str] = []
    words = bilingual.loaded() if translate else None
    budget = [MAX_TRANSLATED_TOKENS]
    bonus: list[Term] = []
    typed = normalise(text)
    if typed.count('"') % 2 or typed.count("“") != typed.count("”"):
        notes.append("A quote without its closing quote was read as a word.")
    matches = list(_QUOTED.finditer(_apart(typed)))
    known = _known_phrases(matches, words, budget) if words is not None else {}
    for index, match in enumerate(matches):
        dash, *groups = match.groups()
        chunk = next(group for group in groups if group is not None)
        excluded = dash == "-"
        if match.group(4) is not None and _EXCLUDED_WORD.match(chunk):
            excluded, chunk = True, _EXCLUDED_WORD.sub("", chunk, count=1)
        runs = _TOKEN.findall(chunk)
        if not runs:
            continue
        if len(runs) == 1 and len(runs[0]) == 1 and _CJK_RUN.fullmatch(runs[0]):
            term = Term(tuple(runs), prefix=True, runs=tuple(runs))
            plain = match.group(4) is not None and not excluded
            (function_words if plain and _function_word(term) else terms).append((term, excluded))
            continue
        plain = match.group(4) is not None and not excluded
        phrase_also = known.get(index, ())
        if words is not None and plain:
            translated = _translated(runs, words, budget, bonus, phrase_also)
            if translated:
                for term in translated:
                    (function_words if _function_word(term) else terms).append((term, False))
                continue
        # A word or "quoted words" is a phrase: its tokens must be adjacent, as indexed.
        # A Chinese run followed by more text ends there in the index too, so its last
        # character (indexed on its own) follows its pieces; a final run may continue.
        tokens: list[str] = []
        for i, run in enumerate(runs):
            tokens.extend(_run_tokens(run, indexing=i < len(runs) - 1))
        term = Term(tuple(tokens), runs=tuple(runs), joined=_joined(chunk, runs))
        if plain and _function_word(term):
            function_words.append((term, False))
            continue
        terms.append((_with(term, (), budget, phrase_also) if phrase_also else term, excluded))
    if not any(not excluded for _, excluded in terms):
        terms = function_words + terms
    terms = _names_with_years(terms, text)
    return _bounded(terms, notes, tuple(dict.fromkeys(bonus))[:MAX_BONUS_PHRASES])


def _apart(typed: str) -> str:
    """`typed` with the words glued together set apart by spaces (see _GLUED), each then
    a word of its own rather than one phrase, as Chinese is written without spaces.
    Quoted and excluded words stay as typed."""
    return _QUOTED.sub(
        lambda m: _GLUED.sub(" ", m[0]) if m[4] is not None and m[4][0] != "-" else m[0], typed
    )


def _function_word(term: Term) -> bool:
    if len(term.runs) != 1:
        return False
    run = term.runs[0]
    chinese_particles = bool(_CJK_RUN.fullmatch(run)) and FUNCTION_WORDS.issuperset(run)
    return run in FUNCTION_WORDS or chinese_particles


def _names_with_years(terms: list[tuple[Term, bool]], typed: str) -> list[tuple[Term, bool]]:
    """A name followed by a year (`AIME 2025`, `CVPR 2024`) is one term: the two words
    as a phrase, or the name with the year as the index holds `AIME2025` and `AIME25`
    alike (`aime25`). A name is a word of letters typed with two capitals or more (`AIME`,
    `NeurIPS`); `results 2024` stays two words, found anywhere in a hit."""
    names = {w.lower() for w in _LATIN_WORD.findall(typed) if sum(map(str.isupper, w)) > 1}
    merged: list[tuple[Term, bool]] = []
    for term, excluded in terms:
        if merged and not excluded and not merged[-1][1] and _is_year(term):
            name = merged[-1][0]
            if len(name.runs) == 1 and name.runs[0] in names:
                joined = Term((word_forms(name.runs[0] + term.runs[0])[0],))
                phrase = Term(name.tokens + term.tokens, runs=name.runs + term.runs)
                merged[-1] = (replace(phrase, also=(joined,)), False)
                continue
        merged.append((term, excluded))
    return merged


def _is_year(term: Term) -> bool:
    return len(term.runs) == 1 and _YEAR.fullmatch(term.runs[0]) is not None


# Cross-language words one query may add, in tokens.
MAX_TRANSLATED_TOKENS = 24
MAX_KNOWN_PHRASE_WORDS = 4  # the longest typed English term looked up whole
# What may stand in for one term: a Chinese noun's word without its suffix, its
# translations, the words of its group (or a known phrase's, which go first).
MAX_ALTERNATIVES = 1 + bilingual.PER_WORD + bilingual.RELATED
MAX_BONUS_PHRASES = 4
# Words that carry no finding (`how`, `the`, `是否`; storage/data/function_words.txt): a
# question typed as a sentence needs none of them in a hit, and none is translated.
_FUNCTION_WORDS_FILE = Path(__file__).with_name("data") / "function_words.txt"
FUNCTION_WORDS = frozenset(
    word
    for line in _FUNCTION_WORDS_FILE.read_text(encoding="utf-8").splitlines()
    if not line.startswith("#")
    for word in line.split()
)


def read_dictionary(cache_folder: Path | None = None) -> bool:
    """Read the bilingual dictionary, once (a few seconds, or a cache file in `cache_folder`:
    off the event loop). Whether it is installed. The tables that fold text other than
    ASCII are built too (a tenth of a second), which the first such search would pay."""
    build_tables()
    cache = None if cache_folder is None else (cache_folder, dictionary_made_by())
    return bilingual.dictionary(fold_chinese, english_key, cache) is not None


def dictionary_made_by() -> bytes:
    """What the dictionary's keys depend on: this module, its character table, the stemmer."""
    modules = (__file__, chinese_variants.__file__)
    return b"\0".join([*(Path(m).read_bytes() for m in modules), Stemmer.version().encode()])


def dictionary_read() -> bool:
    """Whether `read_dictionary` has run (whatever it found): searches may translate."""
    return bilingual.tried()


def known_word(word: str) -> bool:
    """Whether the bilingual dictionary, once read, knows `word` (an English sense or a
    Chinese headword): a word it knows was meant, even where the store lacks it."""
    words = bilingual.loaded()
    if words is None:
        return False
    return english_key(word) in words.chinese or fold_chinese(normalise(word)) in words.english


def english_key(phrase: str) -> str:
    """An English phrase as the tokens it is indexed as (`to forget`: `to forget`)."""
    return " ".join(word_forms(run)[0] for run in _TOKEN.findall(normalise(phrase)))


def _known_phrases(
    matches: list[re.Match[str]], words: bilingual.Dictionary, budget: list[int]
) -> dict[int, tuple[Term, ...]]:
    """The typed English words that make a term the dictionary knows as a whole (`false
    alarm`, `knowledge distillation`, `3D reconstruction`, `fine-tuning`), longest first:
    each word's chunk (by its place among `matches`) -> that term's translations and the
    other words of its groups, paid for once from `budget`. Each word is still required as
    typed, or any of these in its place, so every hit of the words alone is still found."""
    typed: list[tuple[int, str]] = []  # (chunk, word) of plain English, in order
    for index, match in enumerate(matches):
        chunk = match.group(4)  # unquoted
        plain = chunk is not None and not _EXCLUDED_WORD.match(chunk)
        runs = _TOKEN.findall(chunk) if plain else []
        if not runs or not all(run.isascii() and run.isalnum() for run in runs):
            typed.append((index, ""))  # quoted, excluded or Chinese: a phrase stops here
            continue
        typed += [(index, run) for run in runs]
    found: dict[int, tuple[Term, ...]] = {}
    start = 0
    while start < len(typed):
        for size in range(min(MAX_KNOWN_PHRASE_WORDS, len(typed) - start), 1, -1):
            part = typed[start : start + size]
            if not all(run for _, run in part) or all(run in FUNCTION_WORDS for _, run in part):
                continue
            key = " ".join(word_forms(run)[0] for _, run in part)
            also = (
                *(_chinese(word) for word in words.chinese.get(key, ())),
                *_related(words.related.get(key, ())),
            )
            if also:
                paid = _with(Term(()), also, budget).also  # once for all its words
                for index, _ in part:
                    found.setdefault(index, paid)
                start += size
                break
        else:
            start += 1
    return found


def _translated(
    runs: list[str],
    words: bilingual.Dictionary,
    budget: list[int],
    bonus: list[Term],
    phrase_also: tuple[Term, ...] = (),
) -> list[Term]:
    """The terms of one typed word with its translations (`budget`: tokens still allowed,
    shared by the query), those of a known phrase it is part of first (`phrase_also`), or
    [] to read the word as usual. A Chinese run is cut into its
    dictionary words, each a term; the characters between them that no word covers (most
    often little words: `让`, `更`) are required by no term, but the run as typed and any two
    or more of them in a row go to `bonus`."""
    if len(runs) != 1:
        return []
    run = runs[0]
    if _CJK_RUN.fullmatch(run):
        parts = words.segment(run)
        if all(len(part) == 1 for part in parts):
            return []
        terms = []
        for part in _words_between(parts, bonus):
            if part in FUNCTION_WORDS:  # set aside by parse_query: spend no translations
                terms.append(_chinese(part))
                continue
            senses = words.english.get(part, ())
            also = tuple(_phrase(_TOKEN.findall(sense)) for sense in senses)
            root = part[:-1]  # `稳定性` (stability) is found where a claim says `更稳定`
            if len(root) > 1 and part[-1] in _NOUN_SUFFIXES and root in words.english:
                also = (_chinese(root), *also)
            also += _related(words.related.get(part, ()))
            terms.append(_with(_chinese(part), also, budget))
        if len(parts) > 1:
            bonus.insert(0, _chinese(run))
        return terms
    if not run.isascii() or not run.isalpha() or len(run) < 3 or run in FUNCTION_WORDS:
        return []
    token = word_forms(run)[0]
    also = (
        *(_chinese(word) for word in words.chinese.get(token, ())),
        *_related(words.related.get(token, ())),
    )
    if not also and not phrase_also:
        return []
    return [_with(Term((token,), runs=(run,)), also, budget, phrase_also)]


def _related(words: tuple[str, ...]) -> tuple[Term, ...]:
    """Terms for a word's related words (bilingual.Dictionary.related), either language."""
    terms = (_phrase(_TOKEN.findall(w)) if w.isascii() else _chinese(w) for w in words)
    return tuple(replace(term, related=True) for term in terms)


# Suffixes that make a noun of a Chinese word: -ity, rate, degree (`稳定性`, `成功率`,
# `相似度`). The word without them says the same thing in a claim's sentence.
_NOUN_SUFFIXES = frozenset("性率度")


def _words_between(parts: list[str], bonus: list[Term]) -> list[str]:
    """The dictionary words of a cut run; characters left alone in a row, two or more, go
    to `bonus` (a word the dictionary does not know, like `具身`)."""
    found, alone = [], ""
    for part in parts:
        if len(part) == 1:
            alone += part
            continue
        found.append(part)
        if len(alone) > 1:
            bonus.append(_chinese(alone))
        alone = ""
    if len(alone) > 1:
        bonus.append(_chinese(alone))
    return found


def _chinese(run: str) -> Term:
    """A run of Chinese as a phrase of its pieces (its first ones, in a long run)."""
    return Term(tuple(_run_tokens(run, indexing=False))[:MAX_PHRASE_TOKENS], runs=(run,))


def _phrase(runs: list[str]) -> Term:
    return Term(tuple(word_forms(run)[0] for run in runs), runs=tuple(runs))


def _with(
    term: Term, also: tuple[Term, ...], budget: list[int], paid: tuple[Term, ...] = ()
) -> Term:
    """`term` with the translations the query's budget still allows (none repeating it),
    after those `paid` for already (a known phrase's, shared by its words)."""
    kept: list[Term] = [*paid]
    for other in also:
        repeated = other.tokens == term.tokens or any(k.tokens == other.tokens for k in kept)
        if len(kept) == MAX_ALTERNATIVES:
            break
        if other.tokens and not repeated and len(other.tokens) <= budget[0]:
            budget[0] -= len(other.tokens)
            kept.append(other)
    return Term(term.tokens, term.prefix, term.runs, term.joined, tuple(kept))


def _joined(chunk: str, runs: list[str]) -> str | None:
    """The token of a hyphenated word written as one, when the chunk is just that word
    (`fine-tune`: `finetun`, which `finetuned` is indexed as)."""
    words = _TOKEN_KIND.findall(chunk)
    if len(runs) < 2 or len(words) != 1 or not words[0][2] or runs[0].isdigit():
        return None
    return word_forms("".join(runs))[0]


def _bounded(
    terms: list[tuple[Term, bool]],
    first_notes: list[str] | None = None,
    bonus: tuple[Term, ...] = (),
) -> Query:
    """The terms within the limits of one search, with a note for each thing left out:
    a phrase's repeated tokens collapse to one (`a a a` is `a`), a long phrase keeps its
    first tokens, repeated terms count once, and the terms stop at the limits. Excluded
    terms count towards the same limits."""
    notes: dict[str, None] = dict.fromkeys(first_notes or ())
    kept: dict[tuple[tuple[str, ...], bool, bool], Term] = {}
    total = 0
    for term, excluded in terms:
        tokens, runs = _collapsed(term.tokens), _collapsed(term.runs)[:MAX_PHRASE_TOKENS]
        if len(tokens) < len(term.tokens):
            notes["Repeated words in a row were searched once."] = None
        if len(tokens) > MAX_PHRASE_TOKENS:
            notes[f"A long phrase is matched on its first {MAX_PHRASE_TOKENS} words."] = None
            tokens = tokens[:MAX_PHRASE_TOKENS]
        if (tokens, term.prefix, excluded) in kept:
            continue
        if len(kept) == MAX_QUERY_TERMS or total + len(tokens) > MAX_QUERY_TOKENS:
            notes[f"Only the first {len(kept)} search terms were used."] = None
            break
        total += len(tokens)
        kept[tokens, term.prefix, excluded] = Term(
            tokens, term.prefix, runs, term.joined, term.also
        )
    return Query(
        terms=tuple(t for (_, _, excluded), t in kept.items() if not excluded),
        notes=tuple(notes),
        excluded=tuple(t for (_, _, excluded), t in kept.items() if excluded),
        bonus=bonus,
    )


def _collapsed(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item for i, item in enumerate(items) if i == 0 or item != items[i - 1])


# Highlighting reads this much of a text at most: far more than a claim holds or a reply
# shows, and it keeps the work on the event loop bounded whatever a digest carries.
HIGHLIGHT_CHARS = 5_000


def highlight_spans(text: str, query: Query) -> list[tuple[int, int]]:
    """Where the query's words stand in `text`: sorted, non-overlapping (start, end) pairs.

    Best effort on the original text. Words are marked whole, by the tokens they are
    indexed as: `benchmark` marks `benchmarks`, `aime` marks `AIME24`, `xplanner` marks
    `X-Planner`, and `the` never marks the inside of `other`. A term holding Chinese is
    found as typed, with any punctuation between its parts (`0.886` in `AUROC 0.886`), in
    either script (`延迟` marks `延遲`). A word's translations are marked too.
    """
    text = text[:HIGHLIGHT_CHARS]
    folded = fold_chinese(text)  # position for position: `延遲` is found as `延迟`
    spans: list[tuple[int, int]] = []
    words: list[_Word] | None = None
    for term in (*(t for typed in query.terms for t in (typed, *typed.also)), *query.bonus):
        if term.prefix or any(_CJK_RUN.fullmatch(run) for run in term.runs):
            pattern = r"[\W_]*".join(re.escape(run) for run in term.runs)
            spans.extend(
                m.span() for m in re.finditer(pattern, folded, re.IGNORECASE) if m.end() > m.start()
            )
            continue
        if words is None:
            words = _words(text)
        spans.extend(_phrase_spans(words, term.tokens))
        if term.joined:
            spans.extend(_phrase_spans(words, (term.joined,)))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


class _Word(NamedTuple):
    start: int
    end: int
    token: str | None  # what it is indexed as; None for a Chinese run, which ends phrases
    forms: tuple[str, ...] = ()
    whole: bool = False  # a hyphenated word as a whole, found by its joined form only


def _words(text: str) -> list[_Word]:
    """The words of the original text, read as index_text reads them (once per text)."""
    words: list[_Word] = []
    for match in _TOKEN_KIND.finditer(text):
        start, end = match.span()
        if match.group(1):
            words.append(_Word(start, end, None))
            continue
        word = match.group()
        if "-" not in word and "\u2010" not in word:
            words.append(_Word(start, end, *word_forms(normalise(word))))
            continue
        pieces, joined = _HYPHENS.split(word), []
        for piece in pieces:
            normalised = normalise(piece)
            words.append(_Word(start, start + len(piece), *word_forms(normalised)))
            joined.append(normalised)
            start += len(piece) + 1
        if not pieces[0].isdigit():
            token, forms = word_forms("".join(joined))
            words.append(_Word(match.start(), end, None, (token, *forms), whole=True))
    return words


def _phrase_spans(words: list[_Word], tokens: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where `tokens` stand: one word by its token or another form, a phrase by adjacent
    words' tokens (hyphenated wholes stand beside their parts, not between them)."""
    if len(tokens) == 1:
        return [(w.start, w.end) for w in words if w.token == tokens[0] or tokens[0] in w.forms]
    parts = [w for w in words if not w.whole]
    return [
        (parts[i].start, parts[i + len(tokens) - 1].end)
        for i in range(len(parts) - len(tokens) + 1)
        if all(parts[i + k].token == token for k, token in enumerate(tokens))
    ]
