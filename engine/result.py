"""How a game ended: a termination taxonomy users can trust, and the game's record.

One result type for every way a game is played: the referee over sockets, the in-process
arena, and the tools built on them (tables, transcripts, tournaments).
"""

from enum import Enum
from typing import assert_never

import attrs

from engine.ending import EndReason
from engine.kinds import Kind


class Termination(Enum):
    """Why a game ended. Each game's result names exactly one."""

    ELIMINATION = "elimination"
    """One species has no creatures left; the other wins."""
    PLY_LIMIT = "ply limit"
    """The ply limit was reached: the larger species wins, equal totals draw."""
    TIME_LIMIT = "game time limit"
    """The game's time limit passed (checked after the second player's turn)."""
    ILLEGAL_PLY = "illegal ply"
    """A player sent a ply that breaks a rule (an empty ``MOV 0`` included) or that would
    change more cells than one UPD can list; it loses."""
    TIME_FORFEIT = "time forfeit"
    """A player did not answer in time and the game forfeits on time (not the default)."""
    PROTOCOL_ERROR = "protocol error"
    """A player sent bytes that are not a valid message; it loses."""
    DISCONNECT = "disconnect"
    """A player closed its connection during the game; it loses."""
    CRASH = "crash"
    """A player's process exited during the game (in the arena: the bot raised); it loses."""
    STALL = "stall"
    """A player connected but never completed its ``NME`` (or never connected) in time."""
    ABORTED = "aborted"
    """The game was stopped before it could end (the server by Ctrl-C, or the arena at a
    position its caller asked to stop at); no winner."""

    @property
    def is_abnormal(self) -> bool:
        """True when the game did not end by the board or the clock of the rules."""
        return self not in (Termination.ELIMINATION, Termination.PLY_LIMIT, Termination.TIME_LIMIT)

    @classmethod
    def of(cls, reason: EndReason) -> "Termination":
        """The termination of a game the board ended for ``reason``: the one mapping from
        :class:`~engine.ending.EndReason`, by member, never by its text."""
        match reason:
            case EndReason.ELIMINATION:
                return cls.ELIMINATION
            case EndReason.PLY_LIMIT:
                return cls.PLY_LIMIT
            case _:
                assert_never(reason)


@attrs.frozen
class PlayerRecord:
    """One side of a finished game."""

    species: Kind
    name: str
    creatures: int
    """How many it had on the board at the end."""
    longest_think: float | None = None
    """The slowest reply, in seconds, from UPD sent to complete MOV received."""
    skipped_turns: int = 0
    thinks: tuple[float, ...] = ()
    """Every reply's time, in seconds, in the order of its turns (late ones included)."""


@attrs.frozen
class GameResult:
    """The record of one game: who won, how it ended, and the exact reason."""

    winner: Kind | None
    """The winning species, ``None`` for a draw or an aborted game."""
    termination: Termination
    detail: str
    """A human-readable reason, e.g. the rule broken and the move, or the bytes received."""
    plies: int
    """Turns played, skipped turns included."""
    vampires: PlayerRecord
    werewolves: PlayerRecord
    map_name: str = ""
    seed: int | None = None

    def player(self, species: Kind) -> PlayerRecord:
        """The record of the side that played ``species``."""
        return self.vampires if species == Kind.VAMPIRES else self.werewolves

    def _plies(self) -> str:
        return f"{self.plies} {'ply' if self.plies == 1 else 'plies'}"

    def summary(self) -> str:
        """Winner, termination, detail unless it only repeats the termination: names and
        detail as they were given (a terminal shows it through
        :func:`protocol.printable.printable`, which makes it one line)."""
        if self.termination is Termination.ABORTED:
            return f"aborted after {self._plies()}: {self.detail}"
        if self.winner is None:
            head = "draw"
        else:
            player = self.player(self.winner)
            head = f"{self.winner.name.lower()} ({player.name}) win"
        how = f"{self.termination.value} after {self._plies()}"
        if self.detail in ("", self.termination.value):  # nothing more to say than how
            return f"{head} by {how}"
        return f"{head} by {how}: {self.detail}"
