"""Which files of the digest folder are digests.

Anything else an operator or a tool leaves there (a README, notes, JSON exports, images,
a file still empty) is *skipped* with its reason: reported, never stored, and no failure,
so it does not turn every ingest into a partial one. A symlink is followed only while its
target stays inside the folder: a link out of it (to /proc, to a secrets file) is never
read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jobs.parser.digest import opening_line, opens_a_digest
from jobs.parser.text import DRESSING, byte_order, digest_lines, stray_nuls

_NOT_DIGEST_NAMES = re.compile(r"(?i)readme.*|.*\.(?:md|markdown|json)")
# What editors and downloads leave beside a file: the version before an edit (read after
# the digest, it would undo the edit) or a file still arriving.
_BACKUP_NAMES = re.compile(
    r"(?i).*~|#.*#|.*\.(?:bak|backup|old|orig|save|swp|swo|tmp|part|partial|crdownload)"
)
_HEAD_BYTES = 4096  # the first line of a digest is short; this is plenty to find it
# A first line that makes a file a digest, even a malformed one (that is the digest's
# error, reported as such): a date line, also one that is no date (`2026-02-30`, `2026/9`:
# a date's digits and separators only), or the HuggingFace header. A date with other text
# after it (a log's time, a table's next fields, a title's words) is no date line: the
# file is a digest only if the parser reads papers under it (UNKNOWN_START).
_MALFORMED_DATE = re.compile(DRESSING + r"[0-9]{4}\s*[-/.年][-/.年月日0-9\s]*(?:\*\*)?")
_HEADER_START = re.compile(DRESSING + r"HuggingFace\s+(?:Daily\s+)?Papers", re.IGNORECASE)
_TEXT = re.compile(rb"\S")
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")
_BINARY_CONTROL_SHARE = 0.1

NOT_A_DIGEST_NAME = "not a digest (README, .md and .json files are never read)"
BACKUP_NAME = (
    "an editor's backup or a partial download, not a digest (*~, #*#, .bak, .backup, .old, "
    ".orig, .save, .swp, .tmp, .part and .crdownload files are never read)"
)
OUTSIDE_THE_FOLDER = "symlink to a file outside the digest folder; not followed"
FOLDER_OUTSIDE = "symlink to a folder outside the digest folder; not followed"
EMPTY = "empty file; left for the next scan"
BINARY = "binary file, not a digest"
UNKNOWN_START = (
    "not a digest: the first line is neither a date (YYYY-MM-DD) "
    "nor 'HuggingFace Papers YYYY-MM-DD'"
)


@dataclass(frozen=True)
class Skipped:
    """A file that is not a digest, and why."""

    reason: str


NO_SUCH_FILE = "no such file or folder"
SAME_FILE = "a link to a file also given; read once, as that file"
NAME_NOT_UTF8 = (
    "the file's name is not UTF-8 (another encoding's bytes, as unzipping an archive made "
    "on Windows leaves): rename it"
)


@dataclass
class Selection:
    files: list[Path] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)  # with why


def select_files(paths: Iterable[Path]) -> Selection:
    """Each file given, and every visible file under each folder given, minus what is not
    a digest by its name or lies outside its folder, in the order they were delivered
    (modified), then by name: of two files of one digest date that hold the same paper,
    the one delivered last is stored last, and so wins, on every read (a correction sent
    as `…-fixed.txt` beside the original stays after `--force` or a new parser's
    re-read)."""
    selection = Selection()
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            for file in sorted(path.rglob("*")):
                relative = file.relative_to(path)
                if any(part.startswith(".") for part in relative.parts):
                    continue
                if not file.is_file():  # a folder: a link to one outside is never walked
                    if file.is_symlink() and file.is_dir() and not _within(file, root):
                        selection.skipped.append((file, FOLDER_OUTSIDE))
                    continue
                if not _within(file, root):
                    selection.skipped.append((file, OUTSIDE_THE_FOLDER))
                else:
                    _take(selection, file)
        elif path.is_file():
            _take(selection, path)
        else:
            selection.failed.append((path, NO_SUCH_FILE))
    selection.files = _once_each(selection.files, selection.skipped)
    selection.files.sort(key=_delivered)
    return selection


def _within(file: Path, root: Path) -> bool:
    return file.resolve().is_relative_to(root)


def _once_each(files: list[Path], skipped: list[tuple[Path, str]]) -> list[Path]:
    """Each file once: a link to another file given (`latest.txt`) is that file, stored
    under its real path, not a second delivery of it. The file itself is kept."""
    chosen: dict[Path, Path] = {}
    for file in sorted(files, key=Path.is_symlink):  # the file itself before links to it
        if chosen.setdefault(file.resolve(), file) is not file:
            skipped.append((file, SAME_FILE))
    return list(chosen.values())


def _take(selection: Selection, file: Path) -> None:
    if reason := _not_a_digest_name(file.name):
        selection.skipped.append((file, reason))
    elif shown(file) != str(file):  # the store and every report keep paths as UTF-8
        selection.failed.append((file, NAME_NOT_UTF8))
    else:
        selection.files.append(file)


def shown(path: Path) -> str:
    """The path as text, the bytes of a name that is not UTF-8 shown as `�`."""
    return os.fsencode(path).decode("utf-8", errors="replace")


def _delivered(path: Path) -> tuple[int, Path, str, str]:
    """Modification time, then name without its extension: of two files delivered at the
    same instant (one command's copy), `2026-09-28-fixed.txt` comes after `2026-09-28.txt`
    (by the whole name, `-` sorts before `.`)."""
    try:
        modified = path.stat().st_mtime_ns
    except OSError:  # a dangling link, gone meanwhile: reported where it is read
        modified = 0
    return modified, path.parent, path.stem, path.suffix


def _not_a_digest_name(name: str) -> str | None:
    if _NOT_DIGEST_NAMES.fullmatch(name):
        return NOT_A_DIGEST_NAME
    return BACKUP_NAME if _BACKUP_NAMES.fullmatch(name) else None


def not_a_digest(data: bytes) -> Skipped | None:
    """Why a file's bytes are no digest at all, or None when they start like one (which
    does not make them a sound one: the parser judges that). A file that starts otherwise
    (UNKNOWN_START) is still a digest if the parser reads papers from it (a title holding
    its date): ingest asks it."""
    encoding, data = byte_order(data)
    if encoding != "utf-8":  # judged on its head, read as the parser reads it
        data = data[: 2 * _HEAD_BYTES].decode(encoding, "ignore").encode()
    elif b"\x00" in data and stray_nuls(data):  # damaged text, read without them
        data = data.replace(b"\x00", b"")
    first = _TEXT.search(data)
    if first is None:
        return Skipped(EMPTY)
    head = data[first.start() : first.start() + _HEAD_BYTES]
    if b"\x00" in head or len(_CONTROL.findall(head)) > len(head) * _BINARY_CONTROL_SHARE:
        return Skipped(BINARY)
    # Read as the parser reads it: spaces of any kind (an ideographic one, a no-break one)
    # and invisible debris (a zero-width space) may come before the first line's text, and
    # markdown (a title as a heading) before the first line.
    lines = digest_lines(head.decode("utf-8", "ignore"))
    opening = opening_line(lines)
    if opening is None or not _opens_like_a_digest(lines[opening].strip()):
        return Skipped(UNKNOWN_START)
    return None


def _opens_like_a_digest(line: str) -> bool:
    return (
        opens_a_digest(line)
        or _MALFORMED_DATE.fullmatch(line) is not None
        or _HEADER_START.match(line) is not None
    )
