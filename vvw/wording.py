"""Counts in words: ``1 game``, ``3 games``, ``1 ply``, ``200 plies``."""


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` and ``word``, or ``words`` (default: ``word`` + s) unless it is 1."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def plies(count: int) -> str:
    """``1 ply``, ``2 plies``."""
    return plural(count, "ply", "plies")
