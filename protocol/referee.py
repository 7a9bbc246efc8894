"""The server side of a game, sans I/O: what a referee sends, and what it makes of replies.

The client side is :mod:`protocol.session`; this is its mirror, the turn choreography every
referee performs (the server's :func:`server.referee.play_game`, check-bot's scripted
server), owned here once:

- the greeting (:func:`greeting`): SET+HUM+HME in one write, then MAP in a second, as the
  course server sends them;
- each turn (:class:`RefereeSession`): the UPD for the side to move, listing the cells of
  both sides' last turns, and the reply (a ply, or none in time) told to the
  :class:`engine.Game`;
- what a bot sends during the game (:func:`hear`): the awaited MOV, a MOV out of turn
  (late: discarded), an NME (ignored), or a fault that loses the game;
- the end (:data:`END_OF_GAME`, :data:`GOODBYE`, :data:`TURNED_AWAY`): END closes a game,
  BYE the connection.

Nothing here reads a clock or a socket: the caller says how long a reply took.
"""

import enum
from collections.abc import Sequence

import attrs

from engine import Game, GameResult, Kind, Move, Termination, Turn
from engine.mapfile import GameMap
from protocol.cells import map_cells, ply_cells, update_cells
from protocol.codec import (
    Bye,
    End,
    Hme,
    Hum,
    Map,
    Message,
    Mov,
    Nme,
    ProtocolError,
    Set,
    Upd,
    message_name,
)

END_OF_GAME: tuple[Message, ...] = (End(),)
"""What closes a game when another follows on the same connection (a new SET comes next)."""
GOODBYE: tuple[Message, ...] = (End(), Bye())
"""What each player is told last, in this order: the game is over, the connection closes."""
TURNED_AWAY: tuple[Message, ...] = (Bye(),)
"""What a connection refused before any game is told (a ladder's full team, a bad token)."""


def greeting(game_map: GameMap, species: Kind) -> tuple[tuple[Message, ...], tuple[Message, ...]]:
    """The two writes that open a game for the bot playing ``species``: SET, HUM and HME
    together, then MAP (the course server's way)."""
    x, y, _ = game_map.start(species == Kind.VAMPIRES)
    first = (
        Set(game_map.rows, game_map.cols),
        Hum(tuple((hx, hy) for hx, hy, _ in game_map.humans)),
        Hme(x, y),
    )
    return first, (Map(map_cells(game_map.initial_state())),)


class Heard(enum.Enum):
    """What a message from a bot is to the referee during a game, when it is no fault."""

    MOVE = enum.auto()
    """The MOV of the side to move, in its turn: its ply."""
    LATE = enum.auto()
    """A MOV out of turn (it came after its time ran out): discarded."""
    IGNORED = enum.auto()
    """An NME during the game, in turn or not: ignored."""


@attrs.frozen
class Fault:
    """Something only the connection shows, for which the bot it came from loses."""

    termination: Termination
    detail: str


GONE = Fault(Termination.DISCONNECT, "gone")
"""The UPD could not be delivered: the bot's connection is gone."""


def hear(message: Message, *, in_turn: bool) -> Heard | Fault:
    """What ``message`` from a bot is: ``in_turn`` when it is that bot's turn and its MOV
    is awaited, else it came out of turn (read before the bot's next UPD is sent)."""
    if isinstance(message, Mov):
        return Heard.MOVE if in_turn else Heard.LATE
    if isinstance(message, Nme):
        return Heard.IGNORED
    return Fault(Termination.PROTOCOL_ERROR, f"sent {message_name(message)} during the game")


def garbled(error: ProtocolError) -> Fault:
    """The fault of a bot that sent bytes that are no message."""
    return Fault(Termination.PROTOCOL_ERROR, str(error))


def disconnected(reason: str) -> Fault:
    """The fault of a bot whose connection closed (``reason`` says how)."""
    return Fault(Termination.DISCONNECT, reason)


class RefereeSession:
    """One game as a referee plays it over the wire: an :class:`engine.Game`, and the cells
    each side's last turn touched, which the next UPD lists (the vampires' first)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._changed: dict[Kind, list[tuple[int, int]]] = {
            Kind.VAMPIRES: [],
            Kind.WEREWOLVES: [],
        }

    @property
    def result(self) -> GameResult | None:
        """How the game ended; ``None`` while it goes on."""
        return self.game.result

    @property
    def to_move(self) -> Kind:
        return self.game.to_move

    def update(self) -> Upd:
        """The UPD that tells the side to move the board and that it is its turn."""
        changed = (self._changed[Kind.VAMPIRES], self._changed[Kind.WEREWOLVES])
        return Upd(update_cells(self.game.state, changed))

    def reply(self, ply: Sequence[Move], think: float, elapsed: float) -> Turn | None:
        """The side to move answered ``ply`` after ``think`` seconds, ``elapsed`` seconds
        into the game: the turn played, ``None`` if the reply lost the game."""
        return self._played(self.game.reply(ply, think, elapsed))

    def no_reply(self, elapsed: float) -> Turn | None:
        """No MOV came in time: the skipped turn, ``None`` if that forfeits the game."""
        return self._played(self.game.no_reply(elapsed))

    def lose(self, species: Kind, fault: Fault) -> GameResult:
        """``species`` loses for ``fault``."""
        return self.game.lose(species, fault.termination, fault.detail)

    def _played(self, turn: Turn | None) -> Turn | None:
        if turn is not None:
            self._changed[turn.species] = ply_cells(turn.ply or ())
        return turn


def moves(mov: Mov) -> list[Move]:
    """The engine's moves of a MOV."""
    return [Move(*move) for move in mov.moves]
