"""The transcript format: one game's traffic as JSON Lines, its lines made and read, sans I/O.

Our server, ``vvw proxy`` and ``vvw agent --transcript`` write it; ``vvw log show``, the
viewer and the tests read it, all through this module. One JSON object per line; the first
line is the ``header``, which names the format and its :data:`VERSION`; the others, in time
order, are ``player``, ``frame``, ``ply``, ``skip``, ``note`` and ``result`` lines.
docs/protocol.md describes every field.

Nothing here opens a file or reads a clock. :class:`TranscriptWriter` gives each line it
makes to the caller's sink, timed on the caller's clock; :class:`TranscriptReader` is fed
a file's bytes and answers typed records (:class:`Header`, :class:`Frame`…), refusing
anything else with a one-line :class:`TranscriptError` that names the file, the line and
the field: a gzipped file, a JSON list, an XML map, a results file, a field of the wrong
type. The files are written by :mod:`server.transcript` and :mod:`vvw.watching`, read and
followed by :mod:`vvw.transcripts`.
"""

import json
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

import attrs

from engine import Battle, BattleOutcome, GameResult, GameState, Kind, Move, win_probability
from engine.drawing import BoardCell
from protocol.codec import Message, describe, message_name

FORMAT = "vvw-transcript"
"""The ``format`` field of every header."""
VERSION = 1
"""The version this module writes. It reads this one and the unversioned files of before
(version 0: the same lines, without ``format``, ``version`` and ``source``)."""

IN = "in"
"""A frame's ``dir`` for bytes the bot sent (bot → server)."""
OUT = "out"
"""A frame's ``dir`` for bytes the bot was sent (server → bot)."""


class TranscriptError(Exception):
    """A file, or one line of it, that is not a transcript: ``str()`` is one line saying why."""


# --- records ------------------------------------------------------------------------------


@attrs.frozen
class Header:
    """The first line: what wrote the file, for which game."""

    t: float
    version: int
    source: str
    """``server``, ``proxy`` or ``agent`` (``server`` for version 0)."""
    map: str | None
    seed: int | None
    rows: int | None
    """The grid size, when the writer knew it (the proxy and the agent take it from SET)."""
    cols: int | None
    settings: Mapping[str, Any]
    peer: str | None
    """The other end of the connection, for a proxy or agent transcript."""


@attrs.frozen
class Player:
    """A side's name (as sent in NME) and where it connected from."""

    t: float
    side: Kind | None
    name: str
    peer: str | None


@attrs.frozen
class Frame:
    """One message on the wire, as the bytes went (``raw``) and decoded (``text``)."""

    t: float
    side: Kind | None
    """Whose connection; ``None`` before a side was known."""
    direction: str
    """:data:`IN` (bot → server) or :data:`OUT` (server → bot)."""
    command: str | None
    """The 3-letter command, ``None`` for bytes that are not a valid message."""
    text: str
    raw: bytes


@attrs.frozen
class BattleRecord:
    """A random battle of a ply: who, how many, the odds, and the outcome if known."""

    cell: tuple[int, int]
    attacker: Kind
    attackers: int
    defender: Kind
    defenders: int
    attacker_win_probability: float
    winner: Kind | None
    """``None`` when the writer could not see the draw (a proxy or agent transcript)."""
    survivors: int | None
    outcome_probability: float | None


@attrs.frozen
class Ply:
    """One player's turn: the moves, and the board after them when known."""

    t: float
    side: Kind
    ply_number: int
    moves: tuple[Move, ...]
    board: tuple[BoardCell, ...] | None
    """The board after the ply; ``None`` when a random battle the writer could not see
    decides it (the next UPD tells the outcome)."""
    battles: tuple[BattleRecord, ...]
    think: float | None
    """Seconds from the UPD sent to the MOV received, when the writer measured it."""
    violation: str | None
    """The rule the ply breaks as our referee judges it (``rule 3 (…): …``), else ``None``."""


@attrs.frozen
class Skip:
    """A turn the mover did not answer in time (the turn was skipped)."""

    t: float
    side: Kind
    ply_number: int


@attrs.frozen
class Note:
    """Something the writer flagged: a malformed message, a message out of place…"""

    t: float
    side: Kind | None
    text: str


@attrs.frozen
class Result:
    """How the game ended (our server's :class:`GameResult`, field by field)."""

    t: float
    winner: Kind | None
    termination: str
    detail: str
    plies: int
    fields: Mapping[str, Any]
    """Every field of the line, for what the typed ones leave out (players' records…)."""


Record = Header | Player | Frame | Ply | Skip | Note | Result


# --- writing ------------------------------------------------------------------------------


def _side(kind: Kind | None) -> str | None:
    return None if kind is None else kind.name.lower()


def board_cells(state: GameState) -> list[list[int]]:
    """The board as written: ``[x, y, kind, count]`` per non-empty cell, row-major."""
    return [[x, y, int(kind), count] for x, y, kind, count in state.board_cells()]


def battle_fields(battle: Battle, outcome: BattleOutcome | None) -> dict[str, Any]:
    """One battle as written; ``outcome`` ``None`` when the draw is not known."""
    return {
        "cell": [battle.x, battle.y],
        "attacker": Kind(battle.attacker).name.lower(),
        "attackers": battle.attackers,
        "defender": Kind(battle.defender).name.lower(),
        "defenders": battle.defenders,
        "attacker_win_probability": float(win_probability(battle.attackers, battle.defenders)),
        "winner": None if outcome is None else Kind(outcome.winner).name.lower(),
        "survivors": None if outcome is None else outcome.survivors,
        "outcome_probability": None if outcome is None else float(outcome.probability),
    }


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: a :class:`Kind` by its name (``"vampires"``), any other
    enum by its value, an attrs instance as an object of its fields, tuples as lists."""
    if isinstance(value, Kind):
        return value.name.lower()
    if isinstance(value, Enum):
        return value.value
    if attrs.has(type(value)):
        return {k: jsonable(v) for k, v in attrs.asdict(value, recurse=False).items()}
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


LineSink = Callable[[str], None]
"""Where a writer's lines go, each as its JSON text without the newline."""


class TranscriptWriter:
    """Makes one game's lines and gives each to ``sink`` as it is made; sans I/O.

    A line's ``t`` is seconds since ``start`` on the caller's ``clock``: the moment given
    with the line (``at``), else ``clock()`` when it is written. The writer reads no clock
    of its own and writes no file: the server's files are :mod:`server.transcript`'s, a
    watched connection's :mod:`vvw.watching`'s.
    """

    def __init__(
        self, sink: LineSink, clock: Callable[[], float], start: float | None = None
    ) -> None:
        self._sink = sink
        self._clock = clock
        self._start = clock() if start is None else start

    def write(self, kind: str, at: float | None = None, **fields: Any) -> None:
        """One line of type ``kind``; ``at`` is its moment on the clock (now if not given)."""
        moment = self._clock() if at is None else at
        line = {"type": kind, "t": round(moment - self._start, 6), **fields}
        self._sink(json.dumps(line, ensure_ascii=False))

    def write_header(
        self,
        source: str,
        *,
        map_name: str | None = None,
        seed: int | None = None,
        rows: int | None = None,
        cols: int | None = None,
        settings: Any = None,
        peer: str | None = None,
        at: float | None = None,
    ) -> None:
        """The first line; ``settings`` any value :func:`jsonable` turns into an object."""
        self.write(
            "header",
            at,
            format=FORMAT,
            version=VERSION,
            source=source,
            map=map_name,
            seed=seed,
            rows=rows,
            cols=cols,
            settings=jsonable(settings) if settings is not None else {},
            peer=peer,
        )

    def player(
        self, side: Kind | None, name: str, peer: str | None, at: float | None = None
    ) -> None:
        self.write("player", at, side=_side(side), name=name, peer=peer)

    def frame(
        self,
        side: Kind | None,
        direction: str,
        message: Message | None,
        raw: bytes,
        at: float | None = None,
    ) -> None:
        self.write(
            "frame",
            at,
            side=_side(side),
            dir=direction,
            cmd=message_name(message) if message is not None else None,
            text=describe(message) if message is not None else "(not a valid message)",
            hex=raw.hex(),
        )

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
        self.write(
            "ply",
            at,
            side=_side(side),
            ply_number=ply_number,
            moves=[list(move) for move in moves],
            board=None if board is None else board_cells(board),
            battles=[battle_fields(battle, outcome) for battle, outcome in battles],
            think=None if think is None else round(think, 6),
            violation=violation,
        )

    def skip(self, side: Kind, ply_number: int, at: float | None = None) -> None:
        self.write("skip", at, side=_side(side), ply_number=ply_number)

    def note(self, side: Kind | None, text: str, at: float | None = None) -> None:
        self.write("note", at, side=_side(side), text=text)

    def result(self, result: GameResult, at: float | None = None) -> None:
        """The last line: the game's :class:`GameResult`, field by field."""
        self.write("result", at, **jsonable(result))


# --- reading ------------------------------------------------------------------------------


class _Fields:
    """The fields of one line, each read with its expected type or a precise error."""

    def __init__(self, line: Mapping[str, Any], where: str) -> None:
        self.line = line
        self.where = where

    def fail(self, name: str, wanted: str) -> TranscriptError:
        value = json.dumps(self.line.get(name))
        if len(value) > 40:
            value = value[:37] + "..."
        return TranscriptError(f"{self.where}: field {name!r} must be {wanted}, got {value}")

    def get(
        self, name: str, types: type | tuple[type, ...], wanted: str, optional: bool = False
    ) -> Any:
        value = self.line.get(name)
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, types):
            raise self.fail(name, wanted)
        return value

    def integer(self, name: str, optional: bool = False) -> Any:
        return self.get(name, int, "an integer", optional)

    def number(self, name: str, optional: bool = False) -> Any:
        value = self.get(name, (int, float), "a number", optional)
        return None if value is None else float(value)

    def text(self, name: str, optional: bool = False) -> Any:
        return self.get(name, str, "a string", optional)

    def side(self, name: str = "side", optional: bool = False) -> Kind | None:
        value = self.line.get(name)
        if value is None and optional:
            return None
        kind = _kind(value)
        if kind is None or not kind.is_species:
            raise self.fail(name, '"vampires" or "werewolves"')
        return kind

    def kind(self, name: str, optional: bool = False) -> Kind | None:
        value = self.line.get(name)
        if value is None and optional:
            return None
        kind = _kind(value)
        if kind is None or kind == Kind.EMPTY:
            raise self.fail(name, '"humans", "vampires" or "werewolves"')
        return kind

    def rows(self, name: str, width: int, optional: bool = False) -> Any:
        value = self.line.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, list) or not all(
            isinstance(row, list)
            and len(row) == width
            and all(isinstance(v, int) and not isinstance(v, bool) for v in row)
            for row in value
        ):
            raise self.fail(name, f"a list of lists of {width} integers")
        return value


def _kind(value: Any) -> Kind | None:
    """A kind written as its name (``"vampires"``) or number (``2``)."""
    if isinstance(value, str):
        return Kind.__members__.get(value.upper())
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return Kind(value)
        except ValueError:
            return None
    return None


def _header(f: _Fields) -> Header:
    version = 0
    if "format" in f.line or "version" in f.line:
        if f.line.get("format") != FORMAT:
            raise f.fail("format", json.dumps(FORMAT))
        version = f.integer("version")
        if version > VERSION:
            raise TranscriptError(
                f"{f.where}: transcript format version {version} is newer than this vvw reads"
                f" ({VERSION}): upgrade vvw"
            )
    settings = f.line.get("settings") or {}
    if not isinstance(settings, dict):
        raise f.fail("settings", "an object")
    return Header(
        t=f.number("t"),
        version=version,
        source=f.text("source", optional=True) or "server",
        map=f.text("map", optional=True),
        seed=f.integer("seed", optional=True),
        rows=f.integer("rows", optional=True),
        cols=f.integer("cols", optional=True),
        settings=settings,
        peer=f.text("peer", optional=True),
    )


def _frame(f: _Fields) -> Frame:
    direction = f.text("dir")
    if direction not in (IN, OUT):
        raise f.fail("dir", '"in" or "out"')
    try:
        raw = bytes.fromhex(f.text("hex"))
    except ValueError:
        raise f.fail("hex", "hexadecimal digits") from None
    return Frame(
        t=f.number("t"),
        side=f.side(optional=True),
        direction=direction,
        command=f.text("cmd", optional=True),
        text=f.text("text"),
        raw=raw,
    )


def _battle(value: Any, where: str) -> BattleRecord:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where}: each battle must be an object")
    f = _Fields(value, f"{where}, battle")
    cell = value.get("cell")
    if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
        raise f.fail("cell", "two integers")
    return BattleRecord(
        cell=(cell[0], cell[1]),
        attacker=f.kind("attacker"),  # type: ignore[arg-type]
        attackers=f.integer("attackers"),
        defender=f.kind("defender"),  # type: ignore[arg-type]
        defenders=f.integer("defenders"),
        attacker_win_probability=f.number("attacker_win_probability"),
        winner=f.kind("winner", optional=True),
        survivors=f.integer("survivors", optional=True),
        outcome_probability=f.number("outcome_probability", optional=True),
    )


def _ply(f: _Fields) -> Ply:
    board = f.rows("board", 4, optional=True)
    cells: tuple[BoardCell, ...] | None = None
    if board is not None:
        kinds = [_kind(kind) for _, _, kind, _ in board]
        if any(kind is None or kind == Kind.EMPTY for kind in kinds):
            raise f.fail("board", "[x, y, kind 1..3, count] cells")
        cells = tuple((x, y, kind, n) for (x, y, _, n), kind in zip(board, kinds, strict=True))  # type: ignore[misc]
    battles = f.line.get("battles") or []
    if not isinstance(battles, list):
        raise f.fail("battles", "a list")
    return Ply(
        t=f.number("t"),
        side=f.side(),  # type: ignore[arg-type]
        ply_number=f.integer("ply_number"),
        moves=tuple(Move(*move) for move in f.rows("moves", 5)),
        board=cells,
        battles=tuple(_battle(battle, f.where) for battle in battles),
        think=f.number("think", optional=True),
        violation=f.text("violation", optional=True),
    )


def _result(f: _Fields) -> Result:
    return Result(
        t=f.number("t"),
        winner=f.side("winner", optional=True),
        termination=f.text("termination"),
        detail=f.text("detail"),
        plies=f.integer("plies"),
        fields=dict(f.line),
    )


def parse_line(text: str, number: int) -> Record:
    """Line ``number`` (1-based) of a transcript as a record; ``TranscriptError`` if it is not one.

    Line 1 must be a header, every later line anything but a header.
    """
    where = f"line {number}"
    try:
        line = json.loads(text)
    except json.JSONDecodeError:
        start = text.lstrip("\ufeff \t\r\n")[:1]  # map files often begin with a BOM
        hint = " (an XML file, such as a map?)" if start == "<" else ""
        raise TranscriptError(f"{where} is not JSON{hint}") from None
    if not isinstance(line, dict):
        what = type(line).__name__.replace("list", "a JSON list").replace("dict", "an object")
        raise TranscriptError(f"{where} is {what}, not a transcript record")
    kind = line.get("type")
    f = _Fields(line, f"{where} ({kind})")
    if number == 1 and kind != "header":
        hint = " (a results file?)" if "type" not in line else ""
        raise TranscriptError(f"{where} is not a transcript header{hint}")
    try:
        match kind:
            case "header" if number == 1:
                return _header(f)
            case "player":
                return Player(
                    f.number("t"),
                    f.side(optional=True),
                    f.text("name"),
                    f.text("peer", optional=True),
                )
            case "frame":
                return _frame(f)
            case "ply":
                return _ply(f)
            case "skip":
                return Skip(f.number("t"), f.side(), f.integer("ply_number"))  # type: ignore[arg-type]
            case "note":
                return Note(f.number("t"), f.side(optional=True), f.text("text"))
            case "result":
                return _result(f)
    except TypeError as error:  # a Move of the wrong arity and the like
        raise TranscriptError(f"{where}: {error}") from None
    raise TranscriptError(f"{where}: unknown record type {json.dumps(kind)}")


GZIP_MAGIC = b"\x1f\x8b"


def game_over(record: Record, header: Header | None) -> bool:
    """Whether ``record`` closes its game: the result, or END in a transcript that has no
    result (a proxy's or an agent's: they do not see how the game was judged)."""
    if isinstance(record, Result):
        return True
    one_sided = header is not None and header.source != "server"
    return one_sided and isinstance(record, Frame) and record.command == "END"


class TranscriptReader:
    """A transcript's bytes in, its records out, sans I/O, as :class:`~protocol.codec.Decoder`
    reads messages: fed the file's bytes in any pieces (all at once, or as a followed file
    grows), it answers the records of the lines completed so far.

    ``name`` (the file's) begins every :class:`TranscriptError`: a file whose first bytes show
    it is no transcript (gzip, binary, not UTF-8), or a line that is no record. A line
    without its newline is waited for; :meth:`close` (the end of the file) leaves out a cut
    last line, unless it is the only one.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.header: Header | None = None
        """The header, once read."""
        self._pending = b""
        self._lines = 0
        self._checked = False

    def feed(self, data: bytes) -> list[Record]:
        """The records of the lines ``data`` completes."""
        if not data:
            return []
        if not self._checked:
            self._check_start(data)
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        records: list[Record] = []
        for line in lines:
            self._lines += 1
            if not line.strip():
                continue
            record = self._parse(line, self._lines)
            records.append(record)
            if isinstance(record, Header):
                self.header = record
        return records

    def close(self) -> list[Record]:
        """The end of the file: ``TranscriptError`` if it held nothing; a first line without
        its newline is read (it must be a header), a later one left out (still being
        written, or cut)."""
        if self._lines:
            return []
        if not self._pending.strip():
            raise TranscriptError(f"{self.name} is empty, not a transcript")
        record = self._parse(self._pending, 1)
        self._lines = 1
        return [record]

    def _check_start(self, head: bytes) -> None:
        self._checked = True
        if head.startswith(GZIP_MAGIC):
            raise TranscriptError(f"{self.name} is gzip-compressed: gunzip it first")
        if b"\0" in head:
            raise TranscriptError(f"{self.name} is a binary file, not a transcript")
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as error:
            if error.start < len(head) - 4:  # not just a character cut by the read
                raise TranscriptError(f"{self.name} is not UTF-8 text, not a transcript") from None

    def _parse(self, line: bytes, number: int) -> Record:
        try:
            return parse_line(line.decode("utf-8", errors="replace"), number)
        except TranscriptError as error:
            raise TranscriptError(f"{self.name}: {error}") from None
