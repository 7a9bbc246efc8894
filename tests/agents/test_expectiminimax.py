"""expectiminimax: legal and timely replies, exact chance nodes, sound Star1 pruning."""

import random
import time
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import evaluation
from agents.arena import play_game
from agents.candidates import candidate_plies
from agents.evaluation import LOSS, ROOT_TIE, WIN, on_win_scale
from agents.expectiminimax import (
    SQUASH_CEILING,
    ExpectiminimaxAgent,
    cautious,
    make,
    terminal_value,
    uncautious,
)
from agents.random_bot import RandomAgent
from engine import (
    GameState,
    Move,
    Rules,
    Termination,
    apply_ply,
    battle_outcomes,
    end_of_game,
    find_violation,
    ply_outcomes,
)
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapfile import load_map
from engine.movegen import random_ply
from tests.helpers.clock import ticking_clock

MAPS = Path(__file__).resolve().parents[2] / "maps"
EXACT = 10**9
"""``max_outcomes`` large enough that every distribution is searched exactly."""
LONG_SHOTS = 0.5
"""``opponent_odds`` for an opponent that takes a long shot only to lower our score."""


def test_make_is_registered_and_named() -> None:
    from agents.registry import make_agent

    agent = make_agent("expectiminimax", time_budget=0.1, seed=1)
    assert isinstance(agent, ExpectiminimaxAgent)
    assert agent.name == "expectiminimax"


@pytest.mark.parametrize("map_name", ["thetrap.xml", "testmap2.xml", "gen-30x30.xml"])
def test_replies_within_the_budget_by_its_clock(map_name: str, monkeypatch) -> None:
    clock = ticking_clock(monkeypatch, tick=0.01)
    state = load_map(MAPS / map_name).initial_state()
    agent = make(time_budget=0.2)
    agent.new_game(state.to_move, state)
    began = clock.now
    ply = agent.choose_ply(state, began + 10.0)
    assert clock.now - began <= 0.2
    assert ply
    assert find_violation(state, ply) is None
    assert agent.last_stats.depth >= 1
    assert agent.last_stats.nodes > 0
    assert 0 < agent.last_stats.seconds <= 0.2


def scattered(map_name: str, plies: int, seed: int) -> GameState:
    """A position ``plies`` random plies (with splits) into a map: many small groups."""
    rng = random.Random(seed)
    state = load_map(MAPS / map_name).initial_state()
    for _ in range(plies):
        after = apply_ply(state, random_ply(state, rng, split_chance=0.9), rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


def test_replies_in_time_by_its_clock_on_a_large_board_with_many_groups(monkeypatch) -> None:
    state = scattered("gen-30x30.xml", 40, seed=3)
    assert len(state.groups(state.to_move)) >= 5
    clock = ticking_clock(monkeypatch, tick=0.01)
    agent = make(time_budget=0.2)
    agent.new_game(state.to_move, state)
    began = clock.now
    ply = agent.choose_ply(state, began + 10.0)
    assert clock.now - began <= 0.2
    assert ply
    assert find_violation(state, ply) is None


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["thetrap.xml", "testmap2.xml", "gen-10x10.xml", "gen-20x15.xml"]),
    st.integers(0, 30),
    st.integers(0, 10**6),
)
def test_random_positions_only_yield_legal_plies(map_name: str, plies: int, seed: int) -> None:
    state = scattered(map_name, plies, seed)
    agent = make(depth=2, seed=seed)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 30.0)
    assert ply
    assert find_violation(state, ply) is None


def test_respects_the_deadline_when_it_is_shorter_than_the_budget(monkeypatch) -> None:
    clock = ticking_clock(monkeypatch, tick=0.01)
    state = load_map(MAPS / "testmap2.xml").initial_state()
    agent = make(time_budget=5.0)
    agent.new_game(state.to_move, state)
    began = clock.now
    agent.choose_ply(state, began + 0.2)
    assert clock.now - began <= 0.2


def test_whole_games_against_random_are_legal_and_mostly_won() -> None:
    wins = games = 0
    for map_name in ("thetrap.xml", "testmap-5x9.xml", "gen-10x10.xml", "testmap.xml"):
        for seed in range(2):
            emm, rand = make(depth=2, seed=seed), RandomAgent(seed)
            pair = (emm, rand) if seed % 2 == 0 else (rand, emm)
            record = play_game(*pair, load_map(MAPS / map_name), move_time=5.0, seed=seed)
            assert record.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
            games += 1
            wins += record.winner == (VAMPIRES if seed % 2 == 0 else WEREWOLVES)
    assert wins >= games - 2


def test_a_timed_game_never_overruns(monkeypatch: pytest.MonkeyPatch) -> None:
    # Time passes as the bot looks at its clock (a tenth of a millisecond a look), the same
    # on any machine however loaded: the bot stops on its clock, never past the deadline.
    ticking_clock(monkeypatch, tick=0.0001)
    record = play_game(
        make(), RandomAgent(1), load_map(MAPS / "thetrap.xml"), move_time=0.05, seed=1
    )
    assert record.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT), record
    assert record.vampires.longest_think is not None
    assert record.vampires.longest_think < 0.05


# -- chance nodes --------------------------------------------------------------------------

# Vampires 3 next to 4 humans (a random battle), a second vampire group and the werewolves
# far away, so no outcome ends the game.
BATTLE = GameState.from_cells(
    5,
    7,
    {
        (0, 0): (VAMPIRES, 3),
        (1, 0): (HUMANS, 4),
        (6, 0): (VAMPIRES, 2),
        (6, 4): (WEREWOLVES, 6),
        (3, 4): (HUMANS, 1),
    },
)


def test_a_chance_node_is_the_exact_expectation_at_depth_one() -> None:
    ply = (Move(0, 0, 3, 1, 0),)
    outcomes = ply_outcomes(BATTLE, ply)
    assert len(outcomes) > 2  # a real chance node
    # The expectation of the leaf values (on the scale of a won game, through the cautious
    # utility).
    agent = ExpectiminimaxAgent(max_outcomes=EXACT)
    agent.species = VAMPIRES
    expected = sum(p * agent.leaf_value(s) for p, s in outcomes)
    assert agent.ply_value(BATTLE, ply, 1) == pytest.approx(expected, rel=1e-9)


def test_once_no_humans_are_left_a_lead_of_two_is_squashed_to_most_of_a_win() -> None:
    cells = {(0, 0): (VAMPIRES, 76), (8, 4): (WEREWOLVES, 74)}
    endgame = GameState.from_cells(5, 9, cells)
    lead = on_win_scale(2.0, endgame, VAMPIRES, SQUASH_CEILING)
    assert 0.3 * WIN < lead < WIN
    assert on_win_scale(-2.0, endgame, WEREWOLVES, SQUASH_CEILING) == pytest.approx(-lead)
    houses_left = GameState.from_cells(5, 9, {**cells, (4, 2): (HUMANS, 1)})
    assert 0 < on_win_scale(2.0, houses_left, VAMPIRES, SQUASH_CEILING) < 0.05 * WIN


def test_a_bucketed_chance_node_keeps_probability_and_survivor_means() -> None:
    ply = (Move(0, 0, 3, 1, 0),)
    agent = ExpectiminimaxAgent(max_outcomes=2, coverage=1.0)
    outcomes = agent.outcomes(BATTLE, ply)
    assert len(outcomes) == 2
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0)
    exact = battle_outcomes(VAMPIRES, 3, HUMANS, 4)
    for kind in (VAMPIRES, HUMANS):
        mass = sum(o.probability for o in exact if o.winner == kind)
        mean = sum(o.probability * o.survivors for o in exact if o.winner == kind) / mass
        bucket = [(p, s.at(1, 0)) for p, s in outcomes if s.at(1, 0)[0] == kind]
        assert len(bucket) == 1
        assert bucket[0][0] == pytest.approx(mass)
        assert bucket[0][1][1] == round(mean)
    for _, state in outcomes:
        assert state.ply == BATTLE.ply + 1


def test_prefers_a_sure_conversion_to_a_riskier_battle() -> None:
    # 4 vampires between 4 humans (a sure conversion) and 6 humans (win chance 1/3).
    state = GameState.from_cells(
        5,
        7,
        {
            (1, 1): (VAMPIRES, 4),
            (0, 0): (HUMANS, 4),
            (2, 2): (HUMANS, 6),
            (6, 4): (WEREWOLVES, 4),
        },
    )
    for depth in (1, 2, 3):
        agent = ExpectiminimaxAgent(max_outcomes=EXACT)
        _, ply = agent.analyse(state, depth)
        assert {move.target for move in ply} == {(0, 0)}, depth


def test_on_thetrap_runs_for_the_far_houses_rather_than_fight_at_even_odds() -> None:
    # As in tests/agents/test_search.py: the vampires' 4 stands next to the werewolves' 4
    # and the 4-house; running right for the houses of 2, 1 and 2 beats the coin flip.
    state = load_map(MAPS / "thetrap.xml").initial_state()
    state = apply_ply(state, (Move(4, 3, 4, 3, 2),), random.Random(0)).state
    for depth in (4, 5):
        _, ply = ExpectiminimaxAgent().analyse(state, depth)
        assert all(m.target != (3, 2) and m.tx > 4 for m in ply), depth


def test_steps_next_to_a_cornered_prey_rather_than_put_the_kill_off() -> None:
    # As in tests/agents/test_search.py: 11 vampires against 13 werewolves and 20 humans
    # nobody can convert; waiting a ply before stepping next to the cornered 4 is worth as
    # much, and must not win on floating-point noise.
    cells = {(0, 12): (VAMPIRES, 11), (0, 14): (WEREWOLVES, 4), (26, 5): (WEREWOLVES, 9)}
    state = GameState.from_cells(15, 29, {**cells, (14, 7): (HUMANS, 20)}, ply=170)
    for depth in (4, 5, 6):
        _, ply = ExpectiminimaxAgent().analyse(state, depth)
        assert [m.target for m in ply] in ([(0, 13)], [(1, 13)]), depth


def test_takes_a_random_battle_when_its_expectation_pays() -> None:
    # Last ply of the game: 5 vampires against 6 werewolves lose by count unless they attack
    # (win chance 5/12, and a win eliminates the werewolves).
    state = GameState.from_cells(
        3, 5, {(1, 1): (VAMPIRES, 5), (2, 1): (WEREWOLVES, 6), (4, 2): (HUMANS, 3)}
    )
    agent = ExpectiminimaxAgent(max_outcomes=EXACT, rules=Rules(max_plies=1))
    value, ply = agent.analyse(state, 1)
    assert ply == (Move(1, 1, 5, 2, 1),)
    assert LOSS < value < 0  # more likely lost than won, but better than a sure loss


# -- Star1 ---------------------------------------------------------------------------------


def reference_value(agent: ExpectiminimaxAgent, state: GameState, depth: int) -> float:
    """Plain expectiminimax over the same plies and outcomes: no pruning, no table."""
    ending = end_of_game(state, agent.rules)
    if ending is not None:
        return cautious(terminal_value(ending.winner, state.ply, agent.species), agent.risk)
    if depth == 0:
        return agent.leaf_value(state)
    plies = agent.plies(state) or [random_ply(state, agent.rng)]
    if state.to_move == agent.species:
        return max(
            sum(p * reference_value(agent, s, depth - 1) for p, s in agent.outcomes(state, ply))
            for ply in plies
        )
    # The opponent's long shots (none at opponent_odds 0) are valued by their mean value.
    values = []
    for ply in plies:
        outcomes = agent.outcomes(state, ply)
        if len(outcomes) > 1 and agent._long_shot(state, ply):
            mean = sum(
                p * uncautious(reference_value(agent, s, depth - 1), agent.risk)
                for p, s in outcomes
            )
            values.append(cautious(mean, agent.risk))
        else:
            values.append(sum(p * reference_value(agent, s, depth - 1) for p, s in outcomes))
    return min(values)


@st.composite
def crowded_states(draw: st.DrawFn) -> GameState:
    """Small boards with a few groups close together, so that battles are everywhere."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(3, 4))
    cells = draw(st.lists(st.integers(0, rows * cols - 1), min_size=3, max_size=6, unique=True))
    kinds = [VAMPIRES, WEREWOLVES] + [
        draw(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES])) for _ in cells[2:]
    ]
    counts = [draw(st.integers(1, 9)) for _ in cells]
    board = {
        (pos % cols, pos // cols): (k, n) for pos, k, n in zip(cells, kinds, counts, strict=True)
    }
    return GameState.from_cells(rows, cols, board, ply=draw(st.integers(0, 1)))


@settings(max_examples=150, deadline=None)
@given(crowded_states(), st.integers(2, 3), st.sampled_from([0.0, LONG_SHOTS]))
def test_star1_gives_the_same_root_value_as_no_pruning(
    state: GameState, depth: int, odds: float
) -> None:
    # The root's tie margin keeps an earlier best over plies up to ROOT_TIE above it (see
    # below); without it the root value is the exact maximum, pruned or not. With
    # opponent_odds, the opponent's long shots are pruned on the values under the utility.
    pruned = ExpectiminimaxAgent(width=6, opponent_odds=odds)
    with patch.object(evaluation, "ROOT_TIE", 0.0):
        pruned_value, _ = pruned.analyse(state, depth)
    reference = reference_value(pruned, state, depth)
    assert pruned_value == pytest.approx(reference, rel=1e-9, abs=1e-6)
    # With the margin, the root's value is its kept ply's: at most ROOT_TIE below.
    tied_value, _ = ExpectiminimaxAgent(width=6, opponent_odds=odds).analyse(state, depth)
    assert reference - ROOT_TIE - 1e-6 <= tied_value <= reference + 1e-6


def test_crowded_states_hold_chance_nodes() -> None:
    """The Star1 law above is not vacuous: its states have random battles at the root."""
    agent = ExpectiminimaxAgent(width=6)
    state = GameState.from_cells(
        2, 3, {(0, 0): (VAMPIRES, 4), (1, 0): (WEREWOLVES, 3), (2, 1): (HUMANS, 5)}
    )
    chance = [p for p in candidate_plies(state, 6) if len(agent.outcomes(state, p)) > 1]
    assert chance


def test_the_cautious_utility_keeps_its_ends_and_order_and_dislikes_coin_flips() -> None:
    values = [LOSS, -5e5, -1.0, 0.0, 1.0, 5e5, WIN]
    utilities = [cautious(v, 2.0) for v in values]
    assert utilities[0] == pytest.approx(LOSS) and utilities[-1] == pytest.approx(WIN)
    assert utilities == sorted(utilities) and len(set(utilities)) == len(values)
    coin_flip = 0.5 * cautious(LOSS, 2.0) + 0.5 * cautious(WIN, 2.0)
    assert coin_flip < cautious(0.0, 2.0)
    assert [cautious(v, 0.0) for v in values] == values


def test_a_cautious_bot_turns_down_a_three_in_four_battle_for_the_whole_game() -> None:
    # 5 against 4: the attack wins the game 75 % of the time and loses it otherwise. Plain
    # expectation takes it (worth half a win); the cautious utility prefers the quiet lead.
    state = GameState.from_cells(5, 6, {(2, 2): (VAMPIRES, 5), (3, 2): (WEREWOLVES, 4)})
    attack = (Move(2, 2, 5, 3, 2),)
    _, bold = ExpectiminimaxAgent(risk=0.0).analyse(state, 1)
    _, careful = ExpectiminimaxAgent().analyse(state, 1)
    assert bold == attack
    assert careful != attack


@settings(max_examples=200)
@given(st.floats(LOSS, WIN), st.floats(0.0, 6.0))
def test_uncautious_undoes_the_cautious_utility(value: float, risk: float) -> None:
    assert uncautious(cautious(value, risk), risk) == pytest.approx(value, abs=1e-6 * WIN)
    assert uncautious(LOSS - 1.0, risk) == LOSS - 1.0  # a window's open end stays itself
    assert uncautious(WIN + 1.0, risk) == WIN + 1.0


def test_takes_a_sure_kill_that_leaves_the_opponent_only_a_long_shot() -> None:
    # Our 66 beside their 17 (a sure kill, 66 >= 1.5 x 17) and their 57. After the kill the
    # 57 could attack our 66 at 57 / 132 = 43 %: a coin flip our cautious utility dislikes,
    # so an opponent that gambles against our utility would take it, and the bot backed
    # away from the kill (a game lost so against racer on gen:54:35x35:5). An opponent
    # that takes a long shot only to lower our expected score leaves it: the bot kills.
    cells = {
        (2, 2): (VAMPIRES, 66),
        (4, 4): (VAMPIRES, 8),
        (3, 2): (WEREWOLVES, 57),
        (2, 3): (WEREWOLVES, 17),
    }
    state = GameState.from_cells(7, 8, cells, ply=84)
    kill = Move(2, 2, 66, 2, 3)
    for depth in (2, 3):
        _, ply = ExpectiminimaxAgent(opponent_odds=LONG_SHOTS).analyse(state, depth)
        assert kill in ply, depth
        _, ply = ExpectiminimaxAgent().analyse(state, depth)  # the default, 0
        assert kill not in ply, depth


@pytest.mark.parametrize(
    ("attackers", "long_shot"), [(56, True), (57, True), (66, False), (70, False), (30, True)]
)
def test_a_long_shot_is_a_battle_the_opponent_wins_less_than_half_the_time(
    attackers: int, long_shot: bool
) -> None:
    # Their group attacks our 66: 57 wins 43 %, 66 a coin flip (not a long shot: an
    # opponent that chases equal groups takes it), 70 wins 56 %.
    state = GameState.from_cells(
        3, 4, {(1, 1): (VAMPIRES, 66), (2, 1): (WEREWOLVES, attackers)}, ply=1
    )
    attack = (Move(2, 1, attackers, 1, 1),)
    assert ExpectiminimaxAgent(opponent_odds=LONG_SHOTS)._long_shot(state, attack) is long_shot
    assert not ExpectiminimaxAgent()._long_shot(state, attack)  # the default, 0: none
