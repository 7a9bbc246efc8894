"""Shared helpers for the engine tests: boards drawn as text, and hypothesis strategies."""

import random
from pathlib import Path

from hypothesis import strategies as st

from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState, Kind
from engine.movegen import random_ply

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


@st.composite
def game_states(
    draw: st.DrawFn,
    max_side: int = 6,
    max_count: int = 255,
    both_species: bool = True,
) -> GameState:
    """A random board of up to ``max_side`` × ``max_side`` with counts up to ``max_count``.

    With ``both_species`` each species holds at least one cell (a game still running).
    """
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(2 if rows == 1 and both_species else 1, max_side))
    positions = list(range(rows * cols))
    chosen = draw(st.lists(st.sampled_from(positions), unique=True, max_size=len(positions)))
    kinds = draw(
        st.lists(
            st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES]),
            min_size=len(chosen),
            max_size=len(chosen),
        )
    )
    if both_species:
        if len(chosen) < 2:
            free = [p for p in positions if p not in chosen]
            chosen = (chosen + free)[:2]
            kinds = [*kinds, HUMANS, HUMANS][:2]
        kinds[0], kinds[1] = VAMPIRES, WEREWOLVES
    counts = draw(st.lists(st.integers(1, max_count), min_size=len(chosen), max_size=len(chosen)))
    cells = tuple(sorted(zip(chosen, (int(k) for k in kinds), counts, strict=True)))
    return GameState(rows, cols, cells, draw(st.integers(0, 199)))


@st.composite
def states_and_plies(
    draw: st.DrawFn, max_side: int = 6, max_count: int = 255
) -> tuple[GameState, tuple]:
    """A running game state and a random legal ply for the side to move."""
    state = draw(game_states(max_side, max_count))
    ply = random_ply(state, random.Random(draw(st.integers(0, 2**32))))
    return state, ply
