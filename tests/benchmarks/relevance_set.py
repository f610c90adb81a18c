"""The labelled relevance set: questions a researcher types, each with the items a reader
would want on the first page of the answer.

One JSON object a line in relevance/questions.jsonl:

    {"id": "claims-wf-aime", "command": "/claims", "text": "AIME", "kind": "word_forms",
     "lang": "en", "relevant": ["GAPO#1", "Hunyuan-A13B#5"], "why": "..."}

`relevant` holds claim addresses (`GAPO#3`, `2609.35259#a2`) for `/claims` and papers (an
arXiv ID, a name such as `X-Planner`, or a stored key) for `/paper`; at most
`FIRST_PAGE` of them, so that a perfect first page finds them all. The items were judged
by reading the digests (seeds/ and relevance/digests/), never by running a search.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).with_name("relevance")
QUESTIONS = HERE / "questions.jsonl"
# Questions written apart from the search and never tuned on (bench_relevance reports them
# on their own).
HELD_OUT_QUESTIONS = HERE / "held_out.jsonl"
DIGESTS = HERE / "digests"
SEEDS = Path(__file__).parents[2] / "seeds"
BASELINE = HERE / "baseline.json"

COMMANDS = ("/paper", "/claims")
LANGS = ("en", "zh")
FIRST_PAGE = 10  # judged items per question: what one page of claims holds
KINDS = {
    "exact": "exact words",
    "word_forms": "word forms",
    "paraphrase": "paraphrase",
    "other_language": "other language",
    "typo": "typos",
    "filter": "filters",
    "name": "names",
}


@dataclass(frozen=True)
class Question:
    id: str
    command: str
    text: str
    kind: str
    lang: str
    relevant: tuple[str, ...]
    why: str = ""

    @property
    def line(self) -> str:
        """The command line as typed in Slack."""
        return f"{self.command} {self.text}"


class BadQuestion(ValueError):
    pass


def load_questions(path: Path = QUESTIONS) -> list[Question]:
    questions = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("//"):
            continue
        try:
            fields = json.loads(raw)
            question = Question(
                id=fields["id"],
                command=fields["command"],
                text=fields["text"],
                kind=fields["kind"],
                lang=fields["lang"],
                relevant=tuple(fields["relevant"]),
                why=fields.get("why", ""),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise BadQuestion(f"{path.name}:{number}: {error}") from None
        questions.append(question)
    return questions
