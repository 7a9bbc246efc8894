"""Judging plies: what the ply played cost in winning chances, and what that makes it.

A ply's *drop* is the mover's expected score after the best ply found less that after
the ply played (never below 0: a ply the search did not think of may be better than its
best). As lichess does, a drop of at least :attr:`Thresholds.inaccuracy` (10 points of 100)
is an inaccuracy, :attr:`Thresholds.mistake` (20) a mistake, :attr:`Thresholds.blunder`
(30) a blunder. A ply's *accuracy* is lichess's formula of the drop, a side's accuracy the
mean of its plies' arithmetic and harmonic means (lichess weighs the first by how much the
position swings; we do not).
"""

import math
from collections.abc import Sequence
from enum import Enum

import attrs


class Label(Enum):
    """How bad a ply was."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """Its sign in a move list: ``?!``, ``?``, ``??``."""
        return {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[self.value]

    @property
    def plural(self) -> str:
        """``inaccuracies``, ``mistakes``, ``blunders``."""
        return "inaccuracies" if self is Label.INACCURACY else self.value + "s"


@attrs.frozen
class Thresholds:
    """The drops, in points of expected score (0 to 100), from which a ply is labelled."""

    inaccuracy: float = 10.0
    mistake: float = 20.0
    blunder: float = 30.0

    def __attrs_post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError(
                "thresholds must be positive and rising (inaccuracy ≤ mistake ≤ blunder),"
                f" got {self.inaccuracy:g}, {self.mistake:g}, {self.blunder:g}"
            )

    @classmethod
    def parse(cls, text: str) -> "Thresholds":
        """``"10,20,30"``: inaccuracy, mistake and blunder; ``ValueError`` if it is not that."""
        wrong = ValueError(f"thresholds are three numbers such as 10,20,30, got {text!r}")
        try:
            numbers = [float(part) for part in text.split(",")]
        except ValueError:
            raise wrong from None
        if len(numbers) != 3:
            raise wrong
        return cls(*numbers)

    def label(self, drop: float) -> Label | None:
        """The label of a ply that dropped ``drop`` points (``None``: a good enough ply)."""
        if drop >= self.blunder:
            return Label.BLUNDER
        if drop >= self.mistake:
            return Label.MISTAKE
        if drop >= self.inaccuracy:
            return Label.INACCURACY
        return None


DEFAULT_THRESHOLDS = Thresholds()


def drop(best: float, played: float) -> float:
    """Points (0 to 100) of expected score lost by the ply played against the best found."""
    return max(0.0, 100.0 * (best - played))


def ply_accuracy(points_lost: float) -> float:
    """Lichess's accuracy of a move (0 to 100) that lost ``points_lost`` of winning chances."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, points_lost)) - 3.1669
    return min(100.0, max(0.0, value))


def accuracy(points_lost: Sequence[float]) -> float | None:
    """A side's accuracy over its plies' drops: the mean of their accuracies' arithmetic
    and harmonic means (``None`` without plies)."""
    values = [ply_accuracy(p) for p in points_lost]
    if not values:
        return None
    arithmetic = sum(values) / len(values)
    harmonic = len(values) / sum(1.0 / max(v, 1.0) for v in values)
    return (arithmetic + harmonic) / 2


def chance_points(chance: float) -> float:
    """A chance (0 to 1) in points to two decimals, 0 or 100 only when certain."""
    points = round(100 * chance, 2)
    if 0.0 < chance < 1.0:
        return min(99.99, max(0.01, points))
    return points


def chance_text(chance: float) -> str:
    """A chance (0 to 1) in whole points: ``0`` and ``100`` only for a certain one (a
    finished game, a proved result), else ``<1`` and ``>99`` at most."""
    points = round(100 * chance)
    if 0.0 < chance < 1.0 and points <= 0:
        return "<1"
    if 0.0 < chance < 1.0 and points >= 100:
        return ">99"
    return str(points)
