"""The baseline bots, in process: legal plies on random states, greedy's purpose and strength."""

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.greedy import THINK_TIME, GreedyAgent
from agents.random_bot import RandomAgent
from agents.registry import BOTS, make_agent
from engine import (
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    Kind,
    apply_ply,
    end_of_game,
    find_violation,
)
from engine.mapfile import GameMap, load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply
from tests.helpers.clock import ticking_clock

MAPS = Path(__file__).resolve().parents[2] / "maps"
OFFICIAL = [load_map(MAPS / f"{name}.xml") for name in ("thetrap", "testmap", "testmap2")]
ALL_MAPS = [
    *OFFICIAL,
    *(load_map(MAPS / f"{name}.xml") for name in ("testmap-5x9", "all_in")),
    generate_map(30, 30, 14, seed=11),
]


def random_position(game_map: GameMap, seed: int, plies: int) -> GameState:
    """The board after up to ``plies`` random plies from the start (stops at the end)."""
    rng = random.Random(seed)
    state = game_map.initial_state()
    for _ in range(plies):
        ply = random_ply(state, rng)
        if not ply:
            break
        after = apply_ply(state, ply, rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


@pytest.mark.parametrize("bot", ["random", "greedy"])
@given(
    map_index=st.integers(0, len(ALL_MAPS) - 1),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 120),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_baselines_only_ever_produce_legal_non_empty_plies(
    bot: str, map_index: int, seed: int, plies: int
) -> None:
    state = random_position(ALL_MAPS[map_index], seed, plies)
    agent = make_agent(bot, seed=seed)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 1.0)
    assert ply
    assert find_violation(state, ply) is None


def test_both_baselines_are_registered() -> None:
    assert {"random", "greedy"} <= set(BOTS)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("random", seed=3), RandomAgent)


@pytest.mark.parametrize(
    ("species", "where"), [(VAMPIRES, (3, 2)), (WEREWOLVES, (2, 3)), (VAMPIRES, (1, 1))]
)
def test_greedy_converts_an_adjacent_human_group_it_can_take(
    species: Kind, where: tuple[int, int]
) -> None:
    enemy = WEREWOLVES if species == VAMPIRES else VAMPIRES
    cells = {(2, 2): (species, 6), where: (HUMANS, 4), (9, 7): (enemy, 6), (0, 7): (HUMANS, 9)}
    state = GameState.from_cells(8, 10, cells, ply=0 if species == VAMPIRES else 1)
    ply = GreedyAgent(0).choose_ply(state, time.monotonic() + 1.0)
    after = apply_ply(state, ply, random.Random(0)).state
    assert after.total(species) == 10
    assert after.at(*where) == (species, 10)


def test_greedy_runs_from_an_enemy_that_would_eat_it() -> None:
    cells = {(4, 4): (VAMPIRES, 4), (6, 4): (WEREWOLVES, 12), (0, 0): (HUMANS, 2)}
    state = GameState.from_cells(9, 9, cells)
    ply = GreedyAgent(0).choose_ply(state, time.monotonic() + 1.0)
    after = apply_ply(state, ply, random.Random(0)).state
    assert all(max(abs(x - 6), abs(y - 4)) >= 3 for x, y, _ in after.groups(VAMPIRES))


@pytest.mark.parametrize(("prey", "hunter"), [(40, 60), (10, 60), (5, 100), (20, 31)])
def test_greedy_attacks_an_adjacent_enemy_that_would_eat_it(prey: int, hunter: int) -> None:
    # Staying next to it costs 0.9 × the group and one step away 0.1 ×, while attacking
    # loses only q² · (hunter − prey) in expectation (q = prey / 2·hunter): under 0.1 × prey.
    cells = {(8, 5): (WEREWOLVES, prey), (8, 6): (VAMPIRES, hunter), (2, 14): (WEREWOLVES, 10)}
    state = GameState.from_cells(15, 20, cells, ply=1)
    ply = GreedyAgent(0).choose_ply(state, time.monotonic() + 1.0)
    assert (8, 5, prey, 8, 6) in [tuple(move) for move in ply]


def test_greedy_splits_to_take_two_houses_at_once() -> None:
    cells = {(4, 4): (VAMPIRES, 8), (2, 4): (HUMANS, 3), (6, 4): (HUMANS, 3)}
    cells[(14, 14)] = (WEREWOLVES, 3)
    state = GameState.from_cells(15, 15, cells)
    ply = GreedyAgent(0).choose_ply(state, time.monotonic() + 1.0)
    assert {move.target for move in ply} == {(3, 4), (5, 4)}


def play_game(game_map: GameMap, greedy_species: Kind, seed: int) -> Kind | None:
    """One in-process game greedy vs random; the winner (``None`` for a draw)."""
    rng = random.Random(seed)
    bots = {greedy_species: GreedyAgent(seed)}
    bots[WEREWOLVES if greedy_species == VAMPIRES else VAMPIRES] = RandomAgent(seed)
    state = game_map.initial_state()
    for species, bot in bots.items():
        bot.new_game(species, state)
    while True:
        ply = bots[state.to_move].choose_ply(state, time.monotonic() + 1.0)
        state = apply_ply(state, ply, rng).state
        end = end_of_game(state)
        if end is not None:
            return end.winner


def test_greedy_beats_random_in_most_games() -> None:
    games = [
        (game_map, species, seed)
        for seed, game_map in enumerate([*OFFICIAL, generate_map(16, 12, 6, seed=2)])
        for species in (VAMPIRES, WEREWOLVES)
    ]
    wins = sum(play_game(m, species, seed) == species for m, species, seed in games)
    assert wins >= len(games) - 1


def test_greedy_stops_thinking_after_its_think_time_by_its_clock(monkeypatch) -> None:
    game_map = load_map(MAPS / "gen-30x30.xml")
    clock = ticking_clock(monkeypatch, tick=0.001)
    agent = GreedyAgent(0)
    for seed in range(8):
        state = random_position(game_map, seed, 20)
        began = clock.now
        ply = agent.choose_ply(state, began + 2.0)
        assert clock.now - began <= THINK_TIME + 0.002  # two ticks: set, then pass its stop
        assert find_violation(state, ply) is None


def test_greedy_splits_only_toward_two_houses_it_can_convert_both_of() -> None:
    from agents.greedy import candidates
    from engine import GameState
    from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES

    def splits(near: int, far: int) -> list:
        state = GameState.from_cells(
            5,
            7,
            {
                (3, 2): (VAMPIRES, 5),
                (2, 2): (HUMANS, near),
                (5, 2): (HUMANS, far),
                (6, 4): (WEREWOLVES, 1),
            },
        )
        return [ply for ply in candidates(state, 3, 2, 5) if len(ply) == 2]

    (split,) = splits(3, 2)
    assert sorted((m.target, m.count) for m in split) == [((2, 2), 3), ((4, 2), 2)]
    assert splits(4, 2) == []  # 4 + 2 > 5: one part could not convert its house
