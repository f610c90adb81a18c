"""A damaged re-delivery loses nothing: a new version of a file that would remove papers
or claims its previous version held is refused as suspect (the stored version stays) until
it is accepted on purpose; a file still being written is left for the next run."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

import jobs.ingest
from jobs.ingest import MB, ingest
from jobs.parser import deep_read, parse_digest
from storage import loading
from storage.db import Sessions
from storage.models import Claim, Document, Paper
from storage.status import store_status
from tests.digests import SEEDS, Entry, huggingface_digest, write

AV_GRPO = "000_e3eab0f621521816.txt"  # deep reads: AV-GRPO first, its claim 5 on line 21
SEED_TEXTS = {path.name: path.read_bytes() for path in sorted(SEEDS.glob("*.txt"))}


Contents = tuple[set[int], set[tuple[int, str, int, str, str]]]


async def contents(sessions: Sessions) -> Contents:
    """Every paper id, and every claim as (paper id, source, number, text, quote)."""
    async with sessions() as session:
        papers = set((await session.execute(select(Paper.id))).scalars())
        rows = await session.execute(
            select(Claim.paper_id, Claim.source, Claim.number, Claim.text_zh, Claim.quote_en)
        )
        return papers, {(p, source, n, zh, en) for p, source, n, zh, en in rows}


async def claim_numbers(sessions: Sessions, name: str) -> list[int]:
    """The numbers of the claims of the paper of this name, in order."""
    async with sessions() as session:
        numbers = await session.execute(
            select(Claim.number)
            .join(Paper, Paper.id == Claim.paper_id)
            .where(Paper.name == name)
            .order_by(Claim.number)
        )
    return list(numbers.scalars())


def first_lines(data: bytes, count: int) -> bytes:
    return b"".join(data.splitlines(keepends=True)[:count])


async def test_a_truncated_re_delivery_is_refused_as_suspect_and_keeps_every_claim(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await contents(sessions)
    path = seeds / AV_GRPO
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))

    report = await ingest(sessions, [seeds])

    assert await contents(sessions) == before  # 36 papers, 133 claims, as they were
    assert report.documents == {"new": 0, "changed": 0, "unchanged": 2, "failed": 1}
    [suspect] = report.suspect
    assert suspect["path"] == str(path)
    assert suspect["would_lose"].startswith("7 papers (Hunyuan-A13B, ")
    assert (
        "and 6 claims (AV-GRPO#2, AV-GRPO#3, AV-GRPO#4, AV-GRPO#5, AV-GRPO#6, … (1 more))"
        in (suspect["would_lose"])
    )
    [error] = report.errors
    assert error["path"] == str(path) and error["error"].startswith("suspect: this version ")
    assert error["error"].endswith(f"To accept it: paperbot ingest --force {path}")
    assert "\n" not in error["error"]
    async with sessions() as session:
        status = await store_status(session)
    assert status.suspect == [{"path": str(path.resolve()), "would_lose": suspect["would_lose"]}]
    assert status.last_ingest is not None and status.last_ingest["status"] == "partial"

    again = await ingest(sessions, [seeds])  # still damaged: refused again, not forgotten
    assert again.suspect == report.suspect

    path.write_bytes(SEED_TEXTS[AV_GRPO])  # the full file arrives: nothing to refuse
    healed = await ingest(sessions, [seeds])
    assert healed.errors == [] and healed.suspect == []
    assert await contents(sessions) == before
    async with sessions() as session:
        assert (await store_status(session)).suspect == []


async def test_force_accepts_the_shorter_version_on_purpose(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    path = seeds / AV_GRPO
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))
    assert (await ingest(sessions, [seeds])).suspect

    # Re-parsing alone (`/reingest force`) does not accept a loss; accepting it does.
    assert (await ingest(sessions, [seeds], force=True)).suspect
    report = await ingest(sessions, [path], force=True, accept_losses=True)

    assert report.errors == [] and report.suspect == []
    assert report.documents["changed"] == 1
    papers, claims = await contents(sessions)
    assert len(papers) == 36  # a paper that left its file stays in the store
    assert sum(1 for claim in claims if claim[1] == "review") == 127
    async with sessions() as session:
        document = (await session.execute(select(Document))).scalars().all()
        assert {d.status for d in document} == {"ok"}
        assert (await store_status(session)).suspect == []


async def test_a_version_that_only_adds_is_no_suspect(sessions: Sessions, seeds: Path) -> None:
    path = seeds / AV_GRPO
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))
    await ingest(sessions, [seeds])
    path.write_bytes(SEED_TEXTS[AV_GRPO])

    report = await ingest(sessions, [seeds])

    assert report.errors == [] and report.suspect == []
    assert report.papers["new"] == 7


async def test_bytes_an_older_parser_misread_are_read_again_without_a_suspect(
    sessions: Sessions, seeds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgrade that reads the same bytes better (a claim numbered `5)`, which an older
    parser took for the start of another paper) replaces the older reading: nothing was
    delivered, so nothing is suspect."""
    path = seeds / AV_GRPO
    path.write_bytes(SEED_TEXTS[AV_GRPO].replace(b"\n5. ", b"\n5) ", 1))
    with monkeypatch.context() as older:  # the parser before `5)` was read as a claim
        older.setattr(deep_read, "_LOOSE_CLAIM", re.compile("(?!)"))
        older.setattr(deep_read, "_unnumbered_claims", lambda items, _: items)
        older.setattr(jobs.ingest, "PARSER_VERSION", "3")
        await ingest(sessions, [seeds])
    _, misread = await contents(sessions)

    report = await ingest(sessions, [seeds])

    assert report.errors == [] and report.suspect == []
    assert report.documents["changed"] == 3  # every file, read by the new parser
    assert [w["warning"] for w in report.warnings] == [
        "line 27: claim 5 should start '5. ', found '5)'; read as claim 5"
    ]
    # The misread paper is gone with its copies of claims 6 and 7; claim 5 is back.
    papers, claims = await contents(sessions)
    assert (len(papers), len(claims)) == (36, len(misread) - 2 + 3)
    async with sessions() as session:
        av_grpo = (await session.execute(select(Paper).where(Paper.name == "AV-GRPO"))).scalar_one()
        numbers = (
            await session.execute(select(Claim.number).where(Claim.paper_id == av_grpo.id))
        ).scalars()
        assert sorted(numbers) == [1, 2, 3, 4, 5, 6, 7]


def boundaries(data: bytes) -> list[int]:
    """The line counts at which a file can be cut between two paragraphs."""
    lines = data.splitlines()
    return [n for n in range(1, len(lines)) if not lines[n].strip() and lines[n - 1].strip()]


CUTS = [(name, cut) for name, data in SEED_TEXTS.items() for cut in boundaries(data)]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(CUTS))
async def test_any_paragraph_boundary_cut_is_refused_or_loses_nothing(
    sessions: Sessions, seeds: Path, cut: tuple[str, int]
) -> None:
    name, lines = cut
    if not (await contents(sessions))[0]:  # the first example seeds the store
        await ingest(sessions, [seeds])
    before = await contents(sessions)
    path = seeds / name
    path.write_bytes(first_lines(SEED_TEXTS[name], lines))
    try:
        report = await ingest(sessions, [path])
        papers, claims = await contents(sessions)
        kept = {claim[:3] for claim in claims}
        assert papers == before[0]
        assert {claim[:3] for claim in before[1]} <= kept  # no claim removed
        if report.suspect:
            assert (papers, claims) == before  # refused: the stored version, untouched
        else:
            assert len(report.errors) <= 1  # a cut that no longer parses fails alone
    finally:
        path.write_bytes(SEED_TEXTS[name])
        restored = await ingest(sessions, [path])
        assert restored.errors == []
    assert await contents(sessions) == before


async def test_a_file_still_being_written_is_left_for_the_next_scan(
    sessions: Sessions, seeds: Path
) -> None:
    old = time.time() - 60
    for name in SEED_TEXTS:  # delivered a minute ago
        os.utime(seeds / name, (old, old))
    await ingest(sessions, [seeds], settle_seconds=5)
    before = await contents(sessions)
    path = seeds / AV_GRPO
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))  # caught mid-write: just modified

    report = await ingest(sessions, [seeds], settle_seconds=5)

    assert report.errors == [] and report.suspect == []
    [skipped] = report.skipped
    assert skipped["path"] == str(path)
    assert skipped["reason"].startswith("still being written (modified ")
    assert skipped["reason"].endswith(" s ago); left for the next scan")
    assert report.documents == {"new": 0, "changed": 0, "unchanged": 2, "failed": 0}
    assert await contents(sessions) == before

    path.write_bytes(SEED_TEXTS[AV_GRPO])  # the writer finishes; a while later, the scan
    os.utime(path, (old, old))
    later = await ingest(sessions, [seeds], settle_seconds=5)
    assert later.skipped == [] and later.errors == []
    assert await contents(sessions) == before


# A copy in progress: appends a byte at a time to the file it is given, until killed; says
# "writing" once it has begun.
APPENDING = """
import sys
with open(sys.argv[1], "ab", buffering=0) as file:
    file.write(b"\\n")
    print("writing", flush=True)
    while True:
        file.write(b"\\n")
"""


async def test_a_file_that_changes_while_it_is_read_is_left_for_the_next_scan(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await contents(sessions)
    path = seeds / AV_GRPO
    path.write_bytes(SEED_TEXTS[AV_GRPO] + b"\n" * (8 * MB))  # reading it takes a while
    writer = await asyncio.create_subprocess_exec(
        sys.executable, "-c", APPENDING, str(path), stdout=asyncio.subprocess.PIPE
    )
    try:
        assert writer.stdout is not None
        assert await writer.stdout.readline() == b"writing\n"
        for _ in range(5):  # on a busy machine the writer may not run during one read
            report = await ingest(sessions, [path])
            if report.skipped:
                break
    finally:
        writer.kill()
        await writer.wait()

    assert report.errors == [] and report.suspect == []
    assert report.skipped == [
        {
            "path": str(path),
            "reason": "still being written (it changed while being read); left for the next scan",
        }
    ]
    assert await contents(sessions) == before

    path.write_bytes(SEED_TEXTS[AV_GRPO])  # delivered whole at last
    later = await ingest(sessions, [path])
    assert later.skipped == [] and later.errors == []
    assert await contents(sessions) == before


async def test_a_partial_copy_under_another_name_is_refused_and_keeps_every_claim(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await contents(sessions)
    copy = seeds / "2026-09-28-copy.txt"  # AV-GRPO cut after its second claim's quote
    copy.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 17))

    report = await ingest(sessions, [copy])

    assert await contents(sessions) == before
    [suspect] = report.suspect
    assert suspect["would_lose"] == (
        "5 claims (AV-GRPO#3, AV-GRPO#4, AV-GRPO#5, AV-GRPO#6, AV-GRPO#7) and 5 texts "
        "(AV-GRPO's novelty, AV-GRPO's soundness, AV-GRPO's significance, "
        "AV-GRPO's limitations, AV-GRPO's follow ups)"
    )
    accepted = await ingest(sessions, [copy], force=True, accept_losses=True)
    assert accepted.errors == [] and len((await contents(sessions))[1]) == len(before[1]) - 5


def cut_in_last_quote(data: bytes) -> tuple[bytes, str]:
    """The file cut 120 characters into its last claim's quote (a transfer that stopped),
    and the quote as it was."""
    lines = data.decode().split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("    ") and len(line) > 150)
    return "\n".join([*lines[:last], lines[last][:120]]).encode(), lines[last].strip()


async def test_a_re_delivery_cut_inside_a_quote_is_refused_and_keeps_the_quote(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await contents(sessions)
    name = "004_ee791cd1952f5dee.txt"
    cut, quote = cut_in_last_quote(SEED_TEXTS[name])
    (seeds / name).write_bytes(cut)

    report = await ingest(sessions, [seeds / name])

    assert await contents(sessions) == before
    assert any(claim[4] == quote for claim in before[1])
    [suspect] = report.suspect
    assert re.fullmatch(
        r"the end of 1 text \(\S+#\d+'s quote\) and 5 texts \(\S+'s novelty, .*\)",
        suspect["would_lose"],
    )


GAPO_FILE = "004_ee791cd1952f5dee.txt"  # GAPO last: 10 claims, its review, its tail


async def refused(sessions: Sessions, path: Path, text: str) -> str:
    """Deliver `text` as `path`'s new version: refused as suspect, the store as it was;
    what it would lose."""
    before = await contents(sessions)
    await asyncio.to_thread(path.write_text, text, encoding="utf-8")

    report = await ingest(sessions, [path])

    assert await contents(sessions) == before
    [suspect] = report.suspect
    return str(suspect["would_lose"])


async def test_a_re_delivery_that_lost_a_claims_statement_is_refused(
    sessions: Sessions, seeds: Path
) -> None:
    """A claim whose statement line is gone keeps its quote, read as the claim's, but a
    damaged copy does not erase the stored statement."""
    await ingest(sessions, [seeds])
    lines = SEED_TEXTS[AV_GRPO].decode().split("\n")
    lost = next(index for index, line in enumerate(lines) if line.startswith("3. "))
    text = "\n".join(lines[:lost] + lines[lost + 1 :])

    assert "AV-GRPO#3's statement" in await refused(sessions, seeds / AV_GRPO, text)


@pytest.mark.parametrize("where", ["its last quote", "its review"])
async def test_a_re_delivery_cut_at_a_sentence_end_inside_the_last_paper_is_refused(
    sessions: Sessions, seeds: Path, where: str
) -> None:
    """A file cut right after a full stop inside its last paper ends no text mid-sentence,
    but loses every section after it: suspect, what was stored kept."""
    await ingest(sessions, [seeds])
    text = SEED_TEXTS[GAPO_FILE].decode()
    if where == "its review":
        review = [line for line in text.split("\n") if line.startswith("Novelty：")][-1]
        cut = text[: text.index(review) + review.index("。") + 1]
    else:
        quote = [line for line in text.split("\n") if line.startswith("   ")][-1]
        cut = text[: text.index(quote) + quote.index(". ") + 1]

    assert "GAPO's follow ups" in await refused(sessions, seeds / GAPO_FILE, cut)


async def test_a_quote_trimmed_in_the_last_paper_before_its_end_is_an_edit(
    sessions: Sessions, seeds: Path
) -> None:
    """A text shortened inside the last paper, with its claims, review and tail still
    after it, is an edit whatever its last character: stored, not suspect."""
    await ingest(sessions, [seeds])
    text = SEED_TEXTS[GAPO_FILE].decode()
    quotes = [line for line in text.split("\n") if line.startswith("   ")]
    third = quotes[-8]  # GAPO's third claim's quote, seven claims before the file's end
    (seeds / GAPO_FILE).write_text(text.replace(third, third[: len(third) // 2]), encoding="utf-8")

    report = await ingest(sessions, [seeds / GAPO_FILE])

    assert report.suspect == [] and report.errors == []
    assert report.papers["updated"] == 1


async def test_a_sentence_ended_otherwise_is_no_cut(sessions: Sessions, seeds: Path) -> None:
    """A full stop dropped, or words added at the end, is an edit: stored, not suspect."""
    await ingest(sessions, [seeds])
    name = "004_ee791cd1952f5dee.txt"
    text = SEED_TEXTS[name].decode()
    quote = max((line for line in text.split("\n") if line.startswith("    ")), key=len)
    assert quote.rstrip().endswith(".")
    edited = text.replace(quote, quote.rstrip()[:-1]).replace("非实时。", "非实时，且需离线标定。")
    (seeds / name).write_text(edited, encoding="utf-8")

    report = await ingest(sessions, [seeds / name])

    assert report.suspect == [] and report.errors == []
    assert report.papers["updated"] >= 1


async def test_another_days_listing_with_a_revised_abstract_is_no_suspect(
    sessions: Sessions, tmp_path: Path
) -> None:
    """An abstract's findings follow its text: a later day's listing that revised it (one
    result sentence fewer) updates the paper; it is no damaged copy of the first day's."""
    first = "We introduce Alpha. It improves recall by 4.1%. It halves latency to 12 ms."
    revised = "We introduce Alpha. It improves recall by 4.1%."
    write(
        tmp_path / "day1.txt",
        huggingface_digest("2026-10-04", [Entry("2610.00001", "Alpha", first, chinese="")]),
    )
    await ingest(sessions, [tmp_path / "day1.txt"])
    write(
        tmp_path / "day2.txt",
        huggingface_digest("2026-10-05", [Entry("2610.00001", "Alpha", revised, chinese="")]),
    )

    report = await ingest(sessions, [tmp_path / "day2.txt"])

    assert report.suspect == [] and report.errors == []
    assert report.papers == {"new": 0, "updated": 1}


async def test_a_later_complete_review_with_fewer_claims_is_no_suspect(
    sessions: Sessions, seeds: Path
) -> None:
    """Another digest reviewing a stored paper again, whole (its review follows its claims),
    with claims 1-5 of the 7 stored, and a new paper after it: no damaged copy."""
    await ingest(sessions, [seeds])
    paragraphs = SEED_TEXTS[AV_GRPO].decode().split("\n\n")
    paper = paragraphs[1:22]  # AV-GRPO: its prose, 7 claims with quotes, review, tail
    assert paper[4].startswith("1. ") and paper[18].startswith("Novelty：")
    tiny = "We present TinyLoop, a small recurrent model. It matches a model thrice its size."
    again = ["2026-10-10", *paper[:14], *paper[18:21], tiny, deep_read.NOTE]
    later = seeds / "2026-10-10.txt"
    later.write_text("\n\n".join(again) + "\n", encoding="utf-8")

    report = await ingest(sessions, [later])

    assert report.suspect == [] and report.errors == []
    assert report.papers == {"new": 1, "updated": 1}


ASIDE = "（" + "其中的细节见附录，包括数据的来源、清洗的规则与评测的协议，" * 2 + "）"
ITEMS = "其二，" + "第二个方面的说明较长，" * 4 + "到此为止。其三，" + "第三个方面。"


def gapped(mechanism: str, gap: str) -> tuple[str, str]:
    """WanPE's mechanism as first delivered, and again with `gap` taken out of it."""
    ends = [m.end() for m in re.finditer("。", mechanism)]
    if gap == "an aside in brackets":
        first = mechanism[: ends[2] - 1] + ASIDE + mechanism[ends[2] - 1 :]
        return first, mechanism
    if gap == "an item that the next begins alike":
        first = mechanism[: ends[2]] + ITEMS + mechanism[ends[2] :]
        return first, first.replace(ITEMS[: ITEMS.index("其三")], "")
    start, end = {
        "mid-sentence": (ends[2] - 30, ends[2] + 200),
        "a sentence": (ends[2], ends[3]),
        "the first sentences": (0, ends[1]),
    }[gap]
    return mechanism, mechanism[:start] + mechanism[end:]


@pytest.mark.parametrize(
    "gap",
    [
        "mid-sentence",
        "a sentence",
        "the first sentences",
        "an item that the next begins alike",
        "an aside in brackets",
    ],
)
async def test_a_block_lost_inside_a_section_is_refused_and_an_editors_cut_is_an_edit(
    sessions: Sessions, seeds: Path, gap: str
) -> None:
    """A transfer that lost a block of the file (neither its end nor zeros) leaves a section
    that is its stored text with a piece gone from where no sentence ends: suspect, named
    with the words before the gap. An editor removes whole sentences, list items that begin
    like the next, or an aside in brackets: no suspect."""
    text = SEED_TEXTS[AV_GRPO].decode()
    wanpe = next(paper for paper in parse_digest(text).papers if paper.name == "WanPE")
    assert wanpe.mechanism is not None
    first, again = gapped(wanpe.mechanism, gap)
    (seeds / AV_GRPO).write_text(text.replace(wanpe.mechanism, first), encoding="utf-8")
    await ingest(sessions, [seeds])
    damaged = text.replace(wanpe.mechanism, again)

    if gap == "mid-sentence":
        lost = await refused(sessions, seeds / AV_GRPO, damaged)
        cut = [m.end() for m in re.finditer("。", first)][2] - 30  # where the gap starts
        assert lost == f"1 text (part of WanPE's mechanism, after '…{first[cut - 16 : cut]}')"
    else:
        (seeds / AV_GRPO).write_text(damaged, encoding="utf-8")
        report = await ingest(sessions, [seeds / AV_GRPO])
        assert report.suspect == [] and report.errors == []


async def test_a_quote_trimmed_on_purpose_inside_a_file_is_no_cut(
    sessions: Sessions, seeds: Path
) -> None:
    """A file is cut at its end: a quote shortened in the middle of a file, whatever its
    last character, is an edit."""
    await ingest(sessions, [seeds])
    text = SEED_TEXTS[AV_GRPO].decode()
    quote = next(line for line in text.split("\n") if line.startswith("   ") and "0.327" in line)
    trimmed = quote[: quote.index("0.327") + len("0.327")]
    (seeds / AV_GRPO).write_text(text.replace(quote, trimmed), encoding="utf-8")

    report = await ingest(sessions, [seeds / AV_GRPO])

    assert report.suspect == [] and report.errors == []


async def test_an_older_digest_re_delivered_takes_nothing_from_a_newer_one(
    sessions: Sessions, seeds: Path
) -> None:
    """A paper in two digests is the newer digest's: an edit to the older file (a typo
    fixed) updates the papers only it holds, and neither is refused for the claims the newer
    digest added nor replaces the newer digest's text and claims."""
    await ingest(sessions, [seeds])
    paragraphs = SEED_TEXTS[AV_GRPO].decode().split("\n\n")
    paper = paragraphs[1:22]  # AV-GRPO (2026-09-28): its prose, 7 claims, review, tail
    eighth = [
        "8. 新增一条声明：全量微调在 VABench 上同样提升。",
        "   Full fine-tuning also helps on VABench, by a wide margin.",
    ]
    later = seeds / "2026-10-10.txt"
    later.write_text(
        "\n\n".join(["2026-10-10", *paper[:18], *eighth, *paper[18:]]) + "\n", encoding="utf-8"
    )
    await ingest(sessions, [later])
    newer = await contents(sessions)

    older = seeds / AV_GRPO
    text = SEED_TEXTS[AV_GRPO].decode()
    claim_2, next_paper = paper[6], paragraphs[22]
    fixed = text.replace(claim_2, claim_2.replace("八卡", "8 卡")).replace(
        next_paper, next_paper + "（修订）"
    )
    older.write_text(fixed, encoding="utf-8")
    report = await ingest(sessions, [older])

    assert report.suspect == [] and report.errors == []
    assert report.papers == {"new": 0, "updated": 1}  # the paper only the older file holds
    papers, claims = await contents(sessions)
    assert papers == newer[0]
    assert claims == newer[1]  # AV-GRPO's 8 claims, as the newer digest wrote them
    async with sessions() as session:
        positioning = await session.execute(
            select(Paper.positioning).where(Paper.positioning.startswith(next_paper[:20]))
        )
    assert (positioning.scalar_one() or "").endswith("（修订）")


async def test_an_older_digest_fills_the_claims_a_newer_cut_copy_lacks(
    sessions: Sessions, seeds: Path
) -> None:
    """A newer digest, cut after a paper's third claim, stored first: the older digest's whole
    copy of the paper adds the claims it lacks (it replaces none)."""
    paragraphs = SEED_TEXTS[AV_GRPO].decode().split("\n\n")
    paper = paragraphs[1:22]  # AV-GRPO: its prose, 7 claims with quotes, review, tail
    cut = seeds / "2026-10-10.txt"
    cut.write_text("\n\n".join(["2026-10-10", *paper[:10]]) + "\n", encoding="utf-8")
    await ingest(sessions, [cut])

    report = await ingest(sessions, [seeds / AV_GRPO])

    assert report.suspect == [] and report.errors == []
    assert await claim_numbers(sessions, "AV-GRPO") == [1, 2, 3, 4, 5, 6, 7]


async def test_a_re_delivery_cut_after_a_semicolon_in_its_last_text_is_refused(
    sessions: Sessions, seeds: Path
) -> None:
    """A semicolon ends a clause, not a text: a file cut right after one is cut short."""
    await ingest(sessions, [seeds])
    text = SEED_TEXTS[GAPO_FILE].decode()
    follow_ups = text.rstrip().split("\n")[-1]
    assert "；" in follow_ups
    (seeds / GAPO_FILE).write_text(text[: text.rindex("；") + 1], encoding="utf-8")

    report = await ingest(sessions, [seeds / GAPO_FILE])

    [suspect] = report.suspect
    assert suspect["would_lose"] == "the end of 1 text (GAPO's follow ups)"


async def test_a_listing_cut_inside_its_last_entrys_analysis_is_refused(
    sessions: Sessions, seeds: Path
) -> None:
    """Cut between the paragraphs of its last entry's analysis, a listing loses the rest of
    it and every line after: the links the stored version holds."""
    await ingest(sessions, [seeds])
    name = "002_0d972703bbe36bb2.txt"
    text = SEED_TEXTS[name].decode()
    analysis = text.index("\n\n", text.rindex("LLM Analysis")) + 2
    cut = text[: text.index("\n\n", analysis)] + "\n"

    assert "'s pdf url" in await refused(sessions, seeds / name, cut)


async def test_an_older_digest_does_not_bring_back_a_claim_a_newer_review_dropped(
    sessions: Sessions, seeds: Path
) -> None:
    """A newer digest reviews a paper again, whole, without one of its claims: the older
    digest, re-delivered, does not put the claim back."""
    await ingest(sessions, [seeds])
    paragraphs = SEED_TEXTS[AV_GRPO].decode().split("\n\n")
    paper = paragraphs[1:22]  # AV-GRPO: its prose, 7 claims, review, tail
    later = seeds / "2026-10-10.txt"  # claim 7 dropped on purpose
    later.write_text("\n\n".join(["2026-10-10", *paper[:16], *paper[18:]]) + "\n", encoding="utf-8")
    await ingest(sessions, [later])
    older = seeds / AV_GRPO
    older.write_text(SEED_TEXTS[AV_GRPO].decode().replace("八卡", "8 卡"), encoding="utf-8")

    report = await ingest(sessions, [older])

    assert report.suspect == [] and report.errors == []
    assert await claim_numbers(sessions, "AV-GRPO") == [1, 2, 3, 4, 5, 6]


async def test_a_listings_last_link_written_without_its_version_is_no_cut(
    sessions: Sessions, seeds: Path
) -> None:
    """A link ends no sentence: a shorter one (`…/abs/2610.06017` for `…v2`) is an edit."""
    name = "002_0d972703bbe36bb2.txt"
    lines = SEED_TEXTS[name].decode().split("\n")
    url = max(i for i, line in enumerate(lines) if line.startswith("Arxiv URL: "))
    cool = max(i for i, line in enumerate(lines) if line.startswith("CoolPaper URL: "))
    versioned = [*lines[:url], lines[url] + "v2", *lines[url + 1 : cool], *lines[cool + 1 :]]
    (seeds / name).write_text("\n".join(versioned), encoding="utf-8")
    await ingest(sessions, [seeds / name])
    (seeds / name).write_text(
        "\n".join(versioned).replace(lines[url] + "v2", lines[url]), encoding="utf-8"
    )

    report = await ingest(sessions, [seeds / name])

    assert report.suspect == [] and report.errors == []


SENTENCES = st.lists(
    st.text(alphabet="ab。，（）. 模型", min_size=1, max_size=40), min_size=1, max_size=12
)


@settings(max_examples=300, deadline=None)
@given(SENTENCES, st.integers(min_value=0), st.integers(min_value=0, max_value=400))
def test_the_gap_check_places_a_gap_where_the_texts_allow_and_never_fails(
    pieces: list[str], start: int, size: int
) -> None:
    """Any stored text, any block taken out of it (repetitive text, brackets, sentence ends
    anywhere): the check answers None or where the gap starts, a place the two texts
    allow, and a block taken from the text's start is always an edit."""
    stored = "".join(pieces)
    start %= len(stored) + 1
    text = stored[:start] + stored[start + size :]

    at = loading._block_gone(text, stored)

    if at is not None:
        assert text[:at] == stored[:at]
        assert stored[at + len(stored) - len(text) :] == text[at:]
    assert loading._block_gone(stored[size:], stored) is None


ALPHA, BETA, GAMMA = (
    Entry(f"2610.0000{n}", name, f"We introduce {name}. It improves recall by {n}.1%.")
    for n, name in ((1, "Alpha"), (2, "Beta"), (3, "Gamma"))
)


async def test_a_paper_moved_to_another_days_file_is_no_loss(
    sessions: Sessions, tmp_path: Path
) -> None:
    """A pipeline regroups its digests: Beta leaves the 4th for the 5th. Delivered after the
    5th, the 4th's new version loses nothing (Beta's row stays, held by the 5th); delivered
    before it, it would lose Beta, and is suspect until the 5th holds it."""
    write(tmp_path / "day4.txt", huggingface_digest("2026-10-04", [ALPHA, BETA]))
    write(tmp_path / "day5.txt", huggingface_digest("2026-10-05", [GAMMA]))
    await ingest(sessions, [tmp_path])
    before = await contents(sessions)
    write(tmp_path / "day4.txt", huggingface_digest("2026-10-04", [ALPHA]))

    early = await ingest(sessions, [tmp_path / "day4.txt"])
    write(tmp_path / "day5.txt", huggingface_digest("2026-10-05", [BETA, GAMMA]))
    await ingest(sessions, [tmp_path / "day5.txt"])
    moved = await ingest(sessions, [tmp_path / "day4.txt"])

    assert [entry["path"] for entry in early.suspect] == [str(tmp_path / "day4.txt")]
    assert moved.suspect == [] and moved.errors == []
    assert await contents(sessions) == before
    async with sessions() as session:
        assert (await store_status(session)).suspect == []


async def test_a_suspect_file_removed_is_no_longer_suspect_and_comes_back_as_one(
    sessions: Sessions, seeds: Path
) -> None:
    """The operator deletes the damaged copy (a whole one arrives under another name): the
    next scan of the folder stops showing it as suspect. Delivered again, it is judged
    again."""
    await ingest(sessions, [seeds])
    before = await contents(sessions)
    path = seeds / AV_GRPO
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))
    assert (await ingest(sessions, [seeds])).suspect

    path.unlink()
    (seeds / "2026-09-28-fixed.txt").write_bytes(SEED_TEXTS[AV_GRPO])
    scan = await ingest(sessions, [seeds])

    assert scan.errors == [] and scan.suspect == []
    async with sessions() as session:
        assert (await store_status(session)).suspect == []
    assert await contents(sessions) == before
    path.write_bytes(first_lines(SEED_TEXTS[AV_GRPO], 13))
    assert [entry["path"] for entry in (await ingest(sessions, [seeds])).suspect] == [str(path)]


async def test_a_re_delivery_that_deleted_a_claim_names_that_claim(
    sessions: Sessions, seeds: Path
) -> None:
    """Claim 3 deleted and the claims after it numbered down (4-7 as 3-6): the version is
    refused, and what it would lose is claim 3, whose quote is gone, not claim 7, the
    number no longer used: the operator deciding on `--force` reads what goes."""
    await ingest(sessions, [seeds])
    text = SEED_TEXTS[AV_GRPO].decode()
    start, end = text.index("\n3. ") + 1, text.index("\n4. ") + 1
    rest = re.sub(r"^([4-7])\. ", lambda m: f"{int(m[1]) - 1}. ", text[end:], count=4, flags=re.M)
    path = seeds / AV_GRPO
    path.write_text(text[:start] + rest, encoding="utf-8")

    [suspect] = (await ingest(sessions, [seeds])).suspect

    assert suspect["would_lose"] == "1 claim (AV-GRPO#3)"
