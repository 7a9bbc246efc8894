"""The pursuit tables agree with a plain game-tree search of the same pursuit."""

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.pursuit import BATTLE, CAPTURE, NEVER, PursuitTable, pursuit_table


def _neighbours(rows: int, cols: int, cell: int) -> list[int]:
    x, y = cell % cols, cell // cols
    return [
        (y + dy) * cols + x + dx
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and 0 <= x + dx < cols and 0 <= y + dy < rows
    ]


def _searched_time(
    rows: int,
    cols: int,
    blocked: frozenset[int],
    what: int,
    leader: int,
    chaser: int,
    leader_moves: bool,
    horizon: int,
) -> int:
    """The fewest plies within which the chaser forces ``what``, by searching the game
    tree ply by ply (straight from the definitions in agents.pursuit)."""

    @functools.cache
    def forced(leader: int, chaser: int, leader_moves: bool, plies: int) -> bool:
        if plies == 0:
            return False
        adjacent = chaser in _neighbours(rows, cols, leader)
        if leader_moves:
            if adjacent and what == CAPTURE:
                return False  # the leader strikes first
            steps = [s for s in _neighbours(rows, cols, leader) if s not in blocked and s != chaser]
            return all(forced(s, chaser, False, plies - 1) for s in steps)
        if adjacent:
            return True  # the chaser strikes
        steps = [s for s in _neighbours(rows, cols, chaser) if s not in blocked and s != leader]
        return any(forced(leader, s, True, plies - 1) for s in steps)

    for plies in range(horizon + 1):
        if forced(leader, chaser, leader_moves, plies):
            return plies
    return NEVER


@st.composite
def _positions(draw: st.DrawFn) -> tuple[int, int, frozenset[int], int, int, bool]:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(2 if rows == 1 else 1, 5))
    cells = list(range(rows * cols))
    leader, chaser = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
    others = [c for c in cells if c not in (leader, chaser)]
    blocked = frozenset(draw(st.lists(st.sampled_from(others), unique=True)) if others else [])
    return rows, cols, blocked, leader, chaser, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(_positions(), st.sampled_from([CAPTURE, BATTLE]))
def test_the_tables_time_is_the_game_trees(position, what):
    rows, cols, blocked, leader, chaser, leader_moves = position
    table = PursuitTable(rows, cols, blocked)
    # Beyond the table's horizon nothing new can be forced: search a few plies further.
    searched = _searched_time(
        rows, cols, blocked, what, leader, chaser, leader_moves, table.horizon + 4
    )
    assert table.time(what, leader, chaser, leader_moves) == searched


@settings(max_examples=100, deadline=None)
@given(_positions())
def test_a_capture_is_a_battle_so_it_is_never_forced_sooner(position):
    rows, cols, blocked, leader, chaser, leader_moves = position
    table = PursuitTable(rows, cols, blocked)
    capture = table.time(CAPTURE, leader, chaser, leader_moves)
    assert table.time(BATTLE, leader, chaser, leader_moves) <= capture


def test_a_chaser_next_to_the_leader_on_its_turn_strikes_at_once():
    table = pursuit_table(5, 9)
    assert table.time(CAPTURE, 0, 1, False) == 1
    assert table.time(BATTLE, 0, 10, False) == 1


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 5), (3, 3), (4, 7), (5, 9), (6, 6)])
def test_on_an_open_board_the_leader_is_never_captured_but_a_battle_is_always_forced(rows, cols):
    # A leader always has a step that is not next to the chaser, so it is struck only if
    # the chaser is next to it on the chaser's turn; the chaser can corner it into a
    # battle from anywhere within 2 × (longer side) − 2 plies.
    table = pursuit_table(rows, cols)
    cells = rows * cols
    for leader in range(cells):
        for chaser in range(cells):
            if chaser == leader:
                continue
            apart = max(abs(leader % cols - chaser % cols), abs(leader // cols - chaser // cols))
            for leader_moves in (False, True):
                captured = 1 if apart == 1 and not leader_moves else NEVER
                assert table.time(CAPTURE, leader, chaser, leader_moves) == captured
                battle = table.time(BATTLE, leader, chaser, leader_moves)
                assert battle <= 2 * max(rows, cols) - 2
    assert table.horizon == 2 * max(rows, cols) - 2


def test_a_corridor_with_a_dead_end_traps_the_leader():
    # One row: a leader at the end, the chaser two cells away, the leader to move. Its one
    # step takes it next to the chaser, which strikes.
    table = pursuit_table(1, 5)
    assert table.time(CAPTURE, 0, 2, True) == 2
    # With the chaser to move instead, it cannot come closer without being struck first.
    assert table.time(CAPTURE, 0, 2, False) > 2


def test_tables_are_kept_per_board():
    assert pursuit_table(5, 9) is pursuit_table(5, 9)
    assert pursuit_table(5, 9, frozenset({3})) is not pursuit_table(5, 9)
