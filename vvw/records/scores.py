"""Games counted per bot name, whatever side it played: wins, draws, a score; a game
stopped before its end (Ctrl-C) is counted apart, never as a game played.

``vvw match`` counts its two participants, ``vvw serve`` whoever connected (by the name
each sent in its NME).
"""

from collections.abc import Iterable, Sequence

import attrs

from engine import GameResult, Termination
from protocol.printable import printable
from vvw.records.tally import Tally
from vvw.wording import plural


@attrs.frozen
class Scores:
    """Each name's :class:`~vvw.records.tally.Tally` (in the order the names came), the
    games drawn, and the games aborted."""

    tallies: dict[str, Tally]
    draws: int = 0
    aborted: int = 0

    @classmethod
    def of(cls, results: Iterable[GameResult], names: Sequence[str] = ()) -> "Scores":
        """The count of ``results``; ``names`` come first (each shown, even without a win),
        then any other name that played, as it first appears."""
        scores: dict[str, list[float]] = {name: [] for name in names}
        draws = aborted = 0
        for result in results:
            sides = (result.vampires, result.werewolves)
            for side in sides:
                scores.setdefault(side.name, [])
            if result.termination is Termination.ABORTED:
                aborted += 1
                continue
            draws += result.winner is None
            for side in sides:
                won = None if result.winner is None else side.species is result.winner
                scores[side.name].append(0.5 if won is None else float(won))
        return cls({name: Tally.of(counted) for name, counted in scores.items()}, draws, aborted)

    @property
    def wins(self) -> dict[str, int]:
        """Wins per name, in the order of :attr:`tallies`."""
        return {name: tally.wins for name, tally in self.tallies.items()}

    @property
    def finished(self) -> int:
        """Games that ended (by the rules, or a side's fault): the games counted."""
        return sum(self.wins.values()) + self.draws

    def score(self, name: str) -> float:
        """The share of the points ``name`` took (a win 1, a draw ½) in a two-bot count."""
        return (self.wins.get(name, 0) + self.draws / 2) / self.finished

    def line(self, scorer: str | None = None) -> str:
        """``4 games: greedy 3 wins, random 0 wins, 1 draw; greedy scores 87.5 %`` (with
        ``scorer``), then ``; 1 aborted (not counted)``; ``no game finished`` if none was."""
        aborted = f"; {self.aborted} aborted (not counted)" if self.aborted else ""
        if not self.finished:
            return f"no game finished{aborted}"
        counts = ", ".join(f"{printable(name)} {plural(n, 'win')}" for name, n in self.wins.items())
        line = f"{plural(self.finished, 'game')}: {counts}, {plural(self.draws, 'draw')}"
        if scorer is not None:
            line += f"; {printable(scorer)} scores {self.score(scorer):.1%}"
        return line + aborted
