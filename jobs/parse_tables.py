"""Imported by the fork server that starts ingest's parse processes (see jobs.ingest): the
tokenizer's tables are built there once, before it forks, so every parse process starts
with them instead of building its own (about 0.3 s of CPU each, before its first file)."""

from storage import search_text

search_text.build_tables()
