"""benchmarks.mirror_races: which draws are exact ties of mirrored races."""

import random
from pathlib import Path

import pytest

from benchmarks.mirror_races import Race, is_symmetric, main, race, summarise
from engine import GameState, Kind, Move, Termination, Turn, apply_ply
from engine.kinds import VAMPIRES, WEREWOLVES
from tests.helpers.boards import board
from vvw.analysis.game import PlayedGame, game_from_file, game_from_turns
from vvw.cli import main as vvw_main
from vvw.records.results import GameLine, Side, read_results

TWO_HOUSES = """
V4 H2 . .  .
.  .  . H2 W4
"""


def played(start: GameState, plies: list[Move]) -> PlayedGame:
    """The game of one-move plies from ``start``, as a drawn game."""
    turns, state = [], start
    for move in plies:
        after = apply_ply(state, (move,), random.Random(0)).state
        turns.append(Turn(state.to_move, state.ply, (move,), after))
        state = after
    return game_from_turns(start, turns)


def test_a_half_turn_maps_a_symmetric_start_onto_itself() -> None:
    assert is_symmetric(board(TWO_HOUSES))
    assert is_symmetric(board("V3 . H5\n. H1 .\nH5 . W3"))
    assert not is_symmetric(board("V4 H2 . H3 W4"))  # houses of other sizes
    assert not is_symmetric(board("V4 H2 . H2 W5"))  # starts of other sizes
    assert not is_symmetric(board("V4 . H2 H2 W4"))  # houses not each other's images


def test_each_side_taking_the_image_of_the_others_house_then_level_is_a_tie() -> None:
    game = played(
        board(TWO_HOUSES),
        [
            Move(0, 0, 4, 1, 0),  # the vampires convert their house: 6
            Move(4, 1, 4, 3, 1),  # the werewolves its image: 6
            Move(1, 0, 6, 1, 1),
            Move(3, 1, 6, 3, 0),
        ],
    )
    found = race(game)
    assert found == Race(True, True, 2, True, (6, 6))
    assert found.tie and found.why_not is None


def test_one_side_taking_both_houses_is_no_mirrored_race() -> None:
    game = played(
        board(TWO_HOUSES),
        [
            Move(0, 0, 4, 1, 0),
            Move(4, 1, 4, 4, 0),
            Move(1, 0, 6, 2, 1),
            Move(4, 0, 4, 3, 0),
            Move(2, 1, 6, 3, 1),  # the vampires take the werewolves' house too: 8
        ],
    )
    found = race(game)
    assert found.last_house == 5 and found.final == (8, 4)
    assert not found.mirrored and not found.level_since and not found.tie
    assert found.why_not == "the houses were not split as mirror images"


def test_humans_left_or_an_asymmetric_map_is_no_mirrored_tie() -> None:
    waiting = played(board(TWO_HOUSES), [Move(0, 0, 4, 0, 1), Move(4, 1, 4, 4, 0)])
    assert race(waiting).why_not == "humans were left at the end"
    lopsided = played(board("V4 H2 . . .\n. . . H3 W4"), [Move(0, 0, 4, 1, 0)])
    assert race(lopsided).why_not == "the map is not centrally symmetric"


def line(map_name: str, vampires: str, werewolves: str, winner: Kind | None) -> GameLine:
    return GameLine(
        f"{map_name}:{vampires}",
        map_name,
        1,
        map_name,
        None,
        Side(vampires, vampires),
        Side(werewolves, werewolves),
        winner,
        Termination.PLY_LIMIT,
    )


def test_the_best_score_keeps_only_the_mirrored_ties_as_draws() -> None:
    tie = Race(True, True, 30, True, (60, 60))
    other = Race(True, False, 30, True, (60, 60))
    games = [
        (line("a", "us", "them", None), tie),
        (line("a", "them", "us", None), tie),
        (line("b", "us", "them", None), other),
        (line("b", "them", "us", WEREWOLVES), None),
        (line("c", "us", "them", VAMPIRES), None),
        (line("c", "them", "others", None), tie),  # not ours
        (line("d", "us", "them", None), None),  # its transcript not read
    ]
    summary = summarise("us", games)
    assert (summary.games, summary.wins, summary.draws, summary.ties) == (6, 2, 4, 2)
    assert summary.unread == 1
    assert summary.both_sides == ("a",)
    assert summary.score == pytest.approx(4 / 6)
    assert summary.best == pytest.approx(5 / 6)


def test_a_real_runs_draws_are_each_read_from_their_transcript(tmp_path, monkeypatch, capsys):
    """racer and striker both take the houses they reach first: on this map they split
    them as images of each other, as each side."""
    monkeypatch.chdir(tmp_path)  # the transcripts' paths are written relative to here
    results = tmp_path / "run.jsonl"
    code = vvw_main(
        [
            "tournament",
            "racer",
            "striker",
            "--maps",
            "gen:21:25x25:4",
            "--seed",
            "1",
            "--keep-transcripts",
            "--results",
            str(results),
        ]
    )
    assert code == 0
    _, games = read_results(results)
    races = {game.key: race(game_from_file(Path(game.transcript))) for game in games}
    capsys.readouterr()
    monkeypatch.chdir(tmp_path.parent)  # read from elsewhere: relative to the run's folder
    assert main([str(results)]) == 0
    out = capsys.readouterr().out
    wins = sum(game.score_of("racer") == 1 for game in games)
    draws = [game for game in games if game.winner is None]
    ties = sum(races[game.key].tie for game in draws)
    assert ties >= 1
    losses = len(games) - wins - len(draws)
    assert f"racer: {len(games)} games, {wins}-{len(draws)}-{losses}," in out
    assert f"draws: {len(draws)}, of which mirrored ties: {ties}" in out
    assert out.count(" draw ") == len(draws)
    assert main([str(results), "--player", "nobody"]) == 2
