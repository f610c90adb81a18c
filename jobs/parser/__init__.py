"""The digest parser: a pure function from a digest's text to frozen dataclasses.

No I/O, no database, no logging: `decode_digest` turns a file's bytes into text and
`parse_digest` turns the text into a `ParsedDigest`. Both raise `DigestParseError`, and
nothing else, on input they cannot read; a fault the rest of the file survives (a claim
without its quote, `5、` for `5.`) is a `DigestWarning` in `ParsedDigest.warnings`.
"""

from .digest import parse_digest
from .errors import DigestParseError, DigestWarning
from .model import (
    FORMAT_DEEP_READ,
    FORMAT_HUGGINGFACE,
    KIND_ABSTRACT_ONLY,
    KIND_DEEP_READ,
    KIND_HUGGINGFACE,
    PARSER_VERSION,
    Claim,
    ParsedDigest,
    ParsedPaper,
)
from .text import decode_digest

__all__ = [
    "FORMAT_DEEP_READ",
    "FORMAT_HUGGINGFACE",
    "KIND_ABSTRACT_ONLY",
    "KIND_DEEP_READ",
    "KIND_HUGGINGFACE",
    "PARSER_VERSION",
    "Claim",
    "DigestParseError",
    "DigestWarning",
    "ParsedDigest",
    "ParsedPaper",
    "decode_digest",
    "parse_digest",
]
