"""Applying a ply: simultaneous moves, arrivals summed per target, encounters resolved.

:func:`resolve_ply` does the certain part and lists the random battles left to decide;
:func:`apply_ply` samples them with an injected ``random.Random`` (the referee's way),
:func:`ply_outcomes` expands them into the exact distribution of next states (the
expectiminimax way). Both rely on :func:`engine.battle.battle_outcomes` alone.

A cell holds at most 255 creatures: a merge, a conversion or a battle won against humans
that would leave more leaves 255, the excess is lost (rule 7 only limits arrivals).
"""

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from engine.battle import (
    BattleOutcome,
    Probability,
    battle_outcomes,
    outcome_table,
    sample_battle,
)
from engine.kinds import EMPTY, KINDS, VAMPIRES, WEREWOLVES, Kind
from engine.legality import check_ply
from engine.rules import DEFAULT_RULES, Rules, Variant
from engine.state import MAX_COUNT, GameState, Move

_new_result = tuple.__new__
"""Builds a NamedTuple from a tuple of its fields, faster than its keyword constructor."""


class Battle(NamedTuple):
    """A random battle on cell ``(x, y)`` and its exact outcome distribution."""

    x: int
    y: int
    attacker: Kind
    attackers: int
    defender: Kind
    defenders: int
    outcomes: tuple[BattleOutcome, ...]

    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)


class Resolution(NamedTuple):
    """A ply's certain effects (``grid``, battle cells emptied) and its pending battles."""

    grid: dict[int, tuple[int, int]]
    battles: tuple[Battle, ...]


class PlyResult(NamedTuple):
    """The state after a ply, and each random battle with the outcome that was drawn."""

    state: GameState
    battles: tuple[tuple[Battle, BattleOutcome], ...]


@lru_cache(maxsize=1 << 12)
def _capped_outcomes(
    attacker: Kind,
    attackers: int,
    defender: Kind,
    defenders: int,
    variant: Variant,
    exact: bool = False,
) -> tuple[BattleOutcome, ...]:
    """:func:`battle_outcomes` with every outcome over 255 survivors folded into 255.

    The folded outcomes are consecutive, so the result keeps the order (and thus
    :func:`engine.battle.sample_battle`'s draws) of the uncapped one.
    """
    outcomes = outcome_table(attacker, attackers, defender, defenders, variant, exact)
    capped: list[BattleOutcome] = []
    full: dict[Kind, int] = {}
    for probability, winner, survivors in outcomes:
        if survivors < MAX_COUNT:
            capped.append(BattleOutcome(probability, winner, survivors))
        elif winner in full:
            index = full[winner]
            capped[index] = capped[index]._replace(
                probability=capped[index].probability + probability
            )
        else:
            full[winner] = len(capped)
            capped.append(BattleOutcome(probability, winner, MAX_COUNT))
    return tuple(capped)


def encounter_outcomes(
    attacker: Kind,
    attackers: int,
    defender: Kind,
    defenders: int,
    variant: Variant = Variant.SERVER,
    exact: bool = False,
) -> tuple[BattleOutcome, ...]:
    """What ``attackers`` arriving on ``defenders`` leave on the cell, at most 255 of them.

    :func:`battle_outcomes`, except that a winner with more than 255 survivors (a
    conversion or a battle won against humans) keeps 255. Refuses what is not an
    encounter as :func:`battle_outcomes` does.
    """
    outcomes = battle_outcomes(attacker, attackers, defender, defenders, variant, exact)
    if attackers + defenders <= MAX_COUNT:
        return outcomes
    return _capped_outcomes(attacker, attackers, defender, defenders, variant, exact)


def resolve_ply(
    state: GameState,
    ply: Sequence[Move],
    rules: Rules = DEFAULT_RULES,
) -> Resolution:
    """Apply the certain part of a legal ``ply``; random battles stay pending.

    The ply is assumed legal (see :func:`engine.legality.check_ply`). A cell left with more
    than 255 creatures holds 255; a pending battle's outcomes are capped the same way.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {rules!r}")
    cols = state.cols
    species = WEREWOLVES if state.ply & 1 else VAMPIRES
    own = int(species)
    grid = dict(state.contents)
    arrivals: dict[int, int] = {}
    for x, y, count, tx, ty in ply:
        source = y * cols + x
        kind, held = grid[source]
        if held == count:
            del grid[source]
        else:
            grid[source] = (kind, held - count)
        target = ty * cols + tx
        arrivals[target] = arrivals.get(target, 0) + count
    battles = []
    for target, count in arrivals.items():
        kind, held = grid.get(target, (EMPTY, 0))
        if not kind or kind == own:
            total = held + count
            grid[target] = (own, total if total <= MAX_COUNT else MAX_COUNT)
            continue
        defender = KINDS[kind]
        if count + held <= MAX_COUNT:
            outcomes = outcome_table(species, count, defender, held, rules.variant, False)
        else:
            outcomes = _capped_outcomes(species, count, defender, held, rules.variant, False)
        if len(outcomes) == 1:
            _, winner, survivors = outcomes[0]
            grid[target] = (int(winner), survivors)
        else:
            del grid[target]
            battle = (target % cols, target // cols, species, count, defender, held, outcomes)
            battles.append(_new_result(Battle, battle))
    return _new_result(Resolution, (grid, tuple(battles)))


def _next_state(state: GameState, grid: dict[int, tuple[int, int]]) -> GameState:
    """The state after the ply from the resolved ``grid`` (which it takes over)."""
    return GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid)


def apply_ply(
    state: GameState,
    ply: Sequence[Move],
    rng: random.Random,
    rules: Rules = DEFAULT_RULES,
    check: bool = True,
) -> PlyResult:
    """Play ``ply`` for ``state.to_move``, drawing random battles with ``rng``.

    Raises :class:`engine.legality.IllegalPly` if the ply is illegal (unless ``check`` is
    false, for callers that generated it legal). Battles are drawn in order of the first
    move into their cell, one ``rng.random()`` each.
    """
    if check:
        check_ply(state, ply)
    grid, battles = resolve_ply(state, ply, rules)
    drawn = []
    for battle in battles:
        outcome = sample_battle(battle.outcomes, rng)
        if outcome.survivors:
            grid[battle.y * state.cols + battle.x] = (int(outcome.winner), outcome.survivors)
        drawn.append((battle, outcome))
    return _new_result(PlyResult, (_next_state(state, grid), tuple(drawn)))


def ply_outcomes(
    state: GameState,
    ply: Sequence[Move],
    rules: Rules = DEFAULT_RULES,
    exact: bool = False,
    check: bool = True,
) -> list[tuple[Probability, GameState]]:
    """The exact distribution of the states ``ply`` can lead to, equal states merged.

    Battles on different cells are independent, so each combination of their outcomes
    has the product of their probabilities. Raises :class:`engine.legality.IllegalPly` if
    the ply is illegal (unless ``check`` is false, for callers that generated it legal).
    """
    if check:
        check_ply(state, ply)
    grid, battles = resolve_ply(state, ply, rules)
    if not battles:
        return [(Fraction(1) if exact else 1.0, _next_state(state, grid))]
    if exact:
        battles = tuple(
            b._replace(
                outcomes=encounter_outcomes(
                    b.attacker, b.attackers, b.defender, b.defenders, rules.variant, True
                )
            )
            for b in battles
        )
    cols = state.cols
    merged: dict[GameState, Probability] = {}
    for combination in product(*(b.outcomes for b in battles)):
        probability: Probability = 1
        after = dict(grid)
        for battle, (chance, winner, survivors) in zip(battles, combination, strict=True):
            probability *= chance
            if survivors:
                after[battle.y * cols + battle.x] = (int(winner), survivors)
        next_state = _next_state(state, after)
        merged[next_state] = merged.get(next_state, 0) + probability
    return [(p, s) for s, p in merged.items()]
