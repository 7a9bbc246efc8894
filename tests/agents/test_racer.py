"""racer: the house it takes first, splits for two, attacks only at 1.5 times, legal plies."""

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.arena import play_game
from agents.geometry import distance
from agents.racer import split_parts
from agents.registry import BOTS, make_agent
from engine import (
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    Kind,
    Move,
    OnTimeout,
    Ply,
    apply_ply,
    end_of_game,
    find_violation,
    resolve_ply,
)
from engine.mapfile import load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply

MAPS = Path(__file__).resolve().parents[2] / "maps"
OFFICIAL = ["thetrap", "testmap", "testmap-5x9", "testmap2", "all_in"]


def racer_ply(cells: dict[tuple[int, int], tuple[Kind, int]]) -> Ply:
    state = GameState.from_cells(10, 20, cells)
    ply = make_agent("racer", seed=1).choose_ply(state, time.monotonic() + 5.0)
    assert find_violation(state, ply) is None
    return ply


Cell = tuple[int, int]


def heads_for(ply: Ply, expected: list[tuple[Cell, int, Cell]]) -> bool:
    """Whether ``ply`` is one move per ``(source, count, goal)`` of ``expected``, each one
    cell nearer its goal (the racer picks among equally good steps)."""
    goals = {(source, count): goal for source, count, goal in expected}
    return sorted((move.source, move.count) for move in ply) == sorted(goals) and all(
        distance(move.target, goals[move.source, move.count])
        == distance(move.source, goals[move.source, move.count]) - 1
        for move in ply
    )


def test_racer_is_registered() -> None:
    assert "racer" in BOTS
    assert make_agent("racer", seed=1).name == "racer"


@pytest.mark.parametrize(
    ("enemy", "goal"),
    [
        pytest.param(10, (0, 5), id="an enemy nearer the biggest house: the other one"),
        pytest.param(7, (10, 5), id="the enemy too small for the biggest house: the biggest"),
    ],
)
def test_it_goes_for_the_biggest_house_it_takes_first(enemy: int, goal: tuple[int, int]) -> None:
    # Our 10 are 5 cells from both houses; the enemy is 3 cells from the 8.
    cells = {
        (5, 5): (VAMPIRES, 10),
        (10, 5): (HUMANS, 8),
        (0, 5): (HUMANS, 5),
        (13, 5): (WEREWOLVES, enemy),
    }
    assert heads_for(racer_ply(cells), [((5, 5), 10, goal)])


def test_a_tie_in_distance_is_the_racers_as_it_moves_first() -> None:
    # Both 3 cells from the 8: the racer arrives first.
    cells = {
        (5, 5): (VAMPIRES, 10),
        (8, 5): (HUMANS, 8),
        (0, 5): (HUMANS, 5),
        (11, 5): (WEREWOLVES, 10),
    }
    assert heads_for(racer_ply(cells), [((5, 5), 10, (8, 5))])


def test_it_never_goes_for_a_house_bigger_than_itself() -> None:
    cells = {(5, 5): (VAMPIRES, 6), (8, 5): (HUMANS, 7), (1, 5): (HUMANS, 3)}
    cells[(18, 9)] = (WEREWOLVES, 2)
    assert heads_for(racer_ply(cells), [((5, 5), 6, (1, 5))])


def test_it_splits_a_group_to_take_two_houses_at_once() -> None:
    cells = {
        (5, 5): (VAMPIRES, 12),
        (2, 5): (HUMANS, 4),
        (8, 5): (HUMANS, 5),
        (18, 0): (WEREWOLVES, 3),
    }
    # Each part gets its house's humans, the 3 left over shared 5 : 4 (rounded down for
    # the second house).
    assert split_parts(12, 5, 4) == (7, 5)
    assert heads_for(racer_ply(cells), [((5, 5), 5, (2, 5)), ((5, 5), 7, (8, 5))])


def test_it_does_not_split_when_the_two_houses_need_more_than_the_group() -> None:
    cells = {
        (5, 5): (VAMPIRES, 8),
        (2, 5): (HUMANS, 4),
        (8, 5): (HUMANS, 5),
        (18, 0): (WEREWOLVES, 3),
    }
    assert heads_for(racer_ply(cells), [((5, 5), 8, (8, 5))])


def test_two_groups_claim_two_houses() -> None:
    # The 8 takes the 6 (biggest first); the 7 would take it too, but it is claimed.
    cells = {
        (5, 2): (VAMPIRES, 8),
        (5, 7): (VAMPIRES, 7),
        (8, 5): (HUMANS, 6),
        (2, 7): (HUMANS, 3),
        (18, 0): (WEREWOLVES, 3),
    }
    assert heads_for(racer_ply(cells), [((5, 2), 8, (8, 5)), ((5, 7), 7, (2, 7))])


@pytest.mark.parametrize(
    ("ours", "strikes"),
    [pytest.param(9, True, id="9 against 6: sure, strikes"), pytest.param(8, False, id="8: no")],
)
def test_it_attacks_an_enemy_group_only_when_it_is_one_and_a_half_times_bigger(
    ours: int, strikes: bool
) -> None:
    cells = {(5, 5): (VAMPIRES, ours), (6, 5): (WEREWOLVES, 6), (15, 5): (HUMANS, 2)}
    ply = racer_ply(cells)
    assert (Move(5, 5, ours, 6, 5) in ply) == strikes
    assert strikes or all(move.target != (6, 5) for move in ply)


def test_a_strike_comes_before_the_race() -> None:
    cells = {(5, 5): (VAMPIRES, 9), (5, 6): (WEREWOLVES, 3), (7, 5): (HUMANS, 8)}
    assert racer_ply(cells) == (Move(5, 5, 9, 5, 6),)


def test_with_no_house_to_take_it_hunts_what_it_beats_for_sure() -> None:
    cells = {(2, 2): (VAMPIRES, 9), (6, 6): (WEREWOLVES, 6), (12, 2): (WEREWOLVES, 7)}
    assert heads_for(racer_ply(cells), [((2, 2), 9, (6, 6))])


def test_a_small_group_with_nothing_to_do_joins_the_biggest() -> None:
    # Houses too big, enemies too big: the 4 walks to the 12; the 12 waits.
    cells = {
        (2, 2): (VAMPIRES, 12),
        (6, 2): (VAMPIRES, 4),
        (10, 8): (HUMANS, 20),
        (18, 8): (WEREWOLVES, 11),
    }
    assert heads_for(racer_ply(cells), [((6, 2), 4, (2, 2))])


def test_a_lone_group_with_nothing_to_do_steps_away_from_what_beats_it() -> None:
    cells = {(5, 5): (VAMPIRES, 4), (7, 5): (WEREWOLVES, 8)}
    (move,) = racer_ply(cells)
    assert move.tx == 4


def random_position(seed: int, plies: int, size: int) -> GameState:
    rng = random.Random(seed)
    state = generate_map(size, size, size // 3, seed=seed).initial_state()
    for _ in range(plies):
        after = apply_ply(state, random_ply(state, rng), rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


@given(seed=st.integers(0, 2**20), plies=st.integers(0, 80), size=st.sampled_from([6, 12, 30]))
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_any_position_gets_a_legal_ply_with_no_random_battle(
    seed: int, plies: int, size: int
) -> None:
    state = random_position(seed, plies, size)
    agent = make_agent("racer", seed=seed)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 1.0)
    assert ply and find_violation(state, ply) is None
    _, battles = resolve_ply(state, ply)
    for battle in battles:
        if len(battle.outcomes) > 1:  # a random battle: only a group hemmed in on all sides
            (move,) = ply
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    x, y = move.x + dx, move.y + dy
                    if (dx or dy) and 0 <= x < state.cols and 0 <= y < state.rows:
                        assert state.at(x, y)[0] not in (Kind.EMPTY, state.to_move)


@given(seed=st.integers(0, 2**20), plies=st.integers(0, 40))
@settings(max_examples=20, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_seed_plays_the_same_ply(seed: int, plies: int) -> None:
    state = random_position(seed, plies, 12)
    plies_played = [
        make_agent("racer", seed=3).choose_ply(state, time.monotonic() + 1.0) for _ in range(2)
    ]
    assert plies_played[0] == plies_played[1]


@pytest.mark.parametrize("map_name", OFFICIAL)
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_whole_games_on_the_official_maps_are_legal(map_name: str, opponent: str) -> None:
    game_map = load_map(MAPS / f"{map_name}.xml")
    for racer_first in (True, False):
        racer, other = make_agent("racer", seed=1), make_agent(opponent, seed=1)
        vampires, werewolves = (racer, other) if racer_first else (other, racer)
        record = play_game(
            vampires, werewolves, game_map, move_time=1.0, seed=1, on_timeout=OnTimeout.FORFEIT
        )
        assert not record.termination.is_abnormal, record.detail
