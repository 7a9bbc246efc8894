"""agents.judge.features and agents.judge.learned: what a position's features say (the race
for houses, the strikes), and the learned chances: exact for a finished game, never 0 or
1 for one still going on, read from the shipped JSON without the training's libraries."""

import hashlib
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.judge.features import NAMES, features, race, strikes
from agents.judge.learned import FLOOR, Model, Tree, expected_score, from_json, identity
from agents.judge.leaves import learned_leaf
from engine import GameState, Kind
from engine.rules import Rules
from engine.testing.strategies import game_states

V, W, H = Kind.VAMPIRES, Kind.WEREWOLVES, Kind.HUMANS


def _named(state: GameState) -> dict[str, float]:
    return dict(zip(NAMES, features(state), strict=True))


def test_the_house_goes_to_whoever_reaches_it_first_with_enough_creatures():
    # A house of 4: the vampires' 5 are 3 plies away, the werewolves' 9 only 2 but the
    # werewolves' 3 (too few to take it) stand next to it.
    houses = [(5, 5, 4)]
    assert race([(2, 2, 5)], [(7, 7, 9), (5, 6, 3)], houses, 100, 100) == (0, 4, 0)
    assert race([(3, 3, 5)], [(7, 7, 9)], houses, 100, 100) == (4, 0, 0)  # a tie: own first
    assert race([(4, 4, 5)], [(7, 7, 9)], houses, 100, 100) == (4, 0, 4)  # taken this ply
    assert race([(2, 2, 5)], [(7, 7, 9)], houses, 2, 100) == (0, 4, 0)  # out of plies
    assert race([(2, 2, 3)], [(9, 9, 3)], houses, 100, 100) == (0, 0, 0)  # nobody can


def test_strikes_count_sure_kills_and_the_best_gamble():
    attack = [(0, 0, 9), (5, 5, 7)]
    defence = [(1, 1, 6), (6, 6, 6), (9, 9, 2)]
    # 9 kills 6 for sure next door; 7 against 6 is a gamble at 7/6 − ½; the 2 are far.
    killed, gamble = strikes(attack, defence, 1)
    assert killed == 6 and abs(gamble - (7 / 6 - 0.5)) < 1e-12
    assert strikes(attack, defence, 1) != strikes(attack, defence, 5)


def test_features_are_read_from_the_side_to_moves_view():
    cells = {(0, 0): (V, 12), (4, 4): (W, 4), (1, 2): (H, 3)}
    vampires = _named(GameState.from_cells(5, 5, cells, ply=10))
    werewolves = _named(GameState.from_cells(5, 5, cells, ply=11))
    assert vampires["lead"] == 0.5 and werewolves["lead"] == -0.5
    assert vampires["own_houses_first"] == 3 / 19 == werewolves["other_houses_first"]
    assert werewolves["own_houses_first"] == 0 and vampires["take_now"] == 0
    assert vampires["plies_left"] == 190 / 200
    assert len(features(GameState.from_cells(5, 5, cells))) == len(NAMES)
    assert vampires["endgame"] == -1.0  # not one group against one with no house left


def test_a_pursuit_endgame_brings_its_exact_chance():
    # 10 against 8, no house: the werewolves must force a battle; on an open 9 × 9 board
    # with 150 plies left they can, so the leader's chance is that of being struck.
    state = GameState.from_cells(9, 9, {(0, 0): (V, 10), (8, 8): (W, 8)}, ply=50)
    chance = _named(state)["endgame"]
    assert 0 < chance < 1
    assert _named(state.with_ply(51))["endgame"] == pytest.approx(1 - chance)


def test_a_finished_game_is_worth_its_result_exactly():
    won = GameState.from_cells(3, 3, {(0, 0): (V, 5), (2, 2): (H, 2)}, ply=7)
    assert expected_score(won) == 0.0  # the werewolves to move have none left
    assert expected_score(won.with_ply(8)) == 1.0
    level = GameState.from_cells(3, 3, {(0, 0): (V, 5), (2, 2): (W, 5)}, ply=200)
    assert expected_score(level) == 0.5


@settings(max_examples=150, deadline=None)
@given(game_states(max_side=12, max_count=60), st.integers(1, 300))
def test_a_game_going_on_is_never_certain(state, plies):
    rules = Rules(max_plies=max(plies, state.ply + 1))
    chance = expected_score(state, rules)
    assert FLOOR <= chance <= 1 - FLOOR
    assert learned_leaf(rules)(state) == chance


def test_a_big_lead_is_likely_won_and_a_mirrored_start_about_even():
    lead = GameState.from_cells(10, 10, {(1, 1): (V, 30), (8, 8): (W, 5)})
    assert expected_score(lead) > 0.8
    assert expected_score(lead.with_ply(1)) < 0.2
    start = GameState.from_cells(10, 10, {(1, 1): (V, 8), (8, 8): (W, 8), (4, 5): (H, 3)})
    assert 0.3 < expected_score(start) < 0.7


def test_a_tree_sends_a_position_left_when_its_feature_is_at_most_the_threshold():
    tree = Tree(
        feature=(1, -2, -2),
        threshold=(0.5, -2, -2),
        left=(1, -1, -1),
        right=(2, -1, -1),
        value=(0.0, -1.0, 2.0),
    )
    assert (tree([9, 0.5]), tree([9, 0.6])) == (-1.0, 2.0)
    model = Model(NAMES, 0.25, 0.5, (tree, tree))
    assert model.raw([0, 0.6]) == 0.25 + 0.5 * 4.0
    assert from_json(json.loads(json.dumps(model.to_json()))) == model


def test_the_shipped_chances_are_read_without_the_training_libraries():
    script = (
        "import sys; sys.modules['sklearn'] = sys.modules['numpy'] = None\n"
        "from engine import GameState, Kind\n"
        "from agents.judge.learned import expected_score\n"
        "cells = {(0, 0): (Kind.VAMPIRES, 9), (5, 5): (Kind.WEREWOLVES, 4)}\n"
        "s = GameState.from_cells(6, 6, cells)\n"
        "print(expected_score(s))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert 0 < float(out.stdout) < 1


def test_the_model_is_named_by_the_digest_of_its_shipped_file(tmp_path):
    from agents.judge import learned

    made = identity()
    assert made["name"] == "learned"
    assert made["sha256"] == hashlib.sha256(learned.WEIGHTS.read_bytes()).hexdigest()
