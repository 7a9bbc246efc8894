"""The logistic function, its logarithm and its inverse: the project's one copy of each.

The judge's chances (:mod:`agents.judge.learned`, :mod:`agents.judge.curve`) and the
ratings (``vvw.records.stats``, the ladder's) read a log-odds as a chance through
:func:`sigmoid` (the ladder's ratings its log, :func:`log_sigmoid`); :func:`logit` goes back.
"""

import math


def sigmoid(z: float) -> float:
    """The logistic function ``1 / (1 + e^−z)``, without overflow at either end."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def log_sigmoid(z: float) -> float:
    """``log(sigmoid(z))``, accurate at both ends (a log-likelihood's terms)."""
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def logit(chance: float) -> float:
    """``log(p / (1 − p))``, the chance kept off 0 and 1 (within a millionth)."""
    p = max(1e-6, min(1 - 1e-6, chance))
    return math.log(p / (1.0 - p))
