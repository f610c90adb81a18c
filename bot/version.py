"""What version of paperbot runs: the package's (set once, in pyproject.toml, read from the
installed metadata), with the digest parser's and the database schema's it works with."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

from jobs.parser import PARSER_VERSION
from storage.db import schema_heads


def package_version() -> str:
    try:
        return version("paperbot")
    except PackageNotFoundError:  # a source tree run without being installed
        return "unknown"


@cache  # the package's metadata is read once per process
def versions() -> dict[str, str]:
    return {
        "version": package_version(),
        "parser": PARSER_VERSION,
        "schema": ",".join(schema_heads()),
    }


def describe() -> str:
    """One line: `paperbot 0.2.0 (parser 8, schema 0011)`."""
    v = versions()
    return f"paperbot {v['version']} (parser {v['parser']}, schema {v['schema']})"
