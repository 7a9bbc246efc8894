"""``vvw match`` with misbehaving bot processes (tests/server/bots/bot.py) over loopback TCP."""

import os
import random
import sys
from pathlib import Path

import pytest
import trio

from engine import Kind, Rules, Termination, apply_ply
from protocol.cells import ply_cells, update_cells
from protocol.codec import FROM_SERVER, Decoder, Upd
from protocol.records import Command, Frame, Ply, Result
from server.settings import Settings
from tests.helpers.maps import load
from vvw.running.local_game import play_one
from vvw.running.participants import Participant
from vvw.transcripts import read_transcript

MAP = load("testmap")

BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
LEAK_GAMES = 1000
SETTINGS = Settings(seed=1, rules=Rules(max_plies=20), connect_time=10.0)


def bot(mode: str, *extra: str) -> str:
    return " ".join([sys.executable, str(BOT), mode, "{host}", "{port}", *extra])


async def _match(tmp_path: Path, first: str, second: str, settings: Settings = SETTINGS):
    logs = tmp_path / "logs"
    players = (Participant("first", first), Participant("second", second))
    with trio.fail_after(30):
        played = await play_one(MAP, settings, players, logs, transcript_dir=tmp_path / "t")
    return played.result, logs


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_normal_game_leaves_no_logs(tmp_path):
    result, logs = await _match(tmp_path, bot("play"), bot("play"))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert not logs.exists()  # the bots printed nothing: no empty files are left
    assert not (tmp_path / "t").exists() or not list((tmp_path / "t").iterdir())


async def test_crash_reports_exit_code_and_stderr_and_keeps_logs(tmp_path):
    result, logs = await _match(tmp_path, bot("crash"), bot("play"))
    assert (result.winner, result.termination) == (Kind.WEREWOLVES, Termination.CRASH)
    assert result.detail.startswith("crash (127.0.0.1:")  # its label (its NME), as any loss's
    assert ": its process vampires-first exited with code 3: " in result.detail
    assert (result.vampires.name, result.werewolves.name) == ("first", "second")
    assert "exited with code 3" in result.detail
    assert result.detail.endswith("Traceback (most recent call last):\nboom: the bot broke")
    assert [p.name for p in logs.iterdir()] == ["vampires-first.err"]  # the others are empty
    assert len(list((tmp_path / "t").glob("*.jsonl"))) == 1  # abnormal: transcript kept


async def test_chatty_bot_plays_on_and_its_output_goes_to_a_file(tmp_path):
    result, _logs = await _match(tmp_path, bot("chatty"), bot("play"))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert result.plies >= 2


async def test_chatty_output_is_drained_to_a_file(tmp_path):
    # Against a bot that crashes on its first turn the logs are kept: the chatty
    # vampires have already printed a megabyte, to the file, not a pipe.
    result, logs = await _match(tmp_path, bot("chatty"), bot("crash"))
    assert (result.winner, result.termination) == (Kind.VAMPIRES, Termination.CRASH)
    out = logs / "vampires-first.out"
    assert out.stat().st_size >= 1_000_000


async def test_bot_spinning_after_bye_is_ended(tmp_path):
    pid_file = tmp_path / "pid"
    result, _ = await _match(tmp_path, bot("spin", str(pid_file)), bot("play"))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert _gone(int(pid_file.read_text()))  # killed (it ignores SIGTERM) and reaped


async def test_stall_past_connect_timeout_names_the_map(tmp_path):
    settings = Settings(seed=1, connect_time=1.0)
    result, _ = await _match(tmp_path, bot("play"), bot("silent"), settings)
    assert (result.winner, result.termination, result.plies) == (
        Kind.VAMPIRES,
        Termination.STALL,
        0,
    )
    assert "did not connect and send NME within 1 s (map testmap)" in result.detail
    assert (result.vampires.name, result.werewolves.name) == ("first", "second")


async def test_cancelled_mid_game_says_goodbye_records_aborted_and_ends_the_bots(tmp_path):
    # Ctrl-C reaches the match as a cancellation of its task.
    record = tmp_path / "stall.txt"
    settings = Settings(seed=1, move_time=1000.0)
    with trio.fail_after(30), trio.CancelScope() as scope:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_match, tmp_path, bot("play"), bot("stall", str(record)), settings)
            # A separate process: nothing to wait on but its file.
            while not record.exists():  # noqa: ASYNC110
                await trio.sleep(0.02)
            scope.cancel()
    pid, *received = record.read_text().split()
    assert received == ["End", "Bye"]
    assert _gone(int(pid))
    (transcript,) = (tmp_path / "t").glob("*.jsonl")
    result = [line for line in read_transcript(transcript) if isinstance(line, Result)]
    assert [(r.termination, r.winner) for r in result] == [(Termination.ABORTED, None)]
    assert result[0].detail == "the server was stopped"


@pytest.mark.slow
async def test_no_file_descriptor_leak_over_1000_games(tmp_path):
    def open_fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    await _match(tmp_path, bot("play"), bot("play"), Settings(seed=1, rules=Rules(max_plies=2)))
    before = open_fds()
    for _ in range(LEAK_GAMES):
        await _match(tmp_path, bot("play"), bot("play"), Settings(seed=1, rules=Rules(max_plies=2)))
    assert open_fds() <= before


async def test_real_bot_processes_every_upd_is_the_engines(tmp_path):
    """Two bot processes over TCP; each UPD in the transcript is rebuilt from the engine."""
    logs = tmp_path / "logs"
    with trio.fail_after(30):
        players = (Participant("a", bot("play")), Participant("b", bot("play")))
        played = await play_one(
            MAP, SETTINGS, players, logs, transcript_dir=tmp_path / "t", keep_transcript=True
        )
        result = played.result
    (transcript,) = (tmp_path / "t").glob("*.jsonl")
    lines = read_transcript(transcript)
    sent = {
        side.wire_name: [
            Decoder(FROM_SERVER).feed(f.raw)[0]
            for f in lines
            if isinstance(f, Frame) and f.side == side and f.command is Command.UPD
        ]
        for side in (Kind.VAMPIRES, Kind.WEREWOLVES)
    }
    plies = [list(line.moves) for line in lines if isinstance(line, Ply)]
    state, rng = MAP.initial_state(), random.Random(result.seed)
    last = {Kind.VAMPIRES: [], Kind.WEREWOLVES: []}
    expected = {"vampires": [Upd(())], "werewolves": []}
    for moves in plies:
        mover = state.to_move
        state = apply_ply(state, moves, rng, check=False).state
        last[mover] = ply_cells(moves)
        side = state.to_move.wire_name
        expected[side].append(
            Upd(update_cells(state, (last[Kind.VAMPIRES], last[Kind.WEREWOLVES])))
        )
    expected[state.to_move.wire_name].pop()  # the game is over: no UPD after the last ply
    assert len(plies) == result.plies > 0
    assert sent == expected
    assert (state.total(Kind.VAMPIRES), state.total(Kind.WEREWOLVES)) == (
        result.vampires.creatures,
        result.werewolves.creatures,
    )


async def test_a_child_that_left_the_session_does_not_outlive_the_match(tmp_path):
    pid_file = tmp_path / "child"
    result, _ = await _match(tmp_path, bot("setsid", str(pid_file)), bot("play"))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert _gone(int(pid_file.read_text()))  # killed and reaped


async def test_a_crash_is_a_crash_while_a_child_still_holds_the_socket(tmp_path):
    pid_file = tmp_path / "child"
    result, _ = await _match(tmp_path, bot("orphan", str(pid_file)), bot("play"))
    assert (result.winner, result.termination, result.plies) == (
        Kind.WEREWOLVES,
        Termination.CRASH,
        0,
    )
    assert "exited with code 3" in result.detail
    assert _gone(int(pid_file.read_text()))  # the child that held the socket is ended too


async def test_a_launcher_that_exits_loses_and_the_child_it_left_playing_is_ended(tmp_path):
    pid_file = tmp_path / "child"
    result, _ = await _match(tmp_path, bot("detach", str(pid_file)), bot("play"))
    assert (result.winner, result.termination) == (Kind.WEREWOLVES, Termination.CRASH)
    assert "vampires-" in result.detail and "exited with code 0" in result.detail
    assert _gone(int(pid_file.read_text()))
