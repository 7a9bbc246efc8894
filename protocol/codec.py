"""The course protocol as a sans-I/O codec: message values, ``encode``, an incremental ``Decoder``.

Every message is a 3-byte ASCII command followed by unsigned one-byte integers. This module
never touches a socket: the server, the bots' client, the transcript reader and the tests
all feed it bytes and get messages back.
"""

from typing import NamedTuple

from engine.state import Move, ply_text

MoveBytes = tuple[int, int, int, int, int]
"""One move as sent: ``(x, y, count, tx, ty)``."""
CellBytes = tuple[int, int, int, int, int]
"""One cell as sent in MAP/UPD: ``(x, y, humans, vampires, werewolves)``."""


class Nme(NamedTuple):
    """bot → server: the bot's name (any bytes, at most 255)."""

    name: bytes

    @property
    def text(self) -> str:
        return self.name.decode("utf-8", errors="replace")


class Mov(NamedTuple):
    """bot → server: one ply. ``MOV 0`` is well formed (the referee rules it illegal)."""

    moves: tuple[MoveBytes, ...]


class Set(NamedTuple):
    """server → bot: the grid size, rows first."""

    rows: int
    cols: int


class Hum(NamedTuple):
    """server → bot: the human houses at the start, in map-file order."""

    houses: tuple[tuple[int, int], ...]


class Hme(NamedTuple):
    """server → bot: the bot's starting cell."""

    x: int
    y: int


class Map(NamedTuple):
    """server → bot: every non-empty cell, row-major."""

    cells: tuple[CellBytes, ...]


class Upd(NamedTuple):
    """server → bot: the cells changed by the last plies; also "your turn"."""

    cells: tuple[CellBytes, ...]


class End(NamedTuple):
    """server → bot: the game is over."""


class Bye(NamedTuple):
    """server → bot: the server closes the connection."""


Message = Nme | Mov | Set | Hum | Hme | Map | Upd | End | Bye

_COMMANDS: dict[type, bytes] = {
    Nme: b"NME",
    Mov: b"MOV",
    Set: b"SET",
    Hum: b"HUM",
    Hme: b"HME",
    Map: b"MAP",
    Upd: b"UPD",
    End: b"END",
    Bye: b"BYE",
}
ALL = frozenset(command.decode() for command in _COMMANDS.values())
FROM_BOT = frozenset({"NME", "MOV"})
"""What a server accepts from a bot."""
FROM_SERVER = frozenset({"SET", "HUM", "HME", "MAP", "UPD", "END", "BYE"})
"""What a bot accepts from a server."""


def message_name(message: Message) -> str:
    """The 3-letter command of ``message``: ``"MOV"``, ``"UPD"``…"""
    return _COMMANDS[type(message)].decode()


def _byte(value: int, what: str) -> int:
    if not (isinstance(value, int) and 0 <= value <= 255):
        raise ValueError(f"{what} must be an integer 0..255 to fit in one byte, got {value!r}")
    return value


def _records(records: tuple[tuple[int, ...], ...], width: int, what: str) -> bytes:
    if len(records) > 255:
        raise ValueError(f"{what}: {len(records)} entries do not fit a one-byte count (max 255)")
    out = bytearray([len(records)])
    for record in records:
        if len(record) != width:
            raise ValueError(f"{what}: each entry has {width} values, got {record!r}")
        out.extend(_byte(value, what) for value in record)
    return bytes(out)


def encode(message: Message) -> bytes:
    """The bytes of ``message``; ``ValueError`` if a value does not fit in one byte."""
    command = _COMMANDS[type(message)]
    match message:
        case Nme(name):
            if len(name) > 255:
                raise ValueError(f"NME: a name has at most 255 bytes, got {len(name)}")
            return command + bytes([len(name)]) + bytes(name)
        case Mov(moves):
            return command + _records(moves, 5, "MOV")
        case Set(rows, cols):
            return command + bytes([_byte(rows, "SET rows"), _byte(cols, "SET cols")])
        case Hum(houses):
            return command + _records(houses, 2, "HUM")
        case Hme(x, y):
            return command + bytes([_byte(x, "HME x"), _byte(y, "HME y")])
        case Map(cells) | Upd(cells):
            return command + _records(cells, 5, command.decode())
        case _:
            return command


class ProtocolError(Exception):
    """Bytes that are not a valid message: where (``offset`` in the stream), what, and why."""

    def __init__(self, offset: int, data: bytes, reason: str) -> None:
        self.offset = offset
        self.data = bytes(data)
        self.reason = reason
        self.decoded: tuple[Message, ...] = ()
        """The complete messages that came before the bad bytes in the same ``feed``."""
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.reason} at byte {self.offset} ({self.data.hex(' ') or 'no bytes'})"


def _grouped(values: bytes, width: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(values[i : i + width]) for i in range(0, len(values), width))


# Per command: (bytes per record, or None for fixed-size), fixed size after the command.
_LAYOUT: dict[bytes, tuple[int | None, int]] = {
    b"NME": (1, 0),
    b"MOV": (5, 0),
    b"SET": (None, 2),
    b"HUM": (2, 0),
    b"HME": (None, 2),
    b"MAP": (5, 0),
    b"UPD": (5, 0),
    b"END": (None, 0),
    b"BYE": (None, 0),
}


def _build(command: bytes, body: bytes) -> Message:
    if command == b"MOV":
        return Mov(_grouped(body, 5))  # type: ignore[arg-type]
    if command == b"UPD":
        return Upd(_grouped(body, 5))  # type: ignore[arg-type]
    if command == b"MAP":
        return Map(_grouped(body, 5))  # type: ignore[arg-type]
    if command == b"NME":
        return Nme(bytes(body))
    if command == b"HUM":
        return Hum(_grouped(body, 2))  # type: ignore[arg-type]
    if command == b"SET":
        return Set(body[0], body[1])
    if command == b"HME":
        return Hme(body[0], body[1])
    if command == b"END":
        return End()
    return Bye()


class Decoder:
    """An incremental decoder: ``feed`` it whatever arrived, get the complete messages.

    ``accept`` is the set of commands allowed in this direction (``FROM_BOT``,
    ``FROM_SERVER``; ``None`` for all). Garbage raises :class:`ProtocolError` as soon as
    its three bytes are in (its ``decoded`` holds the complete messages before it in the
    same ``feed``); after that the decoder is poisoned and raises it again.
    """

    def __init__(self, accept: frozenset[str] | None = None) -> None:
        allowed = ALL if accept is None else accept
        unknown = allowed - ALL
        if unknown:
            raise ValueError(f"unknown commands: {sorted(unknown)}")
        self._accept = frozenset(command.encode() for command in allowed)
        self._buffer = bytearray()
        self._consumed = 0
        """Bytes taken out of the buffer so far: the stream offset of ``_buffer[0]``."""
        self._error: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received that do not make a complete message yet."""
        return len(self._buffer)

    @property
    def offset(self) -> int:
        """Bytes fed so far (complete messages and buffered bytes)."""
        return self._consumed + len(self._buffer)

    def feed(self, data: bytes | bytearray) -> list[Message]:
        """Add ``data``; return every message now complete (possibly none)."""
        if self._error is not None:
            raise self._error
        buffer = self._buffer
        buffer += data
        messages: list[Message] = []
        start = 0
        try:
            while len(buffer) - start >= 3:
                command = bytes(buffer[start : start + 3])
                layout = _LAYOUT.get(command)
                if layout is None or command not in self._accept:
                    what = "unknown command" if layout is None else "unexpected command"
                    raise ProtocolError(self._consumed + start, command, f"{what} {command!r}")
                width, fixed = layout
                if width is None:
                    end = start + 3 + fixed
                else:
                    if len(buffer) - start < 4:
                        break
                    end = start + 4 + buffer[start + 3] * width
                if len(buffer) < end:
                    break
                body_start = start + 3 if width is None else start + 4
                messages.append(_build(command, bytes(buffer[body_start:end])))
                start = end
        except ProtocolError as error:
            error.decoded = tuple(messages)
            self._error = error
            raise
        finally:
            if start:
                del buffer[:start]
                self._consumed += start
        return messages

    def close(self) -> None:
        """The stream ended: ``ProtocolError`` if a message was cut off, else nothing."""
        if self._error is not None:
            raise self._error
        if self._buffer:
            command = bytes(self._buffer[:3])
            name = command.decode("ascii", "replace") + " " if len(command) == 3 else ""
            error = ProtocolError(
                self._consumed,
                bytes(self._buffer),
                f"connection closed in the middle of a {name}message"
                f" ({len(self._buffer)} bytes received)",
            )
            self._error = error
            raise error

    def discard(self) -> int:
        """Drop the bytes of an incomplete message (late bytes); return how many."""
        dropped = len(self._buffer)
        self._consumed += dropped
        self._buffer.clear()
        return dropped


def _cells_text(cells: tuple[CellBytes, ...]) -> str:
    return " ".join(f"({x},{y} H{h} V{v} W{w})" for x, y, h, v, w in cells)


def describe(message: Message) -> str:
    """A short human-readable rendering for logs: ``MOV 1: (4,3)->(3,2) x4``…"""
    match message:
        case Nme(name):
            return f"NME {Nme(name).text!r}"
        case Mov(moves):
            body = ply_text([Move(*move) for move in moves])
            return f"MOV {len(moves)}: {body}" if moves else "MOV 0 (no moves)"
        case Set(rows, cols):
            return f"SET {rows} rows × {cols} columns"
        case Hum(houses):
            return f"HUM {len(houses)}: " + " ".join(f"({x},{y})" for x, y in houses)
        case Hme(x, y):
            return f"HME ({x},{y})"
        case Map(cells) | Upd(cells):
            label = message_name(message)
            return f"{label} {len(cells)} cells: {_cells_text(cells)}" if cells else f"{label} 0"
        case _:
            return message_name(message)
