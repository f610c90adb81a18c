"""The one exception the parser raises."""


class DigestParseError(ValueError):
    """A digest that cannot be read; `line` is 1-based when the problem has a place."""

    def __init__(self, message: str, line: int | None = None) -> None:
        # Both go into args so the error survives pickling (worker processes, logs).
        super().__init__(message, line)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"
