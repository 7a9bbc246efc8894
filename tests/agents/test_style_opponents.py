"""The opponents of other styles. racer: the house it takes first, splits for two, attacks
only at 1.5 times. striker: one army, strikes at favourable odds. Both: legal plies."""

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.arena import play_game
from agents.racer import split_parts
from agents.registry import BOTS, make_agent
from agents.striker import favours
from engine import (
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    Battle,
    GameState,
    Kind,
    Move,
    OnTimeout,
    Ply,
    apply_ply,
    distance,
    end_of_game,
    find_violation,
    resolve_ply,
)
from engine.mapfile import load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply

MAPS = Path(__file__).resolve().parents[2] / "maps"
OFFICIAL = ["thetrap", "testmap", "testmap-5x9", "testmap2", "all_in"]
STYLES = ["racer", "striker"]


def racer_ply(cells: dict[tuple[int, int], tuple[Kind, int]], bot: str = "racer") -> Ply:
    state = GameState.from_cells(10, 20, cells)
    ply = make_agent(bot, seed=1).choose_ply(state, time.monotonic() + 5.0)
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


@pytest.mark.parametrize("bot", STYLES)
def test_the_style_opponents_are_registered(bot: str) -> None:
    assert bot in BOTS
    assert make_agent(bot, seed=1).name == bot


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


def hemmed_in_or_favoured(bot: str, state: GameState, ply: Ply, battle: Battle) -> bool:
    """Whether a random battle of ``ply`` is one ``bot`` may start: the striker's with
    enemies at favourable odds, or any of a lone group whose every neighbour is taken."""
    if bot == "striker" and battle.defender != HUMANS:
        return favours(battle.attackers, battle.defenders)
    (move,) = ply
    return all(
        state.at(x, y)[0] not in (Kind.EMPTY, state.to_move)
        for x in range(max(move.x - 1, 0), min(move.x + 2, state.cols))
        for y in range(max(move.y - 1, 0), min(move.y + 2, state.rows))
        if (x, y) != move.source
    )


@pytest.mark.parametrize("bot", STYLES)
@given(seed=st.integers(0, 2**20), plies=st.integers(0, 80), size=st.sampled_from([6, 12, 30]))
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_any_position_gets_a_legal_ply_with_no_unwanted_random_battle(
    bot: str, seed: int, plies: int, size: int
) -> None:
    state = random_position(seed, plies, size)
    agent = make_agent(bot, seed=seed)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 1.0)
    assert ply and find_violation(state, ply) is None
    _, battles = resolve_ply(state, ply)
    for battle in battles:
        if len(battle.outcomes) > 1:
            assert hemmed_in_or_favoured(bot, state, ply, battle), battle
    if bot == "striker":  # it never splits: each group moves whole
        sources = [move.source for move in ply]
        assert len(set(sources)) == len(sources)
        assert all(move.count == state.at(*move.source)[1] for move in ply)


@pytest.mark.parametrize("bot", STYLES)
@given(seed=st.integers(0, 2**20), plies=st.integers(0, 40))
@settings(max_examples=20, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_seed_plays_the_same_ply(bot: str, seed: int, plies: int) -> None:
    state = random_position(seed, plies, 12)
    plies_played = [
        make_agent(bot, seed=3).choose_ply(state, time.monotonic() + 1.0) for _ in range(2)
    ]
    assert plies_played[0] == plies_played[1]


@pytest.mark.parametrize("bot", STYLES)
@pytest.mark.parametrize("map_name", OFFICIAL)
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_whole_games_on_the_official_maps_are_legal(bot: str, map_name: str, opponent: str) -> None:
    game_map = load_map(MAPS / f"{map_name}.xml")
    for ours_first in (True, False):
        ours, other = make_agent(bot, seed=1), make_agent(opponent, seed=1)
        vampires, werewolves = (ours, other) if ours_first else (other, ours)
        record = play_game(
            vampires, werewolves, game_map, move_time=1.0, seed=1, on_timeout=OnTimeout.FORFEIT
        )
        assert not record.termination.is_abnormal, record.detail


# -- striker --------------------------------------------------------------------------------


def test_the_striker_gathers_its_groups_into_one_army() -> None:
    # The small group passes by a house it could take and joins the army, which takes it.
    cells = {
        (2, 2): (VAMPIRES, 12),
        (6, 2): (VAMPIRES, 4),
        (9, 2): (HUMANS, 3),
        (2, 9): (HUMANS, 20),
        (18, 9): (WEREWOLVES, 11),
    }
    ply = racer_ply(cells, "striker")
    assert heads_for(ply, [((6, 2), 4, (2, 2)), ((2, 2), 12, (9, 2))])


@pytest.mark.parametrize(
    ("ours", "strikes"),
    [
        pytest.param(11, True, id="11 against 10: wins 60 %, strikes"),
        pytest.param(10, False, id="10 against 10: 50 %, waits"),
    ],
)
def test_the_striker_strikes_when_the_exact_odds_favour_it(ours: int, strikes: bool) -> None:
    assert favours(11, 10) and not favours(10, 10) and favours(15, 10)
    cells = {(5, 5): (VAMPIRES, ours), (6, 5): (WEREWOLVES, 10), (15, 5): (HUMANS, 30)}
    ply = racer_ply(cells, "striker")
    assert (ply == (Move(5, 5, ours, 6, 5),)) == strikes
    assert strikes or all(move.target != (6, 5) for move in ply)


def test_the_striker_grows_whole_on_the_biggest_house_it_takes_first() -> None:
    # Enough for both houses: the racer would split, the striker takes the bigger first.
    cells = {
        (5, 5): (VAMPIRES, 12),
        (2, 5): (HUMANS, 3),
        (9, 5): (HUMANS, 8),
        (18, 5): (WEREWOLVES, 12),
    }
    assert heads_for(racer_ply(cells, "striker"), [((5, 5), 12, (9, 5))])


@pytest.mark.parametrize(
    ("biggest", "seeks"),
    [pytest.param(10, True, id="12 against 10: seeks it"), pytest.param(11, False, id="11: no")],
)
def test_with_no_house_left_the_striker_seeks_the_decisive_battle_at_good_odds(
    biggest: int, seeks: bool
) -> None:
    cells = {(2, 5): (VAMPIRES, 12), (12, 5): (WEREWOLVES, biggest), (12, 0): (WEREWOLVES, 3)}
    ply = racer_ply(cells, "striker")
    assert heads_for(ply, [((2, 5), 12, (12, 5))]) == seeks
