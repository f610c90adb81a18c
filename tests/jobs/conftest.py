"""Fixtures of the jobs' tests: a store of each kind, and a copy of the seeds to ingest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from jobs.ingest import ingest
from storage import db
from storage.db import Sessions
from tests.digests import SEEDS


@pytest.fixture
def sessions(engine: AsyncEngine) -> Sessions:
    """An empty store."""
    return db.session_factory(engine)


@pytest.fixture
def seeds(tmp_path: Path) -> Path:
    """A copy of the seed digests, which a test may change."""
    folder = tmp_path / "digests"
    shutil.copytree(SEEDS, folder)
    return folder


@pytest.fixture
async def seeded(engine: AsyncEngine, seeds: Path) -> Sessions:
    """A store with the seeds ingested."""
    sessions = db.session_factory(engine)
    await ingest(sessions, [seeds])
    return sessions
