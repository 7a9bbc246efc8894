"""What happens when a group arrives on a cell held by humans or enemies.

:func:`battle_outcomes` is the one implementation of the encounter rules: it returns the
exact outcome distribution, a single certain outcome for conversions and massacres, the
closed-form binomial distribution for random battles. Sampling is a separate step
(:func:`sample_battle`) with an injected ``random.Random``.
"""

import random
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple

from engine.kinds import HUMANS, Kind
from engine.rules import Variant

Probability = float | Fraction


class BattleOutcome(NamedTuple):
    """One possible result: ``winner`` holds the cell with ``survivors`` (0 leaves it empty)."""

    probability: Probability
    winner: Kind
    survivors: int


def win_probability(attackers: int, defenders: int, exact: bool = False) -> Probability:
    """The attackers' chance to win a random battle (rule book, "Random battle")."""
    one = Fraction(1) if exact else 1.0
    if attackers == defenders:
        return one / 2
    if attackers < defenders:
        return one * attackers / (2 * defenders)
    return one * attackers / defenders - one / 2


def is_certain_win(attackers: int, defenders: int, defender: Kind) -> bool:
    """Whether arriving attackers take the cell with no battle: ``A ≥ H`` or ``2·A ≥ 3·E``."""
    if defender == HUMANS:
        return attackers >= defenders
    return 2 * attackers >= 3 * defenders


def _binomial(n: int, p: Probability) -> list[Probability]:
    """``[P(k successes) for k in 0..n]`` for ``n`` independent trials of probability ``p``."""
    q = 1 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


@lru_cache(maxsize=1 << 16)
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
    zero are left out.
    """
    if attackers < 1 or defenders < 1:
        raise ValueError(f"a battle needs both sides: {attackers} against {defenders}")
    one: Probability = Fraction(1) if exact else 1.0
    if is_certain_win(attackers, defenders, defender):
        survivors = attackers + defenders if defender == HUMANS else attackers
        return (BattleOutcome(one, attacker, survivors),)
    if variant == Variant.SPEC and defender != HUMANS and 2 * defenders >= 3 * attackers:
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
    return sum(o.probability * o.survivors for o in outcomes if o.winner == kind)


def sample_battle(outcomes: tuple[BattleOutcome, ...], rng: random.Random) -> BattleOutcome:
    """Draw one outcome of the distribution with ``rng`` (one ``rng.random()`` call)."""
    if len(outcomes) == 1:
        return outcomes[0]
    r = rng.random()
    for outcome in outcomes:
        r -= outcome.probability
        if r < 0:
            return outcome
    return outcomes[-1]
