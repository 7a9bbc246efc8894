"""A watched connection written down: one transcript file per game, from the watch's events.

``vvw proxy`` and ``vvw agent --transcript`` watch a bot's connection with a
:class:`protocol.watch.ConnectionWatch`; :class:`WatchTranscripts` turns what it reports into
files in the format of our server (:mod:`protocol.transcript`), named
``STAMP-SOURCE-NAME-gameN.jsonl``. A game's side is known only at its MAP: the frames before
it wait and are written after the header. A connection that never reached a MAP leaves a
``…-no-game.jsonl`` all the same. :class:`RecordedStream` is a trio stream whose traffic,
both ways, is watched and written down so (the agent's side).
"""

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import trio

from engine import Kind
from protocol.codec import Message, Nme, Set
from protocol.records import Direction, Source
from protocol.transcript import RecordSink, TranscriptWriter
from protocol.watch import Began, ConnectionWatch, Event, Garbled, Odd, Played, Said
from server.transcript import TranscriptFile

_Waiting = tuple[float, Direction | None, Message | None, bytes, str | None]
"""A frame (``at, direction, message, raw, None``) or a note (``at, None, None, b"", text``)."""


class WatchTranscripts:
    """The transcripts of one watched connection, in ``folder``.

    ``source`` is the header's (a proxy's, an agent's); ``peer`` the server's address,
    ``player_peer`` the bot's (when known); the connection's games are numbered from
    ``first_game``. ``on_game`` (the live view) is called as each game's transcript starts,
    with the bot's name and species, and returns a function given each of its records.
    """

    def __init__(
        self,
        folder: Path,
        source: Source,
        *,
        peer: str | None = None,
        player_peer: str | None = None,
        first_game: int = 1,
        on_game: Callable[[str, Kind], RecordSink] | None = None,
    ) -> None:
        self.folder = folder
        self.source = source
        self.peer = peer
        self.player_peer = player_peer
        self.on_game = on_game
        self.paths: list[Path] = []
        """Every transcript written, in order."""
        self._game = first_game
        self._name = ""
        self._set: Set | None = None
        self._species: Kind | None = None
        self._file: TranscriptFile | None = None
        self._writer: TranscriptWriter | None = None
        self._waiting: list[_Waiting] = []
        """Frames and notes of the game before its MAP (the side is not known yet)."""

    @property
    def current(self) -> Path | None:
        """The transcript of the game being written, if any."""
        return self._file.path if self._file is not None else None

    def record(self, events: Iterable[Event]) -> None:
        """Write down what the watch reported, in its order."""
        for event in events:
            match event:
                case Said(at, direction, message, raw):
                    if isinstance(message, Nme) and direction is Direction.IN:
                        self._name = message.text
                    elif isinstance(message, Set) and direction is Direction.OUT:
                        self._end_game()
                        self._set, self._species = message, None
                    self._frame(at, direction, message, raw)
                case Garbled(at, direction, raw, reason):
                    who = "the bot" if direction is Direction.IN else "the server"
                    self._frame(at, direction, None, raw)
                    self._note(at, f"bytes from {who} that are no message: {reason}")
                case Odd(at, _, text):
                    self._note(at, text)
                case Began(at, species, _):
                    self._begin(at, species)
                case Played() if self._writer is not None:
                    self._writer.write_ply(
                        event.species,
                        event.ply_number,
                        event.moves,
                        event.after,
                        [(battle, None) for battle in event.battles],
                        think=event.think,
                        violation=None if event.violation is None else str(event.violation),
                        at=event.at,
                    )

    def close(self) -> None:
        """The connection ended: the last file closed; frames that never reached a MAP
        written to a file of their own."""
        self._end_game()
        if not self._waiting:
            return
        start = self._waiting[0][0]
        writer = self._open("no-game", start)
        self._waiting, waiting = [], self._waiting
        self._write_waiting(writer, waiting, None)
        self._end_game()

    def _begin(self, at: float, species: Kind) -> None:
        start = self._waiting[0][0] if self._waiting else at
        tap = self.on_game(self._name, species) if self.on_game is not None else None
        writer = self._open(f"game{self._game}", start, tap)
        self._game += 1
        writer.player(species, self._name, self.player_peer, at=start)
        self._species = species
        self._waiting, waiting = [], self._waiting
        self._write_waiting(writer, waiting, species)

    def _open(self, what: str, start: float, tap: RecordSink | None = None) -> TranscriptWriter:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in self._name)[:40] or "bot"
        self._file = TranscriptFile(
            self.folder / f"{stamp}-{self.source.value}-{name}-{what}.jsonl"
        )
        if tap is not None:
            self._file.taps.append(tap)
        self.paths.append(self._file.path)
        self._writer = TranscriptWriter(self._file.write, time.monotonic, start=start)
        size = self._set
        self._writer.write_header(
            self.source,
            rows=size.rows if size else None,
            cols=size.cols if size else None,
            peer=self.peer,
            at=start,
        )
        return self._writer

    def _end_game(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file = self._writer = None

    def _frame(self, at: float, direction: Direction, message: Message | None, raw: bytes) -> None:
        if self._writer is not None:
            self._writer.frame(self._species, direction, message, raw, at)
        else:
            self._waiting.append((at, direction, message, raw, None))

    def _note(self, at: float, text: str) -> None:
        if self._writer is not None:
            self._writer.note(self._species, text, at)
        else:
            self._waiting.append((at, None, None, b"", text))

    @staticmethod
    def _write_waiting(
        writer: TranscriptWriter, waiting: list[_Waiting], side: Kind | None
    ) -> None:
        for at, direction, message, raw, note in waiting:
            if note is not None:
                writer.note(side, note, at)
            elif direction is not None:
                writer.frame(side, direction, message, raw, at)


class RecordedStream(trio.abc.Stream):
    """A stream whose traffic, both ways, is watched and written down as it goes."""

    def __init__(self, stream: trio.abc.Stream, transcripts: WatchTranscripts) -> None:
        self.stream = stream
        self.watch = ConnectionWatch()
        self.transcripts = transcripts

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)
        self.transcripts.record(self.watch.from_bot(bytes(data), time.monotonic()))

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.stream.receive_some(max_bytes)
        if data:
            self.transcripts.record(self.watch.from_server(bytes(data), time.monotonic()))
        return data

    async def aclose(self) -> None:
        self.transcripts.record(self.watch.close(time.monotonic()))
        self.transcripts.close()
        await self.stream.aclose()


def recording(folder: Path, peer: str) -> Callable[[trio.abc.Stream, int], trio.abc.Stream]:
    """The ``wrap_stream`` of :func:`agents.client.play` that writes each game's traffic, as
    the bot saw it, to ``folder`` (``vvw agent --transcript``)."""

    def wrap(stream: trio.abc.Stream, played: int) -> trio.abc.Stream:
        transcripts = WatchTranscripts(folder, Source.AGENT, peer=peer, first_game=played + 1)
        return RecordedStream(stream, transcripts)

    return wrap
