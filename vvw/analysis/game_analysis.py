"""A game's analysis: every turn searched, judged and its battles' luck weighed.

:func:`analyse_game` searches the position before each turn (:mod:`vvw.analysis.search`),
the best ply's and the ply played's outcomes, over worker processes
(:mod:`vvw.analysis.workers`); then each turn's change in chances is split into play and
luck (:mod:`vvw.analysis.ledger`). :class:`GameAnalysis` holds it all, with each side's
summary (:mod:`vvw.analysis.sides`); :func:`vvw.analysis.files.analysis_json` turns it into
the analysis file that ``vvw replay`` reads.
"""

from collections.abc import Callable

import attrs

from agents.judge.curve import CURVE, Curve
from agents.judge.learned import identity
from engine import Kind
from engine.kinds import VAMPIRES
from vvw.analysis.game import PlayedGame
from vvw.analysis.judging import DEFAULT_THRESHOLDS, Label, Thresholds
from vvw.analysis.ledger import TurnAnalysis, TurnSearch, judged_turns
from vvw.analysis.luck import BattleLuck
from vvw.analysis.search import DEFAULT_SETTINGS, Settings
from vvw.analysis.sides import SideSummary, side_summary
from vvw.analysis.turning import TurningPoint, turning_points
from vvw.analysis.workers import searched_turns


@attrs.frozen
class GameAnalysis:
    """A whole game analysed."""

    game: PlayedGame
    turns: tuple[TurnAnalysis, ...]
    settings: Settings
    thresholds: Thresholds
    curve: Curve = CURVE
    """The endgame curve the analysis read solved endgames through."""
    judge: dict[str, str] = attrs.field(factory=identity)
    """Which model judged the positions at the search's leaves (its name and SHA-256)."""

    def label(self, turn: TurnAnalysis) -> Label | None:
        return self.thresholds.label(turn.drop) if turn.judged else None

    @property
    def battles(self) -> list[BattleLuck]:
        return [battle for turn in self.turns for battle in turn.battles]

    def chances(self, side: Kind = VAMPIRES) -> list[float | None]:
        """``side``'s expected score before each turn, then at the end (the result, if
        known): the winning-chances curve of the game."""
        points: list[float | None] = [
            t.score if t.side == side else 1.0 - t.score for t in self.turns
        ]
        points.append(self.game.score(side))
        return points

    def turning_points(self) -> list[TurningPoint]:
        """Where a side's chances fell by 25 points or more with no ply of its labelled
        (:mod:`vvw.analysis.turning`)."""
        curve = self.chances()
        last = self.turns[-1] if self.turns else None
        if curve[-1] is None and last is not None and last.after is not None:
            curve[-1] = last.after if last.side == VAMPIRES else 1.0 - last.after
        return turning_points(
            self.turns,
            [turn.after for turn in self.game.turns],
            curve,
            [self.label(turn) is not None for turn in self.turns],
        )

    def summary(self, side: Kind) -> SideSummary:
        return side_summary(side, self.game.names.get(side, ""), self.turns, self.thresholds)


def analyse_game(
    game: PlayedGame,
    settings: Settings = DEFAULT_SETTINGS,
    *,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    jobs: int = 1,
    progress: Callable[[TurnSearch], None] = lambda turn: None,
) -> GameAnalysis:
    """The analysis of ``game`` judged by the learned chances
    (:func:`agents.judge.leaves.learned_leaf`), its turns searched with ``jobs``
    processes; ``progress`` is called after each turn is searched, in order."""
    found = []
    for turn in searched_turns(game, settings, jobs):
        found.append(turn)
        progress(turn)
    return GameAnalysis(game, judged_turns(game, found), settings, thresholds)
