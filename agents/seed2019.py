"""``seed2019``: the 2019 report's bot (seeds report 000), re-created as faithfully as it allows.

What the report says, and how it is done here:

* **Search**: alpha-beta to depth 4 (two plies of each side; depth 2 is available as the
  ``depth`` option), deepened 1, 2, 3, 4 under the deadline (:mod:`agents.reference_search`).
* **Groups never split**: a ply moves whole groups, each to one of its 9 "directions"
  (the 8 neighbours or staying, the report's ``f(x, y) = 3x + y + 4`` map), at least one
  moving. With more than :data:`COMBINED_GROUPS` groups (only the enemy gets there) one
  group moves per ply, or the combinations would explode.
* **Random battles** are expanded into probabilistic successor states (the report's
  strategy 1), the engine's exact distributions, and a ply is worth the
  probability-weighted sum of its successors' values. The report's boards were small; to
  stay on time on large ones, a ply with more than :data:`MAX_SUCCESSORS` successors has
  each battle's survivor counts merged into a few buckets of equal probability.
* **Its rules**: the report reads the specification: "if they have 1.5 more members than
  us, they kill us". The bot's model plays :attr:`engine.Variant.SPEC`; the referee does not.
* **Heuristic** (its section 3.2), from the bot's view, summed over its groups ``m``:

  - humans: each house ``h`` gets the distance to it, or ``MAX_DIST`` (the board's
    diagonal in king moves) when it has more humans than the group or an enemy group is
    nearer to it; the ``to_gh`` nearest are kept, their distance normalised as
    ``d_n = d / (min(houses, to_gh) · MAX_DIST)``, and the direction toward each scores
    ``h · Ψ(1 − d_n) / humans on the board``, ``Ψ(x) = x^α``; the direction scores add up;
  - battles with humans: the expected gain ``E = P² (m + h) − m`` of attacking an adjacent
    house (``P = 1`` if ``m ≥ h``, else ``m / 2h``, its equation 2), or 0 for not attacking,
    standardised by our total plus the most humans of the map (the humans at the start);
  - monsters: the same with the ``to_gm`` nearest enemy groups, skipping those at least 1.5
    times the group and putting those it cannot kill for certain at ``MAX_DIST``, except
    when no humans are left and the enemy is more numerous ("we attack in any case");
  - battles with monsters: with its equation 3 for ``P`` (``1`` above a ratio of 1.5,
    ``(r − ½)/r`` from 1 to 1.5, ``r/2`` below 1), ``E1 = P(m, e)² m`` and
    ``E2 = P(e, m)² e``; attacking is worth ``(E1/E2) / (m/e) − (1 − alpha_ins)`` (so
    ``alpha_ins`` above 1 attacks at any odds: "insanely aggressive"), not attacking 0;
  - ``lam_mh_direction · humans + lam_mh_attack · battles with humans + alpha_m_direction ·
    monsters + alpha_m_attack · battles with monsters``, with the report's defaults
    ``to_gh = to_gm = 3``, ``alpha_m_attack = lam_mh_attack = 0.5``, ``alpha_m_direction =
    lam_mh_direction = 0.7``, ``alpha_ins = 0.1``; ``+∞`` with no enemy left, ``-∞`` with
    none of ours;
  - depth four: the report adds the ratio of our numbers between the states at depths 0,
    2 and 4 weighted by ``IMPORTANCE-BATTLES``, the first step's by ``ANTI-COMM`` more,
    without values: here ``IMPORTANCE_BATTLES · (ANTI_COMM · (r₂ − 1) + (r₄ − 1))``.

Choices where the report is vague: the exponent α of Ψ is not given; it is 0.7, the value
both direction parameters have. "Standardise" is a division. The two battle terms take the
best adjacent battle. The two unnamed depth-four weights are 1 and 1.1. The enemy is
searched with the same plies (its groups may be many; see above).
"""

import itertools
from collections.abc import Sequence
from math import prod
from typing import Any

import attrs

from agents.options import option
from agents.reference_search import WIN, ReferenceAgent
from engine import BattleOutcome, GameState, Kind, Move, Ply, beats_for_sure, resolve_ply
from engine.battle import win_chance
from engine.kinds import HUMANS, opponent
from engine.resolution import Battle
from engine.rules import Rules, Variant
from engine.state import Group, distance

DEPTH = 4
SPEC_RULES = Rules(variant=Variant.SPEC)
"""The rules as the report read them: defenders at 1.5 times the attackers kill them."""
MAX_SUCCESSORS = 32
"""Successor states of one ply at most: beyond, each battle's distribution is coarsened."""
COMBINED_GROUPS = 2
"""Up to this many groups, a ply combines a direction for each; beyond, one group moves."""
IMPORTANCE_BATTLES = 1.0
ANTI_COMM = 1.1
PSI_ALPHA = 0.7
DIRECTIONS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
"""The report's 9 directions in its order, ``f(dx, dy) = 3·dx + dy + 4``."""


@attrs.frozen
class Parameters:
    """The heuristic's named parameters with the report's defaults (section 3.2.1)."""

    to_gh: int = option(int, 3, "human targets considered")
    to_gm: int = option(int, 3, "monster targets considered")
    alpha_m_attack: float = option(float, 0.5, "weight of battles with monsters")
    alpha_m_direction: float = option(float, 0.7, "weight of monster directions")
    lam_mh_attack: float = option(float, 0.5, "weight of battles with humans")
    lam_mh_direction: float = option(float, 0.7, "weight of human directions")
    alpha_ins: float = option(float, 0.1, "aggression against monsters")


@attrs.frozen
class Seed2019Options(Parameters):
    """The options of ``seed2019``: the search's, and the heuristic's parameters."""

    depth: int = option(int, DEPTH, "search depth at most (the report's)")
    time_budget: float | None = option(float, None, "seconds per ply at most (none: the deadline)")
    seed: int | None = option(int, None, "shuffles the plies of each node")


def max_dist(state: GameState) -> int:
    """The diagonal of the board in king moves (at least 1)."""
    return max(state.rows, state.cols, 2) - 1


def psi(x: float, alpha: float = PSI_ALPHA) -> float:
    """The report's non-linear activation, ``x^α`` (equation 1)."""
    return max(x, 0.0) ** alpha


def p_humans(monsters: int, humans: int) -> float:
    """The report's equation 2: the chance to win against humans (the rule book's)."""
    return 1.0 if monsters >= humans else win_chance(monsters, humans)


def p_monsters(attackers: int, defenders: int) -> float:
    """The report's equation 3: the chance to win against monsters."""
    ratio = attackers / defenders
    if ratio > 1.5:
        return 1.0
    if ratio >= 1:
        return (ratio - 0.5) / ratio
    return ratio / 2


def expected_gain_humans(monsters: int, humans: int) -> float:
    """``E[m(t+1)] = P² (m + h)``: our expected number after attacking the house."""
    p = p_humans(monsters, humans)
    return p * p * (monsters + humans)


def expected_gain_monsters(attackers: int, defenders: int) -> tuple[float, float]:
    """``(E[m1(t+1)], E[m2(t+1)]) = (P(m1, m2)² m1, P(m2, m1)² m2)``."""
    p1 = p_monsters(attackers, defenders)
    p2 = p_monsters(defenders, attackers)
    return p1 * p1 * attackers, p2 * p2 * defenders


def _direction_score(
    group: Group, targets: list[tuple[int, Group]], keep: int, dist: int, total: int, alpha: float
) -> float:
    """The directions' scores summed: the ``keep`` nearest ``(d, target)`` each scores
    ``count · Ψ(1 − d_n) / total``, ``d_n = d / (min(len, keep) · dist)``."""
    if not targets or total <= 0:
        return 0.0
    kept = sorted(targets)[:keep]
    scale = min(len(targets), keep) * dist
    scores = [0.0] * len(DIRECTIONS)
    for d, target in kept:
        dx = (target[0] > group[0]) - (target[0] < group[0])
        dy = (target[1] > group[1]) - (target[1] < group[1])
        scores[3 * dx + dy + 4] += target[2] * psi(1 - d / scale, alpha) / total
    return sum(scores)


def heuristic(
    state: GameState, me: Kind, params: Parameters = Parameters(), max_humans: int = 0
) -> float:
    """The report's ``Val-heur`` of ``state`` for ``me`` (see the module docstring);
    ``max_humans`` is the most humans of the map (the start's; the board's if larger)."""
    mine = state.groups(me)
    theirs = state.groups(opponent(me))
    houses = state.groups(HUMANS)
    if not mine:
        return -WIN
    if not theirs:
        return WIN
    dist = max_dist(state)
    ours_total = sum(g[2] for g in mine)
    their_total = sum(e[2] for e in theirs)
    human_total = sum(h[2] for h in houses)
    max_humans = max(max_humans, human_total, 1)
    reckless = not houses and their_total > ours_total
    value = 0.0
    for group in mine:
        m = group[2]
        human_targets = []
        for house in houses:
            d = distance(group, house)
            if house[2] > m or any(distance(e, house) < d for e in theirs):
                d = dist
            human_targets.append((d, house))
        human_score = _direction_score(
            group, human_targets, params.to_gh, dist, human_total, PSI_ALPHA
        )
        gains = [expected_gain_humans(m, h[2]) - m for h in houses if distance(group, h) == 1]
        human_battles = max([0.0, *gains]) / (ours_total + max_humans)
        monster_targets = []
        for enemy in theirs:
            if beats_for_sure(enemy[2], m) and not reckless:
                continue
            d = distance(group, enemy)
            if not beats_for_sure(m, enemy[2]) and not reckless:
                d = dist
            monster_targets.append((d, enemy))
        monster_score = _direction_score(
            group, monster_targets, params.to_gm, dist, their_total, PSI_ALPHA
        )
        advantages = []
        for enemy in theirs:
            if distance(group, enemy) == 1:
                ours, their = expected_gain_monsters(m, enemy[2])
                advantages.append((ours / their) / (m / enemy[2]) - (1 - params.alpha_ins))
        monster_battles = max([0.0, *advantages])
        value += (
            params.lam_mh_direction * human_score
            + params.lam_mh_attack * human_battles
            + params.alpha_m_direction * monster_score
            + params.alpha_m_attack * monster_battles
        )
    return value


def line_value(
    line: Sequence[GameState], me: Kind, params: Parameters = Parameters(), max_humans: int = 0
) -> float:
    """The depth-four value: the heuristic of the last state plus the ratios of our numbers
    between the root, the state two plies on (or the leaf) and the leaf."""
    leaf = line[-1]
    middle = line[2] if len(line) > 2 else leaf
    root, now, later = (s.total(me) for s in (line[0], middle, leaf))
    ratios = 0.0
    if root and now:
        ratios = ANTI_COMM * (now / root - 1) + (later / now - 1)
    return heuristic(leaf, me, params, max_humans) + IMPORTANCE_BATTLES * ratios


def _coarse(battle: Battle, buckets: int) -> list[BattleOutcome]:
    """The battle's outcomes in at most ``buckets`` per winner: consecutive survivor counts
    of equal total probability merged into one, holding their rounded mean."""
    merged: list[BattleOutcome] = []
    for winner in (battle.attacker, battle.defender):
        mine = [o for o in battle.outcomes if o.winner == winner]
        total = sum(o.probability for o in mine)
        if not mine:
            continue
        share = total / buckets
        chance = weighted = 0.0
        for o in mine:
            chance += o.probability
            weighted += o.probability * o.survivors
            if chance >= share or o is mine[-1]:
                merged.append(BattleOutcome(chance, winner, round(weighted / chance)))
                chance = weighted = 0.0
    return merged


def successors(
    state: GameState, ply: Ply, rules: Rules, limit: int = MAX_SUCCESSORS
) -> list[tuple[float, GameState]]:
    """The probabilistic successor states of ``ply``: every combination of its battles'
    outcomes (from the engine), each battle coarsened (:func:`_coarse`) when there would
    be more than ``limit`` states."""
    grid, battles = resolve_ply(state, ply, rules)
    cols = state.cols
    if not battles:
        return [(1.0, GameState.trusted(state.rows, cols, None, state.ply + 1, grid))]
    spreads: list[Sequence[BattleOutcome]] = [b.outcomes for b in battles]
    if prod(len(o) for o in spreads) > limit:
        buckets = max(1, int((limit ** (1 / len(battles))) // 2))
        spreads = [_coarse(b, buckets) for b in battles]
    result = []
    for combination in itertools.product(*spreads):
        board = dict(grid)
        probability = 1.0
        for battle, (chance, winner, survivors) in zip(battles, combination, strict=True):
            probability *= chance
            if survivors:
                board[battle.y * cols + battle.x] = (int(winner), survivors)
        after = GameState.trusted(state.rows, cols, None, state.ply + 1, board)
        result.append((float(probability), after))
    return result


def plies(state: GameState) -> list[Ply]:
    """Whole groups of the side to move, each to one of its 9 directions, at least one moving
    (one group at a time beyond :data:`COMBINED_GROUPS` groups)."""
    groups = state.groups(state.to_move)
    options = []
    for x, y, n in groups:
        steps: list[tuple[Move, ...]] = []
        for dx, dy in DIRECTIONS:
            tx, ty = x + dx, y + dy
            if (dx, dy) == (0, 0):
                steps.append(())
            elif 0 <= tx < state.cols and 0 <= ty < state.rows:
                steps.append((Move(x, y, n, tx, ty),))
        options.append(steps)
    if len(groups) > COMBINED_GROUPS:
        return [step for steps in options for step in steps if step]
    combined = (sum(choice, ()) for choice in itertools.product(*options))
    return [ply for ply in combined if ply]


@attrs.define
class Model:
    """The bot's beliefs for :func:`agents.reference_search.search`."""

    me: Kind
    params: Parameters
    max_humans: int
    rules: Rules = SPEC_RULES

    def plies(self, state: GameState) -> list[Ply]:
        return plies(state)

    def outcomes(self, state: GameState, ply: Ply) -> list[tuple[float, GameState]]:
        return successors(state, ply, self.rules)

    def value(self, line: Sequence[GameState]) -> float:
        return line_value(line, self.me, self.params, self.max_humans)


class Seed2019Agent(ReferenceAgent):
    """The ``seed2019`` bot (see the module docstring)."""

    name = "seed2019"
    Options = Seed2019Options

    def __init__(self, options: Seed2019Options | None = None, **given: Any) -> None:
        super().__init__(options, **given)
        self.params: Parameters = self.options
        self.max_humans = 0

    def new_game(self, species: Kind, state: GameState) -> None:
        """Remember the humans of the start (the report's ``MAX-NB-HUMANS``)."""
        self.max_humans = state.total(HUMANS)

    def model(self, state: GameState) -> Model:
        self.max_humans = max(self.max_humans, state.total(HUMANS))
        return Model(state.to_move, self.params, self.max_humans)


OPTIONS = Seed2019Options
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> Seed2019Agent:
    """A new ``seed2019`` bot; ``options``: those of :class:`Seed2019Options` (others are
    refused); the heuristic's are the report's parameters (:class:`Parameters`)."""
    return Seed2019Agent(**options)
