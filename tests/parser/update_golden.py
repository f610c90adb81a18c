"""Rewrite the golden files from the current parser: `python -m tests.parser.update_golden`.

With `--cases`, also rewrite the expected JSON of every case. Read the diff before
committing it: whatever this writes becomes what the tests demand.
"""

import sys

from tests.parser.summary import (
    GOLDEN,
    case_files,
    case_summary,
    dumps,
    golden_summary,
    parse_file,
    seed_files,
)


def main(argv: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for seed in seed_files():
        target = GOLDEN / f"{seed.stem}.json"
        target.write_text(dumps(golden_summary(parse_file(seed))), encoding="utf-8")
        print(f"wrote {target}")
    if "--cases" in argv:
        for case in case_files():
            target = case.with_suffix(".json")
            target.write_text(dumps(case_summary(parse_file(case))), encoding="utf-8")
            print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
