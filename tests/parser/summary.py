"""Turn parser output into JSON-ready summaries, for the golden files and the cases."""

import dataclasses
import json
from datetime import date, datetime
from pathlib import Path

from jobs.parser import Claim, ParsedDigest, ParsedPaper, decode_digest, parse_digest

HERE = Path(__file__).resolve().parent
SEEDS = HERE.parents[1] / "seeds"
GOLDEN = HERE / "golden"
CASES = HERE / "cases"

Json = dict[str, object]


def seed_files() -> list[Path]:
    return sorted(SEEDS.glob("*.txt"))


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.txt"))


def parse_file(path: Path) -> ParsedDigest:
    return parse_digest(decode_digest(path.read_bytes()))


def golden_summary(digest: ParsedDigest) -> Json:
    """What a golden file pins down for each paper of a seed."""
    return {
        "format": digest.format,
        "digest_date": digest.digest_date.isoformat(),
        "papers": [_golden_paper(paper) for paper in digest.papers],
    }


def _golden_paper(paper: ParsedPaper) -> Json:
    return {
        "kind": paper.kind,
        "key": paper.key,
        "arxiv_id": paper.arxiv_id,
        "title": paper.title,
        "name": paper.name,
        "subtitle": paper.subtitle,
        "claims": len(paper.claims),
        "first_claim": _claim(paper.claims[0]) if paper.claims else None,
        "last_claim": _claim(paper.claims[-1]) if paper.claims else None,
        "authors": list(paper.authors),
        "published_at": _jsonable(paper.published_at),
    }


def case_summary(digest: ParsedDigest) -> Json:
    """Every field that has a value: the cases are small, so they pin down everything."""
    papers = []
    for paper in digest.papers:
        fields = {
            field.name: _jsonable(getattr(paper, field.name)) for field in dataclasses.fields(paper)
        }
        papers.append({name: value for name, value in fields.items() if value not in (None, [])})
    return {
        "format": digest.format,
        "digest_date": digest.digest_date.isoformat(),
        "papers": papers,
    }


def _claim(claim: Claim) -> Json:
    return {"number": claim.number, "text_zh": claim.text_zh, "quote_en": claim.quote_en}


def _jsonable(value: object) -> object:
    if isinstance(value, Claim):
        return _claim(value)
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def dumps(summary: Json) -> str:
    return json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
