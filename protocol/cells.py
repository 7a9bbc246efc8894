"""What the server tells bots about the board, in the course server's exact order."""

import logging
from collections.abc import Iterable, Sequence

from engine import GameState, Move
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from protocol.codec import CellBytes

log = logging.getLogger(__name__)


MAX_COUNT = 255
"""The largest count a message can carry (one byte)."""


def cell_bytes(state: GameState, x: int, y: int) -> CellBytes:
    """``(x, y, humans, vampires, werewolves)`` of one cell, all zero for an empty one.

    The engine never leaves more than 255 on a cell (the excess of a merge or conversion
    is lost, see docs/rules.md), and one byte cannot say more. The clamp below is a
    defensive guard that should never trigger: a state built by hand past the engine
    would otherwise crash the game; it logs an error if it ever does.
    """
    kind, count = state.at(x, y)
    if count > MAX_COUNT:
        log.error("(%d,%d) holds %d creatures; sent as %d", x, y, count, MAX_COUNT)
        count = MAX_COUNT
    return (
        x,
        y,
        count if kind == HUMANS else 0,
        count if kind == VAMPIRES else 0,
        count if kind == WEREWOLVES else 0,
    )


def map_cells(state: GameState) -> tuple[CellBytes, ...]:
    """Every non-empty cell, row-major (y outer, x inner), as MAP lists them."""
    cols = state.cols
    return tuple(cell_bytes(state, pos % cols, pos // cols) for pos, _, _ in state.cells)


def ply_cells(ply: Sequence[Move]) -> list[tuple[int, int]]:
    """The cells a ply touched: for each distinct target in order of first appearance,
    the target, then the sources of the moves into it; no cell twice."""
    cells: dict[tuple[int, int], None] = {}
    targets: dict[tuple[int, int], None] = {}
    for move in ply:
        targets.setdefault(move.target)
    for target in targets:
        cells.setdefault(target)
        for move in ply:
            if move.target == target:
                cells.setdefault(move.source)
    return list(cells)


def update_cells(
    state: GameState, changed: Iterable[Sequence[tuple[int, int]]]
) -> tuple[CellBytes, ...]:
    """The UPD for ``state``: the cells of each ply in ``changed`` (the vampires' last ply's
    first, then the werewolves'), each cell once, with its current content."""
    seen: dict[tuple[int, int], None] = {}
    for cells in changed:
        for cell in cells:
            seen.setdefault(cell)
    return tuple(cell_bytes(state, x, y) for x, y in seen)
