"""The one-against-one endgame: when it applies, what it is worth, and how it is played."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.endgame import attack_chance, endgame_chance, endgame_ply, find_endgame
from agents.expectiminimax import ExpectiminimaxAgent
from engine import GameState, apply_ply, end_of_game, win_probability
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.rules import Rules, Variant

V, W = VAMPIRES, WEREWOLVES
ROWS, COLS = 5, 9


def _state(cells: dict[tuple[int, int], tuple[int, int]], ply: int = 0) -> GameState:
    return GameState.from_cells(ROWS, COLS, cells, ply)


def test_an_attack_wins_with_the_battle_unless_both_groups_die():
    # Both groups gone is the werewolves' win: vampires lose a little, werewolves gain it.
    assert attack_chance(V, 8, 7) < win_probability(8, 7) < attack_chance(W, 8, 7)
    assert attack_chance(V, 6, 4) == attack_chance(W, 6, 4) == 1.0
    assert attack_chance(W, 7, 8) == pytest.approx(7 / 16, abs=1e-3)


def test_it_is_an_endgame_only_with_one_group_each_of_different_sizes_and_no_house_to_take():
    base = {(0, 0): (V, 8), (8, 4): (W, 7)}
    assert find_endgame(_state(base)) is not None
    assert find_endgame(_state({**base, (4, 2): (HUMANS, 9)})) is not None  # too big
    assert find_endgame(_state({**base, (4, 2): (HUMANS, 8)})) is None
    assert find_endgame(_state({**base, (4, 4): (V, 1)})) is None
    assert find_endgame(_state({(0, 0): (V, 7), (8, 4): (W, 7)})) is None
    assert find_endgame(_state({(0, 0): (V, 6), (8, 4): (W, 4)})) is None  # a hunt
    assert find_endgame(_state({(0, 0): (V, 6), (8, 4): (W, 5)})) is not None
    assert find_endgame(_state(base), Rules(variant=Variant.SPEC)) is None
    big = GameState.from_cells(31, 30, {(0, 0): (V, 8), (29, 30): (W, 7)})
    assert find_endgame(big) is None


def test_a_leader_out_of_reach_until_the_ply_limit_wins_for_sure():
    far = {(0, 0): (V, 8), (8, 4): (W, 7)}
    assert endgame_chance(_state(far, ply=196), V) == 1.0
    assert endgame_chance(_state(far, ply=196), W) == 0.0


def test_with_time_left_the_chaser_forces_a_battle_and_the_leader_strikes_first():
    state = _state({(0, 0): (V, 8), (8, 4): (W, 7)}, ply=0)
    assert endgame_chance(state, V) == pytest.approx(attack_chance(V, 8, 7))


def test_a_chaser_next_to_the_leader_on_its_turn_strikes():
    state = _state({(4, 2): (V, 8), (5, 2): (W, 7)}, ply=1)  # werewolves to move
    ((move),) = endgame_ply(state)
    assert (move.tx, move.ty) == (4, 2)


def test_a_leader_near_the_ply_limit_steps_away_instead_of_striking():
    state = _state({(4, 2): (V, 8), (5, 2): (W, 7)}, ply=198)
    ((move),) = endgame_ply(state)
    assert max(abs(move.tx - 5), abs(move.ty - 2)) >= 2
    assert endgame_chance(state, V) == 1.0


def _play_out(state: GameState, rng: random.Random) -> GameState:
    """Both sides play :func:`endgame_ply` until the game ends."""
    while end_of_game(state) is None:
        state = apply_ply(state, endgame_ply(state), rng).state
    return state


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(x, y) for x in range(COLS) for y in range(ROWS)]),
    st.sampled_from([(x, y) for x in range(COLS) for y in range(ROWS)]),
    st.integers(170, 199),
    st.integers(0, 2**32),
)
def test_played_out_the_endgame_ends_as_its_value_says(leader, chaser, ply, seed):
    """The value and the play agree: a sure win is won, and a lost cause is lost unless
    a battle's dice say otherwise (both sides playing it out)."""
    if leader == chaser:
        return
    state = _state({leader: (V, 9), chaser: (W, 7)}, ply=ply)
    chance = endgame_chance(state, V)
    end = _play_out(state, random.Random(seed))
    if chance == 1.0:
        assert end_of_game(end).winner == V and end.total(V) == 9
    else:
        # A battle was fought: one side is gone.
        assert end.total(V) == 0 or end.total(W) == 0


def test_the_search_bot_plays_the_solved_endgame():
    state = _state({(4, 2): (V, 8), (5, 2): (W, 7)}, ply=1)
    bot = ExpectiminimaxAgent(depth=2)
    bot.new_game(W, state)
    assert bot.choose_ply(state, deadline=float("inf")) == endgame_ply(state)
