"""Moves, plies and the game state.

The state is an immutable, hashable value that is cheap to build: the non-empty
cells are a tuple of ``(pos, kind, count)`` triples sorted by ``pos = y * cols + x``,
so a state can key a transposition table as it is.
"""

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

import attrs

from engine.kinds import EMPTY, HUMANS, VAMPIRES, WEREWOLVES, Kind

MAX_COUNT = 255
MAX_SIDE = 255


class Move(NamedTuple):
    """Send ``count`` creatures from cell ``(x, y)`` to the neighbouring cell ``(tx, ty)``."""

    x: int
    y: int
    count: int
    tx: int
    ty: int

    @property
    def source(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def target(self) -> tuple[int, int]:
        return (self.tx, self.ty)

    def __str__(self) -> str:
        return f"{self.count} from ({self.x},{self.y}) to ({self.tx},{self.ty})"


Ply = tuple[Move, ...]
"""One player's turn: a non-empty tuple of moves applied at once."""

Cell = tuple[int, int, int]
"""A non-empty cell inside a state: ``(pos, kind, count)``."""


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each ``pos`` of a rows × cols grid, the positions of its (up to 8) neighbours."""
    table = []
    for y in range(rows):
        for x in range(cols):
            table.append(
                tuple(
                    ny * cols + nx
                    for ny in (y - 1, y, y + 1)
                    for nx in (x - 1, x, x + 1)
                    if (nx, ny) != (x, y) and 0 <= nx < cols and 0 <= ny < rows
                )
            )
    return tuple(table)


def _check_cells(instance: "GameState", attribute: object, cells: tuple[Cell, ...]) -> None:
    size = instance.rows * instance.cols
    last = -1
    for pos, kind, count in cells:
        if not last < pos < size:
            raise ValueError(f"cells must be sorted by position, distinct and on the grid: {cells}")
        if kind not in (HUMANS, VAMPIRES, WEREWOLVES) or not 1 <= count <= MAX_COUNT:
            raise ValueError(f"bad cell content at pos {pos}: kind {kind}, count {count}")
        last = pos


def _check_side(instance: "GameState", attribute: "attrs.Attribute[int]", value: int) -> None:
    if not 1 <= value <= MAX_SIDE:
        raise ValueError(f"{attribute.name} must be 1..{MAX_SIDE}, got {value}")


@attrs.frozen
class GameState:
    """The board after ``ply`` turns. Vampires move on even plies, werewolves on odd ones.

    Build one with :meth:`from_cells`; ``cells`` holds only non-empty cells.
    For hot loops, :meth:`trusted` builds one without validation.
    """

    rows: int = attrs.field(validator=_check_side)
    cols: int = attrs.field(validator=_check_side)
    cells: tuple[Cell, ...] = attrs.field(validator=_check_cells)
    ply: int = 0

    @classmethod
    def from_cells(
        cls,
        rows: int,
        cols: int,
        cells: Mapping[tuple[int, int], tuple[Kind, int]],
        ply: int = 0,
    ) -> "GameState":
        """A state from ``{(x, y): (kind, count)}``; empty entries are dropped."""
        packed = []
        for (x, y), (kind, count) in cells.items():
            if not (0 <= x < cols and 0 <= y < rows):
                raise ValueError(f"cell ({x},{y}) is outside the {rows} × {cols} grid")
            if kind != EMPTY and count:
                packed.append((y * cols + x, int(kind), count))
        return cls(rows, cols, tuple(sorted(packed)), ply)

    @classmethod
    def trusted(cls, rows: int, cols: int, cells: tuple[Cell, ...], ply: int) -> "GameState":
        """Build without validation: for the engine's and the bots' inner loops."""
        state = object.__new__(cls)
        object.__setattr__(state, "rows", rows)
        object.__setattr__(state, "cols", cols)
        object.__setattr__(state, "cells", cells)
        object.__setattr__(state, "ply", ply)
        return state

    @property
    def to_move(self) -> Kind:
        """The species whose turn it is."""
        return WEREWOLVES if self.ply & 1 else VAMPIRES

    def grid(self) -> dict[int, tuple[int, int]]:
        """``{pos: (kind, count)}`` for the non-empty cells."""
        return {pos: (kind, count) for pos, kind, count in self.cells}

    def at(self, x: int, y: int) -> tuple[Kind, int]:
        """What stands on ``(x, y)``: ``(kind, count)``, ``(EMPTY, 0)`` for an empty cell."""
        pos = y * self.cols + x
        for p, kind, count in self.cells:
            if p == pos:
                return Kind(kind), count
        return EMPTY, 0

    def groups(self, kind: Kind) -> list[tuple[int, int, int]]:
        """``(x, y, count)`` of every cell holding ``kind``, row-major."""
        cols = self.cols
        return [(pos % cols, pos // cols, n) for pos, k, n in self.cells if k == kind]

    def total(self, kind: Kind) -> int:
        """How many creatures of ``kind`` are on the board."""
        return sum(n for _, k, n in self.cells if k == kind)

    def with_ply(self, ply: int) -> "GameState":
        """The same board at another ply number (a skipped turn advances the ply)."""
        return GameState.trusted(self.rows, self.cols, self.cells, ply)

    def draw(self) -> str:
        """The grid as text: one line per row, ``.`` for empty, ``H4``/``V12``/``W3`` otherwise."""
        grid = self.grid()
        width = max([len(f"{Kind(k).letter}{n}") for k, n in grid.values()] + [1])
        lines = []
        for y in range(self.rows):
            row = []
            for x in range(self.cols):
                kind, count = grid.get(y * self.cols + x, (EMPTY, 0))
                text = f"{Kind(kind).letter}{count}" if count else "."
                row.append(text.rjust(width))
            lines.append(" ".join(row))
        return "\n".join(lines)


def pack_cells(cells: Iterable[tuple[int, tuple[int, int]]]) -> tuple[Cell, ...]:
    """Sorted ``(pos, kind, count)`` triples from ``(pos, (kind, count))`` pairs, dropping empties."""
    return tuple(sorted((pos, kind, count) for pos, (kind, count) in cells if count))
