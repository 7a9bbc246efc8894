"""training.calibration: its games do not depend on the clock, every pairing meets every
map, samples keep their board, and a bucket off the goal names the games that fill it."""

import argparse
import collections
import itertools
import json
from pathlib import Path

import attrs
import pytest

from engine import GameState, Kind
from training.calibration import (
    BOTS,
    CALIBRATION_MAPS,
    GAMES,
    Sample,
    _jsonable,
    fillers,
    main,
    plan,
    play_and_analyse,
    read_samples,
    spread,
)
from training.corpus import Planned, Player, write_game


def _args(move_time: float) -> argparse.Namespace:
    return argparse.Namespace(depth=2, jobs=1, move_time=move_time)


def test_a_calibration_game_is_the_same_whatever_the_time_allowed() -> None:
    # Bots that deepen until the clock stops play another game on a busier machine (and
    # skip turns when late: losses no prediction can know of). At fixed depths the time
    # allowed is a limit only, so ten times more of it changes nothing.
    game = ("expectiminimax", "seed2025", "testmap-5x9")
    short = play_and_analyse(2, *game, _args(move_time=5.0))
    long = play_and_analyse(2, *game, _args(move_time=50.0))
    assert short == long
    line, samples = short
    assert "skipped" not in line and "not counted" not in line
    assert samples and all(s.match == "expectiminimax vs seed2025 on testmap-5x9" for s in samples)


def test_a_default_run_meets_every_pairing_on_every_map_twice_with_other_seeds() -> None:
    games = list(plan(GAMES, CALIBRATION_MAPS, seed=1))
    met = collections.Counter((v, w, label) for _, v, w, label in games)
    assert set(met) == set(itertools.product(BOTS, BOTS, CALIBRATION_MAPS)) - {
        (a, a, label) for a in BOTS for label in CALIBRATION_MAPS
    }
    assert set(met.values()) == {2}
    assert [seed for seed, *_ in games] == list(range(1, len(games) + 1))
    # The second half is a run of its own: --games 150 --seed 151 plays it alone.
    half = len(games) // 2
    assert games[half:] == list(plan(half, CALIBRATION_MAPS, seed=half + 1))


def _sample(game: int, ply: int, score: float) -> Sample:
    return Sample(game, ply, "search", 1000.0, 0.65, score, 5, 4, f"game {game}")


def test_a_sample_keeps_its_board_through_its_file(tmp_path: Path) -> None:
    state = GameState.from_cells(3, 4, {(0, 0): (Kind.VAMPIRES, 5), (3, 2): (Kind.HUMANS, 2)})
    cells = tuple((x, y, int(k), n) for x, y, k, n in state.board_cells())
    sample = attrs.evolve(_sample(7, 12, 1.0), rows=3, cols=4, board=cells)
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps(_jsonable(sample)) + "\n")
    [back] = read_samples(path)
    assert back == sample
    again = {(x, y): (Kind(k), n) for x, y, k, n in back.board}
    assert GameState.from_cells(back.rows, back.cols, again) == state


def test_the_games_filling_a_bucket_are_named_most_positions_first() -> None:
    inside = [_sample(3, ply, 0.0) for ply in range(5)]
    inside += [_sample(9, ply, 1.0) for ply in range(7)]
    inside += [_sample(4, 1, 0.5), _sample(1, 1, 1.0)]
    named = [(s.game, count, scored) for s, count, scored in fillers(inside, most=3)]
    assert named == [(9, 7, 1.0), (3, 5, 0.0), (1, 1, 1.0)]


def test_a_bucket_knows_as_much_as_its_games() -> None:
    # Two games, each predicted 65: one won throughout, one lost. Resampled by game, the
    # bucket's points off range from −65 (the lost game twice) to +35 (the won one twice).
    inside = [_sample(1, ply, 1.0) for ply in range(50)] + [
        _sample(2, ply, 0.0) for ply in range(50)
    ]
    low, high = spread(inside)
    assert low == pytest.approx(-65) and high == pytest.approx(35)


def test_each_family_left_out_is_measured_on_its_own_games(tmp_path: Path, capsys) -> None:
    games = tmp_path / "games"
    games.mkdir()
    shallow = Player("seed2019", (("depth", 1),))
    plans = [
        Planned(0, 3, shallow, shallow, "gen:6x5:2"),
        Planned(1, 4, shallow, shallow, "gen:5x5:2"),
        Planned(2, 5, Player("greedy"), Player("random"), "gen:6x6:2"),
        Planned(3, 6, Player("random"), Player("greedy"), "gen:5x6:2"),
        Planned(4, 7, Player("greedy"), shallow, "gen:6x6:3"),
    ]
    for planned in plans:
        write_game(games, planned)
    (tmp_path / "corpus.json").write_text('{"seed": 1, "noise": 0.03}')
    assert main(["--corpus", str(tmp_path), "--family", "seed2019", "--trees", "5"]) == 0
    out = capsys.readouterr().out
    assert "positions from 2 games" in out
    assert "seed2019 left out: trained without its games, measured on seed2019 vs seed2019" in out
    assert "goal met" in out or "goal NOT met" in out
    assert "control, trained also on seed2019's games against other bots" in out
