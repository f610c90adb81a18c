"""Benchmark: does search find what a reader wants? Recall on the first page, success@3
and MRR over the labelled relevance set (tests/benchmarks/relevance_set.py).

    python -m tests.benchmarks.bench_relevance [--postgres] [--write] [--save-baseline]

It loads the seeds and the benchmark's own digests with `paperbot ingest` into a fresh
SQLite file (and, with `--postgres`, a throwaway PostgreSQL server), then asks every
question through the path `paperbot ask` uses: a signed slash command dispatched through
the real Bolt app, its reply captured by the local stand-in for Slack. What counts is the
first reply the user sees: the papers of a `/paper` list in order (a card is its paper at
rank 1), the claims of the first `/claims` page in order.

`--write` puts the figures into tests/benchmarks/RESULTS.md between the `relevance`
markers, next to the baseline kept in relevance/baseline.json; `--save-baseline` makes
this run the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot import ids
from bot.settings import load_settings
from bot.shell import Sent, offline_bot
from storage import db
from storage.embedders import load_embedder
from storage.models import Paper
from tests.benchmarks.relevance_set import (
    BASELINE,
    DIGESTS,
    FIRST_PAGE,
    HELD_OUT_QUESTIONS,
    KINDS,
    QUESTIONS,
    SEEDS,
    Question,
    load_questions,
)
from tests.benchmarks.results import write_section
from tests.postgres import PostgresServer

ROOT = Path(__file__).parents[2]
USER, CHANNEL = "UBENCH", "CBENCH"
# A claim hit names its address in code: "*Paper* · claim 3 · `GAPO#3`".
_ADDRESS = re.compile(r"`([^`\s]+#a?\d+)`")
_WORKING = "Looking…"
OVERALL_TARGET, KIND_TARGET = 0.9, 0.8  # recall on the first page (issue 13)


# --- what the user saw ------------------------------------------------------------------


def first_reply(sent: Sequence[Sent]) -> dict[str, Any]:
    """The first message with an answer: the acknowledgement, or the post that replaced
    "Looking…" when the answer took longer than Slack's three seconds."""
    for message in sent:
        if "blocks" in message.payload and not str(message.payload.get("text", "")).startswith(
            _WORKING
        ):
            return message.payload
    return {}


def _buttons(block: dict[str, Any]) -> Iterable[dict[str, Any]]:
    if isinstance(block.get("accessory"), dict):
        yield block["accessory"]
    if block.get("type") == "actions":
        yield from block.get("elements", [])


def _value(button: dict[str, Any]) -> dict[str, Any]:
    try:
        value = json.loads(button.get("value") or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def ranked_papers(payload: dict[str, Any]) -> list[str]:
    """Paper keys in the order shown: a card's one paper, or a list's *Open* buttons."""
    blocks = payload.get("blocks") or []
    card = any(block.get("type") == "header" for block in blocks)
    keys: list[str] = []
    for block in blocks:
        for button in _buttons(block):
            paper = _value(button).get("paper")
            if not isinstance(paper, str) or paper in keys:
                continue
            if card or button.get("action_id") == ids.OPEN_PAPER:
                keys.append(paper)
        if card and keys:
            return keys[:1]
    return keys


def ranked_claims(payload: dict[str, Any]) -> list[str]:
    """Claim addresses in the order shown, read from each hit's heading line."""
    addresses: list[str] = []
    for block in payload.get("blocks") or []:
        text = (block.get("text") or {}).get("text", "") if block.get("type") == "section" else ""
        heading = text.split("\n", 1)[0]
        for address in _ADDRESS.findall(heading):
            if address.lower() not in (a.lower() for a in addresses):
                addresses.append(address)
    return addresses


# --- scoring ----------------------------------------------------------------------------


@dataclass
class Outcome:
    question: Question
    shown: list[str]  # normalised items of the first page, in order
    wanted: list[str]  # normalised judged items
    seconds: float

    @property
    def found(self) -> int:
        return len(set(self.shown) & set(self.wanted))

    @property
    def recall(self) -> float:
        return self.found / len(self.wanted)

    @property
    def rank(self) -> int | None:
        return next((i for i, item in enumerate(self.shown, 1) if item in self.wanted), None)

    @property
    def success3(self) -> float:
        return 1.0 if self.rank is not None and self.rank <= 3 else 0.0

    @property
    def rr(self) -> float:
        return 1.0 / self.rank if self.rank else 0.0


@dataclass
class Figures:
    questions: int = 0
    found: int = 0
    wanted: int = 0
    recall: float = 0.0
    success3: float = 0.0
    mrr: float = 0.0

    @classmethod
    def of(cls, outcomes: Sequence[Outcome]) -> Figures:
        n = len(outcomes)
        if n == 0:
            return cls()
        return cls(
            questions=n,
            found=sum(o.found for o in outcomes),
            wanted=sum(len(o.wanted) for o in outcomes),
            recall=sum(o.recall for o in outcomes) / n,
            success3=sum(o.success3 for o in outcomes) / n,
            mrr=sum(o.rr for o in outcomes) / n,
        )


def groups(outcomes: Sequence[Outcome]) -> dict[str, Figures]:
    """Figures overall, per kind, per command, per language (keys are the row labels)."""
    rows = {"overall": Figures.of(outcomes)}
    for kind, label in KINDS.items():
        rows[label] = Figures.of([o for o in outcomes if o.question.kind == kind])
    for command in ("/paper", "/claims"):
        rows[f"`{command}`"] = Figures.of([o for o in outcomes if o.question.command == command])
    for lang, label in (("en", "asked in English"), ("zh", "asked in Chinese")):
        rows[label] = Figures.of([o for o in outcomes if o.question.lang == lang])
    return rows


# --- running ----------------------------------------------------------------------------


@dataclass
class Store:
    label: str
    url: str
    outcomes: list[Outcome] = field(default_factory=list)
    held_out: list[Outcome] = field(default_factory=list)  # of relevance/held_out.jsonl
    seconds: float = 0.0
    embedder: str = ""  # search by meaning in this run (PAPERBOT_EMBEDDER)


def load(url: str) -> None:
    """Load seeds and benchmark digests as an operator does: `paperbot ingest`."""
    env = {**os.environ, "PAPERBOT_DATABASE_URL": url, "PAPERBOT_DIGEST_DIR": str(SEEDS)}
    command = [sys.executable, "-m", "bot.cli", "ingest", str(SEEDS), str(DIGESTS), "--json"]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"ingest failed ({done.returncode}): {done.stderr.strip()}")


async def paper_keys(url: str) -> dict[str, str]:
    """Every way a judgment may name a paper (key, arXiv ID, name), lower-cased, to its key."""
    settings = load_settings({"PAPERBOT_DATABASE_URL": url}, dotenv_path=Path("/nonexistent"))
    async with db.open_engine(settings.database_url) as engine, db.session_factory(engine)() as s:
        rows = (await s.execute(select(Paper.key, Paper.arxiv_id, Paper.name))).all()
    names: dict[str, str] = {}
    for key, arxiv, name in rows:
        for alias in (key, arxiv, name):
            if alias:
                names.setdefault(alias.lower(), key)
    return names


def normalise(question: Question, items: Iterable[str], papers: dict[str, str]) -> list[str]:
    if question.command == "/paper":
        return [papers.get(item.lower(), item.lower()) for item in items]
    return [item.lower() for item in items]


async def ask_all(store: Store, questions: Sequence[Question]) -> None:
    papers = await paper_keys(store.url)
    env = {
        "PAPERBOT_DATABASE_URL": store.url,
        "PAPERBOT_INGEST_SCHEDULE": "",
        "PAPERBOT_INDEX_DIR": "none",
        # The model the ingest embedded with (it reads the environment): another one's
        # vectors would be ignored, and the run measured lexical search alone.
        "PAPERBOT_EMBEDDER": os.environ.get("PAPERBOT_EMBEDDER", "auto"),
    }
    settings = load_settings(env, dotenv_path=Path("/nonexistent"))
    began = time.perf_counter()
    store.embedder = load_embedder(settings.embedder).description
    async with offline_bot(settings) as bot:
        for question in questions:
            start = time.perf_counter()
            reply = first_reply(await bot.ask(question.line, user=USER, channel=CHANNEL))
            seconds = time.perf_counter() - start
            shown = ranked_papers(reply) if question.command == "/paper" else ranked_claims(reply)
            store.outcomes.append(
                Outcome(
                    question,
                    normalise(question, shown, papers),
                    normalise(question, question.relevant[:FIRST_PAGE], papers),
                    seconds,
                )
            )
    store.seconds = time.perf_counter() - began


async def run(with_postgres: bool, workdir: Path) -> list[Store]:
    database = workdir / "relevance.db"
    database.unlink(missing_ok=True)
    stores = [Store("SQLite", f"sqlite+aiosqlite:///{database}")]
    load(stores[0].url)
    await ask_both_sets(stores[0])
    if with_postgres:
        server = PostgresServer()
        try:
            stores.append(Store("PostgreSQL", server.start()))
            load(stores[1].url)
            await ask_both_sets(stores[1])
        finally:
            server.stop()
    return stores


async def ask_both_sets(store: Store) -> None:
    """The labelled set, then the questions held out (their figures are kept apart)."""
    held_out = load_questions(HELD_OUT_QUESTIONS)
    await ask_all(store, [*load_questions(), *held_out])
    store.held_out = store.outcomes[-len(held_out) :] if held_out else []
    store.outcomes = store.outcomes[: len(store.outcomes) - len(held_out)]


# --- reporting --------------------------------------------------------------------------


@functools.cache  # read once, before this run writes its own files
def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return (done.stdout.strip() or "unknown") + ("+changes" if dirty else "")


def as_json(rows: dict[str, Figures]) -> dict[str, dict[str, float]]:
    return {
        label: {
            "questions": f.questions,
            "found": f.found,
            "wanted": f.wanted,
            "recall": round(f.recall, 4),
            "success3": round(f.success3, 4),
            "mrr": round(f.mrr, 4),
        }
        for label, f in rows.items()
    }


def read_baseline() -> dict[str, Any] | None:
    return json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else None


def set_fingerprint() -> str:
    """Which version of the question set figures belong to: a baseline is comparable only
    with runs over the same questions and judgments."""
    return hashlib.sha256(QUESTIONS.read_bytes()).hexdigest()[:16]


def save_baseline(store: Store, note: str) -> None:
    baseline = {
        "note": note,
        "measured_on": commit(),
        "question_set": set_fingerprint(),
        "date": datetime.now(UTC).date().isoformat(),
        "store": store.label,
        "figures": as_json(groups(store.outcomes)),
    }
    BASELINE.write_text(json.dumps(baseline, indent=1, ensure_ascii=False) + "\n", "utf-8")


def _cell(now: float, then: float | None) -> str:
    if then is None:
        return f"{now:.2f}"
    arrow = "" if abs(now - then) < 0.005 else (" ▲" if now > then else " ▼")
    return f"{then:.2f} → **{now:.2f}**{arrow}"


def table(store: Store, baseline: dict[str, Any] | None) -> list[str]:
    before = (baseline or {}).get("figures", {})
    lines = [
        f"| {store.label} | questions | items found / wanted | recall on first page "
        "| success@3 | MRR |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, f in groups(store.outcomes).items():
        then = before.get(label, {})
        lines.append(
            f"| {label} | {f.questions} | {f.found}/{f.wanted} "
            f"| {_cell(f.recall, then.get('recall'))} | {_cell(f.success3, then.get('success3'))} "
            f"| {_cell(f.mrr, then.get('mrr'))} |"
        )
    return lines


def verdict(store: Store, baseline: dict[str, Any] | None) -> str:
    """Whether the issue's targets are met on this store, and what falls short."""
    rows = groups(store.outcomes)
    short = [
        f"{label} {rows[label].recall:.2f}"
        for label in KINDS.values()
        if rows[label].recall < KIND_TARGET
    ]
    exact_then = ((baseline or {}).get("figures", {}).get(KINDS["exact"]) or {}).get("recall")
    worse = exact_then is not None and rows[KINDS["exact"]].recall < exact_then - 0.005
    met = rows["overall"].recall >= OVERALL_TARGET and not short and not worse
    overall = rows["overall"].recall
    reached = "met" if overall >= OVERALL_TARGET else "missed"
    lines = [
        f"Targets {'met' if met else 'not met'} on {store.label}: recall overall "
        f"{overall:.3f} (target {OVERALL_TARGET}: {reached})"
    ]
    if short:
        lines.append(f"kinds below {KIND_TARGET}: " + ", ".join(short))
    if worse:
        lines.append("exact words worse than the baseline")
    return "; ".join(lines) + "."


def misses(store: Store, limit: int = 25) -> list[str]:
    worst = sorted((o for o in store.outcomes if o.recall < 1), key=lambda o: (o.recall, o.rr))
    lines = [
        f"- `{o.question.line}` ({KINDS[o.question.kind]}): {o.found}/{len(o.wanted)}"
        for o in worst[:limit]
    ]
    if len(worst) > limit:
        lines.append(f"- …and {len(worst) - limit} more")
    return lines


def report(stores: Sequence[Store], baseline: dict[str, Any] | None) -> str:
    questions = load_questions()
    kinds = ", ".join(
        f"{label} {sum(q.kind == kind for q in questions)}" for kind, label in KINDS.items()
    )
    lines = [
        "## Relevance: does search find what a reader wants?",
        "",
        f"The labelled set (`tests/benchmarks/relevance/questions.jsonl`) holds {len(questions)} "
        f"questions: {kinds}; `/paper` "
        f"{sum(q.command == '/paper' for q in questions)} and `/claims` "
        f"{sum(q.command == '/claims' for q in questions)}, asked in English "
        f"{sum(q.lang == 'en' for q in questions)} and in Chinese "
        f"{sum(q.lang == 'zh' for q in questions)} times. They were written as a researcher "
        "would type them, over the three seeds and two digests written for the benchmark "
        "(`relevance/digests/`: three deep reads, one abstract-only entry, four HuggingFace "
        "papers). Each lists every claim (by address) or paper a reader would want on the "
        f"first page, at most {FIRST_PAGE}, judged by reading the digests, never by running "
        "a search. Kinds: the words as written; other word forms (plural, -ing/-ed, `AIME` "
        "for `AIME24`, `xplanner` for `X-Planner`); paraphrase (same meaning, other words); "
        "the other language (an English question answered only in Chinese, or the reverse); "
        "typos; filters (`paper:`, `since:`, `until:`, `author:`, `-word`); names (method "
        "names, arXiv IDs, titles).",
        "",
        "Each question goes through the path `paperbot ask` uses (a signed slash command "
        "through the Bolt app); what counts is the first reply: a `/paper` list in order (a "
        "card is its paper at rank 1) or the first page of `/claims`. *Recall on first page* "
        "is the share of judged items shown, averaged over questions; *success@3*: a judged "
        "item in the top three; *MRR*: the mean of 1/rank of the first judged item. Target "
        "(issue 13): recall ≥ 0.9 overall and ≥ 0.8 in every kind, exact words not worse "
        "than the baseline.",
        "",
        "    python -m tests.benchmarks.bench_relevance [--postgres] --write",
        "",
    ]
    now = commit()
    if baseline and baseline["measured_on"] == now:
        lines.append(
            f"This run is the baseline: the search as it was on commit `{now}` "
            f"({baseline['date']}), kept in `relevance/{BASELINE.name}`; later runs show "
            f"*baseline → new* next to it. {baseline.get('note', '')}".rstrip()
        )
        baseline = None
    elif baseline and baseline.get("question_set") != set_fingerprint():
        lines.append(
            f"The question set changed since the baseline (commit `{baseline['measured_on']}`): "
            "measure the baseline again on that commit's search with `--save-baseline` before "
            "comparing. Figures below are this run only."
        )
        baseline = None
    elif baseline:
        note = f" ({baseline['note'].rstrip('.')})" if baseline.get("note") else ""
        lines.append(
            f"Figures read *baseline → this run*. Baseline: the search on commit "
            f"`{baseline['measured_on']}` ({baseline['date']}, {baseline['store']}){note}; "
            f"this run: commit `{now}`."
        )
    lines += ["", f"Search by meaning in this run: {stores[0].embedder}." if stores else ""]
    lines.append("")
    for store in stores:
        lines += table(store, baseline)
        lines += ["", verdict(store, baseline)]
        lines += [
            "",
            f"{store.label}: {len(store.outcomes)} questions in {store.seconds:.1f} s.",
            "",
        ]
    lines += [f"Questions that miss judged items on {stores[0].label} (recall, worst first):", ""]
    lines += misses(stores[0])
    return "\n".join(lines + held_out_report(stores))


def held_out_report(stores: Sequence[Store]) -> list[str]:
    """The questions written apart from the search: how it does on questions not shaped
    by anyone working on it."""
    held_out = load_questions(HELD_OUT_QUESTIONS)
    lines = [
        "",
        "### Questions held out",
        "",
        f"`relevance/{HELD_OUT_QUESTIONS.name}` holds {len(held_out)} more questions of every "
        "kind, judged the same way but written apart from the search, by readers who had seen "
        "neither its code nor the labelled set's results; they are not counted above, and no "
        "change to the search is to be tuned on their judged items. Their figures are the "
        "best guess of how search does on questions nobody has tried yet.",
        "",
    ]
    for store in stores:
        rows = {label: f for label, f in groups(store.held_out).items() if f.questions}
        lines += [
            f"| {store.label}, held out | questions | items found / wanted "
            "| recall on first page | success@3 | MRR |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {label} | {f.questions} | {f.found}/{f.wanted} | {f.recall:.2f} "
            f"| {f.success3:.2f} | {f.mrr:.2f} |"
            for label, f in rows.items()
        ]
        lines.append("")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="also measure on PostgreSQL")
    parser.add_argument("--write", action="store_true", help="write RESULTS.md")
    parser.add_argument(
        "--save-baseline", action="store_true", help=f"make this run the baseline ({BASELINE.name})"
    )
    parser.add_argument("--note", default="", help="a sentence kept with the baseline")
    parser.add_argument("--verbose", action="store_true", help="print every question's result")
    args = parser.parse_args()
    commit()
    with tempfile.TemporaryDirectory(prefix="paperbot-relevance-") as workdir:
        stores = asyncio.run(run(args.postgres, Path(workdir)))
    if args.verbose:
        for o in [*stores[0].outcomes, *stores[0].held_out]:
            print(
                f"{o.recall:4.2f} {o.question.id:28} {o.question.line}\n     shown {o.shown[:10]}"
                f"\n     wanted {o.wanted}"
            )
    if args.save_baseline:
        save_baseline(stores[0], args.note)
    section = report(stores, read_baseline())
    print(section)
    if args.write:
        write_section("relevance", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
