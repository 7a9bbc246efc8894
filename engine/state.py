"""Moves, plies and the game state; a ply's text, groups and the distance between cells.

The state is an immutable, hashable value that is cheap to build; a cell is known by
``pos = y * cols + x``, so a state can key a transposition table as it is. Creatures step
to any of a cell's eight neighbours (:func:`neighbour_table`), so the plies between two
cells are their king-move distance (:func:`distance`).
"""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.drawing import BoardCell, draw_board
from engine.kinds import EMPTY, HUMANS, VAMPIRES, WEREWOLVES, Kind

MAX_COUNT = 255
MAX_SIDE = 255


class Move(NamedTuple):
    """Send ``count`` creatures from cell ``(x, y)`` to the neighbouring cell ``(tx, ty)``."""

    x: int
    y: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, on purpose: the rule book's word
    tx: int
    ty: int

    @property
    def source(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def target(self) -> tuple[int, int]:
        return (self.tx, self.ty)

    def __str__(self) -> str:
        """``(4,3)->(3,2) x4``: the move as every tool writes it."""
        return f"({self.x},{self.y})->({self.tx},{self.ty}) x{self.count}"


Ply = tuple[Move, ...]
"""One player's turn: a non-empty tuple of moves applied at once."""


def ply_text(moves: Sequence[Move]) -> str:
    """``(4,3)->(3,2) x4 (5,0)->(6,0) x2``: a ply as every tool writes it; ``(no moves)``."""
    return " ".join(map(str, moves)) or "(no moves)"


Group = tuple[int, int, int]
"""A cell's creatures as :meth:`GameState.groups` gives them: ``(x, y, count)``."""


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """The plies a group needs to go from cell ``a`` to cell ``b`` (each ``(x, y)`` or a
    :data:`Group`): creatures step to any of the 8 neighbours, so the king-move (Chebyshev)
    distance ``max(|dx|, |dy|)``."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


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


def _validated_grid(rows: int, cols: int, cells: tuple[Cell, ...]) -> dict[int, tuple[int, int]]:
    """``{pos: (kind, count)}`` of ``cells``, or ``ValueError`` naming what is wrong."""
    for name, side in (("rows", rows), ("cols", cols)):
        if not 1 <= side <= MAX_SIDE:
            raise ValueError(f"{name} must be 1..{MAX_SIDE}, got {side}")
    size = rows * cols
    last = -1
    for pos, kind, count in cells:
        if not last < pos < size:
            raise ValueError(f"cells must be sorted by position, distinct and on the grid: {cells}")
        if kind not in (HUMANS, VAMPIRES, WEREWOLVES) or not 1 <= count <= MAX_COUNT:
            raise ValueError(f"bad cell content at pos {pos}: kind {kind}, count {count}")
        last = pos
    return {pos: (int(kind), count) for pos, kind, count in cells}


class GameState:
    """The board after ``ply`` turns. Vampires move on even plies, werewolves on odd ones.

    An immutable, hashable value. Build one with :meth:`from_cells` or
    ``GameState(rows, cols, cells, ply)``; for hot loops, :meth:`trusted` builds one without
    validation. Inside, the board is :attr:`contents`, a ``{pos: (kind, count)}`` dict
    never modified once built; ``cells``, the sorted ``(pos, kind, count)`` triples, is
    made when first asked.
    """

    __slots__ = ("_cells", "_hash", "cols", "contents", "ply", "rows")
    rows: int
    cols: int
    ply: int
    contents: Mapping[int, tuple[int, int]]
    """The non-empty cells as ``{pos: (kind, count)}``: the state's own mapping, read it
    (the fastest way to read the whole board, as the search does at every node), never
    modify it; :meth:`grid` gives a copy to change."""
    _cells: tuple[Cell, ...] | None
    _hash: int | None

    def __init__(self, rows: int, cols: int, cells: tuple[Cell, ...], ply: int = 0) -> None:
        cells = tuple(cells)
        grid = _validated_grid(rows, cols, cells)
        _init(self, rows, cols, ply, grid, tuple((p, int(k), n) for p, k, n in cells))

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
    def trusted(
        cls,
        rows: int,
        cols: int,
        cells: tuple[Cell, ...] | None,
        ply: int,
        grid: Mapping[int, tuple[int, int]] | None = None,
    ) -> "GameState":
        """Build without validation, for the engine's and the bots' inner loops.

        Give ``cells`` (sorted triples), ``grid`` (``{pos: (kind, count)}`` without empty
        entries), or both when they agree; a given ``grid`` is kept as is: the caller gives
        up the dict.
        """
        state = _new(cls)
        if grid is None:
            grid = {pos: (kind, n) for pos, kind, n in cells or ()}
        _init(state, rows, cols, ply, grid, cells)
        return state

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The non-empty cells as ``(pos, kind, count)`` triples sorted by ``pos``."""
        cells = self._cells
        if cells is None:
            cells = tuple(sorted([(pos, kind, n) for pos, (kind, n) in self.contents.items()]))
            _set_cells(self, cells)
        return cells

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.ply == other.ply
            and self.cols == other.cols
            and self.rows == other.rows
            and self.contents == other.contents
        )

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self.rows, self.cols, self.ply, self.cells))
            _set_hash(self, value)
        return value

    def __repr__(self) -> str:
        return f"GameState(rows={self.rows}, cols={self.cols}, cells={self.cells}, ply={self.ply})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"GameState is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"GameState is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (GameState.trusted, (self.rows, self.cols, self.cells, self.ply))

    @property
    def to_move(self) -> Kind:
        """The species whose turn it is."""
        return WEREWOLVES if self.ply & 1 else VAMPIRES

    def grid(self) -> dict[int, tuple[int, int]]:
        """A new ``{pos: (kind, count)}`` dict of the non-empty cells, yours to modify."""
        return dict(self.contents)

    def at(self, x: int, y: int) -> tuple[Kind, int]:
        """What stands on ``(x, y)``: ``(kind, count)``, ``(EMPTY, 0)`` for an empty cell."""
        kind, count = self.contents.get(y * self.cols + x, (EMPTY, 0))
        return Kind(kind), count

    def groups(self, kind: Kind) -> list[Group]:
        """``(x, y, count)`` of every cell holding ``kind``, row-major."""
        cols = self.cols
        return [(pos % cols, pos // cols, n) for pos, k, n in self.cells if k == kind]

    def total(self, kind: Kind) -> int:
        """How many creatures of ``kind`` are on the board."""
        return sum(n for k, n in self.contents.values() if k == kind)

    def with_ply(self, ply: int) -> "GameState":
        """The same board at another ply number (a skipped turn advances the ply)."""
        return GameState.trusted(self.rows, self.cols, self._cells, ply, self.contents)

    def draw(self, *, coordinates: bool = False, indent: str = "") -> str:
        """The board as text (:func:`engine.drawing.draw_board`): one line per row, ``.``
        for empty, ``H4``/``V12``/``W3`` otherwise; with ``coordinates``, x and y labelled."""
        return "\n".join(
            draw_board(
                self.rows, self.cols, self.board_cells(), coordinates=coordinates, indent=indent
            )
        )

    def board_cells(self) -> list[BoardCell]:
        """The non-empty cells as ``(x, y, kind, count)``, row-major."""
        cols = self.cols
        return [(pos % cols, pos // cols, Kind(kind), n) for pos, kind, n in self.cells]


# Slot setters: the only writes to a state, made while it is being built.
_new = object.__new__
_set_rows = GameState.__dict__["rows"].__set__
_set_cols = GameState.__dict__["cols"].__set__
_set_ply = GameState.__dict__["ply"].__set__
_set_contents = GameState.__dict__["contents"].__set__
_set_cells = GameState.__dict__["_cells"].__set__
_set_hash = GameState.__dict__["_hash"].__set__


def _init(
    state: GameState,
    rows: int,
    cols: int,
    ply: int,
    grid: Mapping[int, tuple[int, int]],
    cells: tuple[Cell, ...] | None,
) -> None:
    _set_rows(state, rows)
    _set_cols(state, cols)
    _set_ply(state, ply)
    _set_contents(state, grid)
    _set_cells(state, cells)
    _set_hash(state, None)
