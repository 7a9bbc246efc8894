"""``vvw log show`` renders a transcript written by :class:`Transcript`."""

import gzip
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import GameResult, GameState, Kind, Move, PlayerRecord, Termination, apply_ply
from protocol.codec import End, Mov, Nme, Set, encode
from protocol.records import Direction, Ply
from server.settings import Settings
from server.transcript import Transcript
from vvw.cli import main
from vvw.commands.log import render

TINY = GameState.from_cells(2, 3, {(0, 0): (Kind.VAMPIRES, 4), (2, 1): (Kind.WEREWOLVES, 4)})


def _write(path: Path) -> None:
    transcript = Transcript(path)
    transcript.header("tiny.xml", TINY, Settings(), seed=7)
    transcript.player(Kind.VAMPIRES, "alice", "127.0.0.1:1")
    transcript.frame(Kind.VAMPIRES, Direction.IN, Nme(b"alice"), encode(Nme(b"alice")))
    transcript.frame(Kind.WEREWOLVES, Direction.OUT, End(), encode(End()))
    transcript.skip(Kind.WEREWOLVES, 1)
    _write_result(transcript)
    transcript.close()


def _write_result(transcript: Transcript) -> None:
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


def test_log_show_renders_header_players_frames_and_result(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _write(path)
    assert main(["log", "show", str(path), "--hex"]) == 0
    out = capsys.readouterr().out
    assert "game on tiny.xml (seed 7)" in out
    assert "player vampires: alice" in out
    assert "alice" in out.splitlines()[3]
    assert encode(Nme(b"alice")).hex(" ") in out
    assert "skipped" in out
    assert "result: vampires win by disconnect after 1 ply" in out


def test_log_show_without_hex_hides_bytes(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _write(path)
    assert main(["log", "show", str(path)]) == 0
    assert encode(Nme(b"alice")).hex(" ") not in capsys.readouterr().out


def test_log_show_missing_file_is_one_line_error(tmp_path, capsys):
    assert main(["log", "show", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


def test_log_show_writes_each_move_as_source_target_and_count() -> None:
    line = Ply(0.0, Kind.VAMPIRES, 3, (Move(2, 1, 7, 3, 2),), None, (), None, None)
    lines = render([line])
    assert any("(2,1)->(3,2) x7" in text for text in lines), lines


def test_log_show_into_a_pipe_closed_early_ends_quietly(tmp_path):
    # `vvw log show FILE | head`: head leaves, the next write breaks the pipe.
    path = tmp_path / "long.jsonl"
    transcript = Transcript(path)
    transcript.header("tiny.xml", TINY, Settings(), seed=7)
    for _ in range(5000):
        transcript.frame(Kind.VAMPIRES, Direction.IN, Nme(b"alice"), encode(Nme(b"alice")))
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


def _game_with_a_ply(path: Path) -> None:
    state = GameState.from_cells(2, 3, {(0, 0): (Kind.VAMPIRES, 12), (2, 1): (Kind.HUMANS, 3)})
    transcript = Transcript(path)
    transcript.header("tiny.xml", state, Settings(), seed=7)
    for side in (Kind.VAMPIRES, Kind.WEREWOLVES):
        transcript.frame(side, Direction.OUT, Set(2, 3), encode(Set(2, 3)))
    ply = (Move(0, 0, 12, 1, 1),)
    message = Mov(((0, 0, 12, 1, 1),))
    transcript.frame(Kind.VAMPIRES, Direction.IN, message, encode(message))
    transcript.ply(Kind.VAMPIRES, ply, apply_ply(state, ply, random.Random(1)).state, [])
    transcript.close()


def test_log_show_boards_draws_the_board_after_each_ply(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(time, "monotonic", lambda: 1000.0)  # stopped: every line at 0.000 s
    path = tmp_path / "game.jsonl"
    _game_with_a_ply(path)
    assert main(["log", "show", str(path), "--boards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-4].endswith(" ply 1 vampires: (0,0)->(1,1) x12")  # after its time
    assert out[-3:] == [
        "              0   1   2",
        "          0   .   .   .",
        "          1   . V12  H3",
    ]


def test_log_show_filters_by_side_and_by_message(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _game_with_a_ply(path)
    assert main(["log", "show", str(path), "--side", "werewolves"]) == 0
    out = capsys.readouterr().out
    assert "werewolves <- SET" in out and "vampires" not in out.split("\n", 2)[2]
    assert main(["log", "show", str(path), "--message", "mov"]) == 0
    out = capsys.readouterr().out
    assert "-> MOV 1" in out and "SET" not in out and "ply 1 vampires" in out


@pytest.mark.parametrize("data", [gzip.compress(b"{}\n"), b"[1, 2]", b"<map/>\n", b'{"n": 1}\n'])
def test_log_show_of_a_file_that_is_not_a_transcript_is_one_line_exit_2(tmp_path, capsys, data):
    path = tmp_path / "file"
    path.write_bytes(data)
    assert main(["log", "show", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"vvw log show: {path}")


def test_log_show_follow_prints_lines_as_they_are_written_until_the_result(tmp_path):
    path = tmp_path / "game.jsonl"
    transcript = Transcript(path)
    transcript.header("tiny.xml", TINY, Settings(), seed=7)
    reader = subprocess.Popen(
        [sys.executable, "-m", "vvw.cli", "log", "show", "--follow", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None
    try:
        assert reader.stdout.readline().startswith(b"game on tiny.xml")
        assert reader.stdout.readline().startswith(b"settings: ")
        transcript.skip(Kind.WEREWOLVES, 1)
        assert b"ply 1 werewolves: skipped" in reader.stdout.readline()
        _write_result(transcript)
        assert b"result: vampires win by" in reader.stdout.readline()
        assert reader.wait(timeout=30) == 0
    finally:
        reader.kill()
        transcript.close()


def test_log_show_draws_the_boards_of_a_transcript_of_before(capsys):
    # docs/games: written before the header held the first board (rows, cols null)
    games = Path(__file__).resolve().parents[2] / "docs" / "games"
    path = sorted(games.glob("thetrap-*.jsonl"))[0]
    assert main(["log", "show", str(path), "--boards"]) == 0
    out = capsys.readouterr().out
    assert "grid size unknown" not in out and "board after" not in out
    assert "result: vampires win by elimination" in out
    plies = sum(1 for line in out.splitlines() if " ply " in line)
    rows = [line for line in out.splitlines() if line.startswith("          0  ")]
    assert plies > 2 and len(rows) == plies  # each ply's board after it, drawn
