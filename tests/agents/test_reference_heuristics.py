"""The reference opponents' evaluations, term by term, against values worked out by hand
from their reports (seeds 000, 001, 002)."""

import pytest

from agents import seed2019, seed2025, zcsn
from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState, Move

V, W, H = VAMPIRES, WEREWOLVES, HUMANS


def board(rows: int, cols: int, cells: dict, ply: int = 0) -> GameState:
    return GameState.from_cells(rows, cols, cells, ply)


# seed2019 (report 000, section 3.2)


def test_seed2019_win_probabilities_are_the_reports_equations_2_and_3() -> None:
    assert seed2019.p_humans(5, 4) == 1.0
    assert seed2019.p_humans(3, 4) == 3 / 8
    assert seed2019.p_monsters(8, 5) == 1.0  # ratio 1.6 > 1.5
    assert seed2019.p_monsters(6, 5) == pytest.approx(0.7 / 1.2)  # (r − ½)/r at r = 1.2
    assert seed2019.p_monsters(3, 6) == 0.25  # r/2 at r = 0.5


def test_seed2019_expected_gains() -> None:
    assert seed2019.expected_gain_humans(3, 4) == pytest.approx((3 / 8) ** 2 * 7)
    assert seed2019.expected_gain_humans(5, 4) == 9
    ours, theirs = seed2019.expected_gain_monsters(6, 5)
    assert ours == pytest.approx((0.7 / 1.2) ** 2 * 6)
    assert theirs == pytest.approx((5 / 6 / 2) ** 2 * 5)


def test_seed2019_human_directions() -> None:
    # 5 × 5 board, MAX_DIST 4. The house of 2 is 2 away; the house of 6 outnumbers the 4
    # vampires, so it is put at MAX_DIST. Both kept (to_gh 3), d_n = d / (2 · 4).
    # The werewolves (10 ≥ 1.5 · 4) are a forbidden direction; nothing is adjacent.
    state = board(5, 5, {(0, 0): (V, 4), (2, 0): (H, 2), (0, 4): (H, 6), (4, 4): (W, 10)})
    humans = (2 * 0.75**0.7 + 6 * 0.5**0.7) / 8
    assert seed2019.heuristic(state, V) == pytest.approx(0.7 * humans)


def test_seed2019_a_house_nearer_to_the_enemy_is_at_max_dist() -> None:
    state = board(5, 5, {(0, 0): (V, 4), (3, 0): (H, 2), (4, 0): (W, 1)})
    # Only one house: d_n = 4 / (1 · 4) = 1, Ψ(0) = 0. The werewolf (1 < 4/1.5) is one we
    # kill for certain, 4 away: d_n = 4 / 4, Ψ(0) = 0 too. Nothing adjacent.
    assert seed2019.heuristic(state, V) == 0.0


def test_seed2019_battles_with_humans_and_monsters() -> None:
    # 3 vampires next to 2 humans: E = 1 · 5, gain 2, standardised by 3 + 10 (the map's
    # humans): 2/13. Next to 3 werewolves (r = 1): E1 = (½)² · 3, E2 = (½)² · 3, so the
    # advantage is 1/1 − (1 − 0.1) = 0.1. Directions: the house, 1 away, the only one:
    # d_n = 1/4, 2 · Ψ(0.75) / 2; the werewolves (not killable for certain): MAX_DIST, 0.
    state = board(5, 5, {(1, 1): (V, 3), (2, 1): (H, 2), (1, 2): (W, 3)})
    expected = 0.7 * 0.75**0.7 + 0.5 * 2 / 13 + 0.5 * 0.1
    assert seed2019.heuristic(state, V, max_humans=10) == pytest.approx(expected)


def test_seed2019_extremes_and_the_ratios_of_depth_four() -> None:
    alone = board(3, 3, {(0, 0): (V, 4), (2, 2): (H, 1)})
    assert seed2019.heuristic(alone, V) == seed2019.WIN
    assert seed2019.heuristic(alone, W) == -seed2019.WIN
    root = board(9, 9, {(0, 0): (V, 4), (8, 8): (W, 4)})
    two = board(9, 9, {(0, 0): (V, 8), (8, 8): (W, 4)}, 2)
    four = board(9, 9, {(0, 0): (V, 6), (8, 8): (W, 4)}, 4)
    line = [root, root, two, two, four]
    ratios = 1.1 * (8 / 4 - 1) + (6 / 8 - 1)
    assert seed2019.line_value(line, V) == pytest.approx(seed2019.heuristic(four, V) + ratios)


def test_seed2019_never_splits() -> None:
    state = board(5, 5, {(2, 2): (V, 8), (0, 0): (W, 3)})
    plies = seed2019.plies(state)
    assert len(plies) == 8
    assert all(len(ply) == 1 and ply[0].count == 8 for ply in plies)


# zcsn (report 001, sections 2-4)


def test_zcsn_phase_follows_the_human_groups() -> None:
    houses = {(0, 0): (H, 1), (0, 2): (H, 2), (0, 4): (H, 3), (0, 6): (H, 9)}
    assert not zcsn.attack_phase(board(8, 8, {**houses, (5, 5): (V, 4), (7, 7): (W, 4)}), V)
    del houses[(0, 0)]
    assert zcsn.attack_phase(board(8, 8, {**houses, (5, 5): (V, 4), (7, 7): (W, 4)}), V)
    big = {pos: (H, 20) for pos in ((0, 0), (0, 2), (0, 4), (0, 6))}
    assert zcsn.attack_phase(board(8, 8, {**big, (5, 5): (V, 4), (7, 7): (W, 4)}), V)


def test_zcsn_depth_is_six_against_two_enemy_groups_in_the_attack_phase() -> None:
    one = board(8, 8, {(5, 5): (V, 4), (7, 7): (W, 4)})
    two = board(8, 8, {(5, 5): (V, 4), (7, 7): (W, 2), (0, 0): (W, 2)})
    assert zcsn.depth_for(one) == 7
    assert zcsn.depth_for(two) == 6


def test_zcsn_splits_toward_two_houses_with_parts_that_convert_them() -> None:
    cells = {(4, 4): (V, 10), (2, 4): (H, 2), (6, 4): (H, 4), (0, 0): (H, 1), (8, 0): (H, 1)}
    state = board(9, 9, {**cells, (8, 8): (W, 3)})
    plies = zcsn.plies(state)
    # 10 toward 2 and 4: 2 + (10 − 6) · 2 // 6 = 3 and 7.
    assert (Move(4, 4, 3, 3, 4), Move(4, 4, 7, 5, 4)) in plies
    assert all(sum(m.count for m in ply) == 10 for ply in plies)


def test_zcsn_settles_a_random_battle_for_the_more_numerous_side() -> None:
    state = board(5, 5, {(1, 1): (V, 5), (2, 2): (W, 4), (4, 4): (W, 1)})
    [(p, after)] = zcsn.outcomes(state, (Move(1, 1, 5, 2, 2),))
    # P = 5/4 − ½ = 0.75; the winners keep 0.75 · 5 = 3.75 → 4.
    assert p == 1.0
    assert after.at(2, 2) == (V, 4)
    # The specification's reading: 2 against 3 is a massacre of the attackers.
    few = board(5, 5, {(1, 1): (V, 2), (2, 2): (W, 3), (0, 4): (V, 1)})
    [(_, lost)] = zcsn.outcomes(few, (Move(1, 1, 2, 2, 2),))
    assert lost.at(2, 2) == (W, 3)
    assert lost.total(V) == 1


def test_zcsn_increase_is_discounted_by_depth() -> None:
    totals = [4, 8, 8, 6]
    line = [board(5, 5, {(0, 0): (V, n), (4, 4): (W, 3)}, i) for i, n in enumerate(totals)]
    assert zcsn.increase(line, V) == pytest.approx(4 + 0.9 * 0 + 0.81 * -2)
    assert zcsn.increase(line, W) == 0


def test_zcsn_construction_evaluation() -> None:
    houses = {(0, 4): (H, 1), (2, 4): (H, 2), (4, 4): (H, 3), (6, 6): (H, 9)}
    root = board(8, 8, {**houses, (2, 2): (V, 4), (7, 0): (W, 4)})
    leaf = board(8, 8, {**houses, (2, 3): (V, 4), (7, 0): (W, 4)}, 1)
    # Nothing changed hands; humans 15; the two nearest houses are 1 and 2 away.
    assert zcsn.evaluate([root, leaf], V) == pytest.approx(-1.1 * 15 - 0.1 * 3)
    split = board(8, 8, {**houses, (1, 3): (V, 2), (3, 3): (V, 2), (7, 0): (W, 4)}, 1)
    # Two groups: each 1 + 1 from its two nearest houses; − 1/intra_dist = − 1/2.
    assert zcsn.evaluate([root, split], V) == pytest.approx(-1.1 * 15 - 0.1 * 4 - 0.5)


def test_zcsn_attack_evaluation() -> None:
    root = board(8, 8, {(0, 0): (V, 10), (4, 0): (W, 6), (7, 7): (H, 1)})
    after = board(8, 8, {(1, 0): (V, 10), (4, 0): (W, 3), (7, 7): (H, 1)}, 1)
    # UsIncrease 0, EnemyIncrease −3, one group, 3 from the werewolves.
    assert zcsn.evaluate([root, after], V) == pytest.approx(0 - 1.2 * -3 - 2 * 1 - 3)


# seed2025 (report 002, section 4)


def test_seed2025_terms() -> None:
    group = (0, 0, 5)
    houses = [(2, 0, 4), (1, 1, 6), (3, 3, 3)]
    assert seed2025.resource_gain(group, houses, 10) == 2.0  # 4/2; 6 is too many
    assert seed2025.resource_gain(group, houses, 1) == 0.0  # out of range
    assert seed2025.attack_potential(group, [(4, 0, 5), (0, 2, 4)], 10) == 2.0  # E < U
    assert seed2025.positioning((0, 0, 1), (2, 1, 1)) == pytest.approx(5 / 3)
    assert seed2025.positioning((0, 0, 1), (4, 0, 1)) == -1.0
    assert seed2025.weights(4, 4, 9) == (2.0, 1.0)  # progress 8/17 < 0.5: attack
    assert seed2025.weights(4, 4, 8) == (1.0, 2.0)  # progress 0.5: resources


def test_seed2025_evaluation() -> None:
    state = board(5, 5, {(0, 0): (V, 5), (4, 0): (W, 3), (2, 0): (H, 4)})
    # 10 · 2; progress 8/12 → w_resource 2, w_attack 1; RG 4/2 − 0 (3 < 4);
    # AP 3/4; positioning: 4 apart > 3 → −1; one group, no dispersion.
    assert seed2025.evaluate(state, V) == pytest.approx(20 + 2 * 2 + 0.75 - 1)
    assert seed2025.evaluate(state, W) == pytest.approx(-20 + 2 * (0 - 2) + 0 - 1)
