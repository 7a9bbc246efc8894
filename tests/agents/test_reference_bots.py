"""The reference opponents (seed2019, zcsn, seed2025): whole games, legality, their search."""

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.arena import play_game
from agents.reference_search import WIN
from agents.registry import BOTS, make_agent
from engine import (
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    OnTimeout,
    apply_ply,
    end_of_game,
    find_violation,
)
from engine.mapfile import load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply

MAPS = Path(__file__).resolve().parents[2] / "maps"
OFFICIAL = ["thetrap", "testmap", "testmap-5x9", "testmap2", "all_in"]
REFERENCE = ["seed2019", "zcsn", "seed2025"]


def test_the_reference_bots_are_registered() -> None:
    assert set(REFERENCE) <= set(BOTS)
    for name in REFERENCE:
        assert make_agent(name, seed=1).name == name


@pytest.mark.parametrize("bot", REFERENCE)
def test_an_unknown_option_is_refused_with_the_valid_ones(bot: str) -> None:
    with pytest.raises(ValueError, match=r"no option width; its options: .*\bdepth\b.*\bseed\b"):
        make_agent(bot, width=3)


@pytest.mark.parametrize("bot", REFERENCE)
@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("map_index", range(len(OFFICIAL)))
def test_a_whole_game_on_each_official_map_is_legal_and_on_time(
    bot: str, opponent: str, map_index: int
) -> None:
    # A small budget keeps the test fast; the arena's limit is far above it and a late
    # reply forfeits, so only a bot that ignores its budget (or plays an illegal ply)
    # ends the game early.
    game_map = load_map(MAPS / f"{OFFICIAL[map_index]}.xml")
    ours = make_agent(bot, seed=map_index, time_budget=0.01)
    theirs = make_agent(opponent, seed=map_index)
    ours_first = (map_index + (opponent == "greedy")) % 2 == 0
    vampires, werewolves = (ours, theirs) if ours_first else (theirs, ours)
    record = play_game(
        vampires, werewolves, game_map, move_time=1.0, seed=map_index, on_timeout=OnTimeout.FORFEIT
    )
    assert not record.termination.is_abnormal, record.detail


def random_position(seed: int, plies: int) -> GameState:
    rng = random.Random(seed)
    state = generate_map(12, 9, 5, seed=seed).initial_state()
    for _ in range(plies):
        after = apply_ply(state, random_ply(state, rng), rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


@pytest.mark.parametrize("bot", REFERENCE)
@given(seed=st.integers(0, 2**20), plies=st.integers(0, 60))
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
def test_any_position_gets_a_legal_non_empty_ply(bot: str, seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    agent = make_agent(bot, seed=seed, time_budget=0.02)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 1.0)
    assert ply
    assert find_violation(state, ply) is None


@pytest.mark.parametrize("bot", REFERENCE)
def test_each_bot_kills_the_last_enemy_group_when_it_can(bot: str) -> None:
    cells = {(2, 2): (VAMPIRES, 9), (3, 3): (WEREWOLVES, 4), (6, 6): (HUMANS, 2)}
    state = GameState.from_cells(8, 8, cells)
    ply = make_agent(bot, seed=0).choose_ply(state, time.monotonic() + 5.0)
    after = apply_ply(state, ply, random.Random(0)).state
    assert after.total(WEREWOLVES) == 0


@pytest.mark.parametrize("bot", REFERENCE)
def test_the_same_seed_plays_the_same_plies_when_time_is_ample(bot: str) -> None:
    state = load_map(MAPS / "thetrap.xml").initial_state()
    plies = [
        make_agent(bot, seed=7, depth=2).choose_ply(state, time.monotonic() + 10.0)
        for _ in range(2)
    ]
    assert plies[0] == plies[1]


def test_the_search_settles_a_chance_node_by_its_expectation() -> None:
    # seed2019's model: 5 vampires next to 4 werewolves, their only group. Attacking is a
    # random battle (5 < 6) the engine gives P = 0.75; at depth 1 each successor is a
    # finished game: won unless no vampire survives (all 5 die with probability 0.25⁵ when
    # they win), so the ply is worth 0.75 · (1 − 0.25⁵) · WIN − (0.25 + 0.75 · 0.25⁵) · WIN.
    state = GameState.from_cells(5, 5, {(1, 1): (VAMPIRES, 5), (2, 2): (WEREWOLVES, 4)})
    value, ply = make_agent("seed2019", depth=1).analyse(state, 1)  # type: ignore[attr-defined]
    assert ply == ((1, 1, 5, 2, 2),)
    lost = 0.25 + 0.75 * 0.25**5
    assert value == pytest.approx(WIN * (1 - 2 * lost), rel=1e-9)
