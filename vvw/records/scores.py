"""Games counted per bot name, whatever side it played: wins, draws, a score; a game
stopped before its end (Ctrl-C) is counted apart, never as a game played.

``vvw match`` counts its two participants, ``vvw serve`` whoever connected (by the name
each sent in its NME).
"""

from collections.abc import Iterable, Sequence

import attrs

from engine import GameResult, Termination
from engine.result import printable
from vvw.wording import plural


@attrs.frozen
class Scores:
    """Wins per name (in the order the names came), draws, and the games aborted."""

    wins: dict[str, int]
    draws: int = 0
    aborted: int = 0

    @classmethod
    def of(cls, results: Iterable[GameResult], names: Sequence[str] = ()) -> "Scores":
        """The count of ``results``; ``names`` come first (each shown, even without a win),
        then any other name that played, as it first appears."""
        wins = dict.fromkeys(names, 0)
        draws = aborted = 0
        for result in results:
            for side in (result.vampires, result.werewolves):
                wins.setdefault(side.name, 0)
            if result.termination is Termination.ABORTED:
                aborted += 1
            elif result.winner is None:
                draws += 1
            else:
                wins[result.player(result.winner).name] += 1
        return cls(wins, draws, aborted)

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
