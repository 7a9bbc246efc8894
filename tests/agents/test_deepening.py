"""The one iterative-deepening driver: every root ply's value, given plies too, the same
values at a fixed depth whatever came before, a cut-short iteration's partial result, the
side a bot plays, and the options every search bot checks the same way."""

import random
import time
from pathlib import Path

import pytest

from agents.deepening import Deepening
from agents.evaluation import ROOT_TIE
from agents.registry import BOTS, make_agent, options_of
from agents.search import OutOfTime
from engine import GameState, Move, apply_ply, find_violation
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapfile import load_map
from engine.movegen import random_ply
from tests.helpers.clock import ticking_clock

MAPS = Path(__file__).resolve().parents[2] / "maps"
SEARCH_BOTS = ["alphabeta", "expectiminimax"]
REFERENCE = ["seed2019", "zcsn", "seed2025"]

CROSSING = GameState.from_cells(
    6,
    8,
    {
        (1, 1): (VAMPIRES, 6),
        (0, 3): (HUMANS, 3),
        (3, 0): (HUMANS, 4),
        (6, 4): (WEREWOLVES, 6),
        (7, 1): (HUMANS, 2),
    },
)
"""A small open position: houses each side can take, the enemy two steps off after."""


def search_bot(name: str, **options: object) -> Deepening:
    agent = make_agent(name, **options)
    assert isinstance(agent, Deepening)
    return agent


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_root_values_value_every_root_ply_and_the_best_is_what_the_bot_plays(bot: str) -> None:
    agent = search_bot(bot)
    values = agent.root_values(CROSSING, depth=3)
    assert len(values) == len(agent.root_plies(CROSSING)) > 3
    scores = [value for _, value in values]
    assert scores == sorted(scores, reverse=True)
    value, ply = search_bot(bot).analyse(CROSSING, 3)
    valued = dict(values)
    # The bot keeps an earlier best against plies within the tie margin above it.
    assert valued[ply] >= scores[0] - ROOT_TIE
    assert value == pytest.approx(valued[ply])


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_root_values_at_a_fixed_depth_do_not_depend_on_earlier_searches(bot: str) -> None:
    agent = search_bot(bot)
    first = agent.root_values(CROSSING, depth=3)
    thetrap = load_map(MAPS / "thetrap.xml").initial_state()
    agent.choose_ply(thetrap, time.monotonic() + 0.3)
    assert agent.root_values(CROSSING, depth=3) == first
    assert search_bot(bot).root_values(CROSSING, depth=3) == first


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_ply_the_candidates_never_offer_is_valued_too(bot: str) -> None:
    agent = search_bot(bot)
    # One vampire steps away from every house: no candidate generator offers that.
    odd = (Move(1, 1, 1, 0, 0),)
    assert odd not in agent.root_plies(CROSSING)
    [(ply, value)] = agent.root_values(CROSSING, depth=2, plies=[odd])
    assert ply == odd
    valued = dict(agent.root_values(CROSSING, depth=2))
    assert value < max(valued.values())  # leaving 5 behind and converting nothing is worse
    with pytest.raises(ValueError, match="cannot value the ply"):
        agent.root_values(CROSSING, depth=2, plies=[(Move(1, 1, 7, 2, 2),)])
    with pytest.raises(ValueError, match="no plies to value"):
        agent.root_values(CROSSING, depth=2, plies=[])


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_root_values_deepen_as_a_search_does_and_say_each_depth(bot: str) -> None:
    heard: list[tuple[int, float]] = []
    agent = search_bot(bot, on_iteration=lambda depth, value, best: heard.append((depth, value)))
    values = agent.root_values(CROSSING, depth=3)
    assert [depth for depth, _ in heard] == [1, 2, 3]
    assert heard[-1][1] == values[0][1]
    assert agent.last_stats is not None and agent.last_stats.depth == 3
    assert agent.last_stats.candidates == len(values)


def test_ply_value_is_the_root_value_of_that_ply() -> None:
    agent = search_bot("expectiminimax")
    values = agent.root_values(CROSSING, depth=2)
    for ply, value in values[:3]:
        assert agent.ply_value(CROSSING, ply, 2) == value  # type: ignore[attr-defined]


def test_root_values_under_a_time_limit_give_the_last_finished_depth(monkeypatch) -> None:
    ticking_clock(monkeypatch, tick=0.0005)
    agent = search_bot("alphabeta")
    values = agent.root_values(CROSSING, seconds=0.5)
    assert agent.last_stats is not None and agent.last_stats.depth >= 1
    assert {ply for ply, _ in values} == set(agent.root_plies(CROSSING))
    with pytest.raises(ValueError, match="needs a depth, a time, or both"):
        agent.root_values(CROSSING)


class _Scripted(Deepening[float]):
    """A driver over made-up root plies whose values are given, and whose clock runs out
    while a chosen ply of a chosen depth is searched."""

    name = "scripted"
    Options = options_of("zcsn")

    def __init__(self, values: dict[int, list[float]], stop_at: tuple[int, int]) -> None:
        super().__init__()
        self.values = values
        self.stop_at = stop_at

    def root_plies(self, state: GameState) -> list[tuple[Move, ...]]:
        return [(Move(0, 0, 1, 1, i),) for i in range(len(self.values[1]))]

    def root_child(self, state: GameState, ply: tuple[Move, ...]) -> float:
        return float(ply[0].ty)

    def searched(self, child: float, depth: int, alpha: float, beta: float) -> float:
        index = int(child)
        if (depth + 1, index) == self.stop_at:
            raise OutOfTime
        return self.values[depth + 1][index]


@pytest.mark.parametrize(
    ("keep", "expected"), [(True, (Move(0, 0, 1, 1, 2),)), (False, (Move(0, 0, 1, 1, 0),))]
)
def test_a_cut_short_iteration_keeps_a_ply_it_proved_better_only_if_the_bot_says(
    keep: bool, expected: tuple[Move, ...]
) -> None:
    # Depth 1 prefers ply 0; depth 2 finds ply 2 better, then runs out of time on ply 1.
    bot = _Scripted({1: [5.0, 1.0, 3.0], 2: [2.0, 0.0, 4.0]}, stop_at=(2, 1))
    bot.KEEP_PARTIAL = keep  # type: ignore[misc]
    state = GameState.from_cells(3, 3, {(0, 0): (VAMPIRES, 1)})
    # The root is searched best first: ply 0, then ply 2, then ply 1.
    assert bot.choose_ply(state, time.monotonic() + 60) == expected
    assert bot.last_stats is not None and bot.last_stats.depth == 1


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_search_bot_plays_the_side_new_game_gives_it(bot: str) -> None:
    agent = search_bot(bot)
    start = load_map(MAPS / "thetrap.xml").initial_state()
    agent.new_game(WEREWOLVES, start)
    assert agent.species == WEREWOLVES  # type: ignore[attr-defined]
    after = apply_ply(start, random_ply(start, random.Random(1)), random.Random(1)).state
    ply = agent.choose_ply(after, time.monotonic() + 0.3)
    assert find_violation(after, ply) is None
    assert agent.species == WEREWOLVES  # type: ignore[attr-defined]


@pytest.mark.parametrize("bot", [*SEARCH_BOTS, *REFERENCE])
def test_every_search_bot_checks_its_depth_and_time_budget_alike(bot: str) -> None:
    with pytest.raises(ValueError, match="depth must be 1 or more, got 0"):
        make_agent(bot, depth=0)
    with pytest.raises(ValueError, match="time budget must be positive, got -1"):
        make_agent(bot, time_budget=-1)


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_declares_its_options_once_with_their_help(bot: str) -> None:
    from agents.options import help_lines, kinds

    declared = kinds(options_of(bot))
    assert "seed" in declared
    lines = help_lines(options_of(bot))
    for name, kind in declared.items():
        if kind in (int, float, str):
            assert any(line.startswith(f"--{name.replace('_', '-')} ") for line in lines)


@pytest.mark.parametrize("bot", REFERENCE)
def test_a_reference_bot_reports_its_search_as_the_search_bots_do(bot: str) -> None:
    agent = search_bot(bot, depth=2, seed=1)
    agent.choose_ply(CROSSING, time.monotonic() + 10)
    assert agent.last_stats is not None
    assert agent.last_stats.depth == 2 and agent.last_stats.nodes > 0


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_leaf_is_valued_once_and_the_kept_values_are_bounded(bot: str) -> None:
    calls = []

    class Counting(type(search_bot(bot))):  # type: ignore[misc]
        def leaf_value(self, state, *rest):  # type: ignore[no-untyped-def]
            calls.append(state)
            return super().leaf_value(state)

    agent = Counting()
    agent.new_game(VAMPIRES, CROSSING)
    first = agent.leaf(CROSSING, 1)
    assert agent.leaf(CROSSING, 1) == first and len(calls) == 1
    agent.leaf_entries = 3
    for key in range(2, 10):
        agent.leaf(CROSSING, key)
    assert len(agent.leaves) <= 3  # type: ignore[attr-defined]
