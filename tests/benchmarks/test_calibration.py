"""benchmarks.calibration: its games do not depend on the clock, every pairing meets every
map, samples keep their board, and a bucket off the goal names the games that fill it."""

import argparse
import collections
import itertools
import json
from pathlib import Path

import attrs

from benchmarks.calibration import (
    BOTS,
    CALIBRATION_MAPS,
    GAMES,
    Sample,
    _jsonable,
    fillers,
    plan,
    play_and_analyse,
    read_samples,
)
from engine import GameState, Kind


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
