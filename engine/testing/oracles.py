"""Oracles: the engine's exact answers, in the shapes a test compares against.

Each oracle is the engine itself (the one implementation of the rules), with exact
``Fraction`` probabilities and plain dictionaries, so a reimplementation can be checked
with ``==`` or with a tolerance. None of them needs hypothesis.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from engine.battle import check_encounter
from engine.kinds import HUMANS, Kind
from engine.legality import Rule, find_violation
from engine.resolution import encounter_outcomes, ply_outcomes
from engine.rules import DEFAULT_RULES, Rules, Variant
from engine.state import GameState, Move


class Encounter(NamedTuple):
    """``attackers`` of ``attacker`` arriving on ``defenders`` humans or enemies.

    Build one only for a real encounter: :meth:`checked` refuses the rest.
    """

    attacker: Kind
    attackers: int
    defender: Kind
    defenders: int

    @classmethod
    def checked(cls, attacker: Kind, attackers: int, defender: Kind, defenders: int) -> "Encounter":
        """An encounter, or ``TypeError``/``ValueError`` saying why these sides are not one."""
        check_encounter(attacker, attackers, defender, defenders)
        return cls(attacker, attackers, defender, defenders)

    @property
    def against_humans(self) -> bool:
        return self.defender == HUMANS

    def __str__(self) -> str:
        return f"{self.attackers}{self.attacker.letter} on {self.defenders}{self.defender.letter}"


Distribution = dict[tuple[Kind, int], Fraction]
"""``{(winner, survivors): probability}``; ``survivors == 0`` leaves the cell empty."""


def encounter_distribution(encounter: Encounter, variant: Variant = Variant.SERVER) -> Distribution:
    """The exact outcome distribution of ``encounter``, as the course's server plays it.

    A certain outcome (a conversion, a massacre) has probability 1; a random battle has
    the rule book's closed form. A winner never keeps more than 255 (the cell's limit).
    """
    outcomes = encounter_outcomes(*encounter, variant=variant, exact=True)
    return {(o.winner, o.survivors): Fraction(o.probability) for o in outcomes}


def expected_survivors(
    encounter: Encounter, variant: Variant = Variant.SERVER
) -> dict[Kind, Fraction]:
    """The expected number of attackers and of defenders on the cell after the encounter."""
    distribution = encounter_distribution(encounter, variant)
    return {
        kind: sum((p * n for (winner, n), p in distribution.items() if winner == kind), Fraction(0))
        for kind in (encounter.attacker, encounter.defender)
    }


def ply_distribution(
    state: GameState, ply: Sequence[Move], rules: Rules = DEFAULT_RULES
) -> dict[GameState, Fraction]:
    """The exact distribution of the states a legal ``ply`` leads to, equal states merged.

    Raises :class:`engine.legality.IllegalPly` for an illegal ply (see :func:`broken_rule`).
    """
    return {after: Fraction(p) for p, after in ply_outcomes(state, ply, rules, exact=True)}


def broken_rule(state: GameState, ply: Sequence[Move]) -> Rule | None:
    """The first rule ``ply`` breaks for ``state.to_move`` (the server's verdict), or ``None``.

    The rule book checks rule 1, then rules 2-4 move by move in the ply's order, then
    rules 5, 6, 7; a reimplementation that only says legal or illegal compares with
    ``broken_rule(state, ply) is None``.
    """
    violation = find_violation(state, ply)
    return None if violation is None else violation.rule
