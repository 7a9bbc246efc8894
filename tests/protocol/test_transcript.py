"""The transcript format: what the writer writes, the typed reader reads back, field by field;
anything else is one :class:`TranscriptError` line naming the file, the line and the reason."""

import gzip
import json
import random
from pathlib import Path

import pytest

from engine import GameState, Kind, Move, apply_ply, resolve_ply
from protocol.codec import Mov, Upd, encode
from protocol.transcript import (
    IN,
    OUT,
    VERSION,
    Frame,
    Header,
    Note,
    Player,
    Ply,
    Skip,
    TranscriptError,
    TranscriptWriter,
    read_transcript,
)

V, W, H = Kind.VAMPIRES, Kind.WEREWOLVES, Kind.HUMANS
STATE = GameState.from_cells(3, 4, {(0, 0): (V, 6), (1, 1): (H, 4), (3, 2): (W, 3)})


def _write(path: Path) -> TranscriptWriter:
    writer = TranscriptWriter(path)
    writer.write_header("proxy", rows=3, cols=4, peer="127.0.0.1:9")
    writer.player(V, "alice", "127.0.0.1:1")
    writer.frame(V, OUT, Upd(()), encode(Upd(())))
    writer.frame(V, IN, None, b"XYZ\x01")
    return writer


def test_what_the_writer_writes_the_reader_reads_back(tmp_path):
    path = tmp_path / "game.jsonl"
    writer = _write(path)
    ply = (Move(0, 0, 6, 1, 1),)  # 6 vampires on 4 humans: a sure conversion
    after = apply_ply(STATE, ply, random.Random(1)).state
    writer.write_ply(V, 1, ply, after, think=0.25, violation=None)
    _, battles = resolve_ply(STATE, (Move(0, 0, 3, 1, 1),))
    writer.write_ply(V, 3, (Move(0, 0, 3, 1, 1),), None, [(b, None) for b in battles])
    writer.skip(W, 2)
    writer.note(W, "garbled")
    writer.close()
    header, player, upd, bad, certain, gamble, skip, note = read_transcript(path)
    assert isinstance(header, Header)
    assert (header.version, header.source, header.rows, header.cols) == (VERSION, "proxy", 3, 4)
    assert header.peer == "127.0.0.1:9"
    assert player == Player(player.t, V, "alice", "127.0.0.1:1")
    assert isinstance(upd, Frame) and (upd.side, upd.direction, upd.command) == (V, OUT, "UPD")
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


def test_an_unversioned_transcript_of_before_reads_as_version_0(tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_text(
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
    )
    header, ply = read_transcript(path)
    assert isinstance(header, Header) and (header.version, header.source) == (0, "server")
    assert isinstance(ply, Ply) and ply.board == ((1, 1, V, 1),)


def test_a_cut_last_line_is_left_out(tmp_path):
    path = tmp_path / "game.jsonl"
    _write(path).close()
    with path.open("a") as file:
        file.write('{"type": "frame", "t": 1')
    assert len(read_transcript(path)) == 4


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
def test_a_file_that_is_not_a_transcript_is_one_precise_error(tmp_path, name):
    data, reason = NOT_TRANSCRIPTS[name]
    path = tmp_path / "file.jsonl"
    path.write_bytes(data)
    with pytest.raises(TranscriptError) as raised:
        read_transcript(path)
    message = str(raised.value)
    assert message.startswith(str(path)) and reason in message and "\n" not in message


def test_the_writer_never_overwrites_a_file(tmp_path):
    first = TranscriptWriter(tmp_path / "game.jsonl")
    second = TranscriptWriter(tmp_path / "game.jsonl")
    assert second.path.name == "game-2.jsonl" and first.path != second.path
    first.close()
    second.close()


def test_mov_frames_keep_their_bytes(tmp_path):
    path = tmp_path / "game.jsonl"
    writer = TranscriptWriter(path)
    writer.write_header("agent")
    message = Mov(((1, 2, 3, 2, 2),))
    writer.frame(W, IN, message, encode(message))
    writer.close()
    _, frame = read_transcript(path)
    assert isinstance(frame, Frame) and frame.raw == encode(message) and "MOV" in frame.text
