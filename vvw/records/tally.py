"""One bot's games counted from its side: wins, draws, losses and the score they make.

The one count of the project: ``vvw match``'s and ``vvw serve``'s scores
(:mod:`vvw.records.scores`), the tournament's tables (:mod:`vvw.records.standings`) and the
ladder's pages (:mod:`vvw.ladder.tables`) all count with it.
"""

from collections.abc import Iterable

import attrs

from vvw.records.stats import EloEstimate, wdl_estimate


@attrs.frozen
class Tally:
    """Wins, draws and losses of one bot's games (from its side)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @classmethod
    def of(cls, scores: Iterable[float]) -> "Tally":
        """The count of the bot's scores, one per game: 1 a win, ½ a draw, 0 a loss."""
        counted = list(scores)
        return cls(counted.count(1.0), counted.count(0.5), counted.count(0.0))

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """A win counts 1, a draw ½."""
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """Points per game (0 without games)."""
        return self.points / self.games if self.games else 0.0

    @property
    def wdl(self) -> str:
        """``3-1-0``: wins, draws, losses, as the tables print them."""
        return f"{self.wins}-{self.draws}-{self.losses}"

    def estimate(self) -> EloEstimate:
        """The Elo difference these games say, its 95 % interval and the LOS."""
        return wdl_estimate(self.wins, self.draws, self.losses)
