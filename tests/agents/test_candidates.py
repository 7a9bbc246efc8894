"""Candidate plies: always legal, never empty while the side to move has creatures."""

import random

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from agents.candidates import _arrival_value, _step_toward, candidate_plies
from engine import GameState, find_violation
from engine.battle import is_certain_win
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, Kind
from engine.mapfile import GameMap
from engine.state import neighbour_table
from tests.helpers.boards import random_position, starts


def assert_all_legal(state: GameState, limit: int = 32) -> None:
    plies = candidate_plies(state, limit)
    if not state.total(state.to_move):
        assert plies == []
        return
    assert plies, state.draw()
    assert len(plies) <= limit
    assert len(set(plies)) == len(plies)
    for ply in plies:
        assert find_violation(state, ply) is None, (state.draw(), ply)


@pytest.mark.parametrize("start", starts(), ids=lambda m: m.name or "map")
def test_every_candidate_on_random_positions_is_legal_and_non_empty(start: GameMap) -> None:
    for seed in range(12):
        assert_all_legal(random_position(start, seed))


@st.composite
def crowded_states(draw: st.DrawFn) -> GameState:
    """Small boards packed with groups of every kind, counts up to 255."""
    rows = draw(st.integers(2, 7))
    cols = draw(st.integers(2, 7))
    cells = {}
    for pos in draw(st.sets(st.integers(0, rows * cols - 1), min_size=2, max_size=rows * cols)):
        kind = draw(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES]))
        cells[(pos % cols, pos // cols)] = (kind, draw(st.integers(1, 255)))
    return GameState.from_cells(rows, cols, cells, ply=draw(st.integers(0, 1)))


@settings(max_examples=150, deadline=None)
@given(crowded_states(), st.integers(1, 40))
def test_candidates_are_legal_on_crowded_boards(state: GameState, limit: int) -> None:
    assert_all_legal(state, limit)


def test_no_creatures_no_candidates() -> None:
    state = GameState.from_cells(3, 3, {(0, 0): (WEREWOLVES, 2), (2, 2): (HUMANS, 1)})
    assert candidate_plies(state) == []


def test_a_group_splits_toward_two_houses_it_can_each_take() -> None:
    state = GameState.from_cells(
        5,
        5,
        {(2, 2): (VAMPIRES, 4), (0, 0): (HUMANS, 2), (4, 4): (HUMANS, 2), (4, 0): (WEREWOLVES, 2)},
    )
    split = [ply for ply in candidate_plies(state) if len(ply) == 2]
    assert any({m.target for m in ply} == {(1, 1), (3, 3)} for ply in split)


def test_the_first_candidate_converts_an_adjacent_house() -> None:
    state = GameState.from_cells(
        4, 4, {(0, 0): (VAMPIRES, 3), (1, 1): (HUMANS, 3), (3, 3): (WEREWOLVES, 2)}
    )
    assert candidate_plies(state)[0] == ((0, 0, 3, 1, 1),)


@given(
    st.integers(1, 255),
    st.integers(1, 255),
    st.sampled_from([HUMANS, WEREWOLVES]),
)
@example(254, 170, WEREWOLVES)  # 2·254 < 3·170 by 2: a battle, though a very likely win
@example(255, 170, WEREWOLVES)
@example(99, 100, HUMANS)
def test_an_arrival_is_scored_certain_exactly_when_the_engine_says_so(n, held, kind):
    # candidates.py writes the certain-win thresholds inline (hot path); they must be the
    # engine's, at their edges too. A certain take scores 100 + held, a battle less.
    grid = {1: (int(kind), held)}
    certain = _arrival_value(n, 1, grid, int(VAMPIRES)) == 100.0 + held
    assert certain == is_certain_win(n, held, kind)


def prey_next_to_its_killer(cornered: bool, others: int) -> tuple[GameState, tuple]:
    """Werewolves to move: 40 next to 60 vampires (a certain kill), on the top edge or in the
    open, with ``others`` more werewolf groups of 10 far away; and the 40's attack."""
    y = 0 if cornered else 5
    cells = {(8, y): (WEREWOLVES, 40), (8, y + 1): (VAMPIRES, 60)}
    for i in range(others):
        cells[(2 + 8 * i, 14)] = (WEREWOLVES, 10)
    state = GameState.from_cells(15, 20, cells, ply=1)  # odd plies are the werewolves'
    return state, (8, y, 40, 8, y + 1)


@pytest.mark.parametrize("others", [0, 1, 2])
@pytest.mark.parametrize("cornered", [False, True])
def test_a_group_next_to_its_killer_always_has_its_attack(cornered: bool, others: int) -> None:
    # Running only delays a hunt, so attacking (1 in 3 to win here) is the 40's one chance,
    # and greedy, for one, always takes it: the search must weigh it even at its narrowest.
    from agents.alphabeta import WIDTH
    from agents.expectiminimax import DEFAULT_MIN_WIDTH

    state, attack = prey_next_to_its_killer(cornered, others)
    for width in (WIDTH, DEFAULT_MIN_WIDTH):
        plies = candidate_plies(state, width)
        assert any(attack in [tuple(move) for move in ply] for ply in plies), width


def _nearest_step_by_brute_force(state: GameState, pos: int, goal: int, n: int) -> int:
    """Every neighbour keyed by (Chebyshev distance to goal, random battle, squared
    distance), the least first; on an exact tie, the first in the neighbour table."""
    cols, grid = state.cols, state.contents
    own = grid[pos][0]
    gx, gy = goal % cols, goal // cols

    def key(cell: int) -> tuple[int, bool, int]:
        x, y = cell % cols, cell // cols
        kind, held = grid.get(cell, (0, 0))
        risky = bool(kind) and kind != own and not is_certain_win(n, held, Kind(kind))
        return max(abs(x - gx), abs(y - gy)), risky, (x - gx) ** 2 + (y - gy) ** 2

    return min(neighbour_table(state.rows, cols)[pos], key=key)


@settings(max_examples=300)
@given(
    rows=st.integers(1, 7),
    cols=st.integers(2, 7),
    cells=st.lists(
        st.tuples(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES]), st.integers(1, 12)),
        min_size=49,
        max_size=49,
    ),
    occupied=st.lists(st.booleans(), min_size=49, max_size=49),
    pos=st.integers(0, 48),
    goal=st.integers(0, 48),
    share=st.floats(0.01, 1.0),
)
def test_a_step_toward_a_goal_is_the_nearest_neighbour_preferring_no_battle(
    rows, cols, cells, occupied, pos, goal, share
) -> None:
    size = rows * cols
    pos, goal = pos % size, goal % size
    assume(pos != goal)
    grid = {c: (int(kind), held) for c, (kind, held) in enumerate(cells[:size]) if occupied[c]}
    grid[pos] = (int(VAMPIRES), cells[pos][1])
    state = GameState.trusted(rows, cols, None, 0, grid)
    n = max(1, round(share * grid[pos][1]))
    table = neighbour_table(rows, cols)[pos]
    assert _step_toward(pos, goal, n, cols, table, grid) == _nearest_step_by_brute_force(
        state, pos, goal, n
    )


@settings(max_examples=150, deadline=None)
@given(crowded_states(), st.randoms(use_true_random=False))
def test_the_candidates_do_not_depend_on_the_order_the_cells_were_put_in(
    state: GameState, rng: random.Random
) -> None:
    # A search meets one position by several paths, each building its board in another
    # order; its caches (keyed by position) must find the same plies whichever came first.
    cells = list(state.contents.items())
    rng.shuffle(cells)
    shuffled = GameState.trusted(state.rows, state.cols, None, state.ply, dict(cells))
    assert candidate_plies(shuffled, 8) == candidate_plies(state, 8)
