"""Match statistics as the chess match runners compute them (fastchess, cutechess-cli).

* :func:`elo_estimate`: the Elo difference of a score, its 95 % interval and the LOS, from
  game results (W/D/L, "trinomial") or from pairs of games with sides swapped
  ("pentanomial": each pair scores 0, ¼, ½, ¾ or 1, which takes out the luck of the side).
* :class:`Sprt`: the sequential probability ratio test, "is my change at least ``elo1``
  better, or at most ``elo0``?", with the generalised log-likelihood ratio of the logistic
  model (Michel Van den Bergh's, fastchess's default), stopping once a bound is crossed.

The one implementation in the project: ``vvw tournament`` and ``benchmarks/strength.py``
use it. Known values of fastchess's tests are checked in ``tests/vvw/records/test_stats.py``.
"""

import math
from collections.abc import Sequence

import attrs

from agents.judge.logistic import sigmoid

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""
WDL_SCORES = (0.0, 0.5, 1.0)
"""Scores of a loss, a draw, a win."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Scores of a pair of games: LL, LD, WL or DD, WD, WW."""


def elo_of_score(score: float) -> float:
    """The logistic Elo difference that expects ``score`` (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never -0.0


def score_of_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: the logistic of ``elo``
    in units of 400 / ln 10 points."""
    return sigmoid(elo * math.log(10.0) / 400.0)


@attrs.frozen
class EloEstimate:
    """What a sample says: the score, its Elo difference, the 95 % interval, the LOS."""

    samples: int
    """Games (or pairs of games) counted."""
    score: float
    elo: float
    error: float
    """Half the width of the 95 % interval, in Elo (as ``elo ± error`` is printed)."""
    low: float
    high: float
    los: float
    """Likelihood of superiority: the probability that the true Elo difference is above 0."""

    def format(self) -> str:
        """``+40.7 ± 30.4`` (see :func:`format_elo`)."""
        return format_elo(self.elo, self.error)


def format_elo(elo: float, error: float) -> str:
    """``+40.7 ± 30.4`` (``+inf``, ``-inf`` and ``± inf`` when a side never scored)."""
    return f"{_signed(elo)} ± {_plain(error)}"


def _signed(value: float) -> str:
    return "+inf" if value == math.inf else "-inf" if value == -math.inf else f"{value:+.1f}"


def _plain(value: float) -> str:
    return "inf" if math.isinf(value) or math.isnan(value) else f"{value:.1f}"


def elo_estimate(counts: Sequence[int], scores: Sequence[float] = WDL_SCORES) -> EloEstimate:
    """The estimate from ``counts`` of each outcome in ``scores``: ``(L, D, W)`` by default,
    or ``(LL, LD, WL+DD, WD, WW)`` with :data:`PAIR_SCORES`."""
    samples = sum(counts)
    if samples == 0:
        return EloEstimate(0, 0.5, 0.0, math.inf, -math.inf, math.inf, 0.5)
    score = sum(n * x for n, x in zip(counts, scores, strict=True)) / samples
    variance = sum(n * (x - score) ** 2 for n, x in zip(counts, scores, strict=True)) / samples
    spread = math.sqrt(variance / samples)
    low, high = elo_of_score(score - Z95 * spread), elo_of_score(score + Z95 * spread)
    error = (high - low) / 2.0 if spread > 0 else (0.0 if 0 < score < 1 else math.inf)
    if spread > 0:
        los = (1.0 - math.erf(-(score - 0.5) / math.sqrt(2.0 * spread**2))) / 2.0
    else:
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return EloEstimate(samples, score, elo_of_score(score), error, low, high, los)


def wdl_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """:func:`elo_estimate` of single games."""
    return elo_estimate((losses, draws, wins))


def _regularised(counts: Sequence[int]) -> list[float]:
    """Counts with a zero taken as 0.001 (as fastchess), so no outcome has probability 0."""
    return [float(n) if n else 1e-3 for n in counts]


def _mle(scores: Sequence[float], probs: Sequence[float], target: float) -> list[float]:
    """The distribution nearest ``probs`` (maximum likelihood) whose expected score is
    ``target``: ``p_i = p̂_i / (1 + θ (a_i - target))``, θ the root of
    ``Σ p̂_i (a_i - target) / (1 + θ (a_i - target)) = 0`` (found by bisection)."""
    low = -1.0 / (max(scores) - target)
    high = -1.0 / (min(scores) - target)

    def slope(theta: float) -> float:
        return sum(
            p * (a - target) / (1.0 + theta * (a - target))
            for a, p in zip(scores, probs, strict=True)
        )

    for _ in range(200):  # slope falls from +inf at ``low`` to -inf at ``high``
        middle = (low + high) / 2.0
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2.0
    return [p / (1.0 + theta * (a - target)) for a, p in zip(scores, probs, strict=True)]


@attrs.frozen
class Sprt:
    """H0: the Elo difference is ``elo0``; H1: it is ``elo1``; errors ``alpha`` (accepting
    H1 wrongly) and ``beta`` (accepting H0 wrongly). Logistic Elo, as fastchess."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("SPRT: elo0 must be below elo1")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError("SPRT: alpha and beta must be between 0 and 1, their sum below 1")

    @property
    def lower(self) -> float:
        """Accept H0 (no improvement of ``elo1``) once the LLR falls to this."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 (an improvement) once the LLR rises to this."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int], scores: Sequence[float] = WDL_SCORES) -> float:
        """The log-likelihood ratio of H1 against H0 for ``counts`` of each outcome in
        ``scores`` (``(L, D, W)`` by default; ``(LL, LD, WL+DD, WD, WW)`` with
        :data:`PAIR_SCORES`)."""
        if sum(counts) == 0:
            return 0.0
        regular = _regularised(counts)
        total = sum(regular)
        probs = [n / total for n in regular]
        p0 = _mle(scores, probs, score_of_elo(self.elo0))
        p1 = _mle(scores, probs, score_of_elo(self.elo1))
        return total * sum(
            p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True)
        )

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (accept: an improvement), ``"H0"`` (reject), or ``None`` (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self, llr: float) -> str:
        """``SPRT (elo0 0, elo1 5, α 0.05, β 0.05): LLR 1.23 in [-2.94, 2.94]: go on``."""
        verdict = {
            "H1": "H1 accepted: an improvement of at least elo1",
            "H0": "H0 accepted: not an improvement of elo1",
            None: "not decided yet",
        }[self.decision(llr)]
        return (
            f"SPRT (elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha {self.alpha:g}, "
            f"beta {self.beta:g}): LLR {llr:.2f} ({llr / self.upper:.0%} of the way), "
            f"bounds [{self.lower:.2f}, {self.upper:.2f}]: {verdict}"
        )


def parse_sprt(text: str) -> Sprt:
    """``elo0=0,elo1=5,alpha=0.05,beta=0.05`` (any of them; the rest default)."""
    values: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ValueError(f"SPRT: {item!r} is not elo0=, elo1=, alpha= or beta=")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"SPRT: {value!r} is not a number") from None
    return Sprt(**values)


@attrs.frozen
class Thinks:
    """A bot's think times (seconds per reply) in brief: how many, the mean, the 95th
    percentile (nearest rank: 95 % of the replies took at most this long), the longest."""

    replies: int
    mean: float
    p95: float
    longest: float

    @classmethod
    def of(cls, times: Sequence[float]) -> "Thinks | None":
        """The summary of ``times``; ``None`` when there are none."""
        if not times:
            return None
        ordered = sorted(times)
        rank = math.ceil(0.95 * len(ordered))
        return cls(len(ordered), math.fsum(ordered) / len(ordered), ordered[rank - 1], ordered[-1])
