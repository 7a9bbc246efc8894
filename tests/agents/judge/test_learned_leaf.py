"""``expectiminimax --leaf learned``: the bot with the learned chances at its leaves, and the
public parameters a tool configures a search with (a judge, widths, exact results, a
callback per iteration) instead of subclassing the bot."""

import subprocess
import sys
import time

import pytest

from agents.expectiminimax import ExpectiminimaxAgent, make
from agents.judge.leaves import LEAF_EDGE, as_value, learned_leaf
from agents.registry import make_agent, options_of
from benchmarks.agents import positions
from engine import GameState, find_violation, opponent
from engine.kinds import VAMPIRES, WEREWOLVES


def test_with_the_learned_leaf_it_plays_a_legal_ply_searched_two_plies_deep() -> None:
    [(_, state)] = list(positions(["testmap-5x9"], [2]))
    agent = make(leaf="learned", depth=2, seed=1)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 60)
    assert ply and find_violation(state, ply) is None
    assert agent.last_stats is not None and agent.last_stats.depth == 2


def test_its_leaf_is_the_learned_chance_for_the_side_searched_for() -> None:
    [(_, state)] = list(positions(["testmap2"], [4]))
    chance = learned_leaf()(state)
    assert LEAF_EDGE < chance < 1 - LEAF_EDGE
    agent = make(leaf="learned", risk=0)
    agent.new_game(state.to_move, state)
    assert agent.leaf_value(state) == as_value(chance)
    agent.new_game(opponent(state.to_move), state)
    assert agent.leaf_value(state) == as_value(1 - chance)


def test_the_leaf_option_is_checked_and_the_evaluation_is_the_default() -> None:
    assert ExpectiminimaxAgent().judge is None
    with pytest.raises(ValueError, match="leaf must be one of evaluation, learned"):
        make(leaf="oracle")
    assert options_of("expectiminimax")().leaf == "evaluation"


def test_the_agent_command_offers_the_leaf_option() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "vvw", "agent", "--help"], capture_output=True, text=True
    ).stdout
    assert "--leaf STR" in shown and "learned" in shown


def test_a_judge_replaces_the_evaluation_at_the_leaves_and_nowhere_else() -> None:
    state = GameState.from_cells(6, 6, {(0, 0): (VAMPIRES, 5), (5, 5): (WEREWOLVES, 3)})
    agent = ExpectiminimaxAgent(judge=lambda s: 0.75, risk=0)
    agent.new_game(VAMPIRES, state)
    assert agent.leaf_value(state) == as_value(0.75)
    assert agent.leaf_value(state.with_ply(1)) == as_value(0.25)  # the werewolves to move
    assert ExpectiminimaxAgent(judge=lambda s: 1.0, risk=0).judge is not None
    edge = ExpectiminimaxAgent(judge=lambda s: 1.0, risk=0)
    edge.new_game(VAMPIRES, state)
    assert edge.leaf_value(state) == as_value(1 - LEAF_EDGE)  # never certain at a leaf


def test_exact_results_value_a_finished_game_without_a_bonus_for_speed() -> None:
    exact = ExpectiminimaxAgent(exact_results=True, risk=0)
    usual = ExpectiminimaxAgent(risk=0)
    for agent in (exact, usual):
        agent.new_game(VAMPIRES, GameState.from_cells(2, 2, {(0, 0): (VAMPIRES, 1)}))
    assert exact.finished_value(VAMPIRES, 10) == exact.finished_value(VAMPIRES, 90)
    assert usual.finished_value(VAMPIRES, 10) > usual.finished_value(VAMPIRES, 90)
    assert exact.finished_value(WEREWOLVES, 10) < exact.finished_value(None, 10)


def test_widths_narrow_the_candidates_level_by_level_and_widen_only_at_the_root() -> None:
    [(_, state)] = list(positions(["gen:1:30x30:12"], [20]))
    agent = ExpectiminimaxAgent(widths=(5, 2), min_width=1)
    agent.new_game(state.to_move, state)
    agent.begin(state)
    assert len(agent.plies(state)) <= 5
    below = state.with_ply(state.ply + 1)
    assert len(agent.plies(below)) <= 2
    assert len(agent.plies(below.with_ply(state.ply + 5))) <= 2
    with pytest.raises(ValueError, match="widths"):
        ExpectiminimaxAgent(widths=())


def test_the_callback_hears_each_finished_iteration_of_a_search() -> None:
    [(_, state)] = list(positions(["testmap2"], [4]))
    heard: list[tuple[int, float, object]] = []
    agent = ExpectiminimaxAgent(on_iteration=lambda *it: heard.append(it))
    value, ply = agent.analyse(state, 3)
    assert [depth for depth, _, _ in heard] == [1, 2, 3]
    assert heard[-1][1:] == (value, ply)


@pytest.mark.parametrize("bot", ["alphabeta", "seed2019"])
def test_every_search_bot_takes_the_callback(bot: str) -> None:
    [(_, state)] = list(positions(["testmap2"], [4]))
    heard: list[int] = []
    agent = make_agent(bot, on_iteration=lambda depth, value, best: heard.append(depth))
    agent.new_game(state.to_move, state)  # type: ignore[attr-defined]
    agent.analyse(state, 2)  # type: ignore[attr-defined]
    assert heard == [1, 2]
