"""The transcript format, sans I/O: what the writer makes, the typed reader reads back, field
by field, fed in any pieces; anything else is one :class:`TranscriptError` line naming the
file, the line and the reason."""

import gzip
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    GameResult,
    GameState,
    Kind,
    Move,
    PlayerRecord,
    Rule,
    Rules,
    Termination,
    Variant,
    apply_ply,
    resolve_ply,
)
from protocol.codec import Mov, Upd, encode
from protocol.reading import TranscriptError, TranscriptReader
from protocol.records import (
    Command,
    Direction,
    Frame,
    Header,
    Note,
    Player,
    Ply,
    Record,
    Result,
    Skip,
    Source,
)
from protocol.transcript import VERSION, TranscriptWriter
from protocol.transcript import encode as line_of

GAMES = Path(__file__).resolve().parents[2] / "docs" / "games"
EARLIER = [
    path
    for path in sorted(GAMES.glob("*.jsonl"))
    if json.loads(path.read_text().partition("\n")[0])["rows"] is None
]
"""The games of docs/games written before the header carried the board."""

V, W, H = Kind.VAMPIRES, Kind.WEREWOLVES, Kind.HUMANS
STATE = GameState.from_cells(3, 4, {(0, 0): (V, 6), (1, 1): (H, 4), (3, 2): (W, 3)})


class Clock:
    """A clock that moves only when told: each line's ``t`` is known."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _read(data: bytes, name: str = "game.jsonl") -> list[Record]:
    reader = TranscriptReader(name)
    return [*reader.feed(data), *reader.close()]


def _text(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def _into(lines: list[str]) -> Callable[[Record], None]:
    """A writer's sink that keeps each record's line."""
    return lambda record: lines.append(line_of(record))


def _write(lines: list[str]) -> TranscriptWriter:
    writer = TranscriptWriter(_into(lines), Clock())
    writer.write_header(Source.PROXY, rows=3, cols=4, peer="127.0.0.1:9")
    writer.player(V, "alice", "127.0.0.1:1")
    writer.frame(V, Direction.OUT, Upd(()), encode(Upd(())))
    writer.frame(V, Direction.IN, None, b"XYZ\x01")
    return writer


def test_what_the_writer_writes_the_reader_reads_back():
    lines: list[str] = []
    writer = _write(lines)
    ply = (Move(0, 0, 6, 1, 1),)  # 6 vampires on 4 humans: a sure conversion
    after = apply_ply(STATE, ply, random.Random(1)).state
    writer.write_ply(V, 1, ply, after, think=0.25, violation=None)
    _, battles = resolve_ply(STATE, (Move(0, 0, 3, 1, 1),))
    writer.write_ply(V, 3, (Move(0, 0, 3, 1, 1),), None, [(b, None) for b in battles])
    writer.skip(W, 2)
    writer.note(W, "garbled")
    header, player, upd, bad, certain, gamble, skip, note = _read(_text(lines))
    assert isinstance(header, Header)
    assert (header.version, header.source, header.rows, header.cols) == (
        VERSION,
        Source.PROXY,
        3,
        4,
    )
    assert header.peer == "127.0.0.1:9"
    assert player == Player(player.t, V, "alice", "127.0.0.1:1")
    assert isinstance(upd, Frame) and (upd.side, upd.direction, upd.command) == (
        V,
        Direction.OUT,
        Command.UPD,
    )
    assert upd.raw == encode(Upd(()))
    assert isinstance(bad, Frame) and bad.command is None and bad.raw == b"XYZ\x01"
    assert isinstance(certain, Ply) and certain.moves == ply and certain.think == 0.25
    assert certain.board == ((1, 1, V, 10), (3, 2, W, 3))
    assert isinstance(gamble, Ply) and gamble.board is None
    (battle,) = gamble.battles
    assert (battle.cell, battle.attacker, battle.defender, battle.winner) == ((1, 1), V, H, None)
    assert 0 < battle.attacker_win_probability < 1
    assert skip == Skip(skip.t, W, 2)
    assert note == Note(note.t, W, "garbled")


def test_lines_are_timed_on_the_callers_clock_from_the_writers_start():
    lines: list[str] = []
    clock = Clock()
    writer = TranscriptWriter(_into(lines), clock, start=99.0)
    writer.note(None, "now")
    clock.now = 102.5
    writer.note(None, "later")
    writer.note(None, "given", at=101.0)
    assert [json.loads(line)["t"] for line in lines] == [1.0, 3.5, 2.0]


def test_an_unversioned_transcript_of_before_reads_as_version_0():
    data = (
        json.dumps({"type": "header", "t": 0, "map": "m.xml", "seed": 1, "settings": {}})
        + "\n"
        + json.dumps(
            {
                "type": "ply",
                "t": 1,
                "side": "vampires",
                "ply_number": 1,
                "moves": [[0, 0, 1, 1, 1]],
                "board": [[1, 1, 2, 1]],
                "battles": [],
            }
        )
        + "\n"
    ).encode()
    header, ply = _read(data)
    assert isinstance(header, Header) and (header.version, header.source) == (0, Source.SERVER)
    assert isinstance(ply, Ply) and ply.board == ((1, 1, V, 1),)


def test_a_cut_last_line_is_left_out():
    lines: list[str] = []
    _write(lines)
    assert len(_read(_text(lines) + b'{"type": "frame", "t": 1')) == 4


@given(st.lists(st.integers(1, 400), max_size=8))
def test_the_reader_reads_the_same_records_whatever_the_pieces_it_is_fed(cuts):
    lines: list[str] = []
    _write(lines).write_ply(V, 1, (Move(0, 0, 6, 1, 1),), STATE, think=0.5)
    data = _text(lines)
    reader, records = TranscriptReader("game.jsonl"), []
    start = 0
    for cut in sorted(cuts):
        records += reader.feed(data[start:cut])
        start = max(start, cut)
    records += reader.feed(data[start:]) + reader.close()
    assert records == _read(data)


NOT_TRANSCRIPTS = {
    "gzip": (gzip.compress(b'{"type": "header"}\n'), "is gzip-compressed: gunzip it first"),
    "list": (b"[1, 2, 3]", "line 1 is a JSON list, not a transcript record"),
    "xml": (b'<?xml version="1.0"?>\n<map/>\n', "line 1 is not JSON (an XML file, such as a map?)"),
    "xml with a BOM": (
        b'\xef\xbb\xbf<?xml version="1.0"?>\r\n<Map/>\r\n',
        "line 1 is not JSON (an XML file, such as a map?)",
    ),
    "results": (
        b'{"game": 1, "winner": "alphabeta"}\n',
        "line 1 is not a transcript header (a results file?)",
    ),
    "empty": (b"", "is empty, not a transcript"),
    "binary": (b"\x00\x01\x02", "is a binary file, not a transcript"),
    "bad hex": (
        b'{"type": "header", "t": 0}\n'
        b'{"type": "frame", "t": 1, "dir": "in", "cmd": "NME", "text": "", "hex": "zz"}\n',
        "line 2 (frame): field 'hex' must be hexadecimal digits, got \"zz\"",
    ),
    "bad side": (
        b'{"type": "header", "t": 0}\n{"type": "skip", "t": 1, "side": "elves", "ply_number": 2}\n',
        'line 2 (skip): field \'side\' must be "vampires" or "werewolves", got "elves"',
    ),
    "bad moves": (
        b'{"type": "header", "t": 0}\n'
        b'{"type": "ply", "t": 1, "side": 2, "ply_number": 1, "moves": [[1, 2]]}\n',
        "line 2 (ply): field 'moves' must be a list of lists of 5 integers, got [[1, 2]]",
    ),
    "bad direction": (
        b'{"type": "header", "t": 0}\n'
        b'{"type": "frame", "t": 1, "dir": "up", "cmd": "NME", "text": "", "hex": ""}\n',
        'line 2 (frame): field \'dir\' must be "in" or "out", got "up"',
    ),
    "bad termination": (
        b'{"type": "header", "t": 0}\n'
        b'{"type": "result", "t": 1, "winner": null, "termination": "boredom", "detail": "",'
        b' "plies": 3}\n',
        "line 2 (result): field 'termination' must be \"elimination\" or",
    ),
    "unknown type": (
        b'{"type": "header", "t": 0}\n{"type": "chat", "t": 1}\n',
        'line 2: unknown record type "chat"',
    ),
    "newer": (
        b'{"type": "header", "t": 0, "format": "vvw-transcript", "version": 99}\n',
        "line 1 (header): transcript format version 99 is newer than this vvw reads",
    ),
    "second header": (
        b'{"type": "header", "t": 0}\n{"type": "header", "t": 0}\n',
        'line 2: unknown record type "header"',
    ),
}


@pytest.mark.parametrize("name", NOT_TRANSCRIPTS)
def test_a_file_that_is_not_a_transcript_is_one_precise_error(name):
    data, reason = NOT_TRANSCRIPTS[name]
    with pytest.raises(TranscriptError) as raised:
        _read(data, "runs/file.jsonl")
    message = str(raised.value)
    assert message.startswith("runs/file.jsonl") and reason in message and "\n" not in message


def test_mov_frames_keep_their_bytes():
    lines: list[str] = []
    writer = TranscriptWriter(_into(lines), Clock())
    writer.write_header(Source.AGENT)
    message = Mov(((1, 2, 3, 2, 2),))
    writer.frame(W, Direction.IN, message, encode(message))
    _, frame = _read(_text(lines))
    assert isinstance(frame, Frame) and frame.raw == encode(message) and "MOV" in frame.text


def test_the_writer_s_records_are_what_the_reader_reads_back_from_their_lines():
    records: list[Record] = []
    writer = TranscriptWriter(records.append, Clock())
    writer.write_header(Source.SERVER, map_name="m", seed=4, start=STATE, settings={"a": 1})
    writer.frame(V, Direction.OUT, Upd(()), encode(Upd(())))
    writer.write_ply(V, 1, (Move(0, 0, 7, 1, 1),), STATE, violation="rule 3 (x): y")
    played = PlayerRecord(V, "a", 6, 0.0, 0, ())
    writer.result(
        GameResult(V, Termination.ELIMINATION, "gone", 1, played, played, "m", 4),
    )
    lines = [line_of(record) for record in records]
    assert _read(_text(lines)) == records


def test_a_server_header_carries_the_first_board_and_the_rules():
    lines: list[str] = []
    writer = TranscriptWriter(_into(lines), Clock())
    rules = {"rules": {"variant": "spec", "max_plies": 40}, "move_time": 2.0}
    writer.write_header(Source.SERVER, start=STATE, settings=rules)
    (header,) = _read(_text(lines))
    assert isinstance(header, Header) and (header.rows, header.cols) == (3, 4)
    assert header.start == STATE and header.rules == Rules(Variant.SPEC, 40)


def test_meaning_is_read_as_types_and_written_as_before():
    lines: list[str] = []
    writer = _write(lines)
    writer.write_ply(V, 1, (Move(0, 0, 9, 1, 1),), None, violation=_too_few())
    *_, upd, _, ply = _read(_text(lines))
    assert isinstance(upd, Frame) and upd.command is Command.UPD
    assert isinstance(ply, Ply) and ply.violation is not None
    assert ply.violation.rule is Rule.TOO_FEW and str(ply.violation) == _too_few()
    assert json.loads(lines[-1])["violation"] == _too_few()
    assert json.loads(lines[2])["dir"] == "out" and json.loads(lines[2])["cmd"] == "UPD"


def _too_few() -> str:
    return f"rule 3 ({Rule.TOO_FEW.text}): (0,0) holds 6, the ply moves 9"


@pytest.mark.parametrize("path", EARLIER, ids=lambda path: path.stem)
def test_the_transcripts_of_earlier_versions_still_read(path):
    records = _read(path.read_bytes())
    header, result = records[0], records[-5]
    assert isinstance(header, Header) and header.source is Source.SERVER
    assert header.start is None and header.rules is not None  # rows, cols null then
    assert "end_pause" in header.settings  # a dead setting, still read
    assert isinstance(result, Result) and isinstance(result.termination, Termination)
