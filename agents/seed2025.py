"""``seed2025``: the 2024-25 report's bot (seeds report 002), re-created as faithfully as it allows.

What the report says, and how it is done here:

* **Search**: minimax with alpha-beta to depth 3 (odd, "so the search ends on the AI's
  turn"), deepened 1, 2, 3 under the deadline (:mod:`agents.reference_search`).
* **No splitting** (its section 7: "splitting groups not implemented"): a ply moves one
  whole group to one of its neighbours, for either side.
* **Its rules**: its section 2.3 is the server's reading (defenders are never certain to
  kill), so its model plays :attr:`engine.Variant.SERVER`. A random battle in the tree is
  resolved by "probabilistic outcomes": one outcome drawn with the bot's seeded generator
  when the child is built (the report lists the battles' variability as something the bot
  "could not fully predict"); the tree keeps that draw for the whole move.
* **Evaluation** (its section 4), from the bot's view, ``(x, y)`` being the bot's strongest
  group and ``U`` its count:

  ``10·(U_ai − U_op) + w_resource·(RG_ai − RG_op) + w_attack·AP_ai + S + D + bias``

  - resource gain ``RG``: the best ``H / d`` over the human groups within ``RANGE`` that the
    group can convert (``H ≤ U``), ``d`` the Chebyshev distance (its algorithm 1); ``RG_op``
    the same for the opponent's strongest group;
  - attack potential ``AP``: the best ``E / d`` over the enemy groups within ``RANGE``
    smaller than the group (``E < U``, its algorithm 2);
  - strategic positioning ``S``: ``C / (d + 1)`` if the strongest groups are within
    ``OPTIMAL_RANGE`` of each other, else ``−P`` (its algorithm 3);
  - distance penalty ``D``: minus the distances of our other groups to the strongest
    (always 0 without splits, as in the report);
  - dynamic weighting: progress ratio ``(U_ai + U_op) / (U_ai + U_op + H_total)``; below
    0.5 ``w_attack`` is high and ``w_resource`` low, otherwise the reverse (its algorithm 5);
  - bias: ``Uniform(−0.1, 0.1)``, drawn for each evaluation with the bot's generator.

Choices where the report is vague (it gives no value): ``RANGE`` covers the whole board
(with a small range the bot would stand still on large maps); ``HIGH = 2``, ``LOW = 1``;
``C = 5``, ``P = 1``, ``OPTIMAL_RANGE = 3``. Its section 5.1.4 says the opposite weighting
("resource gain early and aggression later"); algorithm 5 and section 4.1.5 are followed.
"""

import random
from collections.abc import Sequence
from typing import Any

import attrs

from agents.options import option
from agents.reference_search import ReferenceAgent
from engine import GameState, Kind, Ply, apply_ply
from engine.kinds import HUMANS, opponent
from engine.movegen import group_moves
from engine.rules import DEFAULT_RULES, Rules
from engine.state import Group, distance

DEPTH = 3
W_UNITS = 10.0
HIGH = 2.0
LOW = 1.0
PROXIMITY_BONUS = 5.0
"""``C`` of the strategic positioning."""
OUT_OF_RANGE = 1.0
"""``P`` of the strategic positioning."""
OPTIMAL_RANGE = 3
BIAS = 0.1


def strongest(state: GameState, side: Kind) -> Group | None:
    """The largest group of ``side`` (the first in row order among equals)."""
    groups = state.groups(side)
    return max(groups, key=lambda g: g[2]) if groups else None


def board_range(state: GameState) -> int:
    """``RANGE``: the whole board."""
    return max(state.rows, state.cols)


def resource_gain(group: Group, houses: list[Group], reach: int) -> float:
    """Algorithm 1: the best ``H / d`` over houses within ``reach`` with ``H ≤ U``."""
    return max(
        [0.0]
        + [h[2] / d for h in houses if 0 < (d := distance(group, h)) <= reach and h[2] <= group[2]]
    )


def attack_potential(group: Group, enemies: list[Group], reach: int) -> float:
    """Algorithm 2: the best ``E / d`` over enemy groups within ``reach`` with ``E < U``."""
    return max(
        [0.0]
        + [e[2] / d for e in enemies if 0 < (d := distance(group, e)) <= reach and e[2] < group[2]]
    )


def positioning(ours: Group, theirs: Group) -> float:
    """Algorithm 3: ``C / (d + 1)`` within ``OPTIMAL_RANGE``, else ``−P``."""
    d = distance(ours, theirs)
    return PROXIMITY_BONUS / (d + 1) if d <= OPTIMAL_RANGE else -OUT_OF_RANGE


def weights(ours: int, theirs: int, humans: int) -> tuple[float, float]:
    """Algorithm 5: ``(w_attack, w_resource)`` by the progress ratio."""
    progress = (ours + theirs) / max(ours + theirs + humans, 1)
    return (HIGH, LOW) if progress < 0.5 else (LOW, HIGH)


def evaluate(state: GameState, me: Kind) -> float:
    """The report's evaluation score of ``state`` for ``me``, without the random bias."""
    enemy = opponent(me)
    ours, theirs = strongest(state, me), strongest(state, enemy)
    u_ai, u_op = state.total(me), state.total(enemy)
    value = W_UNITS * (u_ai - u_op)
    if ours is None or theirs is None:
        return value
    houses = state.groups(HUMANS)
    reach = board_range(state)
    w_attack, w_resource = weights(u_ai, u_op, sum(h[2] for h in houses))
    gain = resource_gain(ours, houses, reach) - resource_gain(theirs, houses, reach)
    value += w_resource * gain
    value += w_attack * attack_potential(ours, state.groups(enemy), reach)
    value += positioning(ours, theirs)
    value -= sum(distance(g, ours) for g in state.groups(me))
    return value


@attrs.define
class Model:
    """The bot's beliefs for :func:`agents.reference_search.search`."""

    me: Kind
    rng: random.Random
    rules: Rules = DEFAULT_RULES

    def plies(self, state: GameState) -> list[Ply]:
        return [(move,) for move in group_moves(state)]

    def outcomes(self, state: GameState, ply: Ply) -> list[tuple[float, GameState]]:
        return [(1.0, apply_ply(state, ply, self.rng, self.rules, check=False).state)]

    def value(self, line: Sequence[GameState]) -> float:
        return evaluate(line[-1], self.me) + self.rng.uniform(-BIAS, BIAS)


@attrs.frozen
class Seed2025Options:
    """The options of ``seed2025``."""

    depth: int = option(int, DEPTH, "search depth at most (the report's)")
    time_budget: float | None = option(float, None, "seconds per ply at most (none: the deadline)")
    seed: int | None = option(int, None, "battles drawn in the tree, the bias, the order of plies")


class Seed2025Agent(ReferenceAgent):
    """The ``seed2025`` bot (see the module docstring)."""

    name = "seed2025"
    Options = Seed2025Options

    def model(self, state: GameState) -> Model:
        return Model(state.to_move, self.rng)


OPTIONS = Seed2025Options
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> Seed2025Agent:
    """A new ``seed2025`` bot; ``options``: those of :class:`Seed2025Options` (others are
    refused)."""
    return Seed2025Agent(**options)
