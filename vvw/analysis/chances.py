"""Winning chances: a search value turned into an expected score, by a curve fitted on games.

The search (:mod:`agents.expectiminimax`, risk-neutral: :data:`RISK`) values a position
for the side to move on ``[LOSS, WIN]``. Its scale is the bot's own: what a value means in
won games is only known from games played.
So, as lichess does for an engine's centipawns, the value is turned into an *expected
score* (a win 1, a draw ½, a loss 0) by a logistic curve fitted on positions of games
whose results are known::

    score = 1 / (1 + exp(−(intercept + slope · atanh(v))))

where ``v`` in ``(−1, 1)`` is the value over ``WIN`` (a cautious utility, if the search
used one, undone: :func:`certainty_equivalent`): ``atanh`` undoes the evaluation's ``tanh``,
so the curve works on a lead in creatures per army size. A solved endgame's
exact chance under perfect play goes through a curve of its own (bots do not play an
endgame perfectly). A game decided within the search's horizon is worth exactly 1, ½ or 0.
:data:`CURVE` holds the shipped constants; ``python -m benchmarks.calibration --fit``
plays games, fits them again (``benchmarks.learn.fit_curve``, with scikit-learn: fitting
is a training-time thing) and prints them. The chances learned from a corpus of games,
without a search value, are :mod:`vvw.analysis.learned`'s.
"""

import math

import attrs

from agents.evaluation import LOSS, WIN
from vvw.records.stats import sigmoid

RISK = 0.0
"""The analysis searches risk-neutral (the bot's cautious utility off, see
:mod:`vvw.analysis.search`): a chance node is worth the mean of its outcomes."""
CONTEMPT = 0.0
"""The analysis searches without the bot's contempt (which tips every level position
toward the side searched for, so both sides of one would count a few points ahead): a
level position is worth 0 to either side."""

DECIDED = WIN - 1000.0
"""A value this close to a win or a loss is a game decided within the search's horizon
(the search counts a finished game ``WIN − plies``, a few hundred at most)."""
EDGE = 0.999999
"""How close to ±1 a value is taken before its ``atanh``."""


def certainty_equivalent(value: float, risk: float = RISK) -> float:
    """The value whose cautious utility is ``value`` (the inverse of
    :func:`agents.expectiminimax.cautious`): a chance node's value as a sure one."""
    if risk <= 0:
        return value
    share = (value - LOSS) / (WIN - LOSS)
    inside = 1.0 - share * (1.0 - math.exp(-risk))
    x = -math.log(max(inside, 1e-300)) / risk
    return LOSS + (WIN - LOSS) * x


def feature(value: float, risk: float = RISK) -> float:
    """What the curve reads of a search value: ``atanh`` of its certainty equivalent over WIN."""
    v = certainty_equivalent(value, risk) / WIN
    return math.atanh(max(-EDGE, min(EDGE, v)))


def decided(value: float) -> float | None:
    """The exact score of a game decided within the horizon (1 won, 0 lost), else ``None``."""
    if value >= DECIDED:
        return 1.0
    if value <= -DECIDED:
        return 0.0
    return None


def logit(chance: float) -> float:
    """``log(p / (1 − p))``, the chance kept off 0 and 1."""
    p = max(1e-6, min(1 - 1e-6, chance))
    return math.log(p / (1.0 - p))


@attrs.frozen
class Curve:
    """The curves from what the search says of a position to its expected score.

    A searched position: ``σ(intercept + slope · x)``, ``x`` the value's :func:`feature`.
    A solved endgame: ``σ(endgame_intercept + endgame_slope · logit(p))``, ``p`` its exact
    chance under perfect play (0 and 1 stay exact: no play can change them)."""

    intercept: float
    slope: float
    endgame_intercept: float = 0.0
    endgame_slope: float = 1.0
    risk: float = RISK
    """The cautious utility's curvature of the values it reads."""

    def searched(self, value: float) -> float:
        """The expected score (0 to 1) of a position for the side to move, searched to
        ``value``."""
        exact = decided(value)
        if exact is not None:
            return exact
        return sigmoid(self.intercept + self.slope * feature(value, self.risk))

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
"""The shipped curves: ``python -m benchmarks.calibration --fit`` on its 300 games (36,691
positions analysed at depth 4; docs/analysis.md tells the games and the figures)."""
