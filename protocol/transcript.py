"""The transcript format: one game's traffic as JSON Lines, its records made and written, sans I/O.

Our server, ``vvw proxy`` and ``vvw agent --transcript`` write it; ``vvw log show``, the
viewer, the analysis and the tests read it (:mod:`protocol.reading`, then
:mod:`protocol.replay` for the boards). One JSON object per line; the first line is the
``header``, which names the format and its :data:`VERSION`; the others, in time order, are
``player``, ``frame``, ``ply``, ``skip``, ``note`` and ``result`` lines. docs/protocol.md
describes every field.

Nothing here opens a file or reads a clock. :class:`TranscriptWriter` makes each line's typed
record (:mod:`protocol.records`), timed on the caller's clock, and gives it to the caller's
sink; :func:`encode` is the record's line. The files are written by :mod:`server.transcript`
and :mod:`vvw.watching`, read and followed by :mod:`vvw.transcripts`.
"""

import json
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

import attrs

from engine import Battle, BattleOutcome, GameResult, GameState, Kind, Move, win_probability
from protocol import records
from protocol.codec import Message, describe, message_name

FORMAT = "vvw-transcript"
"""The ``format`` field of every header."""
VERSION = 1
"""The version this module writes. :mod:`protocol.reading` reads this one and the
unversioned files of before (version 0: the same lines, without ``format``, ``version`` and
``source``)."""


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: a :class:`Kind` by its name (``"vampires"``), any other
    enum by its value, an attrs instance as an object of its fields, tuples as lists."""
    if isinstance(value, Kind):
        return value.wire_name
    if isinstance(value, Enum):
        return value.value
    if attrs.has(type(value)):
        return {k: jsonable(v) for k, v in attrs.asdict(value, recurse=False).items()}
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def battle_record(battle: Battle, outcome: BattleOutcome | None) -> records.BattleRecord:
    """One battle as a transcript tells it; ``outcome`` ``None`` when the draw is not known."""
    return records.BattleRecord(
        cell=(battle.x, battle.y),
        attacker=Kind(battle.attacker),
        attackers=battle.attackers,
        defender=Kind(battle.defender),
        defenders=battle.defenders,
        attacker_win_probability=float(win_probability(battle.attackers, battle.defenders)),
        winner=None if outcome is None else Kind(outcome.winner),
        survivors=None if outcome is None else outcome.survivors,
        outcome_probability=None if outcome is None else float(outcome.probability),
    )


# --- records as lines -----------------------------------------------------------------------


def _cells(cells: Sequence[tuple[int, int, Kind, int]]) -> list[list[int]]:
    return [[x, y, int(kind), count] for x, y, kind, count in cells]


def _fields(record: records.Record) -> dict[str, Any]:
    """The line's fields after ``type`` and ``t``, in the order they are written."""
    match record:
        case records.Header():
            return {
                "format": FORMAT,
                "version": record.version,
                "source": record.source.value,
                "map": record.map,
                "seed": record.seed,
                "rows": record.rows,
                "cols": record.cols,
                "board": None if record.board is None else _cells(record.board),
                "settings": dict(record.settings),
                "peer": record.peer,
            }
        case records.Frame():
            return {
                "side": jsonable(record.side),
                "dir": record.direction.value,
                "cmd": jsonable(record.command),
                "text": record.text,
                "hex": record.raw.hex(),
            }
        case records.Ply():
            return {
                "side": jsonable(record.side),
                "ply_number": record.ply_number,
                "moves": [list(move) for move in record.moves],
                "board": None if record.board is None else _cells(record.board),
                "battles": jsonable(record.battles),
                "think": record.think,
                "violation": None if record.violation is None else str(record.violation),
            }
        case records.Result():
            return dict(record.fields)
    return {k: jsonable(v) for k, v in attrs.asdict(record, recurse=False).items() if k != "t"}


_TYPES: dict[type, str] = {
    records.Header: "header",
    records.Player: "player",
    records.Frame: "frame",
    records.Ply: "ply",
    records.Skip: "skip",
    records.Note: "note",
    records.Result: "result",
}


def encode(record: records.Record) -> str:
    """The record's line: its JSON text, without the newline."""
    line = {"type": _TYPES[type(record)], "t": record.t, **_fields(record)}
    return json.dumps(line, ensure_ascii=False)


# --- writing ------------------------------------------------------------------------------

RecordSink = Callable[[records.Record], None]
"""Where a writer's records go, each as it is made (a file writes its :func:`encode`)."""


class TranscriptWriter:
    """Makes one game's records and gives each to ``sink`` as it is made; sans I/O.

    A record's ``t`` is seconds since ``start`` on the caller's ``clock``: the moment given
    with it (``at``), else ``clock()`` when it is made. The writer reads no clock of its own
    and writes no file: the server's files are :mod:`server.transcript`'s, a watched
    connection's :mod:`vvw.watching`'s.
    """

    def __init__(
        self, sink: RecordSink, clock: Callable[[], float], start: float | None = None
    ) -> None:
        self._sink = sink
        self._clock = clock
        self._start = clock() if start is None else start

    def _t(self, at: float | None) -> float:
        moment = self._clock() if at is None else at
        return round(moment - self._start, 6)

    def write_header(
        self,
        source: records.Source,
        *,
        map_name: str | None = None,
        seed: int | None = None,
        rows: int | None = None,
        cols: int | None = None,
        start: GameState | None = None,
        settings: Any = None,
        peer: str | None = None,
        at: float | None = None,
    ) -> None:
        """The first record; ``start`` the board before the first ply (its size too), when
        known; ``settings`` any value :func:`jsonable` turns into an object."""
        if start is not None:
            rows, cols = start.rows, start.cols
        self._sink(
            records.Header(
                self._t(at),
                VERSION,
                source,
                map_name,
                seed,
                rows,
                cols,
                jsonable(settings) if settings is not None else {},
                peer,
                None if start is None else tuple(start.board_cells()),
            )
        )

    def player(
        self, side: Kind | None, name: str, peer: str | None, at: float | None = None
    ) -> None:
        self._sink(records.Player(self._t(at), side, name, peer))

    def frame(
        self,
        side: Kind | None,
        direction: records.Direction,
        message: Message | None,
        raw: bytes,
        at: float | None = None,
    ) -> None:
        command = None if message is None else records.Command(message_name(message))
        text = describe(message) if message is not None else "(not a valid message)"
        self._sink(records.Frame(self._t(at), side, direction, command, text, raw))

    def write_ply(
        self,
        side: Kind,
        ply_number: int,
        moves: Sequence[Move],
        board: GameState | None,
        battles: Sequence[tuple[Battle, BattleOutcome | None]] = (),
        *,
        think: float | None = None,
        violation: str | None = None,
        at: float | None = None,
    ) -> None:
        self._sink(
            records.Ply(
                self._t(at),
                side,
                ply_number,
                tuple(Move(*move) for move in moves),
                None if board is None else tuple(board.board_cells()),
                tuple(battle_record(battle, outcome) for battle, outcome in battles),
                None if think is None else round(think, 6),
                None if violation is None else records.Violation.read(violation),
            )
        )

    def skip(self, side: Kind, ply_number: int, at: float | None = None) -> None:
        self._sink(records.Skip(self._t(at), side, ply_number))

    def note(self, side: Kind | None, text: str, at: float | None = None) -> None:
        self._sink(records.Note(self._t(at), side, text))

    def result(self, result: GameResult, at: float | None = None) -> None:
        """The last record: the game's :class:`GameResult`, field by field."""
        fields = jsonable(result)
        self._sink(
            records.Result(
                self._t(at), result.winner, result.termination, result.detail, result.plies, fields
            )
        )
