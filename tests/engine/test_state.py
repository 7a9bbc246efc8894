"""The game state: an immutable, hashable value built from cells, drawn as text."""

import pickle

import pytest
from hypothesis import given

from engine import (
    EMPTY,
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    Kind,
    Move,
    distance,
    opponent,
    ply_text,
)
from engine.mapfile import load_map
from engine.state import neighbour_table
from engine.testing.strategies import game_states
from tests.helpers.boards import board
from tests.helpers.maps import MAPS


def test_a_state_cannot_be_changed() -> None:
    state = board("V3 W2")
    with pytest.raises(AttributeError):
        state.ply = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del state.rows
    with pytest.raises(AttributeError):
        state.contents = {}  # type: ignore[misc]
    state.grid()[0] = (WEREWOLVES, 99)
    assert state.at(0, 0) == (VAMPIRES, 3)


def test_equal_boards_at_the_same_ply_are_equal_and_hash_alike() -> None:
    a = board("V3 . W2\nH1 . .")
    cells = {(2, 0): (WEREWOLVES, 2), (0, 1): (HUMANS, 1), (0, 0): (VAMPIRES, 3)}
    b = GameState.from_cells(2, 3, cells)
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != a.with_ply(1)
    assert a != board("V3 . W2\nH2 . .")
    assert a != board("V3 . W2 .\nH1 . . .")
    assert a != "V3 . W2"


@given(game_states(both_species=False))
def test_from_cells_round_trips(state: GameState) -> None:
    cols = state.cols
    mapping = {(pos % cols, pos // cols): (Kind(kind), n) for pos, kind, n in state.cells}
    again = GameState.from_cells(state.rows, state.cols, mapping, state.ply)
    assert again == state and hash(again) == hash(state)
    assert GameState.trusted(state.rows, state.cols, state.cells, state.ply) == state
    assert pickle.loads(pickle.dumps(state)) == state
    assert eval(repr(state), {"GameState": GameState}) == state
    assert state.contents == state.grid() == {pos: (kind, n) for pos, kind, n in state.cells}
    assert sum(state.total(k) for k in (HUMANS, VAMPIRES, WEREWOLVES)) == sum(
        n for _, _, n in state.cells
    )


def test_from_cells_drops_empty_entries() -> None:
    cells = {(0, 0): (VAMPIRES, 2), (1, 0): (EMPTY, 0), (2, 0): (HUMANS, 0)}
    state = GameState.from_cells(1, 3, cells)
    assert state.cells == ((0, int(VAMPIRES), 2),)


@pytest.mark.parametrize(
    ("rows", "cols", "cells", "message"),
    [
        (0, 3, (), "rows must be 1..255"),
        (3, 256, (), "cols must be 1..255"),
        (2, 2, ((4, 2, 1),), "on the grid"),
        (2, 2, ((1, 2, 1), (0, 3, 1)), "sorted"),
        (2, 2, ((1, 2, 1), (1, 3, 1)), "distinct"),
        (2, 2, ((0, 2, 0),), "count 0"),
        (2, 2, ((0, 2, 256),), "count 256"),
        (2, 2, ((0, 0, 3),), "kind 0"),
    ],
)
def test_a_bad_board_is_refused(rows: int, cols: int, cells, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameState(rows, cols, cells)


def test_from_cells_refuses_a_cell_outside_the_grid() -> None:
    with pytest.raises(ValueError, match=r"\(3,0\) is outside the 2 × 3 grid"):
        GameState.from_cells(2, 3, {(3, 0): (VAMPIRES, 1)})


def test_the_side_to_move_alternates_vampires_first() -> None:
    assert [board("V1 W1", ply=p).to_move for p in range(4)] == [
        VAMPIRES,
        WEREWOLVES,
        VAMPIRES,
        WEREWOLVES,
    ]
    assert opponent(VAMPIRES) == WEREWOLVES and opponent(WEREWOLVES) == VAMPIRES
    with pytest.raises(ValueError):
        opponent(HUMANS)


def test_cells_are_read_by_column_and_row() -> None:
    state = board("V3 .\n. W12\nH4 .")
    assert state.at(1, 1) == (WEREWOLVES, 12)
    assert state.at(0, 2) == (HUMANS, 4)
    assert state.at(1, 0) == (EMPTY, 0)
    assert state.groups(VAMPIRES) == [(0, 0, 3)]
    assert state.groups(HUMANS) == [(0, 2, 4)]


def test_draw_shows_the_board_row_by_row() -> None:
    state = load_map(MAPS / "thetrap.xml").initial_state()
    assert state.draw() == "\n".join(
        [
            " .  .  .  .  .  .  .  .  . H2",
            " .  .  .  . W4  .  .  .  .  .",
            " .  . H4  .  .  .  .  .  . H1",
            " .  .  .  . V4  .  .  .  .  .",
            " .  .  .  .  .  .  .  .  . H2",
        ]
    )
    assert board(state.draw()) == state
    assert GameState(1, 2, ()).draw() == ". ."


def test_a_move_reads_as_what_it_does() -> None:
    move = Move(1, 2, 3, 2, 2)
    assert (move.source, move.target) == ((1, 2), (2, 2))
    assert str(move) == "(1,2)->(2,2) x3"


def test_a_ply_reads_as_its_moves_in_order() -> None:
    ply = (Move(4, 3, 4, 3, 2), Move(5, 0, 2, 6, 0))
    assert ply_text(ply) == "(4,3)->(3,2) x4 (5,0)->(6,0) x2"
    assert ply_text(()) == "(no moves)"


@given(game_states())
def test_the_distance_between_cells_is_the_plies_a_group_needs(state: GameState) -> None:
    """From one cell, the cells ``d`` plies away (stepping to neighbours) are those at
    :func:`engine.distance` ``d``."""
    table = neighbour_table(state.rows, state.cols)
    start = next(iter(state.contents), 0)
    plies = {start: 0}
    frontier = [start]
    while frontier:
        reached = []
        for pos in frontier:
            for step in table[pos]:
                if step not in plies:
                    plies[step] = plies[pos] + 1
                    reached.append(step)
        frontier = reached
    cell = (start % state.cols, start // state.cols)
    assert len(plies) == state.rows * state.cols
    for pos, steps in plies.items():
        assert distance(cell, (pos % state.cols, pos // state.cols, 1)) == steps
