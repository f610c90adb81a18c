"""Benchmarks: synthetic corpora and the scripts that time the bot against them."""
