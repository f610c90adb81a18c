"""A paper renamed throughout is the paper it was; two papers that share only sentences a
name makes different ("X outperforms existing methods") are not one paper renamed."""

from __future__ import annotations

from jobs.ingest import paper_input
from jobs.parser import parse_digest
from storage import matching
from tests.parser.summary import seed_files

STOCK = (
    "Extensive experiments demonstrate that {0} consistently outperforms existing methods. "
    "The code and models of {0} are publicly available. "
    "Ablations confirm that each component of {0} contributes to its gains. "
    "We hope {0} serves as a strong baseline for future work."
)


def test_a_seed_paper_renamed_in_every_sentence_is_that_paper() -> None:
    text = next(s for s in seed_files() if s.name.startswith("000")).read_text(encoding="utf-8")
    before = {p.name: paper_input(p) for p in parse_digest(text).papers}["WanPE"]
    after = {p.name: paper_input(p) for p in parse_digest(text.replace("WanPE", "CinePE")).papers}
    renamed = after["CinePE"]

    assert not matching.same_paper(before.sentences, renamed.sentences)  # why it is needed
    assert matching.renamed(before.sentences, renamed.sentences, ("WanPE", "CinePE"))


def test_two_papers_alike_only_in_stock_sentences_are_not_one_renamed() -> None:
    wanpe = matching.sentences(
        ["WanPE targets the bottleneck of position encoding in long videos.", STOCK.format("WanPE")]
    )
    moldiff = matching.sentences(
        ["MolDiff targets the bottleneck of generating valid molecules.", STOCK.format("MolDiff")]
    )

    assert not matching.renamed(wanpe, moldiff, ("WanPE", "MolDiff"))
