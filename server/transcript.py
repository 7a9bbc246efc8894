"""Traffic logs: one JSON Lines file per game, written as the game goes.

Line kinds (field ``type``): ``header`` (map, settings, seed), ``player`` (a side's name),
``frame`` (every message in both directions: monotonic time, side, direction, decoded
text, raw bytes in hex), ``ply`` (the moves, the board after, each random battle with its
odds and the drawn outcome), ``skip`` (a turn without a reply), ``result`` (the
:class:`GameResult`). Each line is flushed at once, so nothing is lost on Ctrl-C.
"""

import json
import os
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from engine import Battle, BattleOutcome, GameState, Kind, Move
from engine.battle import win_probability
from protocol.codec import Message, describe, message_name
from server.result import GameResult
from server.settings import Settings


def _cells(state: GameState) -> list[list[int]]:
    cols = state.cols
    return [[pos % cols, pos // cols, kind, count] for pos, kind, count in state.cells]


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


def _create_new(path: Path) -> tuple[Path, IO[str]]:
    """Open a file that did not exist: ``path``, else ``path`` with ``-2``, ``-3``… added."""
    candidate, number = path, 1
    while True:
        try:
            return candidate, candidate.open("x", encoding="utf-8")
        except FileExistsError:
            number += 1
            candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")


class Transcript:
    """Writes one game's lines to ``path`` (created with its folder), or next to it.

    An existing file is never overwritten: a name already taken gets ``-2``, ``-3``…
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, file = _create_new(path)
        self._file: IO[str] | None = file
        self._start = time.monotonic()
        self.early_frames: list[tuple] = []
        """Frames from before the game, ``(side, time, dir, message, raw)``: written after
        the header."""

    def write(self, kind: str, at: float | None = None, **fields: Any) -> None:
        """One line; ``at`` is its ``time.monotonic()`` (now if not given)."""
        if self._file is None:
            return
        moment = time.monotonic() if at is None else at
        line = {"type": kind, "t": round(moment - self._start, 6), **fields}
        self._file.write(json.dumps(_jsonable(line), ensure_ascii=False) + "\n")
        self._file.flush()

    def header(self, map_name: str, settings: Settings, seed: int) -> None:
        self.write("header", map=map_name, seed=seed, settings=_jsonable(settings))
        for species, at, direction, message, raw in self.early_frames:
            self.frame(species, direction, message, raw, at)
        self.early_frames.clear()

    def player(self, species: Kind, name: str, peer: str) -> None:
        self.write("player", side=species, name=name, peer=peer)

    def frame(
        self,
        species: Kind | None,
        direction: str,
        message: Message | None,
        raw: bytes,
        at: float | None = None,
    ) -> None:
        self.write(
            "frame",
            at,
            side=species,
            dir=direction,
            cmd=message_name(message) if message is not None else None,
            text=describe(message) if message is not None else "(not a valid message)",
            hex=raw.hex(),
        )

    def ply(
        self,
        species: Kind,
        ply: Sequence[Move],
        after: GameState,
        battles: Sequence[tuple[Battle, BattleOutcome]],
    ) -> None:
        self.write(
            "ply",
            side=species,
            ply_number=after.ply,
            moves=[list(move) for move in ply],
            board=_cells(after),
            battles=[
                {
                    "cell": [battle.x, battle.y],
                    "attacker": battle.attacker,
                    "attackers": battle.attackers,
                    "defender": battle.defender,
                    "defenders": battle.defenders,
                    "attacker_win_probability": float(
                        win_probability(battle.attackers, battle.defenders)
                    ),
                    "winner": outcome.winner,
                    "survivors": outcome.survivors,
                    "outcome_probability": float(outcome.probability),
                }
                for battle, outcome in battles
            ],
        )

    def skip(self, species: Kind, ply_number: int) -> None:
        self.write("skip", side=species, ply_number=ply_number)

    def result(self, result: GameResult) -> None:
        self.write("result", **_jsonable(result))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

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
            self._waiting.setdefault(player, []).append(
                (time.monotonic(), direction, message, raw)
            )

    def attach(self, transcript: Transcript | None, players: Sequence[Any]) -> None:
        """Write the waiting frames of ``players`` (seated) and route theirs to ``transcript``."""
        self.transcript = transcript
        waiting = sorted(
            ((player.species, *frame) for player in players
             for frame in self._waiting.pop(player, [])),
            key=lambda frame: frame[1],
        )
        if transcript is not None:
            transcript.early_frames.extend(waiting)

    def detach(self) -> None:
        """The game is over: frames of later connections wait again."""
        self.transcript = None


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The lines of a transcript file, as dicts (a cut last line is skipped)."""
    lines = []
    with path.open(encoding="utf-8") as file:
        for text in file:
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                continue
    return lines
