"""Applying a ply: simultaneous moves, arrivals summed per target, independent battles."""

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    EMPTY,
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    IllegalPly,
    Move,
    Rules,
    Variant,
    apply_ply,
    battle_outcomes,
    end_of_game,
    opponent,
    ply_outcomes,
    resolve_ply,
)
from engine.mapfile import load_map
from engine.movegen import random_ply
from engine.rules import DEFAULT_RULES
from engine.testing.strategies import game_states, states_and_plies
from tests.helpers.boards import board
from tests.helpers.maps import MAPS

few_battles = states_and_plies(max_side=5, max_count=8).filter(
    lambda state_and_ply: len(resolve_ply(*state_and_ply).battles) <= 3
)
"""Plies whose exact distribution stays small: at most three random battles of few creatures."""


def only_outcome(state: GameState, *moves: Move, rules: Rules = DEFAULT_RULES) -> GameState:
    """The next state of a ply with no random battle."""
    ((probability, after),) = ply_outcomes(state, moves, rules, exact=True)
    assert probability == 1
    return after


def test_a_move_into_an_empty_cell_moves_the_group_and_advances_the_ply() -> None:
    after = only_outcome(board("V5 . W3"), Move(0, 0, 2, 1, 0))
    assert after == board("V3 V2 W3", ply=1)
    assert after.to_move == WEREWOLVES


def test_moving_a_whole_group_empties_its_cell() -> None:
    assert only_outcome(board("V5 . W3"), Move(0, 0, 5, 1, 0)) == board(". V5 W3", ply=1)


def test_a_group_joins_its_own_species() -> None:
    assert only_outcome(board("V5 V7 W3"), Move(0, 0, 4, 1, 0)) == board("V1 V11 W3", ply=1)


def test_two_groups_into_one_cell_fight_as_one_group() -> None:
    # Alone, 3 against 4 werewolves is a random battle; together 6 ≥ 1.5 × 4 is a massacre.
    start = board("V3 . V3\n. W4 .")
    alone = ply_outcomes(start, (Move(0, 0, 3, 1, 1),))
    assert len(alone) > 1
    together = only_outcome(start, Move(0, 0, 3, 1, 1), Move(2, 0, 3, 1, 1))
    assert together == board(". . .\n. V6 .", ply=1)


def test_arrivals_add_up_against_humans() -> None:
    start = board("V2 H4 V2 W1")
    after = only_outcome(start, Move(0, 0, 2, 1, 0), Move(2, 0, 2, 1, 0))
    assert after == board(". V8 . W1", ply=1)


def test_moves_apply_at_once_to_the_board_before_the_ply() -> None:
    # Every move sees the board as it was before the ply, so their order does not matter.
    start = board("W4 W2 . V1\n.  .  . .", ply=1)
    forward = (Move(1, 0, 2, 2, 0), Move(0, 0, 4, 0, 1))
    assert only_outcome(start, *forward) == only_outcome(start, *reversed(forward))
    assert only_outcome(start, *forward) == board(". . W2 V1\nW4 . . .", ply=2)


def test_the_werewolves_play_on_odd_plies() -> None:
    after = only_outcome(board("V3 W2 .", ply=7), Move(1, 0, 2, 2, 0))
    assert after == board("V3 . W2", ply=8)


def test_a_certain_win_against_humans_converts_them() -> None:
    assert only_outcome(board("V4 H4 W1"), Move(0, 0, 4, 1, 0)) == board(". V8 W1", ply=1)


def test_a_massacre_keeps_every_attacker() -> None:
    assert only_outcome(board("W6 V4 V1", ply=1), Move(0, 0, 6, 1, 0)) == board(". W6 V1", ply=2)


def test_a_random_battle_empties_the_cell_until_it_is_drawn() -> None:
    resolution = resolve_ply(board("V3 W4 W1"), (Move(0, 0, 3, 1, 0),))
    assert 1 not in resolution.grid and 0 not in resolution.grid
    (battle,) = resolution.battles
    assert (battle.pos, battle.attacker, battle.attackers) == ((1, 0), VAMPIRES, 3)
    assert (battle.defender, battle.defenders) == (WEREWOLVES, 4)
    assert battle.outcomes == battle_outcomes(VAMPIRES, 3, WEREWOLVES, 4)


def test_the_spec_variant_lets_strong_defenders_win_outright() -> None:
    start = board("V2 W3 W1")
    spec = Rules(variant=Variant.SPEC)
    assert only_outcome(start, Move(0, 0, 2, 1, 0), rules=spec) == board(". W3 W1", ply=1)
    assert len(ply_outcomes(start, (Move(0, 0, 2, 1, 0),))) > 1


def test_battles_on_two_cells_are_independent() -> None:
    start = board("H3 V2 W3 V1\n.  V2 .  .")
    ply = (Move(1, 0, 2, 0, 0), Move(1, 1, 2, 2, 0), Move(3, 0, 1, 2, 0))
    humans = battle_outcomes(VAMPIRES, 2, HUMANS, 3, exact=True)
    wolves = battle_outcomes(VAMPIRES, 3, WEREWOLVES, 3, exact=True)
    expected: Counter[GameState] = Counter()
    for (p, kind0, n0), (q, kind2, n2) in product(humans, wolves):
        cells = {(0, 0): (kind0, n0), (2, 0): (kind2, n2)}
        expected[GameState.from_cells(2, 4, cells, ply=1)] += p * q
    got = dict((s, p) for p, s in ply_outcomes(start, ply, exact=True))
    assert got == dict(expected)
    # A win with no survivor and a loss with no survivor both leave the cell empty.
    assert len(got) == (len(humans) - 1) * (len(wolves) - 1)


@settings(max_examples=150, deadline=None)
@given(few_battles)
def test_the_ply_distribution_sums_to_one(state_and_ply) -> None:
    state, ply = state_and_ply
    outcomes = ply_outcomes(state, ply, exact=True)
    assert sum(p for p, _ in outcomes) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p, _ in outcomes)
    assert len({s for _, s in outcomes}) == len(outcomes)
    assert abs(sum(p for p, _ in ply_outcomes(state, ply)) - 1) < 1e-9


def cell_after(outcome) -> tuple[int, int]:
    """What a battle's outcome leaves on its cell: ``(kind, count)``, ``(0, 0)`` if empty."""
    _, winner, survivors = outcome
    return (winner, survivors) if survivors else (EMPTY, 0)


@settings(max_examples=100, deadline=None)
@given(few_battles)
def test_each_battle_cell_follows_its_battle_and_battles_are_independent(state_and_ply) -> None:
    state, ply = state_and_ply
    battles = resolve_ply(state, ply).battles
    outcomes = ply_outcomes(state, ply, exact=True)
    marginals = []
    for battle in battles:
        expected: Counter = Counter()
        for outcome in battle_outcomes(
            battle.attacker, battle.attackers, battle.defender, battle.defenders, exact=True
        ):
            expected[cell_after(outcome)] += outcome.probability
        seen: Counter = Counter()
        for p, after in outcomes:
            seen[after.at(*battle.pos)] += p
        assert seen == expected
        marginals.append(expected)
    for (i, a), (j, b) in combinations(enumerate(battles), 2):
        joint: Counter = Counter()
        for p, after in outcomes:
            joint[(after.at(*a.pos), after.at(*b.pos))] += p
        for (cell_a, cell_b), p in joint.items():
            assert p == marginals[i][cell_a] * marginals[j][cell_b]


def test_sampled_plies_agree_with_the_exact_distribution() -> None:
    start = board("H2 V1 W2\n.  V2 . ")
    ply = (Move(1, 0, 1, 0, 0), Move(1, 1, 2, 2, 0))
    exact = dict((s, p) for p, s in ply_outcomes(start, ply))
    rng = random.Random(2024)
    draws = 20_000
    seen = Counter(apply_ply(start, ply, rng).state for _ in range(draws))
    assert set(seen) <= set(exact)
    chi_square = sum((seen[s] - draws * p) ** 2 / (draws * p) for s, p in exact.items())
    # 1 vs 2 humans has 4 + 3 outcomes (6 cells), 2 vs 2 has 3 + 3 (5): 30 states, 29 degrees
    # of freedom; 58.3 is the 0.999 quantile.
    assert len(exact) == 30
    assert chi_square < 58.3


@settings(max_examples=150, deadline=None)
@given(few_battles, st.integers(0, 2**32))
def test_apply_ply_only_reaches_states_of_the_distribution(state_and_ply, seed: int) -> None:
    state, ply = state_and_ply
    support = {s for _, s in ply_outcomes(state, ply)}
    result = apply_ply(state, ply, random.Random(seed))
    assert result.state in support
    assert eval(repr(result.state), {"GameState": GameState}) == result.state
    assert [b.pos for b, _ in result.battles] == [b.pos for b in resolve_ply(state, ply).battles]


@settings(max_examples=100, deadline=None)
@given(few_battles, st.randoms(use_true_random=False))
def test_the_order_of_the_moves_does_not_matter(state_and_ply, rnd: random.Random) -> None:
    state, ply = state_and_ply
    shuffled = list(ply)
    rnd.shuffle(shuffled)
    assert dict((s, p) for p, s in ply_outcomes(state, ply, exact=True)) == dict(
        (s, p) for p, s in ply_outcomes(state, shuffled, exact=True)
    )


@settings(max_examples=300, deadline=None)
@given(states_and_plies())
def test_without_a_random_battle_creatures_are_conserved_but_the_excess_over_255(
    state_and_ply,
) -> None:
    state, ply = state_and_ply
    mover, enemy = state.to_move, opponent(state.to_move)
    resolution = resolve_ply(state, ply)
    if resolution.battles:
        return
    after = only_outcome(state, *ply)
    converted = state.total(HUMANS) - after.total(HUMANS)
    arrivals: Counter[tuple[int, int]] = Counter()
    for move in ply:
        arrivals[move.target] += move.count
    excess = 0
    for target, count in arrivals.items():
        kind, held = state.at(*target)
        if kind != enemy:  # a merge or a conversion: the cell holds the sum, at most 255
            assert after.at(*target) == (mover, min(count + held, 255))
            excess += max(0, count + held - 255)
    assert after.total(mover) + excess == state.total(mover) + converted
    targets = {(m.tx, m.ty) for m in ply}
    if all(state.at(*t)[0] != enemy for t in targets):
        assert after.total(enemy) == state.total(enemy)
    else:
        assert after.total(enemy) < state.total(enemy)


def test_apply_ply_checks_legality_unless_told_not_to() -> None:
    start = board("V5 . W3")
    with pytest.raises(IllegalPly):
        apply_ply(start, (Move(0, 0, 6, 1, 0),), random.Random(0))
    with pytest.raises(IllegalPly):
        apply_ply(start, (), random.Random(0))


def test_apply_ply_draws_battles_with_the_injected_rng() -> None:
    start = board("V3 W4 .\nV2 . H3")
    ply = (Move(0, 0, 3, 1, 0), Move(0, 1, 2, 1, 1))
    first = apply_ply(start, ply, random.Random(99))
    again = apply_ply(start, ply, random.Random(99))
    assert first == again
    seen = {apply_ply(start, ply, random.Random(seed)).state for seed in range(200)}
    assert len(seen) > 3


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(MAPS.glob("*.xml"))), st.integers(0, 2**32))
def test_random_games_on_the_official_maps_stay_legal_and_in_range(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    state = load_map(path).initial_state()
    while end_of_game(state) is None:
        ply = random_ply(state, rng)
        state = apply_ply(state, ply, rng).state
        assert all(1 <= n <= 255 for _, _, n in state.cells)
        assert all(kind in (HUMANS, VAMPIRES, WEREWOLVES) for _, kind, _ in state.cells)
    assert state.ply <= 200


@settings(max_examples=200, deadline=None)
@given(game_states(max_side=4), st.integers(0, 2**32))
def test_random_plies_never_raise_and_keep_counts_in_range(state: GameState, seed: int) -> None:
    # Crowded boards: merges and conversions past 255 leave 255 (the excess is lost).
    rng = random.Random(seed)
    for _ in range(6):
        if end_of_game(state) is not None:
            break
        state = apply_ply(state, random_ply(state, rng), rng).state
        assert all(1 <= n <= 255 for _, _, n in state.cells)
