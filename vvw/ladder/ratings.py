"""Elo ratings from all the rated games at once, as the engine rating lists compute them.

The model is the logistic one of Elo, Ordo and BayesElo: a player ``D`` points stronger
expects the score ``1 / (1 + 10^(-D/400))`` (:func:`vvw.records.stats.score_of_elo`); a draw counts
as half a win and half a loss, as in Ordo and in ``vvw tournament``'s tables. The ratings
are the ones that make the games played most likely, all at once (not updated game by game,
so the order of the games does not matter), with a prior as in Rémi Coulom's Whole-History
Rating: each player also has :data:`PRIOR_DRAWS` virtual draws against a virtual player
rated as the anchor. The prior keeps every rating finite (a team that won every game is not
infinitely strong after three games) and ties players who never met the anchor's group to
the scale; its weight fades as real games add up.

One built-in bot, the anchor, has a fixed rating: the others are relative to it. The 95 %
intervals come from the curvature of the likelihood at its top (the inverse Hessian: the
Laplace approximation), so they are relative to the anchor too, and shrink as games add up.
"""

import math
from collections.abc import Iterable

import attrs

from agents.judge.logistic import log_sigmoid, sigmoid
from vvw.records.stats import Z95

PRIOR_DRAWS = 2.0
"""Virtual draws each player has against a virtual player rated as the anchor."""
ELO_PER_NATURAL = 400.0 / math.log(10.0)
"""Elo points per unit of the natural logistic scale, ``p = 1 / (1 + e^-x)``."""
DECREMENT = 1e-10
"""Newton's method stops once its decrement (twice what the log-posterior could still
gain) is below this: every rating is then within about 1e-4 Elo of the top."""
SMALLEST_STEP = 1e-10
"""A step shorter than this fraction of Newton's that still does not climb: the top,
to rounding."""


@attrs.frozen
class Outcome:
    """One rated game: its two players and the score of ``first`` (1, ½ or 0)."""

    first: str
    second: str
    score: float


@attrs.frozen
class Rating:
    """A player's rating and its 95 % interval (``elo ± error``), from ``games`` games."""

    name: str
    elo: float
    error: float
    games: int
    points: float
    """Its score: a win counts 1, a draw ½."""

    @property
    def low(self) -> float:
        return self.elo - self.error

    @property
    def high(self) -> float:
        return self.elo + self.error


def _cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """``L`` with ``L Lᵀ = matrix`` (symmetric positive definite)."""
    size = len(matrix)
    low = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            total = matrix[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
            low[i][j] = math.sqrt(total) if i == j else total / low[j][j]
    return low


def _solve(low: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``L Lᵀ x = vector``, ``low`` from :func:`_cholesky`."""
    size = len(vector)
    y = [0.0] * size
    for i in range(size):
        y[i] = (vector[i] - sum(low[i][k] * y[k] for k in range(i))) / low[i][i]
    x = [0.0] * size
    for i in reversed(range(size)):
        x[i] = (y[i] - sum(low[k][i] * x[k] for k in range(i + 1, size))) / low[i][i]
    return x


class _Problem:
    """The log-posterior of the free players' ratings (natural units, the anchor at 0)."""

    def __init__(self, free: list[str], pairs: dict[tuple[str, str], list[float]]) -> None:
        self.index = {name: i for i, name in enumerate(free)}
        self.pairs = sorted(pairs.items())
        self.size = len(free)

    def _at(self, x: list[float], name: str) -> float:
        i = self.index.get(name)
        return 0.0 if i is None else x[i]

    def value(self, x: list[float]) -> float:
        total = sum(PRIOR_DRAWS / 2 * (log_sigmoid(v) + log_sigmoid(-v)) for v in x)
        for (a, b), (games, score) in self.pairs:
            d = self._at(x, a) - self._at(x, b)
            total += score * log_sigmoid(d) + (games - score) * log_sigmoid(-d)
        return total

    def slope_and_curvature(self, x: list[float]) -> tuple[list[float], list[list[float]]]:
        """The gradient and the negative Hessian (positive definite) at ``x``."""
        gradient = [PRIOR_DRAWS * (0.5 - sigmoid(v)) for v in x]
        curvature = [[0.0] * self.size for _ in range(self.size)]
        for k, v in enumerate(x):
            p = sigmoid(v)
            curvature[k][k] += PRIOR_DRAWS * p * (1.0 - p)
        for (a, b), (games, score) in self.pairs:
            p = sigmoid(self._at(x, a) - self._at(x, b))
            surprise, weight = score - games * p, games * p * (1.0 - p)
            i, j = self.index.get(a), self.index.get(b)
            if i is not None:
                gradient[i] += surprise
                curvature[i][i] += weight
            if j is not None:
                gradient[j] -= surprise
                curvature[j][j] += weight
            if i is not None and j is not None:
                curvature[i][j] -= weight
                curvature[j][i] -= weight
        return gradient, curvature


def _maximise(problem: _Problem) -> tuple[list[float], list[list[float]]]:
    """The ratings of highest posterior (Newton's method, steps halved until they climb)
    and the Cholesky factor of the curvature there."""
    x = [0.0] * problem.size
    value = problem.value(x)
    while True:
        gradient, curvature = problem.slope_and_curvature(x)
        low = _cholesky(curvature)
        step = _solve(low, gradient)
        if sum(g * s for g, s in zip(gradient, step, strict=True)) < DECREMENT:
            return x, low
        scale = 1.0
        while (trial_value := problem.value(trial := _moved(x, step, scale))) < value:
            scale /= 2.0
            if scale < SMALLEST_STEP:
                return x, low
        x, value = trial, trial_value


def _moved(x: list[float], step: list[float], scale: float) -> list[float]:
    return [v + scale * s for v, s in zip(x, step, strict=True)]


def fit_ratings(
    outcomes: Iterable[Outcome], anchor: str, anchor_rating: float
) -> dict[str, Rating]:
    """The rating of every player of ``outcomes``, and of ``anchor`` (fixed at
    ``anchor_rating``, error 0), by name."""
    pairs: dict[tuple[str, str], list[float]] = {}
    games: dict[str, int] = {anchor: 0}
    points: dict[str, float] = {anchor: 0.0}
    for outcome in outcomes:
        if outcome.first == outcome.second:
            raise ValueError(f"{outcome.first!r} cannot play itself")
        for name, score in ((outcome.first, outcome.score), (outcome.second, 1 - outcome.score)):
            games[name] = games.get(name, 0) + 1
            points[name] = points.get(name, 0.0) + score
        a, b = sorted((outcome.first, outcome.second))
        score = outcome.score if a == outcome.first else 1.0 - outcome.score
        tally = pairs.setdefault((a, b), [0.0, 0.0])
        tally[0] += 1
        tally[1] += score
    free = sorted(name for name in games if name != anchor)
    problem = _Problem(free, pairs)
    x, low = _maximise(problem)
    ratings = {anchor: Rating(anchor, float(anchor_rating), 0.0, games[anchor], points[anchor])}
    for i, name in enumerate(free):
        unit = [0.0] * len(free)
        unit[i] = 1.0
        variance = _solve(low, unit)[i]
        ratings[name] = Rating(
            name,
            anchor_rating + x[i] * ELO_PER_NATURAL,
            Z95 * math.sqrt(variance) * ELO_PER_NATURAL,
            games[name],
            points[name],
        )
    return ratings
