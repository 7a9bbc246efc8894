"""A transcript read back, sans I/O: its lines as typed records (:mod:`protocol.records`).

:class:`TranscriptReader` is fed a file's bytes in any pieces and answers typed records
(:class:`Header`, :class:`Frame`…), refusing anything else with a one-line
:class:`TranscriptError` that names the file, the line and the field: a gzipped file, a JSON
list, an XML map, a results file, a field of the wrong type, a newer version. Every version
of the format reads (see :data:`protocol.transcript.VERSION`). Nothing here opens a file:
:mod:`vvw.transcripts` reads and follows them; :mod:`protocol.replay` rebuilds the game.
"""

import json
from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from engine import Kind, Move, Termination
from engine.drawing import BoardCell
from protocol import records
from protocol.transcript import FORMAT, VERSION

E = TypeVar("E", bound=Enum)


class TranscriptError(Exception):
    """A file, or one line of it, that is not a transcript: ``str()`` is one line saying why."""


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

    def choice(self, name: str, enum: type[E], optional: bool = False) -> E | None:
        """A field written as one of ``enum``'s values."""
        value = self.line.get(name)
        if value is None and optional:
            return None
        try:
            return enum(value)
        except ValueError:
            wanted = " or ".join(json.dumps(member.value) for member in enum)
            raise self.fail(name, wanted) from None

    def cells(self, name: str) -> tuple[BoardCell, ...] | None:
        """A board, ``[x, y, kind, count]`` per cell (kind 1..3), or ``None``."""
        board = self.rows(name, 4, optional=True)
        if board is None:
            return None
        kinds = [_kind(kind) for _, _, kind, _ in board]
        if any(kind is None or kind == Kind.EMPTY for kind in kinds):
            raise self.fail(name, "[x, y, kind 1..3, count] cells")
        return tuple((x, y, kind, n) for (x, y, _, n), kind in zip(board, kinds, strict=True))  # type: ignore[misc]

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


def _header(f: _Fields) -> records.Header:
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
    return records.Header(
        t=f.number("t"),
        version=version,
        source=f.choice("source", records.Source, optional=True) or records.Source.SERVER,
        map=f.text("map", optional=True),
        seed=f.integer("seed", optional=True),
        rows=f.integer("rows", optional=True),
        cols=f.integer("cols", optional=True),
        settings=settings,
        peer=f.text("peer", optional=True),
        board=f.cells("board"),
    )


def _frame(f: _Fields) -> records.Frame:
    try:
        raw = bytes.fromhex(f.text("hex"))
    except ValueError:
        raise f.fail("hex", "hexadecimal digits") from None
    return records.Frame(
        t=f.number("t"),
        side=f.side(optional=True),
        direction=f.choice("dir", records.Direction),  # type: ignore[arg-type]
        command=f.choice("cmd", records.Command, optional=True),
        text=f.text("text"),
        raw=raw,
    )


def _battle(value: Any, where: str) -> records.BattleRecord:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where}: each battle must be an object")
    f = _Fields(value, f"{where}, battle")
    cell = value.get("cell")
    if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
        raise f.fail("cell", "two integers")
    return records.BattleRecord(
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


def _ply(f: _Fields) -> records.Ply:
    battles = f.line.get("battles") or []
    if not isinstance(battles, list):
        raise f.fail("battles", "a list")
    violation = f.text("violation", optional=True)
    return records.Ply(
        t=f.number("t"),
        side=f.side(),  # type: ignore[arg-type]
        ply_number=f.integer("ply_number"),
        moves=tuple(Move(*move) for move in f.rows("moves", 5)),
        board=f.cells("board"),
        battles=tuple(_battle(battle, f.where) for battle in battles),
        think=f.number("think", optional=True),
        violation=None if violation is None else records.Violation.read(violation),
    )


def _result(f: _Fields) -> records.Result:
    return records.Result(
        t=f.number("t"),
        winner=f.side("winner", optional=True),
        termination=f.choice("termination", Termination),  # type: ignore[arg-type]
        detail=f.text("detail"),
        plies=f.integer("plies"),
        fields={k: v for k, v in f.line.items() if k not in ("type", "t")},
    )


def parse_line(text: str, number: int) -> records.Record:
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
                return records.Player(
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
                return records.Skip(f.number("t"), f.side(), f.integer("ply_number"))  # type: ignore[arg-type]
            case "note":
                return records.Note(f.number("t"), f.side(optional=True), f.text("text"))
            case "result":
                return _result(f)
    except TypeError as error:  # a Move of the wrong arity and the like
        raise TranscriptError(f"{where}: {error}") from None
    raise TranscriptError(f"{where}: unknown record type {json.dumps(kind)}")


GZIP_MAGIC = b"\x1f\x8b"


def game_over(record: records.Record, header: records.Header | None) -> bool:
    """Whether ``record`` closes its game: the result, or END in a transcript that has no
    result (a proxy's or an agent's: they do not see how the game was judged)."""
    if isinstance(record, records.Result):
        return True
    one_sided = header is not None and header.source is not records.Source.SERVER
    return one_sided and isinstance(record, records.Frame) and record.command is records.Command.END


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
        self.header: records.Header | None = None
        """The header, once read."""
        self._pending = b""
        self._lines = 0
        self._checked = False

    def feed(self, data: bytes) -> list[records.Record]:
        """The records of the lines ``data`` completes."""
        if not data:
            return []
        if not self._checked:
            self._check_start(data)
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        answered: list[records.Record] = []
        for line in lines:
            self._lines += 1
            if not line.strip():
                continue
            record = self._parse(line, self._lines)
            answered.append(record)
            if isinstance(record, records.Header):
                self.header = record
        return answered

    def close(self) -> list[records.Record]:
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

    def _parse(self, line: bytes, number: int) -> records.Record:
        try:
            return parse_line(line.decode("utf-8", errors="replace"), number)
        except TranscriptError as error:
            raise TranscriptError(f"{self.name}: {error}") from None
