"""Battle laws of rules.md: certain outcomes at exact integer thresholds, exact distributions."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import EMPTY, HUMANS, VAMPIRES, WEREWOLVES, Variant, battle_outcomes, win_probability
from engine.battle import (
    beats_for_sure,
    expected_survivors,
    is_certain_win,
    sample_battle,
    win_chance,
)
from engine.resolution import encounter_outcomes

count = st.integers(1, 120)
defender_kind = st.sampled_from([HUMANS, WEREWOLVES])


@given(count, count, defender_kind)
def test_exact_distribution_sums_to_one(a: int, d: int, defender) -> None:
    outcomes = battle_outcomes(VAMPIRES, a, defender, d, exact=True)
    assert sum(o.probability for o in outcomes) == 1


@given(count, count)
def test_win_probability_follows_the_three_cases(a: int, d: int) -> None:
    p = win_probability(a, d, exact=True)
    if a == d:
        assert p == Fraction(1, 2)
    elif a < d:
        assert p == Fraction(a, 2 * d)
    else:
        assert p == Fraction(a, d) - Fraction(1, 2)


@given(st.integers(1, 255), st.integers(1, 255))
def test_the_unchecked_twins_answer_as_the_checked_rules(a: int, d: int) -> None:
    assert beats_for_sure(a, d) is is_certain_win(a, d, WEREWOLVES)
    assert beats_for_sure(a, d) is (len(battle_outcomes(VAMPIRES, a, WEREWOLVES, d)) == 1)
    assert type(win_chance(a, d)) is float
    assert win_chance(a, d) == win_probability(a, d)
    assert win_chance(a, d) == pytest.approx(win_probability(a, d, exact=True), rel=1e-15)


@given(count, count, defender_kind)
def test_expected_survivors_match_the_closed_forms(a: int, d: int, defender) -> None:
    outcomes = battle_outcomes(VAMPIRES, a, defender, d, exact=True)
    if len(outcomes) == 1:
        return
    p = win_probability(a, d, exact=True)
    fighters = a + d if defender == HUMANS else a
    assert expected_survivors(outcomes, VAMPIRES) == p * fighters * p
    assert expected_survivors(outcomes, defender) == (1 - p) * d * (1 - p)


@given(st.integers(1, 170))
def test_massacre_threshold_is_exact_in_integers(e: int) -> None:
    certain = [a for a in range(1, 256) if len(battle_outcomes(VAMPIRES, a, WEREWOLVES, e)) == 1]
    assert certain[0] == (3 * e + 1) // 2
    assert battle_outcomes(VAMPIRES, certain[0], WEREWOLVES, e)[0][1:] == (VAMPIRES, certain[0])


@given(st.integers(2, 200))
def test_humans_convert_on_a_tie_and_fight_one_below(h: int) -> None:
    assert battle_outcomes(VAMPIRES, h, HUMANS, h)[0][1:] == (VAMPIRES, 2 * h)
    assert len(battle_outcomes(VAMPIRES, h - 1, HUMANS, h)) > 1


@given(count, count)
def test_spec_variant_differs_only_where_defenders_are_one_and_a_half_times(a: int, e: int) -> None:
    server = battle_outcomes(WEREWOLVES, a, VAMPIRES, e, Variant.SERVER)
    spec = battle_outcomes(WEREWOLVES, a, VAMPIRES, e, Variant.SPEC)
    if 2 * e >= 3 * a:
        assert spec == ((1.0, VAMPIRES, e),) != server
    else:
        assert spec == server


def test_sampling_agrees_with_the_exact_distribution() -> None:
    outcomes = battle_outcomes(VAMPIRES, 3, WEREWOLVES, 4)
    rng = random.Random(12345)
    draws = 40_000
    seen = {o: 0 for o in outcomes}
    for _ in range(draws):
        seen[sample_battle(outcomes, rng)] += 1
    chi_square = sum(
        (seen[o] - draws * o.probability) ** 2 / (draws * o.probability) for o in outcomes
    )
    # len(outcomes) - 1 = 8 degrees of freedom: 26.1 is the 0.999 quantile.
    assert len(outcomes) == 9
    assert chi_square < 26.1


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (("vampires", 2, "humans", 3), TypeError, "attacker must be a Kind"),
        ((VAMPIRES, 2, "humans", 3), TypeError, "defender must be a Kind"),
        ((VAMPIRES, 2, VAMPIRES, 3), ValueError, "vampires arriving on vampires"),
        ((WEREWOLVES, 2, WEREWOLVES, 3), ValueError, "not an encounter"),
        ((HUMANS, 2, VAMPIRES, 3), ValueError, "only vampires or werewolves attack"),
        ((VAMPIRES, 2, EMPTY, 3), ValueError, "not an encounter"),
        ((VAMPIRES, 0, HUMANS, 3), ValueError, "attackers must be 1..255"),
        ((VAMPIRES, 2, HUMANS, 256), ValueError, "defenders must be 1..255"),
        ((VAMPIRES, 2.0, HUMANS, 3), TypeError, "attackers must be a whole number"),
        ((VAMPIRES, True, HUMANS, 3), TypeError, "attackers must be a whole number"),
        ((VAMPIRES, 2, HUMANS, 3, "spec"), TypeError, "variant must be"),
    ],
)
def test_what_is_not_an_encounter_is_refused(args: tuple, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        battle_outcomes(*args)
    with pytest.raises(error, match=words):
        encounter_outcomes(*args)


def test_the_other_entry_points_refuse_bad_sides() -> None:
    with pytest.raises(ValueError, match=r"defenders must be 1\.\.255"):
        win_probability(3, 0)
    with pytest.raises(TypeError, match="defender must be a Kind"):
        is_certain_win(3, 2, "werewolves")
    with pytest.raises(ValueError, match="empty cell"):
        is_certain_win(3, 2, EMPTY)
    with pytest.raises(TypeError, match="kind must be a Kind"):
        expected_survivors(battle_outcomes(VAMPIRES, 3, HUMANS, 4), "vampires")
    with pytest.raises(ValueError, match="no outcomes"):
        sample_battle((), random.Random(1))


def test_a_refused_question_never_poisons_the_cache() -> None:
    assert battle_outcomes(VAMPIRES, 2, HUMANS, 3)[0].winner is VAMPIRES
    with pytest.raises(TypeError):
        battle_outcomes(2, 2, 1, 3)
