"""Zobrist keys: a child's key built in a few XORs equals its key built from scratch."""

import random

import pytest

from agents.alphabeta import ply_children
from agents.zobrist import Zobrist
from engine import GameState, end_of_game
from engine.movegen import random_ply
from tests.helpers.boards import random_position, starts


@pytest.mark.parametrize("start", starts(), ids=lambda m: m.name)
def test_incremental_keys_equal_keys_from_scratch(start) -> None:
    zobrist = Zobrist()
    rng = random.Random(3)
    for seed in range(40):
        state = random_position(start, seed)
        if end_of_game(state) is not None:
            continue
        key = zobrist.key(state)
        ply = random_ply(state, rng)
        for _, child in ply_children(state, ply):
            assert zobrist.child(key, state, ply, child.contents) == zobrist.key(child)


def test_keys_tell_apart_the_same_board_at_another_ply_and_other_boards() -> None:
    zobrist = Zobrist()
    cells = {(0, 0): (2, 3), (2, 2): (3, 3)}
    a = GameState.from_cells(3, 3, cells)
    later = GameState.trusted(3, 3, a.cells, 1)
    moved = GameState.from_cells(3, 3, {(0, 1): (2, 3), (2, 2): (3, 3)})
    keys = {zobrist.key(a), zobrist.key(later), zobrist.key(moved)}
    assert len(keys) == 3
    assert Zobrist().key(a) == zobrist.key(a)  # seeded: the same in every run
