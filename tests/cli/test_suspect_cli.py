"""A truncated re-delivery, as an operator meets it on the command line: refused as
suspect (exit 1), shown by `paperbot status`, every claim still answered; `--force PATH`
accepts it; a file still being written waits for the next run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli.helpers import paperbot
from tests.digests import SEEDS

AV_GRPO = "000_e3eab0f621521816.txt"


def test_a_truncated_file_is_suspect_until_forced(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    assert paperbot("ingest", cwd=tmp_path).returncode == 0
    path = tmp_path / "seeds" / AV_GRPO
    path.write_bytes(b"".join((SEEDS / AV_GRPO).read_bytes().splitlines(keepends=True)[:13]))

    refused = paperbot("ingest", "--json", cwd=tmp_path)
    status = paperbot("status", cwd=tmp_path)
    status_json = json.loads(paperbot("status", "--json", cwd=tmp_path).stdout)
    claim = paperbot("ask", "/claims AV-GRPO#5", cwd=tmp_path)

    assert refused.returncode == 1
    summary = json.loads(refused.stdout)
    assert summary["documents"] == {"new": 0, "changed": 0, "unchanged": 2, "failed": 1}
    assert [s["path"] for s in summary["suspect"]] == [f"seeds/{AV_GRPO}"]
    assert "6 claims (AV-GRPO#2, " in summary["suspect"][0]["would_lose"]
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"paperbot: seeds/{AV_GRPO}: suspect: this version would remove 7 ")
    assert line.endswith(f"To accept it: paperbot ingest --force seeds/{AV_GRPO}")
    assert "claims     133" in status.stdout
    assert f"suspect    {path}: its new version would remove 7 papers" in status.stdout
    assert status_json["claims"] == 133 and len(status_json["suspect"]) == 1
    assert status_json["suspect"][0]["would_lose"] == summary["suspect"][0]["would_lose"]
    assert claim.returncode == 0 and "`AV-GRPO#5`" in claim.stdout
    assert "has no claim" not in claim.stdout

    forced = paperbot("ingest", "--force", f"seeds/{AV_GRPO}", cwd=tmp_path)
    after = json.loads(paperbot("status", "--json", cwd=tmp_path).stdout)

    assert (forced.returncode, forced.stderr) == (0, "")
    assert (after["claims"], after["suspect"]) == (127, [])
    gone = paperbot("ask", "/claims AV-GRPO#5", cwd=tmp_path)
    assert "has no claim `AV-GRPO#5`" in gone.stdout


def test_a_file_modified_seconds_ago_waits_for_the_next_run(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "seeds")  # copies keep the seeds' old times
    (tmp_path / "seeds" / "new.txt").write_bytes((SEEDS / AV_GRPO).read_bytes()[:4000])

    result = paperbot("ingest", cwd=tmp_path, env={"PAPERBOT_SETTLE_SECONDS": "30"})

    assert (result.returncode, result.stderr) == (0, "")
    counts, skipped = result.stdout.splitlines()[:2]  # then the vectors line
    assert counts.startswith("documents: 3 new, 0 changed, 0 unchanged, 0 failed")
    assert skipped.startswith("skipped seeds/new.txt: still being written (modified ")
    assert skipped.endswith(" s ago); left for the next scan")
