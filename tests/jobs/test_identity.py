"""A paper keeps its identity through routine edits of its file: one row, updated in place."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from jobs.ingest import ingest
from jobs.parser import decode_digest, deep_read, parse_digest
from storage.db import Sessions
from storage.models import Claim, Document, Paper, PaperDocument
from storage.search import find_claim
from tests.digests import SEEDS, Entry, huggingface_digest, write

DEEP_READS = "004_ee791cd1952f5dee.txt"
AV_GRPO = "000_e3eab0f621521816.txt"
HUGGINGFACE = "002_0d972703bbe36bb2.txt"
SPLIT_AT = "非实时。 从审稿角度看"


async def papers_by_key(sessions: Sessions) -> dict[str, int]:
    async with sessions() as session:
        return dict((await session.execute(select(Paper.key, Paper.id))).all())


async def review_claims(sessions: Sessions) -> int:
    async with sessions() as session:
        query = select(func.count()).select_from(Claim).where(Claim.source == "review")
        return (await session.execute(query)).scalar_one()


async def paper_named(sessions: Sessions, name: str) -> Paper:
    async with sessions() as session:
        return (await session.execute(select(Paper).where(Paper.name == name))).scalar_one()


async def papers_addressed(sessions: Sessions, address: str) -> list[str | None]:
    """The names of the papers whose claim `address` (`GAPO#3`) finds."""
    async with sessions() as session:
        found = await find_claim(session, address)
    return [hit.paper.name for hit in found.hits] if found else []


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


async def ingest_edited(sessions: Sessions, seeds: Path, old: str, new: str) -> dict[str, int]:
    """Ingest the seeds, edit the deep-read file, ingest again: the papers updated in place."""
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    edit(seeds / DEEP_READS, old, new)
    report = await ingest(sessions, [seeds])
    assert report.documents == {"new": 0, "changed": 1, "unchanged": 2, "failed": 0}
    assert report.papers["new"] == 0
    assert sorted((await papers_by_key(sessions)).values()) == sorted(before.values())
    assert await review_claims(sessions) == 133
    return report.papers


async def test_a_split_limitations_paragraph_moves_nothing_into_the_next_paper(
    sessions: Sessions, seeds: Path
) -> None:
    papers = await ingest_edited(sessions, seeds, SPLIT_AT, "非实时。\n\n 从审稿角度看")

    assert papers == {"new": 0, "updated": 1}  # ENEAS: its limitations are now two paragraphs
    eneas = await paper_named(sessions, "ENEAS")
    skills = await paper_named(sessions, "EmbodiedSkills")
    assert eneas.limitations is not None and "从审稿角度看" in eneas.limitations
    assert eneas.follow_ups is not None and eneas.follow_ups.startswith("论文给出的未来方向")
    assert skills.positioning is not None and skills.positioning.startswith("本文的定位不是")
    async with sessions() as session:
        holders = await session.execute(
            select(func.count(func.distinct(Claim.paper_id))).where(
                Claim.quote_en.contains("86.20%")
            )
        )
    assert holders.scalar_one() == 1  # `/claims 86.20%` lists each hit once


async def test_a_re_delivery_without_blank_lines_keeps_every_paper_and_claim(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    text = (seeds / DEEP_READS).read_text(encoding="utf-8")
    (seeds / DEEP_READS).write_text(
        "\n".join(line for line in text.split("\n") if line.strip()), encoding="utf-8"
    )

    report = await ingest(sessions, [seeds])

    assert report.errors == [] and report.suspect == []
    assert report.papers == {"new": 0, "updated": 0}  # the same papers, read the same
    assert await papers_by_key(sessions) == before
    assert await review_claims(sessions) == 133


async def test_a_space_in_the_positioning_or_the_first_quote_keeps_the_paper(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest_edited(sessions, seeds, "本文提出 ENEAS（", "本文提出  ENEAS （")
    edit(seeds / DEEP_READS, "As detailed in Table 1 ,", "As detailed in Table 1,")
    report = await ingest(sessions, [seeds])
    assert report.papers["new"] == 0
    assert len(await papers_by_key(sessions)) == 36


async def test_a_reworded_sentence_keeps_the_paper(sessions: Sessions, seeds: Path) -> None:
    # The old key's text (the positioning) and the new key's (the first quote) both reworded.
    await ingest_edited(
        sessions, seeds, "一个统一的文本可提示分割方法", "一种统一的、可用文本提示的分割方法"
    )
    edit(seeds / DEEP_READS, "As detailed in Table 1 ,", "As Table 1 details,")
    edit(seeds / DEEP_READS, "To overcome this bottleneck,", "To remove this bottleneck,")
    report = await ingest(sessions, [seeds])
    assert report.papers == {"new": 0, "updated": 2}
    assert len(await papers_by_key(sessions)) == 36
    assert await review_claims(sessions) == 133
    eneas = await paper_named(sessions, "ENEAS")
    async with sessions() as session:
        first = await session.execute(
            select(Claim.quote_en).where(Claim.paper_id == eneas.id, Claim.number == 1)
        )
    assert first.scalar_one().startswith("As Table 1 details,")


async def test_another_file_name_or_a_second_file_keeps_one_row_per_paper(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)

    (seeds / DEEP_READS).rename(seeds / "2026-09-09-redelivered.txt")
    shutil.copy(seeds / "2026-09-09-redelivered.txt", seeds / "copy.txt")
    (seeds / "copy.txt").write_text(
        (seeds / "copy.txt")
        .read_text(encoding="utf-8")
        .replace(SPLIT_AT, "非实时。\n\n从审稿角度看"),
        encoding="utf-8",
    )
    report = await ingest(sessions, [seeds])

    assert report.documents["new"] == 2
    assert report.papers["new"] == 0
    assert await papers_by_key(sessions) == before
    assert await review_claims(sessions) == 133
    eneas = await paper_named(sessions, "ENEAS")
    async with sessions() as session:
        sources = await session.execute(
            select(func.count())
            .select_from(PaperDocument)
            .where(PaperDocument.paper_id == eneas.id)
        )
    assert sources.scalar_one() == 3  # the old name, the new one, the copy


async def test_a_list_exported_with_no_break_spaces_in_its_labels_is_the_same_papers(
    sessions: Sessions, seeds: Path
) -> None:
    """An HTML export writes `Arxiv&nbsp;ID:`: its papers keep their arXiv IDs and are the
    ones stored, not 20 more."""
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    listing = (seeds / HUGGINGFACE).read_text(encoding="utf-8")
    label = re.compile(r"(?m)^(PDF|Arxiv|CoolPaper) (URL|ID):")
    exported = label.sub(lambda m: f"{m[1]}\u00a0{m[2]}:", listing)
    assert exported != listing
    write(seeds / "hf-from-html.txt", exported)

    report = await ingest(sessions, [seeds])

    assert (report.documents["new"], report.papers, report.warnings) == (
        1,
        {"new": 0, "updated": 0},
        [],
    )
    assert await papers_by_key(sessions) == before


async def test_a_store_keyed_by_the_first_parser_is_mapped_onto_the_new_keys(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    legacy = {
        paper.key: paper.aliases[-1]
        for path in SEEDS.glob("*.txt")
        for paper in parse_digest(decode_digest(path.read_bytes())).papers
        if paper.arxiv_id is None
    }
    async with sessions.begin() as session:  # the store as the first parser version left it
        for key, old in legacy.items():
            await session.execute(update(Paper).where(Paper.key == key).values(key=old))
        await session.execute(update(Document).values(parser_version="1"))

    report = await ingest(sessions, [seeds])  # a new parser version re-reads every file once

    assert report.documents["changed"] == 3
    assert report.papers["new"] == 0
    assert await papers_by_key(sessions) == before
    again = await ingest(sessions, [seeds])
    assert again.documents["unchanged"] == 3


ALPHA_AND_BETA = [
    Entry("2610.00001", "Alpha", abstract="We introduce Alpha. It improves recall by 4%."),
    Entry("2610.00002", "Beta", abstract="We introduce Beta. It halves the latency."),
]


def without_arxiv_lines(listing: str) -> str:
    """The list as an export that leaves out the entries' arXiv and link lines writes it."""
    dropped = ("PDF URL", "Arxiv", "Cool")
    return "\n".join(line for line in listing.split("\n") if not line.startswith(dropped))


async def test_a_listing_without_arxiv_lines_is_not_duplicated_by_its_later_listing(
    sessions: Sessions, tmp_path: Path
) -> None:
    listing = huggingface_digest("2026-10-04", ALPHA_AND_BETA)
    without_ids = without_arxiv_lines(listing)
    write(tmp_path / "early.txt", without_ids)
    await ingest(sessions, [tmp_path / "early.txt"])
    before = await papers_by_key(sessions)
    assert len(before) == 2 and all(key.startswith("text:") for key in before)

    write(tmp_path / "late.txt", listing)
    report = await ingest(sessions, [tmp_path / "late.txt"])

    assert report.papers == {"new": 0, "updated": 2}
    after = await papers_by_key(sessions)
    assert sorted(after) == ["arxiv:2610.00001", "arxiv:2610.00002"]
    assert sorted(after.values()) == sorted(before.values())  # the same rows, re-keyed


def without_claims_of(name: str) -> str:
    """The deep-read seed with the claims of the paper of this name left out (their
    extraction failed), its text and review kept."""
    text = (SEEDS / DEEP_READS).read_text(encoding="utf-8")
    paper = next(paper for paper in parse_digest(text).papers if paper.name == name)
    assert paper.positioning
    start = text.index(paper.positioning)
    end = text.index("Novelty：", start)
    claims = re.compile(r"(?ms)^[0-9]+\. .*?\n\n {3,}.*?\n\n")
    return text[:start] + claims.sub("", text[start:end]) + text[end:]


async def test_a_copy_without_the_claims_a_stored_paper_has_takes_none_of_them(
    sessions: Sessions, seeds: Path
) -> None:
    """The other order: the whole day stored first, then a copy under another name whose
    claim extraction failed for GAPO. Its sentences are all in the stored copy, but it is
    no completion: GAPO keeps its claims."""
    await ingest(sessions, [seeds])
    write(seeds / "2026-09-09-rerun.txt", without_claims_of("GAPO"))

    await ingest(sessions, [seeds / "2026-09-09-rerun.txt"])

    assert await review_claims(sessions) == 133


async def test_a_mistyped_arxiv_id_corrected_in_a_re_delivery_keeps_the_row(
    sessions: Sessions, tmp_path: Path
) -> None:
    """The same list again with one entry's ID fixed (`2610.00001` for `2610.00021`): the
    same paper re-keyed, not a paper lost (suspect) and another added."""
    mistyped = [Entry("2610.00021", "Alpha", ALPHA_AND_BETA[0].abstract), ALPHA_AND_BETA[1]]
    write(tmp_path / "list.txt", huggingface_digest("2026-10-04", mistyped))
    await ingest(sessions, [tmp_path / "list.txt"])
    before = await papers_by_key(sessions)

    write(tmp_path / "list.txt", huggingface_digest("2026-10-04", ALPHA_AND_BETA))
    report = await ingest(sessions, [tmp_path / "list.txt"])

    assert not report.suspect
    assert report.papers == {"new": 0, "updated": 1}
    after = await papers_by_key(sessions)
    assert sorted(after) == ["arxiv:2610.00001", "arxiv:2610.00002"]
    assert after["arxiv:2610.00001"] == before["arxiv:2610.00021"]
    async with sessions() as session:
        ids = await session.execute(select(Paper.arxiv_id).order_by(Paper.arxiv_id))
    assert list(ids.scalars()) == ["2610.00001", "2610.00002"]


async def test_an_id_another_file_lists_is_not_re_keyed_by_a_new_typo(
    sessions: Sessions, tmp_path: Path
) -> None:
    """Two days list Alpha as 2610.00001; one is re-delivered with the ID mistyped. The
    other file still says 2610.00001: the row keeps it, and the re-delivery, which would
    lose that paper, is suspect."""
    write(tmp_path / "day-1.txt", huggingface_digest("2026-10-03", ALPHA_AND_BETA))
    write(tmp_path / "day-2.txt", huggingface_digest("2026-10-04", ALPHA_AND_BETA))
    await ingest(sessions, [tmp_path])
    mistyped = [Entry("2610.00021", "Alpha", ALPHA_AND_BETA[0].abstract), ALPHA_AND_BETA[1]]
    write(tmp_path / "day-2.txt", huggingface_digest("2026-10-04", mistyped))

    report = await ingest(sessions, [tmp_path / "day-2.txt"])

    assert len(report.suspect) == 1
    assert sorted(await papers_by_key(sessions)) == ["arxiv:2610.00001", "arxiv:2610.00002"]


async def test_a_listing_without_arxiv_lines_is_matched_by_title_when_the_abstract_changed(
    sessions: Sessions, tmp_path: Path
) -> None:
    early = [Entry("2610.00001", "Alpha", abstract="We introduce Alpha. It improves recall.")]
    listing = huggingface_digest("2026-10-04", early)
    without_ids = without_arxiv_lines(listing)
    write(tmp_path / "early.txt", without_ids)
    await ingest(sessions, [tmp_path / "early.txt"])
    [before] = (await papers_by_key(sessions)).values()

    revised = [Entry("2610.00001", "Alpha", abstract="We present Alpha, revised. Recall +4%.")]
    write(tmp_path / "late.txt", huggingface_digest("2026-10-05", revised))
    report = await ingest(sessions, [tmp_path / "late.txt"])

    assert report.papers == {"new": 0, "updated": 1}
    assert await papers_by_key(sessions) == {"arxiv:2610.00001": before}


async def test_a_later_listing_without_arxiv_lines_is_not_duplicated(
    sessions: Sessions, tmp_path: Path
) -> None:
    listing = huggingface_digest("2026-10-04", ALPHA_AND_BETA)
    write(tmp_path / "with-ids.txt", listing)
    await ingest(sessions, [tmp_path / "with-ids.txt"])
    before = await papers_by_key(sessions)

    without_ids = without_arxiv_lines(listing)
    write(tmp_path / "without-ids.txt", without_ids)
    report = await ingest(sessions, [tmp_path / "without-ids.txt"])

    assert report.papers["new"] == 0
    assert await papers_by_key(sessions) == before  # the arXiv keys stay


async def test_an_edited_first_quote_under_another_file_name_keeps_the_paper(
    sessions: Sessions, seeds: Path
) -> None:
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    gapo = await paper_named(sessions, "GAPO")
    async with sessions() as session:
        first = (
            await session.execute(
                select(Claim.quote_en).where(Claim.paper_id == gapo.id, Claim.number == 1)
            )
        ).scalar_one()
    edit(seeds / DEEP_READS, first, f"In short, {first}")  # the text GAPO is keyed by
    (seeds / DEEP_READS).rename(seeds / "2026-09-09-redelivered.txt")

    report = await ingest(sessions, [seeds])

    assert report.papers["new"] == 0
    assert sorted((await papers_by_key(sessions)).values()) == sorted(before.values())
    assert (await paper_named(sessions, "GAPO")).id == gapo.id


async def test_a_deep_read_first_delivered_without_its_claims_is_completed_in_place(
    sessions: Sessions, seeds: Path
) -> None:
    """A pipeline whose claim extraction failed for one paper delivers the day without its
    claims, then the whole day again under another name: the paper's sentences are then
    nearly all of the first copy's, a fraction of its own."""
    write(seeds / DEEP_READS, without_claims_of("GAPO"))
    await ingest(sessions, [seeds])
    first = await paper_named(sessions, "GAPO")
    shutil.copy(SEEDS / DEEP_READS, seeds / "2026-09-09-rerun.txt")

    report = await ingest(sessions, [seeds / "2026-09-09-rerun.txt"])

    assert report.papers["new"] == 0
    assert (await paper_named(sessions, "GAPO")).id == first.id
    assert await review_claims(sessions) == 133


async def test_another_paper_of_the_same_title_in_a_listing_without_arxiv_lines_is_its_own(
    sessions: Sessions, tmp_path: Path
) -> None:
    write(tmp_path / "with-ids.txt", huggingface_digest("2026-10-04", ALPHA_AND_BETA))
    await ingest(sessions, [tmp_path / "with-ids.txt"])
    other = Entry("2610.09999", "Alpha", abstract="We study Alpha particles. Decay rates fall 9%.")
    write(tmp_path / "other.txt", without_arxiv_lines(huggingface_digest("2026-10-05", [other])))

    report = await ingest(sessions, [tmp_path / "other.txt"])

    assert report.papers == {"new": 1, "updated": 0}
    async with sessions() as session:
        stored = await session.execute(
            select(Paper.abstract_en).where(Paper.arxiv_id == "2610.00001")
        )
    assert stored.scalar_one() == ALPHA_AND_BETA[0].abstract


async def test_two_papers_of_one_name_sharing_stock_sentences_stay_two(
    sessions: Sessions, tmp_path: Path
) -> None:
    """Abstract-only entries named alike in two digests: a few stock sentences in common
    are no sign of one paper."""
    stock = "Large language models have shown remarkable capabilities across many tasks."
    ending = "Extensive experiments demonstrate the effectiveness of our method."
    for day, middle in (
        ("2026-10-11", "RL for LLMs is slow. We propose FlashRL, which overlaps rollouts."),
        ("2026-10-12", "Serving is memory bound. We propose FlashRL, which evicts cache blocks."),
    ):
        abstract = f"{stock} {middle} {ending}"
        write(tmp_path / f"{day}.txt", f"{day}\n\n{abstract}\n\n{deep_read.NOTE}\n")
        await ingest(sessions, [tmp_path / f"{day}.txt"])

    assert len(await papers_by_key(sessions)) == 2


LONG_ABSTRACT = " ".join(
    f"Finding {n}: on benchmark B{n}, Alpha improves recall by {n}.{n}% over the baseline."
    for n in range(1, 30)
)


async def listed_and_abstract_only(
    sessions: Sessions, tmp_path: Path, listed: Entry, abstract: str, listed_first: bool
) -> Path:
    """Ingest a listing of `listed` and a deep-read digest holding `abstract` as an
    abstract-only entry, in that order or the other; the digest's path."""
    listing = write(tmp_path / "listing.txt", huggingface_digest("2026-10-04", [listed]))
    abstract_only = write(
        tmp_path / "deep-reads.txt", f"2026-10-05\n\n{abstract}\n\n{deep_read.NOTE}\n"
    )
    for path in (listing, abstract_only) if listed_first else (abstract_only, listing):
        await ingest(sessions, [path])
    return abstract_only


@pytest.mark.parametrize("listed_first", [True, False])
@pytest.mark.parametrize(
    "abstract", ["We introduce Alpha. It improves recall by 4%.", LONG_ABSTRACT]
)
async def test_a_listed_paper_and_its_abstract_only_entry_are_one_row(
    sessions: Sessions, tmp_path: Path, listed_first: bool, abstract: str
) -> None:
    """A HuggingFace entry and a deep-read digest's abstract-only entry of the same abstract
    (which that format cuts at 1,000 characters) are one paper in either order; the
    abstract-only entry, which says less, takes nothing away: the title, the arXiv key and
    the abstract's findings stay."""
    alpha = Entry("2610.00001", "Alpha: Recall for All", abstract=abstract)
    abstract_only = await listed_and_abstract_only(
        sessions, tmp_path, alpha, abstract[:1000], listed_first
    )

    async with sessions() as session:
        [paper] = (await session.execute(select(Paper))).scalars().all()
        findings = await session.execute(
            select(func.count()).select_from(Claim).where(Claim.paper_id == paper.id)
        )
        documents = await session.execute(
            select(func.count())
            .select_from(PaperDocument)
            .where(PaperDocument.paper_id == paper.id)
        )
    assert (paper.key, paper.title, paper.kind) == ("arxiv:2610.00001", alpha.title, "huggingface")
    [entry] = parse_digest(decode_digest(abstract_only.read_bytes())).papers
    assert paper.name == entry.name  # what the abstract-only entry adds, in either order
    assert findings.scalar_one() >= 1
    assert documents.scalar_one() == 2


@pytest.mark.parametrize("listed_first", [True, False])
async def test_two_papers_whose_abstracts_open_alike_stay_two(
    sessions: Sessions, tmp_path: Path, listed_first: bool
) -> None:
    """Abstracts sharing their first 240 letters and more (a shared framing paragraph) are
    two papers: an abstract-only entry joins a listed paper only as a copy of its abstract."""
    shared = LONG_ABSTRACT[:900].rstrip()  # past the 240 letters and digits the abstract key holds
    listed = Entry("2610.00001", "Alpha: Recall for All", abstract=shared + " Alpha wins.")
    other = shared + " We then propose Beta, a different method, which halves the latency."
    await listed_and_abstract_only(sessions, tmp_path, listed, other, listed_first)

    async with sessions() as session:
        rows = (await session.execute(select(Paper.key, Paper.abstract_en))).all()
    assert sorted(abstract or "" for _, abstract in rows) == sorted([listed.abstract, other])
    assert ("arxiv:2610.00001", listed.abstract) in rows


async def test_an_edited_abstract_only_entry_that_joined_a_listed_paper_stays_joined(
    sessions: Sessions, tmp_path: Path
) -> None:
    """A word of a joined abstract-only entry's first sentence fixed (its key and abstract
    key change): the file is no suspect, and the paper stays one row."""
    alpha = Entry("2610.00001", "Alpha: Recall for All", abstract=LONG_ABSTRACT)
    await ingest(
        sessions, [write(tmp_path / "listing.txt", huggingface_digest("2026-10-04", [alpha]))]
    )
    abstract_only = tmp_path / "deep-reads.txt"
    write(abstract_only, f"2026-10-05\n\n{LONG_ABSTRACT[:1000]}\n\n{deep_read.NOTE}\n")
    await ingest(sessions, [abstract_only])
    fixed = LONG_ABSTRACT[:1000].replace("Alpha improves", "Alpha raises", 1)
    write(abstract_only, f"2026-10-05\n\n{fixed}\n\n{deep_read.NOTE}\n")

    report = await ingest(sessions, [abstract_only])

    assert report.suspect == [] and report.errors == []
    assert list(await papers_by_key(sessions)) == ["arxiv:2610.00001"]


async def claim_text(sessions: Sessions, name: str, number: int) -> str:
    async with sessions() as session:
        query = select(Claim.text_zh).join(Paper).where(Paper.name == name, Claim.number == number)
        return (await session.execute(query)).scalar_one()


@pytest.mark.parametrize("edited_last", ["correction", "original"])
async def test_of_two_files_of_one_date_the_one_delivered_last_wins_every_read(
    sessions: Sessions, tmp_path: Path, edited_last: str
) -> None:
    """A correction sent as a second file of the same date (`…-fixed.txt`, which sorts
    before the original) beside the original: the file delivered last holds the paper,
    after a re-scan and after a forced re-read too (a new parser re-reads every file)."""
    folder = tmp_path / "digests"
    folder.mkdir()
    original, correction = folder / "2026-09-09.txt", folder / "2026-09-09-fixed.txt"
    shutil.copy(SEEDS / DEEP_READS, original)
    os.utime(original, ns=(10**18, 10**18))
    await ingest(sessions, [folder])
    said = "ENEAS 在 HOTA（9.23 vs 9.19）"
    corrected = "ENEAS 在 HOTA（9.24 vs 9.19，已更正）"
    text = original.read_text(encoding="utf-8").replace(said, corrected)
    correction.write_text(text, encoding="utf-8")
    os.utime(correction, ns=(2 * 10**18, 2 * 10**18))
    if edited_last == "original":  # the original, edited again after the correction came
        edit(original, said, "ENEAS 在 HOTA（9.25 vs 9.19）")
        os.utime(original, ns=(3 * 10**18, 3 * 10**18))
    wanted = {"correction": corrected, "original": "ENEAS 在 HOTA（9.25 vs 9.19）"}[edited_last]

    for force in (False, False, True):
        await ingest(sessions, [folder], force=force)
        assert wanted in await claim_text(sessions, "ENEAS", 3)


def deep_read_of(seed: str, opening: str, renamed: tuple[str, str], day: str) -> str:
    """A digest of one deep read taken from a seed (from the paragraph it opens with to
    its follow-ups), its name replaced."""
    paragraphs = (SEEDS / seed).read_text(encoding="utf-8").split("\n\n")
    start = next(i for i, p in enumerate(paragraphs) if p.startswith(opening))
    review = next(i for i in range(start, len(paragraphs)) if paragraphs[i].startswith("Novelty"))
    text = "\n\n".join(paragraphs[start : review + 3]).replace(*renamed)
    return f"{day}\n\n{text}\n"


async def test_a_new_paper_of_a_taken_name_is_numbered_so_each_claim_has_one_address(
    sessions: Sessions, tmp_path: Path
) -> None:
    """Another paper called GAPO (acronyms are reused) arrives after the seeds' GAPO: it is
    named GAPO-2, with a warning, so `GAPO#3` and `GAPO-2#3` each name one claim; re-read,
    or re-sent under another name with its first quote corrected, it stays GAPO-2."""
    write(tmp_path / "2026-09-09.txt", (SEEDS / DEEP_READS).read_text(encoding="utf-8"))
    await ingest(sessions, [tmp_path])
    other = deep_read_of(AV_GRPO, "本文提出 X-Planner", ("X-Planner", "GAPO"), "2026-09-28")
    write(tmp_path / "2026-09-28.txt", other)

    report = await ingest(sessions, [tmp_path])

    (warning,) = [w["warning"] for w in report.warnings if "GAPO-2" in w["warning"]]
    assert warning.endswith(
        "another paper is called GAPO; this one is named GAPO-2, so that its claims have "
        "addresses of their own (GAPO-2#1, …)"
    )
    said = "Table 2 shows that GAPO ranks second"
    for again in ("re-read", "re-sent"):
        if again == "re-sent":  # beside the first, delivered after it
            write(tmp_path / "2026-09-28-v2.txt", other.replace(said, said + " clearly"))
            os.utime(tmp_path / "2026-09-28.txt", ns=(10**18, 10**18))
        again_report = await ingest(sessions, [tmp_path], force=again == "re-read")
        assert not [w for w in again_report.warnings if "no longer names" in w["warning"]]
        async with sessions() as session:
            first = await find_claim(session, "GAPO#3")
            second = await find_claim(session, "GAPO-2#1")
            count = await session.scalar(select(func.count()).select_from(Paper))
        assert count == 9
        assert first is not None and second is not None
        assert [hit.paper.name for hit in (*first.hits, *second.hits)] == ["GAPO", "GAPO-2"]
        assert "AIME" in first.hits[0].quote_en + first.hits[0].text_zh
        assert said in second.hits[0].quote_en
        assert (said + " clearly" in second.hits[0].quote_en) == (again == "re-sent")


# The deep read of the paper the seed lists by its abstract only (Ψ-Spec): it speaks of its
# methods in the abstract's terms (LLM, AR, NTP, d-LLMs), as a deep read of one paper does.
PSI_SPEC_READ = """本文提出 Ψ-Spec，一族用于扩散增强 LLM 的采样器，定位在加速 AR 生成的推理阶段。

背景：NTP 训练的 AR 模型逐个生成 token，速度受限；d-LLMs 并行生成但分布不同。

机制：AR 权重沿用标准 NTP 目标，扩散权重由 Diffusion Distillation 学习，一次生成多个 token。

实验：在固定上下文长度下，Ψ-Spec 无损加速生成并支持推理时扩展。

1. Ψ-Spec 不需要单独的草稿模型。

   Unlike speculative decoding, our method requires no separate draft model.

2. 扩散权重的训练几乎不给现有 LLM 训练流程增加开销。

   The diffusion weights are learned through a simple Diffusion Distillation phase that
   adds negligible overhead to existing LLM training pipelines.

3. 模型分布仍是 AR 分布，采样无损。

   We introduce diffusion-augmented LLMs, a new class of models that defines an AR model
   distribution while using diffusion to draw multiple tokens in parallel.

Novelty：把扩散用作 AR 分布的并行采样器。 Soundness：无损性有保证。 Significance：推理加速。

局限：只在固定上下文长度下评估。

后续：可扩展到更长上下文。
"""


async def test_the_deep_read_of_a_paper_an_abstract_only_entry_named_keeps_the_name(
    sessions: Sessions, tmp_path: Path
) -> None:
    """Ψ-Spec first came as an abstract-only entry; its deep read a week later is the same
    paper: it keeps the name, and `Ψ-Spec#3` finds its claim."""
    write(tmp_path / "2026-09-09.txt", (SEEDS / DEEP_READS).read_text(encoding="utf-8"))
    await ingest(sessions, [tmp_path])
    write(tmp_path / "2026-09-16.txt", f"2026-09-16\n\n{PSI_SPEC_READ}")

    report = await ingest(sessions, [tmp_path])

    assert report.warnings == []
    assert report.papers == {"new": 0, "updated": 1}  # one row: the entry, read in full now
    async with sessions() as session:
        found = await find_claim(session, "Ψ-Spec#3")
        rows = (await session.execute(select(Paper).where(Paper.name == "Ψ-Spec"))).scalars()
        [row] = rows.all()
    assert found is not None and [hit.paper.name for hit in found.hits] == ["Ψ-Spec"]
    assert (row.kind, row.abstract_en is not None) == ("deep_read", True)  # the abstract kept


async def test_an_abstract_only_entry_of_a_deep_read_stored_fills_what_it_lacks(
    sessions: Sessions, tmp_path: Path
) -> None:
    """The other way round: the deep read first, then an abstract-only entry of its name
    (a later digest listing it again): one row, the deep read's claims and text kept."""
    write(tmp_path / "2026-09-08.txt", f"2026-09-08\n\n{PSI_SPEC_READ}")
    await ingest(sessions, [tmp_path])
    claims = await review_claims(sessions)
    write(tmp_path / "2026-09-09.txt", (SEEDS / DEEP_READS).read_text(encoding="utf-8"))

    await ingest(sessions, [tmp_path])

    async with sessions() as session:
        rows = (await session.execute(select(Paper).where(Paper.name == "Ψ-Spec"))).scalars()
        [row] = rows.all()
        found = await find_claim(session, "Ψ-Spec#3")
    assert (row.kind, row.abstract_en is not None) == ("deep_read", True)
    assert found is not None and [hit.paper.name for hit in found.hits] == ["Ψ-Spec"]
    assert await review_claims(sessions) > claims  # the seed's other deep reads joined


PHOTONICS = (
    "We present GAPO, a genetic algorithm for photonic optimisation that designs metasurface "
    "lenses with 40% higher focusing efficiency than adjoint methods, using a surrogate "
    "electromagnetic solver to evaluate candidate layouts."
)


@pytest.mark.parametrize("first", ["deep read", "abstract"])
async def test_an_abstract_only_entry_of_another_paper_of_a_deep_reads_name_is_named_apart(
    sessions: Sessions, tmp_path: Path, first: str
) -> None:
    """An abstract about another paper called GAPO (a photonics solver; short names are
    reused) and the seeds' GAPO, in either order: two papers, the later named GAPO-2 with
    a warning; neither takes the other's text."""
    note = "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。"
    files = {
        "deep read": (SEEDS / DEEP_READS).read_text(encoding="utf-8"),
        "abstract": f"2026-09-10\n\n{PHOTONICS}\n\n{note}\n",
    }
    write(tmp_path / "1.txt", files.pop(first))
    await ingest(sessions, [tmp_path])
    write(tmp_path / "2.txt", files.popitem()[1])

    report = await ingest(sessions, [tmp_path])

    async with sessions() as session:
        rows = (await session.execute(select(Paper).where(Paper.name.like("GAPO%")))).scalars()
        named = {row.name: (row.kind, row.abstract_en) for row in rows}
    deep, listed = ("GAPO", "GAPO-2") if first == "deep read" else ("GAPO-2", "GAPO")
    assert named == {deep: ("deep_read", None), listed: ("abstract_only", PHOTONICS)}
    assert any("this one is named GAPO-2" in w["warning"] for w in report.warnings)


@pytest.mark.parametrize(
    ("seed", "name", "old", "new"),
    [
        (AV_GRPO, "AV-GRPO", "AV-GRPO 的核心主张是", "AV-GRPO 核心主张是"),  # a word dropped
        (DEEP_READS, "Enoki", "但二者通常分离。Enoki", "但二者通常分离。\n\nEnoki"),  # split
        (DEEP_READS, "GAPO", "GAPO 是一篇", "本文研究的 GAPO 是一篇"),  # reworded
        # A part of its name written alone: `Hunyuan` inside `Hunyuan-A13B` is not it.
        (AV_GRPO, "Hunyuan-A13B", "腾讯混元团队发布的", "腾讯 Hunyuan 团队发布的"),
    ],
)
async def test_an_edit_that_moves_the_words_a_name_is_read_from_keeps_the_name(
    sessions: Sessions, seeds: Path, seed: str, name: str, old: str, new: str
) -> None:
    """A name is read from cue phrases (`X 的核心主张是`); an edit there, in a paper whose
    text still mentions its name, leaves the name and every address cited (`AV-GRPO#3`)."""
    await ingest(sessions, [seeds])
    before = await paper_named(sessions, name)
    edit(seeds / seed, old, new)

    report = await ingest(sessions, [seeds])

    assert report.papers == {"new": 0, "updated": 1} and report.warnings == []
    assert (await paper_named(sessions, name)).id == before.id
    assert await papers_addressed(sessions, f"{name}#3") == [name]


async def test_a_paper_whose_text_no_longer_mentions_its_name_is_renamed_with_a_warning(
    sessions: Sessions, seeds: Path
) -> None:
    """Renamed on purpose (a name corrected in each of its three mentions): the paper takes
    the new name, and the warning says its addresses changed."""
    await ingest(sessions, [seeds])
    skills = await paper_named(sessions, "EmbodiedSkills")
    text = (seeds / DEEP_READS).read_text(encoding="utf-8")
    write(seeds / DEEP_READS, text.replace("EmbodiedSkills", "EmbodiedOps"))

    report = await ingest(sessions, [seeds])

    assert (await paper_named(sessions, "EmbodiedOps")).id == skills.id
    line = text[: text.index("EmbodiedSkills")].count("\n") + 1
    assert [w["warning"] for w in report.warnings] == [
        f"line {line}: EmbodiedSkills no longer names this paper (its text calls it "
        "EmbodiedOps); it is called EmbodiedOps now, its claims EmbodiedOps#1, …"
    ]


@pytest.mark.parametrize(
    ("name", "renamed"),
    [
        ("WanPE", "CinePE"),  # in most of its sentences, its first quote (its key) too
        ("WanPE", "WanPE2"),
        ("X-Planner", "EventPlanner"),
        ("RLCDAlignBench", "RLCDBench"),
    ],
)
async def test_a_paper_renamed_throughout_is_the_same_paper_renamed(
    sessions: Sessions, seeds: Path, name: str, renamed: str
) -> None:
    """A method renamed in every sentence of its deep read: the same paper under the new
    name. Its sentences, compared without the name, are the same; compared with it, the
    file was refused as losing the old paper, and forced, held both with the same claims."""
    await ingest(sessions, [seeds])
    before = await paper_named(sessions, name)
    text = (seeds / AV_GRPO).read_text(encoding="utf-8")
    write(seeds / AV_GRPO, text.replace(name, renamed))

    report = await ingest(sessions, [seeds])

    assert report.suspect == [] and report.papers == {"new": 0, "updated": 1}
    assert (await paper_named(sessions, renamed)).id == before.id
    assert await review_claims(sessions) == 133


async def test_a_paper_renamed_onto_another_papers_name_keeps_its_own_with_a_warning(
    sessions: Sessions, seeds: Path
) -> None:
    """WanPE renamed throughout to GAPO, another stored paper's name: still its own row,
    under the name its claims are cited by, and the warning says why the new one was not
    taken (it would give two papers one address, `GAPO#3`)."""
    await ingest(sessions, [seeds])
    wanpe, gapo = await paper_named(sessions, "WanPE"), await paper_named(sessions, "GAPO")
    text = (seeds / AV_GRPO).read_text(encoding="utf-8")
    write(seeds / AV_GRPO, text.replace("WanPE", "GAPO"))

    report = await ingest(sessions, [seeds])

    assert report.suspect == [] and report.papers == {"new": 0, "updated": 1}
    assert (await paper_named(sessions, "WanPE")).id == wanpe.id
    assert (await paper_named(sessions, "GAPO")).id == gapo.id
    line = text[: text.index("WanPE")].count("\n") + 1
    assert [w["warning"] for w in report.warnings] == [
        f"line {line}: its text now calls this paper GAPO, the name of another paper; it "
        "keeps the name WanPE, its claims WanPE#1, …"
    ]


async def test_a_copy_under_another_name_with_its_name_cue_and_a_quote_edited_is_one_paper(
    sessions: Sessions, seeds: Path
) -> None:
    """A correction sent as `-v2`: Enoki's first paragraph split (its name cue moves to a
    paragraph of its own) and its first quote reworded (the text it is keyed by). It is
    still found among the papers its opening mentions by name, and updated in place."""
    await ingest(sessions, [seeds])
    before = await papers_by_key(sessions)
    edit(seeds / DEEP_READS, "但二者通常分离。Enoki", "但二者通常分离。\n\nEnoki")
    edit(seeds / DEEP_READS, "entity- and span-level", "entity-level and span-level")
    (seeds / DEEP_READS).rename(seeds / "2026-09-09-v2.txt")

    report = await ingest(sessions, [seeds])

    assert report.papers == {"new": 0, "updated": 1}
    assert sorted((await papers_by_key(sessions)).values()) == sorted(before.values())
    assert (await paper_named(sessions, "Enoki")).id in before.values()
    assert await review_claims(sessions) == 133


PSI_SPEC = "Ψ-Spec"


async def test_a_files_first_abstract_split_after_its_first_sentence_loses_nothing_stored(
    sessions: Sessions, seeds: Path
) -> None:
    """A blank line after the first sentence of a file's first abstract: that sentence is
    left out with a warning (it cannot be told from a preamble line), and the rest is the
    stored paper cut at its start. The stored abstract stays whole."""
    await ingest(sessions, [seeds])
    whole = (await paper_named(sessions, PSI_SPEC)).abstract_en
    assert whole is not None and (seeds / DEEP_READS).read_text(encoding="utf-8").count(whole) == 1
    first, rest = whole.split(". ", 1)
    edit(seeds / DEEP_READS, whole, f"{first}.\n\n{rest}")

    report = await ingest(sessions, [seeds])

    assert report.papers == {"new": 0, "updated": 0} and report.suspect == []
    assert [w["warning"].split(": ", 1)[1][:32] for w in report.warnings] == [
        "paragraph belongs to no paper: a"
    ]
    assert (await paper_named(sessions, PSI_SPEC)).abstract_en == whole


@pytest.mark.parametrize(
    "cut",
    [
        lambda a: a[:700] + "…",  # cut with an ellipsis: past the sentence naming it
        lambda a: a[:500],  # cut mid-word, as digests cut at 1,000 characters
        lambda a: a[: a.rindex(". ", 0, 700) + 1],  # cut at a sentence's end
    ],
    ids=["ellipsis", "mid-word", "sentence-end"],
)
async def test_an_abstract_only_entry_delivered_again_cut_shorter_is_the_same_paper(
    sessions: Sessions, tmp_path: Path, cut: Callable[[str], str]
) -> None:
    """Pipelines cut an abstract-only entry's abstract at other lengths: a copy cut shorter
    in another file is the same paper, and adds nothing (the whole abstract and its name
    stay), wherever it was cut: an abstract is the paper's own text, no review shortens it."""
    abstract = (SEEDS / DEEP_READS).read_text(encoding="utf-8").split("\n")[2]
    assert PSI_SPEC in abstract[600:] and len(abstract) == 1000
    write(tmp_path / "2026-09-09.txt", f"2026-09-09\n\n{abstract}\n\n{deep_read.NOTE}\n")
    await ingest(sessions, [tmp_path])
    copy = write(
        tmp_path / "2026-09-10.txt", f"2026-09-10\n\n{cut(abstract)}\n\n{deep_read.NOTE}\n"
    )
    os.utime(copy, ns=(10**18, 10**18))  # delivered after the first

    report = await ingest(sessions, [tmp_path])

    assert report.papers["new"] == 0 and not report.errors
    async with sessions() as session:
        [(name, stored)] = (await session.execute(select(Paper.name, Paper.abstract_en))).all()
    assert (name, stored) == (PSI_SPEC, abstract)


@pytest.mark.parametrize(
    ("misnamed", "name", "cue"),
    [
        ("ENEA", "ENEAS", "本文提出 ENEAS（"),  # a letter short: `ENEAS` holds `ENEA`
        ("GSPO", "GAPO", "GAPO 是一篇"),  # its own baseline's name, cited in its claims
    ],
)
async def test_a_misread_name_corrected_in_the_text_is_taken(
    sessions: Sessions, seeds: Path, misnamed: str, name: str, cue: str
) -> None:
    """The text first named the paper wrongly where its name is read from; corrected, the
    text calls it by the right name far more often than by the wrong one (a part of it, or
    a baseline it cites): the paper takes the right name, with a warning."""
    text = (seeds / DEEP_READS).read_text(encoding="utf-8")
    write(seeds / DEEP_READS, text.replace(cue, cue.replace(name, misnamed), 1))
    await ingest(sessions, [seeds])
    before = await paper_named(sessions, misnamed)
    write(seeds / DEEP_READS, text)

    report = await ingest(sessions, [seeds])

    assert (await paper_named(sessions, name)).id == before.id
    assert [w["warning"].split(": ", 1)[1] for w in report.warnings] == [
        f"{misnamed} no longer names this paper (its text calls it {name}); it is called "
        f"{name} now, its claims {name}#1, …"
    ]
    assert await papers_addressed(sessions, f"{name}#3") == [name]


async def test_abstract_only_entries_of_listed_papers_still_name_them(
    sessions: Sessions, tmp_path: Path
) -> None:
    """The next day's deep-read digest holds papers of a HuggingFace list as abstract-only
    entries, each abstract cut at 1,000 characters as the format does: each entry adds what
    the listed paper lacks, its name among it (the same names as in the other order)."""
    listing = write(tmp_path / "list.txt", (SEEDS / HUGGINGFACE).read_text(encoding="utf-8"))
    await ingest(sessions, [listing])
    async with sessions() as session:
        abstracts = (await session.execute(select(Paper.abstract_en).order_by(Paper.id))).all()
    parts = ["2026-10-05"] + [p for (a,) in abstracts for p in ((a or "")[:1000], deep_read.NOTE)]
    entries = write(tmp_path / "entries.txt", "\n\n".join(parts) + "\n")
    os.utime(entries, ns=(10**18, 10**18))

    report = await ingest(sessions, [tmp_path])

    named = [p.name for p in parse_digest(decode_digest(entries.read_bytes())).papers if p.name]
    assert report.papers["new"] == 0 and len(named) >= 10
    async with sessions() as session:
        stored = set((await session.execute(select(Paper.name))).scalars())
    assert set(named) <= stored


async def test_a_name_corrected_to_one_another_paper_holds_keeps_the_stored_one(
    sessions: Sessions, tmp_path: Path
) -> None:
    """The seeds' GAPO was first stored as `GSPO` (its baseline, misread); corrected, its
    name GAPO is another paper's by then: it keeps `GSPO`, and the warning says so."""
    other = deep_read_of(AV_GRPO, "本文提出 X-Planner", ("X-Planner", "GAPO"), "2026-09-28")
    write(tmp_path / "2026-09-28.txt", other)
    seed = (SEEDS / DEEP_READS).read_text(encoding="utf-8")
    write(tmp_path / "2026-09-09.txt", seed.replace("GAPO 是一篇", "GSPO 是一篇", 1))
    await ingest(sessions, [tmp_path])
    misnamed = await paper_named(sessions, "GSPO")
    write(tmp_path / "2026-09-09.txt", seed)

    report = await ingest(sessions, [tmp_path])

    assert [w["warning"].split(": ", 1)[1] for w in report.warnings] == [
        "its text now calls this paper GAPO, the name of another paper; it keeps the name "
        "GSPO, its claims GSPO#1, …"
    ]
    assert (await paper_named(sessions, "GSPO")).id == misnamed.id
    assert str((await paper_named(sessions, "GAPO")).digest_date) == "2026-09-28"  # the other


_FIRST_QUOTE = re.compile(r"^(1\. .*\n\n)( {2,}\S.*(?:\n {2,}\S.*)*)$", re.MULTILINE)


@pytest.mark.parametrize("placeholder", ["N/A", "—", "…", "(none)"])
async def test_deep_reads_whose_first_quote_is_a_placeholder_stay_apart(
    sessions: Sessions, seeds: Path, placeholder: str
) -> None:
    """A pipeline that found no quote writes the same placeholder in many papers: it tells
    them apart no more than nothing does, so no paper is keyed by it, whether the papers
    share a file or not."""
    for name in (DEEP_READS, AV_GRPO):
        text = (seeds / name).read_text(encoding="utf-8")
        text, replaced = _FIRST_QUOTE.subn(rf"\g<1>   {placeholder}", text)
        assert replaced > (name == DEEP_READS)  # several papers in the one file
        (seeds / name).write_text(text, encoding="utf-8")

    report = await ingest(sessions, [seeds])

    assert not report.errors
    assert report.papers["new"] == 36  # as many as the seeds hold
    assert await review_claims(sessions) == 133
    assert await papers_addressed(sessions, "AV-GRPO#2") == ["AV-GRPO"]
    assert await papers_addressed(sessions, "Enoki#2") == ["Enoki"]


def _first_quote(text: str, opening: str) -> str:
    """The first claim's quote of the deep read that opens with `opening` (its line)."""
    after = text[text.index(opening) :]
    return next(line for line in after.split("\n") if line.startswith("   "))


async def test_a_quote_pasted_into_another_paper_s_first_claim_leaves_both_papers_apart(
    sessions: Sessions, seeds: Path
) -> None:
    """X-Planner's first quote replaced by AV-GRPO's (a pipeline's paste into the wrong
    claim): in the same file, X-Planner is still a paper (it was lost, as the same paper
    written twice); re-sent alone the next day, it updates X-Planner, not AV-GRPO, whose
    key that quote is (AV-GRPO's row took X-Planner's text and claims, in silence)."""
    text = (seeds / AV_GRPO).read_text(encoding="utf-8")
    pasted = text.replace(_first_quote(text, "本文提出 X-Planner"), _first_quote(text, "本文定位"))
    parsed = parse_digest(pasted)
    assert sorted(p.name or "" for p in parsed.papers) == sorted(
        p.name or "" for p in parse_digest(text).papers
    )
    assert any("pasted into the wrong paper" in w.message for w in parsed.warnings)

    await ingest(sessions, [seeds])
    avgrpo, planner = (
        await paper_named(sessions, "AV-GRPO"),
        await paper_named(sessions, "X-Planner"),
    )
    alone = deep_read_of(AV_GRPO, "本文提出 X-Planner", ("", ""), "2026-09-29")
    write(
        seeds / "2026-09-29.txt",
        alone.replace(_first_quote(alone, "本文提出"), _first_quote(text, "本文定位")),
    )

    report = await ingest(sessions, [seeds])

    assert report.papers == {"new": 0, "updated": 1}
    assert (await paper_named(sessions, "AV-GRPO")).positioning == avgrpo.positioning
    assert (await paper_named(sessions, "X-Planner")).id == planner.id
    assert await review_claims(sessions) == 133


async def test_a_listed_paper_under_another_id_with_a_stored_papers_abstract_is_warned(
    sessions: Sessions, tmp_path: Path
) -> None:
    """The next day's list gives a paper an arXiv ID one digit off (`2609.35295` for
    `2609.35259`), its title and abstract those stored: two IDs are two papers, but the
    warning says one may be mistyped, where the duplicate came in silence. (Another paper
    of the same abstract and another title is no such doubt.)"""
    abstract = (
        "We study when on-policy distillation beats off-policy distillation across twelve "
        "student and teacher pairs, and find that the gap closes once the student is warm."
    )
    write(
        tmp_path / "2026-10-04.txt",
        huggingface_digest("2026-10-04", [Entry("2609.35259", "On or Off?", abstract)]),
    )
    await ingest(sessions, [tmp_path])
    write(
        tmp_path / "2026-10-05.txt",
        huggingface_digest(
            "2026-10-05",
            [Entry("2609.35295", "On or Off?", abstract), Entry("2609.11111", "Other", abstract)],
        ),
    )

    report = await ingest(sessions, [tmp_path])

    assert report.papers == {"new": 2, "updated": 0}
    assert [w["warning"].split(": ", 1)[1] for w in report.warnings] == [
        "arXiv 2609.35295 has the title and abstract of arXiv 2609.35259, stored before: stored "
        "as another paper; if one of the two IDs is mistyped, correct it"
    ]
