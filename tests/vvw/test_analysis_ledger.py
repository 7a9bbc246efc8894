"""Play and luck that add up (vvw.analysis.ledger): at every ply, the chance before is the
chance after less the play and the luck, the chances are the game's curve, luck is the
dice's alone, and nothing is certain that is not."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.arena import play_game
from agents.random_bot import RandomAgent
from engine import (
    VAMPIRES,
    WEREWOLVES,
    Move,
    Rules,
    Turn,
    ply_outcomes,
)
from engine.mapgen import generate_map
from tests.helpers.boards import board
from vvw.analysis.game import game_from_turns
from vvw.analysis.game_analysis import GameAnalysis, analyse_game
from vvw.analysis.judging import chance_text
from vvw.analysis.search import PositionSearch, Settings


def random_game(seed: int, width: int, height: int, plies: int) -> GameAnalysis:
    """A game of two random bots on a generated map, analysed 2 plies deep."""
    rules = Rules(max_plies=plies)
    chosen = generate_map(width, height, 2, seed)
    turns: list[Turn] = []
    result = play_game(
        RandomAgent(seed),
        RandomAgent(seed + 1),
        chosen,
        move_time=30.0,
        rules=rules,
        seed=seed,
        on_turn=turns.append,
    )
    game = game_from_turns(
        chosen.initial_state(), turns, rules=rules, winner=result.winner, names=("a", "b")
    )
    return analyse_game(game, Settings(depth=2))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    size=st.sampled_from([(4, 4), (5, 4), (6, 5)]),
    plies=st.integers(2, 14),
)
def test_every_ply_s_chance_before_is_its_chance_after_less_its_play_and_luck(
    seed: int, size: tuple[int, int], plies: int
) -> None:
    analysis = random_game(seed, *size, plies)
    curve = analysis.chances()  # the vampires' chances before each ply, then the result
    for index, turn in enumerate(analysis.turns):
        assert turn.after is not None and turn.judged
        identity = turn.after - turn.play - turn.luck
        assert 100 * abs(turn.score - identity) <= 0.5
        # The chances before and after are the curve's: the report never contradicts it.
        after = turn.after if turn.side == VAMPIRES else 1.0 - turn.after
        assert after == pytest.approx(curve[index + 1], abs=1e-9)
        # Luck is the dice's: none without a random battle, each battle's share with one.
        assert turn.luck == pytest.approx(sum(b.luck for b in turn.battles), abs=1e-9)
        assert 0.0 <= turn.score <= 1.0 and turn.play <= 1.0
    assert curve[-1] == analysis.game.score(VAMPIRES)


THROWN = board(
    """
    V28 .  .  .  .  .
    .   .  .  .  .  .
    .   .  .  .  .  W20
    """
)
"""No humans left, the vampires 8 ahead: at the ply limit they win. Unless they strike the
werewolves' 20 with their 28 (90 % to win the battle) and lose it."""


def test_a_certain_looking_lead_thrown_away_was_never_certain_before_the_throw() -> None:
    plies = [
        (Move(0, 0, 28, 1, 1),),
        (Move(5, 2, 20, 4, 2),),
        (Move(1, 1, 28, 2, 1),),
        (Move(4, 2, 20, 3, 2),),
        (Move(2, 1, 28, 3, 2),),  # the throw: a random battle at 90 %, lost
    ]
    cells = {(0, 0): (VAMPIRES, 28), (5, 2): (WEREWOLVES, 20)}
    turns = []
    state = THROWN
    for number, ply in enumerate(plies):
        (move,) = ply
        kind, count = cells.pop((move.x, move.y))
        cells[(move.tx, move.ty)] = (kind, count)
        if number == len(plies) - 1:
            cells[(move.tx, move.ty)] = (WEREWOLVES, 3)  # the werewolves won, 3 left
        after = type(state).from_cells(state.rows, state.cols, dict(cells), state.ply + 1)
        turns.append(Turn(state.to_move, state.ply, ply, after))
        state = after
    game = game_from_turns(THROWN, turns, winner=WEREWOLVES, names=("a", "b"))
    analysis = analyse_game(game, Settings(depth=3))
    curve = analysis.chances()
    assert curve[-1] == 0.0  # lost
    for chance in curve[:-1]:
        assert 0.0 < chance < 1.0
        assert chance_text(chance) not in ("0", "100")
    throw = analysis.turns[-1]
    assert throw.luck < -0.5  # the dice took most of it…
    (battle,) = throw.battles
    assert battle.win_probability == pytest.approx(0.9)
    assert throw.score == pytest.approx(throw.after - throw.play - throw.luck)


def test_an_endgame_is_worth_the_same_at_a_leaf_as_at_the_root() -> None:
    # Taking the human makes a one-against-one endgame, which the root values by its exact
    # solution: the search that sees it at a leaf must value it so too, or every ply
    # before it would be judged against another scale than the ply after it.
    before = board(
        """
        W7 .  .  .  .  .
        .  .  .  .  V7 .
        .  .  .  .  H1 .
        """
    )
    search = PositionSearch(Settings(depth=2))
    searched = search.position(before)
    assert searched.best == (Move(4, 1, 7, 4, 2),)
    ((_, child),) = ply_outcomes(before, searched.best)
    assert search.position(child).how == "endgame"
    assert searched.score == pytest.approx(1.0 - search.position(child).score, abs=0.01)
