"""The one board renderer: a state, a transcript's board and a window of a large board all
drawn the same way."""

from engine import GameState, Kind
from engine.drawing import draw_board, window_around

V, W, H = Kind.VAMPIRES, Kind.WEREWOLVES, Kind.HUMANS


def test_the_board_is_drawn_with_its_columns_and_rows_labelled():
    cells = [(1, 1, V, 12), (2, 1, H, 3)]
    assert draw_board(2, 3, cells, indent="  ") == [
        "      0   1   2",
        "  0   .   .   .",
        "  1   . V12  H3",
    ]


def test_a_state_draws_itself_with_the_same_renderer():
    state = GameState.from_cells(2, 3, {(1, 1): (V, 12), (2, 1): (H, 3)})
    assert state.draw() == "  .   .   .\n  . V12  H3"
    assert state.draw(coordinates=True).splitlines() == draw_board(2, 3, state.board_cells())


def test_a_window_draws_part_of_a_large_board_with_its_own_coordinates():
    state = GameState.from_cells(30, 30, {(15, 9): (V, 3), (29, 29): (W, 100)})
    window = window_around(state.rows, state.cols, 15, 9, 5)
    assert window == (range(13, 18), range(7, 12))
    assert draw_board(30, 30, state.board_cells(), window=window) == [
        "   13 14 15 16 17",
        " 7  .  .  .  .  .",
        " 8  .  .  .  .  .",
        " 9  .  . V3  .  .",
        "10  .  .  .  .  .",
        "11  .  .  .  .  .",
    ]


def test_a_window_stays_on_the_board_and_is_never_larger_than_it():
    assert window_around(30, 30, 0, 29, 5) == (range(0, 5), range(25, 30))
    assert window_around(3, 4, 1, 1, 12) == (range(0, 4), range(0, 3))
