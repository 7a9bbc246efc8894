"""What the ladder's file holds, as the store returns it: players, pairings, games, and a
:class:`Snapshot` of them all at one moment (:mod:`vvw.ladder.queries` reads them)."""

from enum import Enum

import attrs

from engine import Kind, Termination
from vvw.ladder.settings import LadderSettings


class GameStatus(Enum):
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"
    """Stopped before its end (the server stopped): kept, never rated."""


@attrs.frozen
class Player:
    """A team, or a built-in bot (``builtin`` names it in the registry)."""

    name: str
    builtin: str | None
    created: float
    last_seen: float | None
    removed: float | None
    """When the team was removed (its games kept); ``None`` while it plays."""


@attrs.frozen
class Pairing:
    """Two players' two games on one map and battle seed: ``first`` has the vampires in
    leg 1, ``second`` in leg 2."""

    id: int
    first: str
    second: str
    map: str
    battle_seed: int

    def sides(self, leg: int) -> tuple[str, str]:
        """The vampires and the werewolves of ``leg``."""
        return (self.first, self.second) if leg == 1 else (self.second, self.first)


@attrs.frozen
class StoredGame:
    """One game as the store keeps it."""

    id: int
    pairing: int
    leg: int
    map: str
    battle_seed: int
    vampires: str
    werewolves: str
    started: float
    ended: float | None
    status: GameStatus
    winner: Kind | None
    termination: Termination | None
    """``None`` while it is played."""
    detail: str
    plies: int
    vampires_creatures: int | None
    werewolves_creatures: int | None
    transcript: str | None

    @property
    def rated(self) -> bool:
        """Finished games are rated; games in progress and aborted ones are not."""
        return self.status is GameStatus.FINISHED

    @property
    def abnormal(self) -> bool:
        """Whether it ended otherwise than by the board or the clock of the rules (an
        aborted game too)."""
        return self.termination is not None and self.termination.is_abnormal

    @property
    def names(self) -> tuple[str, str]:
        return (self.vampires, self.werewolves)

    def side_of(self, name: str) -> Kind:
        return Kind.VAMPIRES if name == self.vampires else Kind.WEREWOLVES

    def opponent_of(self, name: str) -> str:
        return self.werewolves if name == self.vampires else self.vampires

    def score_of(self, name: str) -> float:
        """1 for a win of ``name``, ½ for a draw, 0 for a loss (of a finished game)."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is self.side_of(name) else 0.0

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.werewolves if self.winner is Kind.VAMPIRES else self.vampires


@attrs.frozen
class Snapshot:
    """Everything a page or a rating table reads, as of one moment."""

    settings: LadderSettings
    players: tuple[Player, ...]
    games: tuple[StoredGame, ...]
    """Oldest first."""
    taken: float
