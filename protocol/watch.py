"""One bot's connection watched from the side, sans-I/O: what was said, and what it means.

``vvw proxy`` and ``vvw agent --transcript`` feed a :class:`ConnectionWatch` every chunk of
bytes as it went, each way, with the moment it went (:meth:`~ConnectionWatch.from_bot`,
:meth:`~ConnectionWatch.from_server`). The watch decodes both directions with the shared
codec, keeps the board the bot was told of with a :class:`~protocol.session.ClientSession`,
judges each of the bot's plies as our referee would (:func:`engine.find_violation`), times
the bot's thinking, and returns :class:`Event` values: a caller shows them as a live trace
and writes them down as transcripts (:mod:`vvw.watching`). It never changes, delays or
refuses a byte: bytes that are no message are reported (:class:`Garbled`) and the rest of
that direction is then only reported as bytes, since nothing tells where the next message
starts.
"""

import attrs

from engine import Battle, GameState, IllegalPly, Kind, Move, find_violation, resolve_ply
from engine.rules import Rules
from protocol.codec import (
    FROM_BOT,
    FROM_SERVER,
    Decoder,
    Message,
    Mov,
    Nme,
    ProtocolError,
    Set,
    encode,
)
from protocol.records import Direction
from protocol.session import ClientSession, GameOver, GameStarted, SessionError, YourTurn


@attrs.frozen
class Said:
    """A complete message, with its bytes (``direction``: which way)."""

    at: float
    direction: Direction
    message: Message
    raw: bytes


@attrs.frozen
class Garbled:
    """Bytes that are not a valid message (forwarded all the same)."""

    at: float
    direction: Direction
    raw: bytes
    reason: str


@attrs.frozen
class Played:
    """The bot's ply: as our referee judges it, and the board after it when that is certain."""

    at: float
    species: Kind
    ply_number: int
    moves: tuple[Move, ...]
    before: GameState
    after: GameState | None
    """``None`` when a random battle decides it (the next UPD will tell)."""
    battles: tuple[Battle, ...]
    think: float | None
    """Seconds from the UPD to the complete MOV."""
    violation: IllegalPly | None


@attrs.frozen
class Told:
    """An UPD: the board the bot must now play on (after the other side's ply)."""

    at: float
    species: Kind
    state: GameState


@attrs.frozen
class Odd:
    """A well-formed message that makes no sense where it came (our referee's view)."""

    at: float
    direction: Direction
    text: str


@attrs.frozen
class Began:
    """A game began on this connection (MAP): the bot plays ``species``."""

    at: float
    species: Kind
    state: GameState


@attrs.frozen
class Ended:
    """END: the game on this connection is over."""

    at: float
    state: GameState


Event = Said | Garbled | Played | Told | Odd | Began | Ended


class ConnectionWatch:
    """The traffic of one bot connection, judged and timed as it goes; ``rules`` are the
    rules its plies are judged by (our server's by default)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.name = ""
        """The name the bot sent in NME ('' before)."""
        self.species: Kind | None = None
        """The side the bot plays in the current game (``None`` before its MAP)."""
        self.games = 0
        """Games begun on this connection."""
        self.session = ClientSession()
        self._decoders = {Direction.IN: Decoder(FROM_BOT), Direction.OUT: Decoder(FROM_SERVER)}
        self._broken: dict[Direction, bool] = {Direction.IN: False, Direction.OUT: False}
        self._asked: tuple[float, GameState] | None = None
        """When the pending UPD came and the board it gave (the bot owes a MOV)."""

    # --- input ----------------------------------------------------------------------------

    def from_bot(self, data: bytes, at: float) -> list[Event]:
        """Bytes the bot sent (bot → server) at the moment ``at`` (seconds, any clock)."""
        return self._feed(Direction.IN, data, at)

    def from_server(self, data: bytes, at: float) -> list[Event]:
        """Bytes the bot was sent (server → bot) at the moment ``at``."""
        return self._feed(Direction.OUT, data, at)

    def close(self, at: float) -> list[Event]:
        """The connection ended at ``at``: a message cut in the middle is reported."""
        events: list[Event] = []
        for direction, decoder in self._decoders.items():
            if self._broken[direction]:
                continue
            try:
                decoder.close()
            except ProtocolError as error:
                events.append(Garbled(at, direction, error.data, error.reason))
        return events

    def _feed(self, direction: Direction, data: bytes, at: float) -> list[Event]:
        if self._broken[direction]:
            return [Garbled(at, direction, data, "after bytes that were no message")]
        decoder = self._decoders[direction]
        chunk_offset = decoder.offset
        try:
            messages = decoder.feed(data)
            error = None
        except ProtocolError as raised:
            messages, error = list(raised.decoded), raised
        events: list[Event] = []
        for message in messages:
            events.extend(self._message(direction, message, at))
        if error is not None:
            self._broken[direction] = True
            bad = data[error.offset - chunk_offset :] if error.offset >= chunk_offset else data
            reason = f"{error.reason} at byte {error.offset}"
            events.append(Garbled(at, direction, bad, reason))
        return events

    # --- meaning --------------------------------------------------------------------------

    def _message(self, direction: Direction, message: Message, at: float) -> list[Event]:
        if isinstance(message, Set):
            self.species = None
            self._asked = None
        events: list[Event] = [Said(at, direction, message, encode(message))]
        if direction is Direction.IN:
            if isinstance(message, Nme):
                self.name = message.text
            elif isinstance(message, Mov):
                events.append(self._played(message, at))
            return events
        try:
            meaning = self.session.receive(message)
        except SessionError as error:
            return [*events, Odd(at, Direction.OUT, f"the server: {error}")]
        match meaning:
            case GameStarted(species, state):
                self.species = species
                self.games += 1
                events.append(Began(at, species, state))
            case YourTurn(state):
                if self._asked is not None:
                    events.append(Odd(at, Direction.OUT, "UPD while the bot still owes a MOV"))
                self._asked = (at, state)
                assert self.species is not None
                events.append(Told(at, self.species, state))
            case GameOver(state):
                self._asked = None
                events.append(Ended(at, state))
        return events

    def _played(self, message: Mov, at: float) -> Event:
        if self._asked is None:
            return Odd(at, Direction.IN, "MOV out of turn: a server discards it")
        asked_at, state = self._asked
        self._asked = None
        moves = tuple(Move(*move) for move in message.moves)
        violation = find_violation(state, moves)
        after: GameState | None = None
        battles: tuple[Battle, ...] = ()
        if violation is None:
            grid, pending = resolve_ply(state, moves, self.rules)
            battles = tuple(pending)
            if not battles:
                after = GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid)
        return Played(
            at, state.to_move, state.ply + 1, moves, state, after, battles, at - asked_at, violation
        )
