"""What happens when a group arrives on a cell held by humans or enemies.

:func:`battle_outcomes` is the one implementation of the encounter rules: it returns the
exact outcome distribution, a single certain outcome for conversions and massacres, the
closed-form binomial distribution for random battles. Sampling is a separate step
(:func:`sample_battle`) with an injected ``random.Random``.

Every public function refuses what is not an encounter of the game (a species arriving on
humans or on the other species, 1..255 on each side) with a ``TypeError`` or ``ValueError``
that says what is wrong: a wrong answer for a wrong question is never returned.
"""

import random
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple, TypeVar

from engine.kinds import HUMANS, Kind, opponent
from engine.rules import Variant
from engine.state import MAX_COUNT

Probability = float | Fraction


class BattleOutcome(NamedTuple):
    """One possible result: ``winner`` holds the cell with ``survivors`` (0 leaves it empty)."""

    probability: Probability
    winner: Kind
    survivors: int


def _check_count(name: str, count: object) -> None:
    """Refuse a count that is not a whole number of creatures a cell can hold (1..255)."""
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"{name} must be a whole number of creatures, got {count!r}")
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"{name} must be 1..{MAX_COUNT} creatures, got {count}")


def _check_kind(name: str, kind: object) -> None:
    if not isinstance(kind, Kind):
        raise TypeError(f"{name} must be a Kind (HUMANS, VAMPIRES, WEREWOLVES), got {kind!r}")


def check_encounter(attacker: Kind, attackers: int, defender: Kind, defenders: int) -> None:
    """Raise ``TypeError``/``ValueError`` unless this is an encounter of the game.

    An encounter is 1..255 of a species arriving on 1..255 humans or of the other species;
    a species arriving on its own kind merges, and nothing else can arrive anywhere.
    """
    _check_kind("attacker", attacker)
    _check_kind("defender", defender)
    if not attacker.is_species:
        raise ValueError(f"only vampires or werewolves attack, not {attacker.name.lower()}")
    if defender not in (HUMANS, opponent(attacker)):
        raise ValueError(
            f"{attacker.name.lower()} arriving on {defender.name.lower()} is not an encounter"
            f" (the defenders are humans or {opponent(attacker).name.lower()})"
        )
    _check_count("attackers", attackers)
    _check_count("defenders", defenders)


def _check_sides(attackers: int, defenders: int) -> None:
    _check_count("attackers", attackers)
    _check_count("defenders", defenders)


def win_probability(attackers: int, defenders: int, exact: bool = False) -> Probability:
    """The attackers' chance to win a random battle (rule book, "Random battle"): a
    ``Fraction`` when ``exact``, else a float."""
    _check_sides(attackers, defenders)
    if exact:
        return _random_battle(Fraction(1), attackers, defenders)
    return _random_battle(1.0, attackers, defenders)


def win_chance(attackers: int, defenders: int) -> float:
    """:func:`win_probability` as a float, without the checks: for the inner loops of bots
    and of the judge (the counts are a board's: 1..255)."""
    return _random_battle(1.0, attackers, defenders)


One = TypeVar("One", float, Fraction)


def _random_battle(one: One, attackers: int, defenders: int) -> One:
    """The attackers' chance in ``one``'s arithmetic: ``A / 2E`` below ``E``, ``A / E − ½``
    from ``E`` up."""
    if attackers == defenders:
        return one / 2
    if attackers < defenders:
        return one * attackers / (2 * defenders)
    return one * attackers / defenders - one / 2


def is_certain_win(attackers: int, defenders: int, defender: Kind) -> bool:
    """Whether arriving attackers take the cell with no battle: ``A ≥ H`` or ``2·A ≥ 3·E``."""
    _check_sides(attackers, defenders)
    _check_kind("defender", defender)
    if defender == Kind.EMPTY:
        raise ValueError("an empty cell has no defenders")
    if defender == HUMANS:
        return attackers >= defenders
    return beats_for_sure(attackers, defenders)


def beats_for_sure(attackers: int, defenders: int) -> bool:
    """Whether ``attackers`` kill ``defenders`` of the other species with no battle: at
    least 1.5 times as many, ``2·A ≥ 3·E``. :func:`is_certain_win` without the checks, for
    the inner loops of bots and of the judge (the counts are a board's: 1..255)."""
    return 2 * attackers >= 3 * defenders


def _binomial(n: int, p: Probability) -> list[Probability]:
    """``[P(k successes) for k in 0..n]`` for ``n`` independent trials of probability ``p``."""
    q = 1 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


def battle_outcomes(
    attacker: Kind,
    attackers: int,
    defender: Kind,
    defenders: int,
    variant: Variant = Variant.SERVER,
    exact: bool = False,
) -> tuple[BattleOutcome, ...]:
    """The exact distribution of what ``attackers`` of ``attacker`` do to ``defenders``.

    ``defender`` is ``HUMANS`` or the other species. Probabilities sum to one; they are
    ``Fraction`` when ``exact`` is true and floats otherwise. Outcomes with probability
    zero are left out. Raises ``TypeError``/``ValueError`` for anything that is not an
    encounter (see :func:`check_encounter`), a ``variant`` that is not a :class:`Variant`.
    """
    check_encounter(attacker, attackers, defender, defenders)
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be Variant.SERVER or Variant.SPEC, got {variant!r}")
    return outcome_table(attacker, attackers, defender, defenders, variant, bool(exact))


@lru_cache(maxsize=1 << 16)
def outcome_table(
    attacker: Kind,
    attackers: int,
    defender: Kind,
    defenders: int,
    variant: Variant,
    exact: bool,
) -> tuple[BattleOutcome, ...]:
    """:func:`battle_outcomes` without the checks, cached: for the engine's inner loops."""
    one: Probability = Fraction(1) if exact else 1.0
    if is_certain_win(attackers, defenders, defender):
        survivors = attackers + defenders if defender == HUMANS else attackers
        return (BattleOutcome(one, attacker, survivors),)
    if variant == Variant.SPEC and defender != HUMANS and beats_for_sure(defenders, attackers):
        return (BattleOutcome(one, defender, defenders),)
    p = win_probability(attackers, defenders, exact)
    fighters = attackers + defenders if defender == HUMANS else attackers
    outcomes = [
        BattleOutcome(p * chance, attacker, k) for k, chance in enumerate(_binomial(fighters, p))
    ]
    outcomes += [
        BattleOutcome((1 - p) * chance, defender, j)
        for j, chance in enumerate(_binomial(defenders, 1 - p))
    ]
    return tuple(o for o in outcomes if o.probability > 0)


def expected_survivors(outcomes: tuple[BattleOutcome, ...], kind: Kind) -> Probability:
    """The expected number of ``kind`` on the cell after the battle."""
    _check_kind("kind", kind)
    return sum(o.probability * o.survivors for o in outcomes if o.winner == kind)


def sample_battle(outcomes: tuple[BattleOutcome, ...], rng: random.Random) -> BattleOutcome:
    """Draw one outcome of the distribution with ``rng`` (one ``rng.random()`` call)."""
    if not outcomes:
        raise ValueError("no outcomes to draw from")
    if len(outcomes) == 1:
        return outcomes[0]
    r = rng.random()
    for outcome in outcomes:
        r -= outcome.probability
        if r < 0:
            return outcome
    return outcomes[-1]
