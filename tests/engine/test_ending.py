"""End of the game: elimination first (vampires checked first), then the ply limit."""

import pytest

from engine import VAMPIRES, WEREWOLVES, EndReason, GameEnd, Rules, end_of_game, winner_by_count
from engine.ending import totals
from tests.helpers.boards import board


def test_a_running_game_is_not_over() -> None:
    assert end_of_game(board("V3 H9 W2", ply=199)) is None


def test_no_vampires_left_means_the_werewolves_win() -> None:
    assert end_of_game(board("H9 W2", ply=5)) == GameEnd(WEREWOLVES, EndReason.ELIMINATION)


def test_no_werewolves_left_means_the_vampires_win() -> None:
    assert end_of_game(board("V1 H9", ply=6)) == GameEnd(VAMPIRES, EndReason.ELIMINATION)


def test_an_empty_board_is_checked_for_vampires_first() -> None:
    assert end_of_game(board(". H3", ply=9)) == GameEnd(WEREWOLVES, EndReason.ELIMINATION)


def test_elimination_beats_the_ply_limit() -> None:
    assert end_of_game(board("V8 H9 .", ply=200)) == GameEnd(VAMPIRES, EndReason.ELIMINATION)


@pytest.mark.parametrize(
    ("picture", "winner"),
    [("V5 W4", VAMPIRES), ("V4 W5", WEREWOLVES), ("V5 W5", None), ("V2 V3 H99 W5", None)],
)
def test_after_200_plies_the_larger_species_wins_and_equal_totals_draw(picture, winner) -> None:
    assert end_of_game(board(picture, ply=199)) is None
    assert end_of_game(board(picture, ply=200)) == GameEnd(winner, EndReason.PLY_LIMIT)
    assert winner_by_count(board(picture)) == winner


def test_humans_do_not_count() -> None:
    assert totals(board("V2 H200 W3 V4")) == (6, 3)
    assert winner_by_count(board("V4 H200 W3")) == VAMPIRES


def test_the_ply_limit_is_a_setting() -> None:
    short = Rules(max_plies=10)
    assert end_of_game(board("V5 W4", ply=9), short) is None
    assert end_of_game(board("V5 W4", ply=10), short) == GameEnd(VAMPIRES, EndReason.PLY_LIMIT)
    assert Rules().max_plies == 200
    with pytest.raises(ValueError):
        Rules(max_plies=0)
