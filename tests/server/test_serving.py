"""Serving: transcript names and the ``vvw serve`` command's user errors."""

import re
import socket

import pytest

from engine.mapfile import GameMap, MapFileError
from server.serving import serve, transcript_name
from server.settings import Settings
from server.transcript import Transcript
from vvw.cli import main


def test_transcript_name_has_date_number_and_safe_names():
    name = transcript_name(3, ("alice bot", "b/o/b"))
    assert re.fullmatch(r"\d{8}-\d{6}-game003-alice_bot-b_o_b\.jsonl", name)


def test_a_transcript_never_replaces_another(tmp_path):
    first = Transcript(tmp_path / "game.jsonl")
    first.write("note", text="first")
    second = Transcript(tmp_path / "game.jsonl")
    third = Transcript(tmp_path / "game.jsonl")
    for transcript in (first, second, third):
        transcript.close()
    assert [t.path.name for t in (first, second, third)] == [
        "game.jsonl", "game-2.jsonl", "game-3.jsonl"]
    assert "first" in (tmp_path / "game.jsonl").read_text()
    elsewhere = Transcript(tmp_path / "other" / "game.jsonl")
    assert elsewhere.keep_in(tmp_path).name == "game-4.jsonl"


async def test_serve_refuses_a_map_the_protocol_cannot_send():
    houses = tuple((i % 20, i // 20, 1) for i in range(254))
    crowded = GameMap(20, 20, houses, (19, 19, 3), (18, 19, 3), name="crowded")
    with pytest.raises(MapFileError, match=r"^crowded: 254 <Humans> elements"):
        await serve(crowded, Settings(), port=0)


def test_serve_bad_map_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text("not a map")
    assert main(["serve", "--map", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad map" in err


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--ply-limit", "0", "argument --ply-limit: 0 is below 1"),
        ("--games", "two", "argument --games: 'two' is not a whole number"),
        ("--move-time", "-1", "argument --move-time: -1 is not a number of seconds above 0"),
        ("--game-time", "nan", "argument --game-time: nan is not a number of seconds above 0"),
        ("--port", "99999", "argument --port: 99999 is not a port number (0..65535)"),
    ],
)
def test_serve_checks_its_numbers_when_it_reads_them(option, value, says, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--map", "maps/thetrap.xml", option, value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f"vvw serve: error: {says}\n") and "Traceback" not in err


def test_serve_port_in_use_is_one_line_and_exit_2(tmp_path, capsys):
    maps = sorted((__import__("pathlib").Path(__file__).parents[2] / "maps").glob("*.xml"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--map", str(maps[0]), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert "cannot listen" in err and "Traceback" not in err


# --- serve() over real loopback TCP, with stand-ins for the lobby and the referee -------------

import sys  # noqa: E402
import types  # noqa: E402
from contextlib import asynccontextmanager  # noqa: E402

import trio  # noqa: E402

from engine import Kind  # noqa: E402
from engine.mapfile import load_map  # noqa: E402
from protocol.codec import FROM_BOT, Decoder, Nme, ProtocolError, encode  # noqa: E402
from server.result import GameResult, PlayerRecord, Termination  # noqa: E402


class _FakePlayer:
    def __init__(self, stream):
        self.stream = stream
        self.name = ""
        self.reader_done = trio.Event()  # never set: this stand-in has no reader
        self.closed = None


def _install_fakes(monkeypatch, played: list, release: trio.Event, started: list):
    lobby = types.ModuleType("server.lobby")
    referee = types.ModuleType("server.referee")

    @asynccontextmanager
    async def connected(stream, peer, on_frame=None):
        try:
            yield _FakePlayer(stream)
        finally:
            await stream.aclose()

    async def admit(player, connect_time):
        decoder = Decoder(FROM_BOT)
        with trio.move_on_after(connect_time):
            while True:
                data = await player.stream.receive_some()
                if not data:
                    return "closed before NME"
                try:
                    messages = decoder.feed(data)
                except ProtocolError:
                    return "garbage"
                for message in messages:
                    if not isinstance(message, Nme):
                        return "not NME first"
                    player.name = message.name.decode()
                    return None
        return "stall"

    async def greet(player, game_map, species):
        pass

    async def play_game(vampires, werewolves, game_map, settings, transcript=None):
        played.append((vampires.name, werewolves.name))
        started[len(played) - 1].set()
        await release.wait()
        return GameResult(
            Kind.VAMPIRES,
            Termination.DISCONNECT,
            "fake",
            1,
            PlayerRecord(Kind.VAMPIRES, vampires.name, 1),
            PlayerRecord(Kind.WEREWOLVES, werewolves.name, 0),
        )

    lobby.connected, lobby.admit, lobby.greet = connected, admit, greet
    referee.play_game = play_game
    monkeypatch.setitem(sys.modules, "server.lobby", lobby)
    monkeypatch.setitem(sys.modules, "server.referee", referee)


async def _client(port, name: bytes | None, data: bytes = b""):
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    if name is not None:
        await stream.send_all(encode(Nme(name)))
    if data:
        await stream.send_all(data)
    return stream


async def _until_closed(stream):
    while await stream.receive_some():
        pass


def _map():
    return load_map(
        sorted((__import__("pathlib").Path(__file__).parents[2] / "maps").glob("*.xml"))[0]
    )


async def test_serve_seats_first_admitted_refuses_third_and_drops_bad_first(monkeypatch, tmp_path):
    played: list = []
    release = trio.Event()
    started = [trio.Event(), trio.Event()]
    _install_fakes(monkeypatch, played, release, started)
    results: list = []
    with trio.fail_after(10):  # a refusal that does not happen would hang: fail instead
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                lambda task_status: serve(
                    _map(),
                    Settings(),
                    port=0,
                    games=2,
                    transcript_dir=tmp_path,
                    on_result=results.append,
                    task_status=task_status,
                )
            )
            early = await _client(port, None)
            await early.aclose()  # closed before NME: frees its slot
            garbage = await _client(port, None, b"XYZ\x00")
            await _until_closed(garbage)  # not NME first: dropped
            alice = await _client(port, b"alice")
            bob = await _client(port, b"bob")
            await started[0].wait()
            third = await _client(port, b"carol")
            await _until_closed(third)  # refused during a game
            release.set()
            await _until_closed(alice)
            await _until_closed(bob)
            bob = await _client(port, b"bob")
            alice = await _client(port, b"alice")
            await started[1].wait()
            await _until_closed(bob)
            await _until_closed(alice)
    assert played[0] == ("alice", "bob") and played[1][0] == "bob"
    assert len(results) == 2
    assert len(list(tmp_path.glob("*.jsonl"))) == 2  # abnormal (disconnect): kept
