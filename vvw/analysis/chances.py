"""Winning chances: a search value turned into an expected score, by a curve fitted on games.

The search (:mod:`agents.expectiminimax`) values a position for the side to move on
``[LOSS, WIN]``, through its cautious utility (:func:`agents.expectiminimax.cautious`). Its
scale is the bot's own: what a value means in won games is only known from games played.
So, as lichess does for an engine's centipawns, the value is turned into an *expected
score* (a win 1, a draw ½, a loss 0) by a logistic curve fitted on positions of games
whose results are known::

    score = 1 / (1 + exp(−(intercept + slope · atanh(v))))

where ``v`` in ``(−1, 1)`` is the value with the cautious utility undone
(:func:`certainty_equivalent`) over ``WIN``: ``atanh`` undoes the evaluation's ``tanh``,
so the curve works on a lead in creatures per army size. A game decided within the
search's horizon is worth exactly 1, ½ or 0. :data:`CURVE` holds the shipped constants;
``python -m benchmarks.calibration --fit`` plays games, fits them again
(:func:`fit_curve`) and prints them.
"""

import math
from collections.abc import Iterable, Sequence

import attrs

from agents.evaluation import LOSS, WIN
from agents.expectiminimax import DEFAULT_RISK

DECIDED = WIN - 1000.0
"""A value this close to a win or a loss is a game decided within the search's horizon
(the search counts a finished game ``WIN − plies``, a few hundred at most)."""
EDGE = 0.999999
"""How close to ±1 a value is taken before its ``atanh``."""


def certainty_equivalent(value: float, risk: float = DEFAULT_RISK) -> float:
    """The value whose cautious utility is ``value`` (the inverse of
    :func:`agents.expectiminimax.cautious`): a chance node's value as a sure one."""
    if risk <= 0:
        return value
    share = (value - LOSS) / (WIN - LOSS)
    inside = 1.0 - share * (1.0 - math.exp(-risk))
    x = -math.log(max(inside, 1e-300)) / risk
    return LOSS + (WIN - LOSS) * x


def feature(value: float, risk: float = DEFAULT_RISK) -> float:
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


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@attrs.frozen
class Curve:
    """``score = σ(intercept + slope · x)`` for a value's :func:`feature` ``x``."""

    intercept: float
    slope: float
    risk: float = DEFAULT_RISK
    """The cautious utility's curvature of the values it reads."""

    def of_feature(self, x: float) -> float:
        """The expected score for a feature ``x``."""
        return _sigmoid(self.intercept + self.slope * x)

    def __call__(self, value: float) -> float:
        """The expected score (0 to 1) of a search value, for the side it is valued for."""
        exact = decided(value)
        if exact is not None:
            return exact
        return self.of_feature(feature(value, self.risk))


CURVE = Curve(intercept=0.0, slope=1.0)
"""The shipped curve, fitted by ``python -m benchmarks.calibration --fit`` (see
docs/analysis.md for the games and the fit)."""


def fit_logistic(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``(intercept, slope)`` of the logistic curve that best predicts the scores of
    ``points``, ``(x, score)`` pairs: maximum likelihood by Newton's method."""
    if len(points) < 2:
        raise ValueError("a curve needs at least two points")
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, s in points:
            p = _sigmoid(a + b * x)
            w = max(p * (1.0 - p), 1e-12)
            ga += s - p
            gb += (s - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        hbb += 1e-9  # a ridge: a feature that never varies leaves the slope at 0
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


def fit_curve(samples: Iterable[tuple[float, float]], risk: float = DEFAULT_RISK) -> Curve:
    """The curve that best predicts the scores of ``samples``, ``(search value, score the
    side to move made)`` pairs (:func:`fit_logistic`), decided values left out (they need
    no curve)."""
    points = [(feature(v, risk), s) for v, s in samples if decided(v) is None]
    return Curve(*fit_logistic(points), risk)
