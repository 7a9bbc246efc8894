"""Winning chances from what a search says: the curves fitted on games.

A search bot values a position on its own scale, ``[LOSS, WIN]``; a solved one-against-one
endgame has an exact chance under perfect play, which bots do not play. What either means
in games is known only from games played, so, as lichess does for an engine's
centipawns, each is turned into an *expected score* (a win 1, a draw ½, a loss 0) by a
logistic curve fitted on positions of games whose results are known:

* a searched value ``v`` (over ``WIN``, in ``(−1, 1)``): ``σ(intercept + slope · atanh(v))``
  (``atanh`` undoes the evaluation's ``tanh``, so the curve works on a lead in creatures
  per army size); a game decided within the search's horizon is worth exactly 1 or 0;
* a solved endgame's exact chance ``p``: ``σ(endgame_intercept + endgame_slope ·
  logit(p))`` (0 and 1 stay exact: no play can change them).

:data:`CURVE` holds the shipped constants; ``python -m training.calibration --fit`` plays
games, fits them again (``training.learn.fit_curve``, with scikit-learn: fitting is a
training-time thing) and prints them. The analysis reads solved endgames through it
(:func:`agents.judge.leaves.endgame_or_leaf`).
"""

import math

import attrs

from agents.evaluation import WIN
from agents.judge.logistic import logit, sigmoid

DECIDED = WIN - 1000.0
"""A value this close to a win or a loss is a game decided within the search's horizon
(the search counts a finished game ``WIN − plies``, a few hundred at most)."""
EDGE = 0.999999
"""How close to ±1 a value is taken before its ``atanh``."""


def feature(value: float) -> float:
    """What the curve reads of a search value: ``atanh`` of the value over WIN."""
    return math.atanh(max(-EDGE, min(EDGE, value / WIN)))


def decided(value: float) -> float | None:
    """The exact score of a game decided within the horizon (1 won, 0 lost), else ``None``."""
    if value >= DECIDED:
        return 1.0
    if value <= -DECIDED:
        return 0.0
    return None


@attrs.frozen
class Curve:
    """The curves from what the search says of a position to its expected score (the
    module docstring)."""

    intercept: float
    slope: float
    endgame_intercept: float = 0.0
    endgame_slope: float = 1.0

    def searched(self, value: float) -> float:
        """The expected score (0 to 1) of a position for the side to move, searched to
        ``value``."""
        exact = decided(value)
        if exact is not None:
            return exact
        return sigmoid(self.intercept + self.slope * feature(value))

    def solved(self, chance: float) -> float:
        """The expected score of a solved endgame whose exact chance is ``chance``."""
        if chance in (0.0, 1.0):
            return chance
        return sigmoid(self.endgame_intercept + self.endgame_slope * logit(chance))


CURVE = Curve(
    intercept=0.0016,
    slope=2.8384,
    endgame_intercept=-0.0242,
    endgame_slope=4.2062,
)
"""The shipped curves: ``python -m training.calibration --fit`` on its 300 games (36,691
positions analysed at depth 4; docs/analysis.md tells the games and the figures)."""
