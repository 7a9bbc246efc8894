"""The public testing tools keep their promises: engine.testing's strategies, plies, oracles."""

import random
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import HUMANS, VAMPIRES, WEREWOLVES, IllegalPly, Move, Rule, find_violation
from engine.battle import check_encounter
from engine.mapfile import MAX_CELLS, check_sendable, dump_map, parse_map
from engine.state import MAX_COUNT
from engine.testing.oracles import (
    Encounter,
    broken_rule,
    encounter_distribution,
    expected_survivors,
    ply_distribution,
)
from engine.testing.plies import attempt, breakable_rules, breaking_ply, legal_ply
from engine.testing.strategies import (
    arbitrary_plies,
    encounters,
    game_states,
    legal_plies,
    maps,
    states_and_attempts,
    states_and_plies,
)
from tests.helpers.boards import board


@given(maps())
def test_maps_are_sendable_and_survive_a_map_file(game_map) -> None:
    check_sendable(game_map)
    assert parse_map(dump_map(game_map)) == game_map
    state = game_map.initial_state()
    assert state.total(VAMPIRES) and state.total(WEREWOLVES)


@given(game_states(max_side=5, both_species=False))
def test_states_stay_within_the_protocols_limits(state) -> None:
    assert 1 <= state.rows <= 5 and 1 <= state.cols <= 5
    assert len(state.cells) <= MAX_CELLS
    assert all(1 <= n <= MAX_COUNT for _, _, n in state.cells)


@settings(max_examples=20)
@given(game_states(max_side=255, crowded=True))
def test_states_reach_the_largest_grids_and_the_cell_limit(state) -> None:
    assert min(MAX_CELLS, (state.rows * state.cols + 1) // 2) <= len(state.cells) <= MAX_CELLS


@given(game_states(max_side=12, crowded=True), game_states(max_side=12, crowded=False))
def test_crowded_and_sparse_boards_are_what_they_say(crowded, sparse) -> None:
    assert len(crowded.cells) >= min(MAX_CELLS, (crowded.rows * crowded.cols + 1) // 2)
    assert len(sparse.cells) <= max(2, sparse.rows * sparse.cols // 10)
    for state in (crowded, sparse):
        assert state.total(VAMPIRES) and state.total(WEREWOLVES)


@given(states_and_plies(max_side=6))
def test_every_generated_legal_ply_is_legal(state_and_ply) -> None:
    state, ply = state_and_ply
    assert ply, "a running game always has a legal ply"
    assert find_violation(state, ply) is None
    assert all(0 <= value <= 255 for move in ply for value in move)


@given(states_and_attempts(max_side=6))
def test_every_arbitrary_plys_verdict_agrees_with_find_violation(state_and_attempt) -> None:
    state, (ply, breaks) = state_and_attempt
    assert broken_rule(state, ply) == breaks
    assert all(0 <= value <= 255 for move in ply for value in move)


@given(game_states(max_side=3, max_count=3, both_species=False), st.data())
def test_arbitrary_plies_also_work_where_the_mover_has_nothing(state, data) -> None:
    ply, breaks = data.draw(arbitrary_plies(state))
    assert broken_rule(state, ply) == breaks


# Two neighbouring vampire groups (rule 5) holding more than 255 around (1,1) (rule 7).
ROOMY = board(
    """
    V200 V100 .
    .    .    H3
    W4   .    .
    """
)


@pytest.mark.parametrize("rule", list(Rule))
def test_each_rule_can_be_broken_on_its_own_where_the_board_allows(rule: Rule) -> None:
    for seed in range(50):
        ply = breaking_ply(ROOMY, rule, random.Random(seed))
        assert ply is not None
        assert broken_rule(ROOMY, ply) == rule


def test_rules_the_board_leaves_no_room_for_are_not_faked() -> None:
    lonely = board("V3 . W2")
    rng = random.Random(1)
    assert breaking_ply(lonely, Rule.SOURCE_IS_TARGET, rng) is None
    assert breaking_ply(lonely, Rule.TARGET_OVERFLOW, rng) is None
    assert legal_ply(board("W3 . H2"), rng) == ()  # no vampires to move
    assert legal_ply(board("V3"), rng) == ()  # nowhere to go on a 1 × 1 grid


@given(st.data())
def test_legal_plies_of_crowded_states_are_legal(data) -> None:
    state = data.draw(game_states(max_side=4, crowded=True))
    ply = data.draw(legal_plies(state))
    assert find_violation(state, ply) is None


@given(encounters())
def test_encounters_are_encounters_and_their_distribution_is_exact(encounter) -> None:
    check_encounter(*encounter)
    distribution = encounter_distribution(encounter)
    assert sum(distribution.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in distribution.values())
    assert {winner for winner, _ in distribution} <= {encounter.attacker, encounter.defender}
    assert all(0 <= n <= MAX_COUNT for _, n in distribution)


@given(encounters(max_attackers=5, max_defenders=5, attackers=(WEREWOLVES,), defenders=("humans",)))
def test_encounters_keep_to_their_parameters(encounter) -> None:
    assert encounter.attacker == WEREWOLVES and encounter.defender == HUMANS
    assert encounter.attackers <= 5 and encounter.defenders <= 5


def test_encounter_parameters_that_make_no_encounter_are_refused() -> None:
    with pytest.raises(ValueError, match="attackers are VAMPIRES or WEREWOLVES"):
        encounters(attackers=(HUMANS,))
    with pytest.raises(ValueError, match="defenders are"):
        encounters(defenders=("vampires",))
    with pytest.raises(ValueError, match="max_defenders must be"):
        encounters(max_defenders=256)
    with pytest.raises(ValueError, match="arriving on vampires"):
        Encounter.checked(VAMPIRES, 3, VAMPIRES, 2)


def test_the_oracles_give_the_rule_books_numbers() -> None:
    # 2 vampires on 3 humans: P = 2/6 = 1/3; the winners' survivors are Binom(5, 1/3).
    battle = encounter_distribution(Encounter(VAMPIRES, 2, HUMANS, 3))
    assert battle[(VAMPIRES, 5)] == Fraction(1, 3) * Fraction(1, 3) ** 5
    assert battle[(HUMANS, 3)] == Fraction(2, 3) * Fraction(2, 3) ** 3
    assert expected_survivors(Encounter(VAMPIRES, 2, HUMANS, 3)) == {
        VAMPIRES: Fraction(1, 3) * 5 * Fraction(1, 3),
        HUMANS: Fraction(2, 3) * 3 * Fraction(2, 3),
    }
    assert encounter_distribution(Encounter(WEREWOLVES, 3, VAMPIRES, 2)) == {(WEREWOLVES, 3): 1}
    state = board("V2 H3")
    after = ply_distribution(state, (Move(0, 0, 2, 1, 0),))
    assert sum(after.values()) == 1
    assert len(after) == len(battle) - 1  # no vampire left and no human left: one empty board
    with pytest.raises(IllegalPly):
        ply_distribution(state, (Move(0, 0, 3, 1, 0),))
    assert broken_rule(state, (Move(0, 0, 3, 1, 0),)) == Rule.TOO_FEW


def test_the_strategies_say_how_to_get_hypothesis_when_it_is_missing() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import engine.testing.oracles, engine.testing.plies\n"
        "import engine.testing.strategies\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: engine.testing.strategies needs hypothesis: pip install 'vvw[testing]'"
        " (or pip install hypothesis)"
    )


def test_asking_for_a_rule_the_board_has_no_room_for_is_refused() -> None:
    lonely = board("V3 . W2")
    assert Rule.SOURCE_IS_TARGET not in breakable_rules(lonely)
    assert set(breakable_rules(ROOMY)) == set(Rule)
    with pytest.raises(ValueError, match="no room to break SOURCE_IS_TARGET"):
        attempt(lonely, random.Random(1), Rule.SOURCE_IS_TARGET)
    with pytest.raises(ValueError, match="no legal ply"):
        attempt(board("W3 . H2"), random.Random(1), None)
    assert attempt(ROOMY, random.Random(1), Rule.TARGET_OVERFLOW).breaks == Rule.TARGET_OVERFLOW


@settings(max_examples=30)
@given(game_states(max_side=255), st.data())
def test_arbitrary_plies_keep_their_promise_on_grids_up_to_255(state, data) -> None:
    ply, breaks = data.draw(arbitrary_plies(state))
    assert broken_rule(state, ply) == breaks
    assert all(0 <= value <= 255 for move in ply for value in move)
