"""What the parser returns: plain frozen dataclasses, no behaviour."""

from dataclasses import dataclass
from datetime import date, datetime

from .errors import DigestWarning

# Bump whenever what ingest stores for the same input changes (the parser's output, the
# findings of an abstract), so stored papers are re-parsed.
PARSER_VERSION = "10"

FORMAT_DEEP_READ = "deep_read"
FORMAT_HUGGINGFACE = "huggingface"

KIND_HUGGINGFACE = "huggingface"
KIND_DEEP_READ = "deep_read"
KIND_ABSTRACT_ONLY = "abstract_only"


@dataclass(frozen=True)
class Claim:
    """A numbered claim of a deep read and the English quote that backs it."""

    number: int
    text_zh: str
    quote_en: str


@dataclass(frozen=True)
class ParsedPaper:
    """One entry of a digest.

    Display: HuggingFace entries have a `title`. Deep reads carry none: show `name` (a short
    method/system name taken from the text, never None for them) with `subtitle` under it.
    Abstract-only entries show their `name`, or without one their `title`, made from the
    abstract's first sentence. Every entry has a title or a name.

    `key` is the stable identity: `arxiv:<id without version>`, else `text:<hash>` of the
    entry's most stable text (see `identity`); `aliases` are keys an earlier parser
    version gave the same entry, so stores made by it map their rows to the new key.
    """

    kind: str
    position: int
    line: int
    key: str
    arxiv_id: str | None
    title: str | None
    name: str | None
    subtitle: str | None
    aliases: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    pdf_url: str | None = None
    arxiv_url: str | None = None
    coolpaper_url: str | None = None
    published_at: datetime | None = None
    updated_at: datetime | None = None
    abstract_en: str | None = None
    abstract_zh: str | None = None
    llm_analysis: str | None = None
    positioning: str | None = None
    background: str | None = None
    mechanism: str | None = None
    experiments: str | None = None
    claims: tuple[Claim, ...] = ()
    novelty: str | None = None
    soundness: str | None = None
    significance: str | None = None
    limitations: str | None = None
    follow_ups: str | None = None


@dataclass(frozen=True)
class ParsedDigest:
    format: str
    digest_date: date
    papers: tuple[ParsedPaper, ...]
    warnings: tuple[DigestWarning, ...] = ()  # problems the rest of the file survived
