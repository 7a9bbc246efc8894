"""Our server's transcripts: one file per game in the format of :mod:`protocol.transcript`.

:class:`Transcript` adds what only the referee knows: the settings and seed in the header,
each ply with the board after it and every random battle's drawn outcome, the
:class:`GameResult`. :class:`FrameRecorder` holds a connection's frames until its game has a
transcript.
"""

import os
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from engine import Battle, BattleOutcome, GameResult, GameState, Kind, Move
from protocol.codec import Message
from protocol.transcript import TranscriptWriter
from server.settings import Settings


def _jsonable(value: Any) -> Any:
    if isinstance(value, Kind):
        return value.name.lower()
    if hasattr(value, "value") and hasattr(value, "name"):  # other enums
        return value.value
    if attrs.has(type(value)):
        return {k: _jsonable(v) for k, v in attrs.asdict(value, recurse=False).items()}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


class Transcript(TranscriptWriter):
    """Writes one game's lines to ``path`` (created with its folder), or next to it.

    An existing file is never overwritten: a name already taken gets ``-2``, ``-3``…
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.early_frames: list[tuple] = []
        """Frames from before the game, ``(side, time, dir, message, raw)``: written after
        the header."""

    def header(self, map_name: str, settings: Settings, seed: int) -> None:
        self.write_header("server", map_name=map_name, seed=seed, settings=_jsonable(settings))
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

    def result(self, result: GameResult) -> None:
        self.write("result", **_jsonable(result))

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
            self.path = target
        return self.path


class FrameRecorder:
    """The ``on_frame`` hook of connections whose game has no transcript yet.

    Frames wait here (NME, SET, HUM, HME, MAP…) until :meth:`attach` gives the players'
    game a transcript; from then on each frame is written as it happens. A connection
    that never gets a game is forgotten with it (weak references).
    """

    def __init__(self) -> None:
        self.transcript: Transcript | None = None
        self._waiting: weakref.WeakKeyDictionary[Any, list[tuple]] = weakref.WeakKeyDictionary()

    def __call__(self, player: Any, direction: str, message: Message | None, raw: bytes) -> None:
        if self.transcript is not None and player.species is not None:
            self.transcript.frame(player.species, direction, message, raw)
        else:
            self._waiting.setdefault(player, []).append((time.monotonic(), direction, message, raw))

    def attach(self, transcript: Transcript | None, players: Sequence[Any]) -> None:
        """Write the waiting frames of ``players`` (seated) and route theirs to ``transcript``."""
        self.transcript = transcript
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

    def detach(self) -> None:
        """The game is over: frames of later connections wait again."""
        self.transcript = None
