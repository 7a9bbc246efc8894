"""A cell never holds more than 255: merges, conversions and battle wins keep 255 at most."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState, Move, apply_ply, ply_outcomes
from engine.battle import battle_outcomes, sample_battle
from engine.resolution import encounter_outcomes, resolve_ply
from engine.state import MAX_COUNT
from engine.testing.strategies import states_and_plies
from tests.helpers.boards import board


def only_outcome(state: GameState, *moves: Move) -> GameState:
    """The next state of a ply with no random battle, checked by both paths."""
    ((probability, after),) = ply_outcomes(state, moves, exact=True)
    assert probability == 1
    assert apply_ply(state, moves, random.Random(0)).state == after
    return after


@pytest.mark.parametrize(("staying", "expected"), [(54, 254), (55, 255), (56, 255), (255, 255)])
def test_a_merge_keeps_at_most_255(staying: int, expected: int) -> None:
    start = board(f"V200 V{staying} W1")
    after = only_outcome(start, Move(0, 0, 200, 1, 0))
    assert after == board(f". V{expected} W1", ply=1)


@pytest.mark.parametrize(
    ("attackers", "humans", "expected"),
    [(128, 126, 254), (128, 127, 255), (128, 128, 255), (255, 255, 255)],
)
def test_a_conversion_keeps_at_most_255(attackers: int, humans: int, expected: int) -> None:
    start = board(f"V{attackers} H{humans} W1")
    after = only_outcome(start, Move(0, 0, attackers, 1, 0))
    assert after == board(f". V{expected} W1", ply=1)


def test_arrivals_summed_from_two_cells_are_capped_too() -> None:
    # 150 + 100 = 250 arrive (rule 7 allows 255) and convert 10 humans: 260.
    start = board("V150 H10 V100\n.   .    W1")
    after = only_outcome(start, Move(0, 0, 150, 1, 0), Move(2, 0, 100, 1, 0))
    assert after == board(". V255 .\n. . W1", ply=1)


def capped_by_hand(attackers: int, humans: int) -> Counter:
    """The uncapped battle's exact distribution of cell contents, every count cut to 255."""
    folded: Counter = Counter()
    for p, winner, survivors in battle_outcomes(VAMPIRES, attackers, HUMANS, humans, exact=True):
        folded[(winner, min(survivors, MAX_COUNT))] += p
    return folded


@pytest.mark.parametrize(("attackers", "humans"), [(127, 128), (128, 129), (250, 251)])
def test_a_battle_won_against_humans_keeps_at_most_255(attackers: int, humans: int) -> None:
    # 127 + 128 = 255 fighters: nothing to cap; 128 + 129 = 257: 255, 256 and 257 become 255.
    start = board(f"V{attackers} H{humans} W1")
    outcomes = ply_outcomes(start, (Move(0, 0, attackers, 1, 0),), exact=True)
    seen: Counter = Counter()
    for p, after in outcomes:
        assert all(n <= MAX_COUNT for _, _, n in after.cells)
        kind, count = after.at(1, 0)
        if count:
            seen[(kind, count)] += p
    expected = capped_by_hand(attackers, humans)
    assert seen == {cell: p for cell, p in expected.items() if cell[1]}
    assert sum(p for p, _ in outcomes) == 1
    assert expected[(VAMPIRES, MAX_COUNT)] > 0
    if attackers + humans > MAX_COUNT:
        uncapped = battle_outcomes(VAMPIRES, attackers, HUMANS, humans, exact=True)
        at_255 = [o.probability for o in uncapped if o.winner == VAMPIRES and o.survivors == 255]
        assert expected[(VAMPIRES, MAX_COUNT)] > at_255[0]


def test_a_pending_battle_lists_capped_outcomes_in_the_uncapped_order() -> None:
    start = board("V250 H251 W1")
    (battle,) = resolve_ply(start, (Move(0, 0, 250, 1, 0),)).battles
    uncapped = battle_outcomes(VAMPIRES, 250, HUMANS, 251)
    assert (battle.attackers, battle.defenders) == (250, 251)
    assert battle.outcomes == encounter_outcomes(VAMPIRES, 250, HUMANS, 251)
    assert max(o.survivors for o in battle.outcomes) == MAX_COUNT
    assert max(o.survivors for o in uncapped) == 501
    assert abs(sum(o.probability for o in battle.outcomes) - 1) < 1e-9
    assert [(o.winner, o.survivors) for o in battle.outcomes] == list(
        dict.fromkeys((o.winner, min(o.survivors, MAX_COUNT)) for o in uncapped)
    )


def test_sampling_a_capped_battle_draws_the_uncapped_outcome_cut_to_255() -> None:
    # The folded outcomes are consecutive, so one rng.random() lands on the same result.
    start = board("V250 H251 W1")
    ply = (Move(0, 0, 250, 1, 0),)
    uncapped = battle_outcomes(VAMPIRES, 250, HUMANS, 251)
    capped_seen = 0
    for seed in range(300):
        drawn = sample_battle(uncapped, random.Random(seed))
        result = apply_ply(start, ply, random.Random(seed))
        ((_, outcome),) = result.battles
        assert (outcome.winner, outcome.survivors) == (
            drawn.winner,
            min(drawn.survivors, MAX_COUNT),
        )
        capped_seen += drawn.survivors > MAX_COUNT
    assert capped_seen > 10


def test_battles_against_monsters_and_small_ones_are_left_alone() -> None:
    for args in ((VAMPIRES, 200, WEREWOLVES, 150), (WEREWOLVES, 150, VAMPIRES, 200)):
        assert encounter_outcomes(*args) == battle_outcomes(*args)
    assert encounter_outcomes(VAMPIRES, 3, HUMANS, 4) == battle_outcomes(VAMPIRES, 3, HUMANS, 4)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 255), st.integers(1, 255), st.integers(0, 2**32))
def test_any_encounter_with_humans_leaves_at_most_255(attackers: int, humans: int, seed: int):
    outcomes = encounter_outcomes(VAMPIRES, attackers, HUMANS, humans)
    assert all(0 <= o.survivors <= MAX_COUNT for o in outcomes)
    assert abs(sum(o.probability for o in outcomes) - 1) < 1e-9
    start = board(f"V{attackers} H{humans} W1")
    after = apply_ply(start, (Move(0, 0, attackers, 1, 0),), random.Random(seed)).state
    assert all(1 <= n <= MAX_COUNT for _, _, n in after.cells)


@settings(max_examples=200, deadline=None)
@given(states_and_plies(max_side=4), st.integers(0, 2**32))
def test_crowded_boards_stay_within_255_on_every_path(state_and_ply, seed: int) -> None:
    state, ply = state_and_ply
    after = apply_ply(state, ply, random.Random(seed)).state
    assert all(1 <= n <= MAX_COUNT for _, _, n in after.cells)
    resolution = resolve_ply(state, ply)
    assert all(n <= MAX_COUNT for _, n in resolution.grid.values())
    for battle in resolution.battles:
        assert all(o.survivors <= MAX_COUNT for o in battle.outcomes)
