"""The analysis's judge of a position: its winning chances at the search's leaves.

A *leaf* is any function ``leaf(state) -> float`` giving the expected score (0 to 1: a
win 1, a draw ½, a loss 0) of ``state`` for ``state.to_move``. The search over chances
(:mod:`vvw.analysis.search`) calls it at its horizon and nowhere else, so changing the
judge is changing :func:`default_leaf`. The default is the learned winning chances
(:func:`vvw.analysis.learned.expected_score`: trees over a position's features, trained on
games between many bots), not the search bots' own evaluation, so that the analysis is not
blind where the bots it judges are. :func:`evaluation_chance`, the bots' evaluation (put
on the scale of a won game as ``expectiminimax`` does, without contempt) through the
curve fitted on games (:data:`vvw.analysis.chances.CURVE`), is the other judge at hand.
A leaf is a module-level function bound to the rules (:func:`functools.partial`), so that
the analysis's worker processes can receive it.
"""

from collections.abc import Callable
from functools import partial

from agents.evaluation import on_win_scale, scored
from agents.expectiminimax import SQUASH_CEILING
from engine import GameState, Rules
from engine.rules import DEFAULT_RULES
from vvw.analysis.chances import CURVE
from vvw.analysis.learned import expected_score

Leaf = Callable[[GameState], float]
"""The expected score (0 to 1) of a position for the side to move."""


def evaluation_chance(state: GameState, rules: Rules = DEFAULT_RULES) -> float:
    """The side to move's expected score by the bots' evaluation through :data:`CURVE`."""
    species = state.to_move
    score, counts = scored(state, species, unfinished=False)
    if counts is None:  # a finished game: its result
        return 0.5 if score == 0 else float(score > 0)
    value = on_win_scale(score, state, species, SQUASH_CEILING, 0.0, counts)
    return CURVE.searched(value)


def default_leaf(rules: Rules = DEFAULT_RULES) -> Leaf:
    """The leaf the analysis judges with under ``rules`` (see the module docstring)."""
    return partial(expected_score, rules=rules)
