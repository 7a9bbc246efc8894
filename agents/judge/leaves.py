"""The judge at a search's leaves: a position's expected score for the side to move.

A *leaf* is any function ``leaf(state) -> float`` giving the expected score (0 to 1: a
win 1, a draw ½, a loss 0) of ``state`` for ``state.to_move``. A search calls it at its
horizon and nowhere else (``ExpectiminimaxAgent(judge=leaf)``, or ``--leaf learned`` on a
command line), so changing the judge is changing the leaf. :func:`learned_leaf` is the
learned winning chances (:mod:`agents.judge.learned`: trees over a position's features,
trained on games between many bots), the judge of ``vvw analyse``; it is not the search
bots' own evaluation, so that the analysis is not blind where the bots it judges are.
A leaf is a module-level function bound with :func:`functools.partial`, so that worker
processes can receive it.

A search holds values on the bots' scale, ``[LOSS, WIN]``: :func:`as_value` and
:func:`as_chance` go between the two, and a leaf's chance is kept within
:data:`LEAF_EDGE` of 0 and 1 there (:func:`leaf_as_value`): nothing is certain but a
finished game or a result the search proved.
"""

from collections.abc import Callable
from functools import partial

from agents.endgame import endgame_chance
from agents.evaluation import LOSS, WIN
from agents.judge.curve import Curve
from agents.judge.learned import expected_score
from engine import GameState, Kind, Rules
from engine.rules import DEFAULT_RULES

Leaf = Callable[[GameState], float]
"""The expected score (0 to 1) of a position for the side to move."""
LEAF_EDGE = 0.01
"""A leaf's expected score is kept within ``[LEAF_EDGE, 1 − LEAF_EDGE]`` in a search."""


def learned_leaf(rules: Rules = DEFAULT_RULES) -> Leaf:
    """The learned winning chances under ``rules``, as a leaf."""
    return partial(expected_score, rules=rules)


def endgame_or_leaf(state: GameState, leaf: Leaf, rules: Rules, curve: Curve) -> float:
    """A one-against-one endgame's chance by its exact solution through the endgame
    curve, any other position's by ``leaf``: a position is worth the same whether a search
    meets it at its root or at a leaf."""
    chance = endgame_chance(state, state.to_move, rules)
    return leaf(state) if chance is None else curve.solved(chance)


def as_value(chance: float) -> float:
    """An expected score on the search bots' scale of values, ``[LOSS, WIN]``."""
    return LOSS + (WIN - LOSS) * chance


def as_chance(value: float) -> float:
    """A value of the search back to an expected score (a proved result exactly 0, ½ or
    1: finished games are worth exactly ``WIN``, ``DRAW`` and ``LOSS``)."""
    return min(1.0, max(0.0, (value - LOSS) / (WIN - LOSS)))


def leaf_as_value(leaf: Leaf, state: GameState, species: Kind) -> float:
    """``leaf``'s expected score of ``state`` for ``species``, kept within
    :data:`LEAF_EDGE` of 0 and 1, on the search bots' scale (:func:`as_value`)."""
    chance = min(1.0 - LEAF_EDGE, max(LEAF_EDGE, leaf(state)))
    return as_value(chance if state.to_move == species else 1.0 - chance)
