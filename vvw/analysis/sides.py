"""Each side's summary of an analysed game: accuracy, plies labelled, points won or lost
by play and by the dice, its biggest swings, and the sentence that says it."""

from collections.abc import Mapping, Sequence

import attrs

from engine import Kind
from vvw.analysis.judging import Label, Thresholds, accuracy
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import BattleLuck
from vvw.analysis.sentences import side_sentence, swing_text

SWINGS = 3
"""The biggest swings a side's summary shows."""


@attrs.frozen
class Swing:
    """One of a side's biggest drops: the turn, and the better ply."""

    turn: TurnAnalysis

    @property
    def text(self) -> str:
        return swing_text(self.turn)


@attrs.frozen
class SideSummary:
    """One side's game: accuracy, labelled plies, luck and play in points, biggest swings."""

    side: Kind
    name: str
    accuracy: float | None
    counts: Mapping[Label, int]
    luck: float
    """Points (of 100) of expected score the dice gave (negative: took)."""
    play: float
    """Points the side's plies lost against the best found, in all (negative: gained)."""
    swings: tuple[Swing, ...]
    luckiest: BattleLuck | None
    """The battle that gave the most (or, if the dice took, took the most)."""

    @property
    def sentence(self) -> str:
        """``vampires lost 31 points to the dice (ply 37: 8 against 7 at 64 %, lost) and 12
        by play``."""
        return side_sentence(self.side, self.luck, self.play, self.luckiest)


def side_summary(
    side: Kind, name: str, turns: Sequence[TurnAnalysis], thresholds: Thresholds
) -> SideSummary:
    """``side``'s summary of a game whose turns, analysed, are ``turns``."""
    own = [t for t in turns if t.side == side and t.judged]
    counts = {label: 0 for label in Label}
    for turn in own:
        label = thresholds.label(turn.drop)
        if label is not None:
            counts[label] += 1
    battles = [battle for turn in turns for battle in turn.battles]
    luck = 100 * sum(t.luck if t.side == side else -t.luck for t in turns)
    luckiest = None
    if battles:
        pick = max if luck > 0 else min
        luckiest = pick(battles, key=lambda b: b.luck_for(side))
    swings = sorted(own, key=lambda t: -t.drop)[:SWINGS]
    return SideSummary(
        side,
        name,
        accuracy([t.drop for t in own]),
        counts,
        luck,
        -100 * sum(t.play for t in own),
        tuple(Swing(t) for t in swings if t.drop >= 0.5),
        luckiest,
    )
