"""Boards for tests: drawn as text, or reached by random play from the maps."""

import random

from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState, Kind, apply_ply, end_of_game
from engine.mapfile import GameMap, load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply
from tests.helpers.maps import MAPS

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


def starts() -> list[GameMap]:
    """Every map we ship, and a generated 30 × 30 one."""
    maps = [load_map(path) for path in sorted(MAPS.glob("*.xml"))]
    return [*maps, generate_map(30, 30, 60, seed=7)]


def random_position(start: GameMap, seed: int) -> GameState:
    """A position after a random number of random plies (with many splits)."""
    rng = random.Random(seed)
    state = start.initial_state()
    for _ in range(rng.randrange(60)):
        if end_of_game(state) is not None:
            break
        state = apply_ply(state, random_ply(state, rng, split_chance=0.7), rng).state
    return state
