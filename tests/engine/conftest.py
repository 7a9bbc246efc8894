"""Shared helpers for the engine tests: boards drawn as text, the maps' folders.

The hypothesis strategies are public, in :mod:`engine.testing.strategies`.
"""

from pathlib import Path

from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState, Kind

OFFICIAL_MAPS = Path("/work/shared/maps")
OUR_MAPS = Path(__file__).resolve().parents[2] / "maps"
LETTERS = {"H": HUMANS, "V": VAMPIRES, "W": WEREWOLVES}


def board(picture: str, ply: int = 0) -> GameState:
    """A state from a drawing in the style of ``GameState.draw()``: ``.`` or ``V12``/``W3``/``H4``.

    Rows are lines, cells are separated by blanks; every row has the same number of cells.
    """
    lines = [line.split() for line in picture.strip().splitlines()]
    cells: dict[tuple[int, int], tuple[Kind, int]] = {}
    for y, row in enumerate(lines):
        assert len(row) == len(lines[0]), f"row {y} has {len(row)} cells, not {len(lines[0])}"
        for x, text in enumerate(row):
            if text != ".":
                cells[(x, y)] = (LETTERS[text[0]], int(text[1:]))
    return GameState.from_cells(len(lines), len(lines[0]), cells, ply)
