"""A review laid out another way (each label on a paragraph or a line of its own, as list
items, in bold) is the same review of the same paper: nothing moves into the next one."""

import re
from collections.abc import Callable

import pytest

from tests.parser.test_boundaries import DEEP_READ_SEEDS, assert_same_papers, papers

_LATER_LABEL = re.compile(r"\s*(Soundness|Significance)：")
LAYOUTS: dict[str, Callable[[str], str]] = {
    "paragraphs": lambda text: _LATER_LABEL.sub(r"\n\n\1：", text),
    "lines": lambda text: _LATER_LABEL.sub(r"\n\1：", text),
    "list items": lambda text: _LATER_LABEL.sub(
        r"\n- \1：", text.replace("\nNovelty：", "\n- Novelty：")
    ),
    "bold labels": lambda text: re.sub(r"(Novelty|Soundness|Significance)：", r"**\1**：", text),
    "bold with colon": lambda text: re.sub(
        r"(Novelty|Soundness|Significance)：", r"**\1：**", text
    ),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_laid_out_otherwise_is_the_same_review(seed: int, layout: str) -> None:
    text = DEEP_READ_SEEDS[seed]
    original, changed = papers(text), papers(LAYOUTS[layout](text))

    assert_same_papers(changed, original)
    for key, paper in original.items():
        review = (paper.novelty, paper.soundness, paper.significance)
        assert (changed[key].novelty, changed[key].soundness, changed[key].significance) == review
