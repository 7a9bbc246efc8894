"""``vvw log show`` renders a transcript written by :class:`Transcript`."""

import subprocess
import sys
from pathlib import Path

from engine import Kind
from protocol.codec import End, Nme, encode
from server.result import GameResult, PlayerRecord, Termination
from server.settings import Settings
from server.transcript import Transcript
from vvw.cli import main


def _write(path: Path) -> None:
    transcript = Transcript(path)
    transcript.header("tiny.xml", Settings(), seed=7)
    transcript.player(Kind.VAMPIRES, "alice", "127.0.0.1:1")
    transcript.frame(Kind.VAMPIRES, "in", Nme(b"alice"), encode(Nme(b"alice")))
    transcript.frame(Kind.WEREWOLVES, "out", End(), encode(End()))
    transcript.skip(Kind.WEREWOLVES, 1)
    transcript.result(
        GameResult(
            winner=Kind.VAMPIRES,
            termination=Termination.DISCONNECT,
            detail="werewolves closed the connection",
            plies=1,
            vampires=PlayerRecord(Kind.VAMPIRES, "alice", 4),
            werewolves=PlayerRecord(Kind.WEREWOLVES, "bob", 4),
        )
    )
    transcript.close()


def test_log_show_renders_header_players_frames_and_result(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _write(path)
    assert main(["log", "show", str(path), "--hex"]) == 0
    out = capsys.readouterr().out
    assert "game on tiny.xml (seed 7)" in out
    assert "player vampires: alice" in out
    assert "alice" in out.splitlines()[3]
    assert encode(Nme(b"alice")).hex() in out
    assert "skipped" in out
    assert "result: vampires wins by disconnect after 1 plies" in out


def test_log_show_without_hex_hides_bytes(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _write(path)
    assert main(["log", "show", str(path)]) == 0
    assert encode(Nme(b"alice")).hex() not in capsys.readouterr().out


def test_log_show_missing_file_is_one_line_error(tmp_path, capsys):
    assert main(["log", "show", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


def test_log_show_writes_each_move_as_source_target_and_count() -> None:
    from vvw.commands.log import render

    line = {"type": "ply", "ply_number": 3, "side": "vampires", "moves": [[2, 1, 7, 3, 2]]}
    lines = render([line])
    assert any("(2,1)->(3,2) x7" in text for text in lines), lines


def test_log_show_into_a_pipe_closed_early_ends_quietly(tmp_path):
    # `vvw log show FILE | head`: head leaves, the next write breaks the pipe.
    path = tmp_path / "long.jsonl"
    transcript = Transcript(path)
    transcript.header("tiny.xml", Settings(), seed=7)
    for _ in range(5000):
        transcript.frame(Kind.VAMPIRES, "in", Nme(b"alice"), encode(Nme(b"alice")))
    transcript.close()
    reader = subprocess.Popen(
        [sys.executable, "-m", "vvw.cli", "log", "show", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.readline().startswith(b"game on tiny.xml")
    reader.stdout.close()
    errors = reader.stderr.read()
    assert reader.wait(timeout=60) == 141
    assert b"Traceback" not in errors
