"""Text from the other side made safe for a terminal: bots name themselves, and a name or a
reason they sent must not forge output lines or drive the terminal.

The engine's words (:meth:`engine.result.GameResult.summary`) keep names and details as they
were given; whatever shows them on a line of a terminal or a log passes them through
:func:`printable`.
"""


def printable(text: str) -> str:
    """``text`` safe to print on one line of a terminal: every character that is not
    printable (newlines, terminal escape codes, other controls) written as its escape
    (``\\n``, ``\\x1b``). Bots name themselves: a name must not forge output lines or
    drive the terminal. Applying it twice changes nothing."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
