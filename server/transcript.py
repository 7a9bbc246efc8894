"""Our server's transcripts: one file per game in the format of :mod:`protocol.transcript`.

:class:`TranscriptFile` is the file (created new, each line flushed; ``vvw proxy`` and
``vvw agent`` write theirs with it too). :class:`Transcript` adds what only the referee
knows: the settings, seed and first board in the header, each ply with the board after it and every
random battle's drawn outcome, the :class:`GameResult`. :class:`FrameRecorder` holds a
connection's frames until its game has a transcript (several games at once too).
"""

import os
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from engine import Battle, BattleOutcome, GameState, Kind, Move
from protocol.codec import Message
from protocol.records import Direction, Record, Source
from protocol.transcript import RecordSink, TranscriptWriter, encode
from server.settings import Settings


def _create_new(path: Path) -> tuple[Path, IO[str]]:
    """Open a file that did not exist: ``path``, else ``path`` with ``-2``, ``-3``… added."""
    candidate, number = path, 1
    while True:
        try:
            return candidate, candidate.open("x", encoding="utf-8")
        except FileExistsError:
            number += 1
            candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")


class TranscriptFile:
    """A new file of transcript lines at ``path`` (created with its folder), or next to it.

    An existing file is never overwritten: a name already taken gets ``-2``, ``-3``… Each
    record is written as its line, flushed (a game can be followed while it is written;
    nothing is lost on Ctrl-C), then given to the :attr:`taps`. Records written after
    :meth:`close` are dropped.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, file = _create_new(path)
        self._file: IO[str] | None = file
        self.taps: list[RecordSink] = []
        """Functions given each record as it is written (the live view)."""

    def write(self, record: Record) -> None:
        if self._file is None:
            return
        self._file.write(encode(record) + "\n")
        self._file.flush()
        for tap in self.taps:
            tap(record)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class Transcript(TranscriptWriter):
    """One game's transcript file, timed by ``time.monotonic()`` from its creation."""

    def __init__(self, path: Path) -> None:
        self.file = TranscriptFile(path)
        super().__init__(self.file.write, time.monotonic)
        self.early_frames: list[tuple] = []
        """Frames from before the game, ``(side, time, dir, message, raw)``: written after
        the header."""

    @property
    def path(self) -> Path:
        return self.file.path

    @property
    def taps(self) -> list[RecordSink]:
        return self.file.taps

    def header(self, map_name: str, start: GameState, settings: Settings, seed: int) -> None:
        self.write_header(
            Source.SERVER, map_name=map_name, seed=seed, start=start, settings=settings
        )
        for species, at, direction, message, raw in self.early_frames:
            self.frame(species, direction, message, raw, at)
        self.early_frames.clear()

    def ply(
        self,
        species: Kind,
        ply: Sequence[Move],
        after: GameState,
        battles: Sequence[tuple[Battle, BattleOutcome]],
    ) -> None:
        self.write_ply(species, after.ply, ply, after, battles)

    def close(self) -> None:
        self.file.close()

    def discard(self) -> None:
        """Close and delete the file (a normal game whose log was not asked for)."""
        self.close()
        self.path.unlink(missing_ok=True)

    def keep_in(self, folder: Path) -> Path:
        """Close and move the file into ``folder`` (if not there already); the new path."""
        self.close()
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / self.path.name
        if target.resolve() != self.path.resolve():
            number = 1
            while target.exists():  # never replace another game's transcript
                number += 1
                target = folder / f"{self.path.stem}-{number}{self.path.suffix}"
            os.replace(self.path, target)
            self.file.path = target
        return self.path


class FrameRecorder:
    """The ``on_frame`` hook of connections, each of whose frames goes to its game's
    transcript.

    Frames wait here (NME, SET, HUM, HME, MAP…) until :meth:`attach` gives a connection's
    game a transcript; from then on each of its frames is written as it happens, until
    :meth:`detach`. Games may be played side by side (a ladder's), each connection writing
    to its own game's transcript. A connection that never gets a game is forgotten with it
    (weak references).
    """

    def __init__(self) -> None:
        self._games: weakref.WeakKeyDictionary[Any, Transcript] = weakref.WeakKeyDictionary()
        self._waiting: weakref.WeakKeyDictionary[Any, list[tuple]] = weakref.WeakKeyDictionary()

    def __call__(
        self, player: Any, direction: Direction, message: Message | None, raw: bytes
    ) -> None:
        transcript = self._games.get(player)
        if transcript is not None and player.species is not None:
            transcript.frame(player.species, direction, message, raw)
        else:
            self._waiting.setdefault(player, []).append((time.monotonic(), direction, message, raw))

    def attach(self, transcript: Transcript | None, players: Sequence[Any]) -> None:
        """Write the waiting frames of ``players`` (seated) and route theirs to ``transcript``."""
        waiting = sorted(
            (
                (player.species, *frame)
                for player in players
                for frame in self._waiting.pop(player, [])
            ),
            key=lambda frame: frame[1],
        )
        if transcript is not None:
            transcript.early_frames.extend(waiting)
            for player in players:
                self._games[player] = transcript

    def detach(self, players: Sequence[Any]) -> None:
        """The game of ``players`` is over: their later frames wait again."""
        for player in players:
            self._games.pop(player, None)
