"""Luck: what each random battle's dice gave or took, against what its odds promised.

For a ply with random battles, the engine gives the exact distribution of the boards it
can lead to (:func:`engine.ply_outcomes`, exact ``Fraction`` probabilities). Each board is
scored for the mover (:meth:`vvw.analysis.search.PositionSearch.outcomes`: searched as deep
as the positions when they are few, less deep when many). The ply's luck is the score of
the board that happened less the expected score over the distribution. With several
battles in one ply, each gets its share in order: the expected score once its outcome is
known, less the expected score before (the shares add up to the ply's luck). The mover is
credited the luck, the other side the opposite.
"""

from collections.abc import Sequence
from fractions import Fraction

import attrs

from engine import GameState, Kind, Ply, Rules, resolve_ply, win_probability


@attrs.frozen
class BattleLuck:
    """One random battle and its luck for the side that started it (the mover).

    ``expected`` and ``happened`` are the mover's expected scores (0 to 1) before the
    battle's outcome is known and after; ``luck`` is their difference."""

    ply: int
    side: Kind
    cell: tuple[int, int]
    attackers: int
    defender: Kind
    defenders: int
    win_probability: float
    """The attackers' chance to win the battle."""
    winner: Kind | None
    """Who holds the cell after it (``None``: nobody survived)."""
    survivors: int
    expected: float
    happened: float

    @property
    def luck(self) -> float:
        """The mover's luck, as a share of a game (``happened − expected``)."""
        return self.happened - self.expected

    def luck_for(self, side: Kind) -> float:
        """The luck credited to ``side``."""
        return self.luck if side == self.side else -self.luck

    @property
    def won(self) -> bool:
        """Whether the attackers won the battle."""
        return self.winner == self.side


def battle_luck(
    number: int,
    before: GameState,
    ply: Ply,
    after: GameState,
    scored: Sequence[tuple[Fraction, GameState, float]],
    rules: Rules,
) -> list[BattleLuck]:
    """The luck of each random battle of ``ply`` played in ``before`` (turn ``number``)
    that led to ``after``, its outcomes ``scored`` (probability, board, the mover's
    expected score); none if the ply has no random battle. ``ValueError`` if ``after`` is
    not one of the boards the ply can lead to."""
    battles = resolve_ply(before, ply, rules).battles
    if not battles:
        return []
    if not any(state == after for _, state, _ in scored):
        raise ValueError(f"ply {number}: the board after it is not one the ply can lead to")
    mover = before.to_move
    cols = before.cols
    cells = [battle.y * cols + battle.x for battle in battles]
    result = []
    expected = _mean(scored)
    for index, battle in enumerate(battles):
        known = cells[: index + 1]
        matching = [
            entry
            for entry in scored
            if all(entry[1].contents.get(pos) == after.contents.get(pos) for pos in known)
        ]
        happened = _mean(matching)
        holder = after.contents.get(cells[index])
        result.append(
            BattleLuck(
                ply=number,
                side=mover,
                cell=(battle.x, battle.y),
                attackers=battle.attackers,
                defender=Kind(battle.defender),
                defenders=battle.defenders,
                win_probability=float(win_probability(battle.attackers, battle.defenders)),
                winner=None if holder is None else Kind(holder[0]),
                survivors=0 if holder is None else holder[1],
                expected=expected,
                happened=happened,
            )
        )
        expected = happened
    return result


def _mean(scored: Sequence[tuple[Fraction | float, GameState, float]]) -> float:
    """The probability-weighted mean score of some outcomes (exact weights)."""
    total = sum((p for p, _, _ in scored), Fraction(0))
    return float(sum(Fraction(p) * Fraction(s) for p, _, s in scored) / total)
