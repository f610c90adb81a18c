"""The exception the parser raises, and the warnings it gives about what it could read
only in part."""

from dataclasses import dataclass


class DigestParseError(ValueError):
    """A digest that cannot be read; `line` is 1-based when the problem has a place."""

    def __init__(self, message: str, line: int | None = None) -> None:
        # Both go into args so the error survives pickling (worker processes, logs).
        super().__init__(message, line)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


class DamagedText(DigestParseError):
    """Text a tool damaged on its way (an encoding mixed up, characters lost): a digest's,
    whatever its first line reads now."""


@dataclass(frozen=True)
class DigestWarning:
    """A problem the rest of the file survives: the exact line and what was expected there.
    What is sound of the paper it concerns is loaded; the faulty part is left out."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"
