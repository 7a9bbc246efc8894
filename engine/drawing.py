"""The board as text, the one renderer of every tool: ``.`` empty, ``H4``/``V12``/``W3``.

A cell is ``(x, y, kind, count)``, as transcripts write them; :meth:`GameState.draw` draws a
state with it. Columns are x, rows are y, ``(0, 0)`` top left; with ``coordinates`` each
column and row is labelled, and a ``window`` draws only part of a large board.
"""

from collections.abc import Iterable

from engine.kinds import Kind

BoardCell = tuple[int, int, Kind, int]
"""A non-empty cell: ``(x, y, kind, count)``."""


def draw_board(
    rows: int,
    cols: int,
    cells: Iterable[BoardCell],
    *,
    coordinates: bool = True,
    indent: str = "",
    window: tuple[range, range] | None = None,
) -> list[str]:
    """The lines of the board; ``window`` is the columns and rows to draw (all by default)."""
    xs, ys = window if window is not None else (range(cols), range(rows))
    content = {(x, y): f"{Kind(kind).letter}{count}" for x, y, kind, count in cells}
    widths = [len(text) for (x, y), text in content.items() if x in xs and y in ys]
    if coordinates:
        widths.append(len(str(xs[-1])) if xs else 1)
    width = max([*widths, 1])
    out = []
    label = len(str(ys[-1])) if ys else 1
    if coordinates:
        out.append(indent + " " * (label + 1) + " ".join(str(x).rjust(width) for x in xs))
    for y in ys:
        row = " ".join(content.get((x, y), ".").rjust(width) for x in xs)
        out.append(f"{indent}{str(y).rjust(label)} {row}" if coordinates else indent + row)
    return out


def window_around(rows: int, cols: int, x: int, y: int, size: int) -> tuple[range, range]:
    """The columns and rows of a ``size`` × ``size`` window of the board centred on
    ``(x, y)`` as far as the edges allow (the whole board if it is smaller)."""

    def span(centre: int, length: int) -> range:
        first = min(max(centre - size // 2, 0), max(length - size, 0))
        return range(first, min(first + size, length))

    return span(x, cols), span(y, rows)
