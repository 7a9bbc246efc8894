"""``zcsn``: the bot of seeds report 001 ("zcsn"), re-created as faithfully as it allows.

What the report says, and how it is done here:

* **Two phases** (its section 2 and ``compute_possible_moves``): *construction* while there
  are at least ``HUM_THRESH = 4`` human groups and one of them is smaller than our total;
  then *attack*. The phase is decided for the side to move at each node, as the report's
  code does for both players.
* **At most two groups** (``MAX_GROUPS = 2``): a side with one group may split in two, never
  more; a side with more (only the enemy) moves its two largest.
* **Candidate plies** (its section 2, step 3), each a step of a whole group:

  - construction: toward each of the 4 nearest human groups (3 each with two groups);
    with one group, a split toward two of them (each part sized to convert its house,
    the rest shared in proportion); with two, every pair of choices and a merge;
  - attack: toward the nearest human groups as above, toward each of the 2 nearest enemy
    groups, away from each (fleeing); with two groups, every pair of choices and a merge.

  The list is shuffled (``random.shuffle`` in the report; the bot's seeded generator here).
* **Its rules**: the report's ``enemy_in_cell`` kills the attackers when the defenders are at
  least 1.5 times as many (the specification's reading, :attr:`engine.Variant.SPEC` in its
  model), and settles a random battle at once: the more numerous side wins ("if we are
  more we win") keeping its expected survivors, the engine's conditional mean, rounded.
* **Depth**: 7 plies, 6 in the attack phase against two or more enemy groups (its code),
  deepened 1, 2, … under the deadline (:mod:`agents.reference_search`); the report's bot
  reached 7 under the 2-second limit.
* **Evaluation** (its section 3), from the bot's view, the phase being the root's:

  - construction: ``UsIncrease + 0.9·EnemyIncrease − 1.1·humans − 0.1·dist`` and, with two
    groups, ``− 1/intra_dist``;
  - attack: ``UsIncrease − 1.2·EnemyIncrease − 2·n_groups − dist``.

  ``UsIncrease`` (``EnemyIncrease``) adds each ply's change of our (their) total along the
  line searched, discounted by ``DISCOUNT`` per ply of depth; ``humans`` is the humans left;
  ``dist`` adds, for each of our groups, its distance to its 2 nearest targets of the phase
  (human groups, then enemy groups); ``intra_dist`` is the distance between our two groups.

Choices where the report is vague: the report puts ``− 1/intra_dist`` under "1 group", but
it measures the distance between two groups and is there to push them apart, so it applies
with two. ``+0.9·EnemyIncrease`` in construction is kept as printed. The discount factor is
not given: 0.9. A tie in a random battle goes to the defenders (they are not fewer).
"""

import itertools
from collections.abc import Sequence
from typing import Any

import attrs

from agents.options import option
from agents.reference_search import ReferenceAgent
from engine import GameState, Kind, Move, Ply, expected_survivors, resolve_ply
from engine.kinds import HUMANS, opponent
from engine.rules import Rules, Variant
from engine.state import Group, distance

HUM_THRESH = 4
ENEMY_THRESH = 2
MAX_GROUPS = 2
DEPTH = 7
DISCOUNT = 0.9
SPEC_RULES = Rules(variant=Variant.SPEC)
"""The rules as the report read them: defenders at 1.5 times the attackers kill them."""


def attack_phase(state: GameState, side: Kind) -> bool:
    """Whether ``side`` is in the attack phase: fewer than ``HUM_THRESH`` human groups, or
    none it could convert with all its creatures."""
    houses = state.groups(HUMANS)
    total = state.total(side)
    return len(houses) < HUM_THRESH or not any(h[2] < total for h in houses)


def depth_for(state: GameState) -> int:
    """7, or 6 in the attack phase against ``ENEMY_THRESH`` or more enemy groups."""
    me = state.to_move
    if attack_phase(state, me) and len(state.groups(opponent(me))) >= ENEMY_THRESH:
        return DEPTH - 1
    return DEPTH


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def step_toward(group: Group, target: Group) -> tuple[int, int]:
    """The cell one king step from ``group`` toward ``target``."""
    return group[0] + _sign(target[0] - group[0]), group[1] + _sign(target[1] - group[1])


def step_away(state: GameState, group: Group, enemy: Group) -> tuple[int, int]:
    """The neighbour of ``group`` farthest from ``enemy`` (the first such in row order)."""
    x, y = group[0], group[1]
    cells = [
        (x + dx, y + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx, dy) != (0, 0) and 0 <= x + dx < state.cols and 0 <= y + dy < state.rows
    ]
    return max(cells, key=lambda c: distance(c, enemy))


def nearest(group: Group, targets: list[Group], count: int) -> list[Group]:
    """The ``count`` targets nearest ``group``."""
    return sorted(targets, key=lambda t: (distance(group, t), t))[:count]


def _move(group: Group, cell: tuple[int, int], count: int | None = None) -> Move:
    return Move(group[0], group[1], group[2] if count is None else count, *cell)


def group_options(state: GameState, group: Group, attack: bool, houses_wanted: int) -> list[Move]:
    """One group's whole-group steps: toward its nearest human groups, and in the attack
    phase toward and away from the 2 nearest enemy groups."""
    side = state.to_move
    cells = [step_toward(group, h) for h in nearest(group, state.groups(HUMANS), houses_wanted)]
    if attack:
        for enemy in nearest(group, state.groups(opponent(side)), 2):
            cells.append(step_toward(group, enemy))
            cells.append(step_away(state, group, enemy))
    return [_move(group, cell) for cell in dict.fromkeys(cells)]


def split(group: Group, first: Group, second: Group) -> Ply | None:
    """The group split toward two houses, each part enough to convert its house and the
    rest shared in proportion to them; ``None`` if it cannot convert both or both steps
    are the same cell."""
    a_cell, b_cell = step_toward(group, first), step_toward(group, second)
    n, h1, h2 = group[2], first[2], second[2]
    if a_cell == b_cell or n < h1 + h2:
        return None
    a = h1 + (n - h1 - h2) * h1 // (h1 + h2)
    return (_move(group, a_cell, a), _move(group, b_cell, n - a))


def plies(state: GameState) -> list[Ply]:
    """The report's candidate plies for the side to move (see the module docstring)."""
    side = state.to_move
    attack = attack_phase(state, side)
    movers = sorted(state.groups(side), key=lambda g: (-g[2], g))[:MAX_GROUPS]
    if len(movers) == 1:
        group = movers[0]
        result: list[Ply] = [(m,) for m in group_options(state, group, attack, 4)]
        if not attack:
            houses = nearest(group, state.groups(HUMANS), 4)
            for first, second in itertools.combinations(houses, 2):
                ply = split(group, first, second)
                if ply is not None:
                    result.append(ply)
        return result
    first, second = movers
    options = [group_options(state, g, attack, 3) for g in movers]
    result = [(a, b) for a, b in itertools.product(*options)]
    if distance(first, second) == 1:
        result.append((_move(second, first[:2]),))
    else:
        result.append(
            (_move(first, step_toward(first, second)), _move(second, step_toward(second, first)))
        )
    return result


def outcomes(
    state: GameState, ply: Ply, rules: Rules = SPEC_RULES
) -> list[tuple[float, GameState]]:
    """The one state the report's bot expects: the engine's certain results, and each
    random battle won by the more numerous side (attackers only if strictly more) with
    its expected survivors given that it wins, rounded."""
    grid, battles = resolve_ply(state, ply, rules)
    for battle in battles:
        winner = battle.attacker if battle.attackers > battle.defenders else battle.defender
        chance = sum(o.probability for o in battle.outcomes if o.winner == winner)
        survivors = round(expected_survivors(battle.outcomes, winner) / chance)
        if survivors:
            grid[battle.y * state.cols + battle.x] = (int(winner), survivors)
    return [(1.0, GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid))]


def increase(line: Sequence[GameState], side: Kind, discount: float = DISCOUNT) -> float:
    """Each ply's change of ``side``'s total along ``line``, discounted by depth."""
    totals = [s.total(side) for s in line]
    return sum(discount**t * (totals[t + 1] - totals[t]) for t in range(len(totals) - 1))


def target_distance(state: GameState, side: Kind, attack: bool) -> int:
    """For each group of ``side``, its distance to its 2 nearest targets (human groups in
    construction, enemy groups in attack), all added."""
    targets = state.groups(opponent(side) if attack else HUMANS)
    return sum(
        distance(group, target)
        for group in state.groups(side)
        for target in nearest(group, targets, 2)
    )


def evaluate(line: Sequence[GameState], me: Kind) -> float:
    """The report's evaluation of the last state of ``line`` (root first) for ``me``."""
    leaf = line[-1]
    attack = attack_phase(line[0], me)
    us = increase(line, me)
    them = increase(line, opponent(me))
    dist = target_distance(leaf, me, attack)
    groups = leaf.groups(me)
    if attack:
        return us - 1.2 * them - 2 * len(groups) - dist
    value = us + 0.9 * them - 1.1 * leaf.total(HUMANS) - 0.1 * dist
    if len(groups) >= 2:
        largest = sorted(groups, key=lambda g: -g[2])
        value -= 1 / max(distance(largest[0], largest[1]), 1)
    return value


@attrs.define
class Model:
    """The bot's beliefs for :func:`agents.reference_search.search`."""

    me: Kind
    rules: Rules = SPEC_RULES

    def plies(self, state: GameState) -> list[Ply]:
        return plies(state)

    def outcomes(self, state: GameState, ply: Ply) -> list[tuple[float, GameState]]:
        return outcomes(state, ply, self.rules)

    def value(self, line: Sequence[GameState]) -> float:
        return evaluate(line, self.me)


@attrs.frozen
class ZcsnOptions:
    """The options of ``zcsn``."""

    depth: int = option(int, DEPTH, "search depth at most (the report's)")
    time_budget: float | None = option(float, None, "seconds per ply at most (none: the deadline)")
    seed: int | None = option(int, None, "shuffles the candidate plies")


class ZcsnAgent(ReferenceAgent):
    """The ``zcsn`` bot (see the module docstring)."""

    name = "zcsn"
    Options = ZcsnOptions

    def model(self, state: GameState) -> Model:
        return Model(state.to_move)

    def depth_for(self, state: GameState) -> int:
        return min(self.max_depth, depth_for(state))


OPTIONS = ZcsnOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> ZcsnAgent:
    """A new ``zcsn`` bot; ``options``: those of :class:`ZcsnOptions` (others are refused)."""
    return ZcsnAgent(**options)
