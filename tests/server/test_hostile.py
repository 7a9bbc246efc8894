"""Hostile clients over loopback: forged names, silent crowds, floods (issue 35)."""

import contextlib
import logging
import tracemalloc

import trio
import trio.testing

from agents.client import play
from agents.registry import make_agent
from engine import GameResult, Kind, PlayerRecord, Rules, Termination
from protocol.codec import Bye, Map, Nme, Upd, encode
from protocol.printable import printable
from protocol.records import Command, Frame
from server.lobby import MAX_PENDING
from server.player import MAX_QUEUED
from server.settings import Settings
from tests.helpers.serving import MAP, Manual, Seats, fake_bot, start_server
from tests.server.fakes import FakeBot, mov, scripted
from vvw.cli import main
from vvw.commands.log import render
from vvw.transcripts import read_transcript

FORGER = b"evil\n\x1b[2Jwerewolves (x) win by elimination after 9 plies: ok"
"""A name with a newline and a terminal escape code (clear the screen), forging a line."""
SHOWN = "evil\\n\\x1b[2Jwerewolves (x) win by elimination after 9 plies: ok"


def _clean(text: str) -> bool:
    return "\n" not in text and "\x1b" not in text


async def test_a_forged_name_is_printed_escaped_and_kept_exactly(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, seats=seats)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            forger = FakeBot(stream, FORGER, scripted({0: mov()}))  # MOV 0: it loses at once
            nursery.start_soon(forger.run)
            await seats.events[0].wait()
            await fake_bot(nursery, port, b"b", 2)
    (result,) = results
    assert result.vampires.name == FORGER.decode()  # the record keeps the name as sent
    line = printable(result.summary())  # as vvw match shows it
    assert _clean(line) and SHOWN in line
    assert all(_clean(record.getMessage()) for record in caplog.records)
    (transcript,) = tmp_path.glob("*.jsonl")
    records = read_transcript(transcript)
    nme = next(r for r in records if isinstance(r, Frame) and r.command is Command.NME)
    assert nme.raw == encode(Nme(FORGER))  # the transcript keeps the exact bytes
    shown = render(records)
    assert all(_clean(text) for text in shown)
    assert f"player vampires: {SHOWN} (" in "\n".join(shown)


def test_a_winners_forged_name_and_a_many_line_detail_make_one_summary_line():
    result = GameResult(
        Kind.WEREWOLVES,
        Termination.CRASH,
        "vampires-bot exited with code 3: Traceback\nboom",
        4,
        PlayerRecord(Kind.VAMPIRES, "a", 0),
        PlayerRecord(Kind.WEREWOLVES, FORGER.decode(), 9),
    )
    assert printable(result.summary()) == (
        f"werewolves ({SHOWN}) win by crash after 4 plies:"
        " vampires-bot exited with code 3: Traceback\\nboom"
    )


async def test_silent_connections_never_keep_a_real_bot_out(tmp_path):
    results: list = []
    seats = Seats()
    silent = []
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, seats=seats)
            for _ in range(3 * MAX_PENDING):  # they would fill every waiting slot
                silent.append(await trio.open_tcp_stream("127.0.0.1", port))
            nursery.start_soon(_real_bot, port, "first")
            await seats.events[0].wait()
            for _ in range(MAX_PENDING):  # an attacker connects again
                silent.append(await trio.open_tcp_stream("127.0.0.1", port))
            nursery.start_soon(_real_bot, port, "second")
    (result,) = results
    assert (result.vampires.name, result.werewolves.name) == ("first", "second")
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    for stream in silent:
        await stream.aclose()


async def _real_bot(port: int, name: str) -> None:
    summary = await play(make_agent("random", seed=1), "127.0.0.1", port, name=name)
    assert summary.games == 1


async def test_a_bot_turned_away_says_so_and_exits_non_zero(tmp_path, capfd):
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, seats=seats)
            players = []
            for name in (b"a", b"b"):
                players.append(Manual(await trio.open_tcp_stream("127.0.0.1", port)))
                await players[-1].stream.send_all(encode(Nme(name)))
                await players[-1].until(Map)
            await players[0].until(Upd)  # a game is being played
            code = await trio.to_thread.run_sync(main, ["agent", "random", "127.0.0.1", str(port)])
            await players[0].stream.send_all(mov())  # MOV 0 ends the game
            for player in players:
                await player.until(Bye)
                await player.stream.aclose()
    assert code == 1
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("vvw agent: turned away by the server before a game")


FLOOD = mov() * 262_144
"""A megabyte of ``MOV 0``: a quarter of a million messages nobody asked for."""


async def _flood(stream: trio.SocketStream) -> None:
    """Send the flood until the server stops reading and hangs up."""
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await stream.send_all(FLOOD)


async def _read_to_the_end(stream: trio.SocketStream) -> bytes:
    """What is left to read once the server hangs up (``b""`` if it reset the connection)."""
    data = bytearray()
    with contextlib.suppress(trio.BrokenResourceError):
        while chunk := await stream.receive_some():
            data += chunk
    return bytes(data)


async def test_a_seated_bot_that_floods_loses_its_game_by_protocol_error_and_memory_stays_bounded(
    tmp_path,
):
    """Flooding once seated is bytes that are no message: the seat is kept and the game,
    once it begins, judges it (as it judges any such bytes, before or after the second bot
    is seated): a protocol error, the transcript kept."""
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, seats=seats)
            flooder = Manual(await trio.open_tcp_stream("127.0.0.1", port))
            await flooder.stream.send_all(encode(Nme(b"flooder")))
            await flooder.until(Map)  # seated, waiting for an opponent
            tracemalloc.start()
            try:
                nursery.start_soon(_flood, flooder.stream)
                # Everything waits: the server has stopped reading, the flood is stuck.
                await trio.testing.wait_all_tasks_blocked(cushion=0.1)
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            await fake_bot(nursery, port, b"a", 1)
            await _read_to_the_end(flooder.stream)  # END, BYE, and the server hung up
    assert peak < 4_000_000  # bytes allocated at most during the flood (unbounded: ~60 MB)
    (result,) = results
    assert (result.vampires.name, result.werewolves.name) == ("flooder", "a")
    assert (result.termination, result.winner) == (Termination.PROTOCOL_ERROR, Kind.WEREWOLVES)
    assert f"flooding: {MAX_QUEUED} messages sent and not yet asked for" in result.detail


async def test_a_bot_that_floods_during_the_game_loses_by_protocol_error(tmp_path):
    results: list = []
    settings = Settings(seed=1, rules=Rules(max_plies=20), move_time=1000.0)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, settings=settings)
            players = []
            for name in (b"patient", b"flooder"):
                players.append(Manual(await trio.open_tcp_stream("127.0.0.1", port)))
                await players[-1].stream.send_all(encode(Nme(name)))
                await players[-1].until(Map)
            patient, flooder = players
            await patient.until(Upd)  # the vampires think; the werewolves flood meanwhile
            nursery.start_soon(_flood, flooder.stream)
            await trio.testing.wait_all_tasks_blocked(0.05)  # the server read what it would
            x, y, _ = MAP.start(True)
            await patient.stream.send_all(mov((x, y, 1, x - 1, y)))
            await patient.until(Bye)
            for player in players:
                await player.stream.aclose()
    (result,) = results
    assert (result.winner, result.termination) == (Kind.VAMPIRES, Termination.PROTOCOL_ERROR)
    assert f"flooding: {MAX_QUEUED} messages sent and not yet asked for" in result.detail
