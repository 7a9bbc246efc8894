"""Generating plies: a random ply depends on the board and the seed alone."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameState, apply_ply, end_of_game
from engine.movegen import random_ply
from engine.testing.strategies import game_states


def reordered(state: GameState) -> GameState:
    """An equal state whose board was built in the opposite order (as a client's board from
    MAP and UPD messages differs in order from the referee's after ``apply_ply``)."""
    contents = dict(reversed(list(state.contents.items())))
    return GameState.trusted(state.rows, state.cols, None, state.ply, contents)


@settings(max_examples=200, deadline=None)
@given(game_states(max_side=6), st.integers(0, 2**32), st.sampled_from([0.0, 0.3, 0.9]))
def test_a_random_ply_depends_on_the_board_and_the_seed_not_on_how_the_board_was_built(
    state: GameState, seed: int, split_chance: float
) -> None:
    other = reordered(state)
    assert other == state
    for _ in range(4):
        if end_of_game(state) is not None:
            break
        ply = random_ply(state, random.Random(seed), split_chance)
        assert random_ply(other, random.Random(seed), split_chance) == ply
        state = apply_ply(state, ply, random.Random(seed)).state
        other = reordered(state)
