"""One bot's connection watched from the side, sans-I/O: what was said, and what it means.

``vvw proxy`` and ``vvw agent --transcript`` feed a :class:`ConnectionWatch` every chunk of
bytes as it went, each way (:meth:`~ConnectionWatch.from_bot`,
:meth:`~ConnectionWatch.from_server`). The watch decodes both directions with the shared
codec, keeps the board the bot was told of with a :class:`~protocol.session.ClientSession`,
judges each of the bot's plies as our referee would (:func:`engine.find_violation`), times
the bot's thinking, writes one transcript per game (:mod:`protocol.transcript`), and returns
:class:`Event` values that a caller can show as a live trace. It never changes, delays or
refuses a byte: bytes that are no message are reported (:class:`Garbled`) and the rest of
that direction is then only reported as bytes, since nothing tells where the next message
starts.
"""

import time
from collections.abc import Callable, Sequence
from pathlib import Path

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
from protocol.session import ClientSession, GameOver, GameStarted, SessionError, YourTurn
from protocol.transcript import IN, OUT, TranscriptWriter


@attrs.frozen
class Said:
    """A complete message, with its bytes (``direction``: IN bot → server, OUT server → bot)."""

    at: float
    direction: str
    message: Message
    raw: bytes


@attrs.frozen
class Garbled:
    """Bytes that are not a valid message (forwarded all the same)."""

    at: float
    direction: str
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
    direction: str
    text: str


@attrs.frozen
class Began:
    """A game began on this connection (MAP): the bot plays ``species``."""

    at: float
    species: Kind
    state: GameState
    transcript: Path | None


@attrs.frozen
class Ended:
    """END: the game on this connection is over."""

    at: float
    state: GameState


Event = Said | Garbled | Played | Told | Odd | Began | Ended


class ConnectionWatch:
    """The traffic of one bot connection, judged, timed and written down as it goes.

    ``transcript_dir`` (if given) gets one transcript per game, named
    ``STAMP-SOURCE-NAME-gameN.jsonl``; ``source`` is the header's ``source`` (``proxy``,
    ``agent``); ``peer`` is the server's address, ``player_peer`` the bot's (when known).
    """

    def __init__(
        self,
        transcript_dir: Path | None = None,
        source: str = "proxy",
        peer: str | None = None,
        player_peer: str | None = None,
        rules: Rules | None = None,
        first_game: int = 1,
        on_game: Callable[[str, Kind], Callable[[str], None]] | None = None,
    ) -> None:
        self.transcript_dir = transcript_dir
        self.on_game = on_game
        """Called as each game's transcript starts (the bot's name, its species); returns
        a function given each of the transcript's lines (JSON text): the live view."""
        self.source = source
        self.peer = peer
        self.player_peer = player_peer
        self.rules = rules or Rules()
        self.name = ""
        """The name the bot sent in NME ('' before)."""
        self.species: Kind | None = None
        self.games = 0
        """Games begun on this connection."""
        self.first_game = first_game
        """The number of this connection's first game in transcript names."""
        self.session = ClientSession()
        self._decoders = {IN: Decoder(FROM_BOT), OUT: Decoder(FROM_SERVER)}
        self._broken: dict[str, bool] = {IN: False, OUT: False}
        self._asked: tuple[float, GameState] | None = None
        """When the pending UPD came and the board it gave (the bot owes a MOV)."""
        self._writer: TranscriptWriter | None = None
        self._waiting: list[tuple[float, str, Message | None, bytes, str | None]] = []
        """Frames and notes of the game before its MAP (the side is not known yet)."""
        self._set: Set | None = None
        self.transcripts: list[Path] = []

    # --- input ----------------------------------------------------------------------------

    def from_bot(self, data: bytes, at: float | None = None) -> list[Event]:
        """Bytes the bot sent (bot → server)."""
        return self._feed(IN, data, time.monotonic() if at is None else at)

    def from_server(self, data: bytes, at: float | None = None) -> list[Event]:
        """Bytes the bot was sent (server → bot)."""
        return self._feed(OUT, data, time.monotonic() if at is None else at)

    def close(self, at: float | None = None) -> list[Event]:
        """The connection ended: a message cut in the middle is reported; the file closed."""
        moment = time.monotonic() if at is None else at
        events: list[Event] = []
        for direction, decoder in self._decoders.items():
            if self._broken[direction]:
                continue
            try:
                decoder.close()
            except ProtocolError as error:
                events.append(self._garbled(moment, direction, error.data, error.reason))
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._flush_waiting()
        return events

    def _feed(self, direction: str, data: bytes, at: float) -> list[Event]:
        if self._broken[direction]:
            return [self._garbled(at, direction, data, "after bytes that were no message")]
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
            events.append(self._garbled(at, direction, bad, reason))
        return events

    # --- meaning --------------------------------------------------------------------------

    def _message(self, direction: str, message: Message, at: float) -> list[Event]:
        raw = encode(message)
        if isinstance(message, Set):
            self._new_game(message, at)
        self._frame(at, direction, message, raw)
        events: list[Event] = [Said(at, direction, message, raw)]
        if direction == IN:
            if isinstance(message, Nme):
                self.name = message.text
            elif isinstance(message, Mov):
                events.append(self._played(message, at))
            return events
        try:
            meaning = self.session.receive(message)
        except SessionError as error:
            return [*events, self._odd(at, OUT, f"the server: {error}")]
        match meaning:
            case GameStarted(species, state):
                self.species = species
                self.games += 1
                path = self._start_transcript(species, at)
                events.append(Began(at, species, state, path))
            case YourTurn(state):
                if self._asked is not None:
                    events.append(self._odd(at, OUT, "UPD while the bot still owes a MOV"))
                self._asked = (at, state)
                assert self.species is not None
                events.append(Told(at, self.species, state))
            case GameOver(state):
                self._asked = None
                events.append(Ended(at, state))
        return events

    def _played(self, message: Mov, at: float) -> Event:
        if self._asked is None:
            return self._odd(at, IN, "MOV out of turn: a server discards it")
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
        played = Played(
            at, state.to_move, state.ply + 1, moves, state, after, battles, at - asked_at, violation
        )
        if self._writer is not None:
            self._writer.write_ply(
                played.species,
                played.ply_number,
                moves,
                after,
                [(battle, None) for battle in battles],
                think=played.think,
                violation=None if violation is None else str(violation),
                at=at,
            )
        return played

    def _odd(self, at: float, direction: str, text: str) -> Odd:
        self._note(at, text)
        return Odd(at, direction, text)

    def _garbled(self, at: float, direction: str, raw: bytes, reason: str) -> Garbled:
        who = "the bot" if direction == IN else "the server"
        self._frame(at, direction, None, raw)
        self._note(at, f"bytes from {who} that are no message: {reason}")
        return Garbled(at, direction, raw, reason)

    # --- transcripts ----------------------------------------------------------------------

    def _new_game(self, message: Set, at: float) -> None:
        """SET: the previous game's transcript is closed; frames wait for this game's MAP."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._set = message
        self.species = None
        self._asked = None

    def _path(self, what: str) -> Path:
        assert self.transcript_dir is not None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.name)[:40] or "bot"
        return self.transcript_dir / f"{stamp}-{self.source}-{name}-{what}.jsonl"

    def _start_transcript(self, species: Kind, at: float) -> Path | None:
        if self.transcript_dir is None:
            self._waiting.clear()
            return None
        path = self._path(f"game{self.first_game + self.games - 1}")
        start = self._waiting[0][0] if self._waiting else at
        self._writer = writer = TranscriptWriter(path, start=start)
        if self.on_game is not None:
            writer.taps.append(self.on_game(self.name, species))
        size = self._set
        writer.write_header(
            self.source,
            rows=size.rows if size else None,
            cols=size.cols if size else None,
            peer=self.peer,
            at=start,
        )
        writer.player(species, self.name, self.player_peer, at=start)
        self._write_waiting(writer, species)
        self.transcripts.append(writer.path)
        return writer.path

    def _frame(self, at: float, direction: str, message: Message | None, raw: bytes) -> None:
        if self._writer is not None:
            self._writer.frame(self.species, direction, message, raw, at)
        elif self.transcript_dir is not None:
            self._waiting.append((at, direction, message, raw, None))

    def _note(self, at: float, text: str) -> None:
        if self._writer is not None:
            self._writer.note(self.species, text, at)
        elif self.transcript_dir is not None:
            self._waiting.append((at, "", None, b"", text))

    def _write_waiting(self, writer: TranscriptWriter, side: Kind | None) -> None:
        for at, direction, message, raw, note in self._waiting:
            if note is not None:
                writer.note(side, note, at)
            else:
                writer.frame(side, direction, message, raw, at)
        self._waiting.clear()

    def _flush_waiting(self) -> None:
        """Frames of a connection that never reached a MAP: a file all the same."""
        waiting, self._waiting = self._waiting, []
        if self.transcript_dir is None or not waiting:
            return
        start = waiting[0][0]
        writer = TranscriptWriter(self._path("no-game"), start=start)
        size = self._set
        writer.write_header(
            self.source,
            rows=size.rows if size else None,
            cols=size.cols if size else None,
            peer=self.peer,
            at=start,
        )
        self._waiting = waiting
        self._write_waiting(writer, None)
        writer.close()
        self.transcripts.append(writer.path)


def moves_text(moves: Sequence[Move]) -> str:
    """``(4,3)->(3,2) x4 (5,0)->(6,0) x2``: a ply as the logs write it."""
    return " ".join(f"({m.x},{m.y})->({m.tx},{m.ty}) x{m.count}" for m in moves) or "(no moves)"
