"""Serving: transcript names and the ``vvw serve`` command's user errors."""

import re
import socket
from pathlib import Path

import pytest
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from engine.mapfile import GameMap, MapFileError, load_map
from protocol.codec import Nme, encode
from server.serving import Transcripts, serve, transcript_name
from server.settings import Settings
from server.transcript import Transcript
from tests.helpers.serving import results_into
from vvw.cli import main

MAPS = Path(__file__).resolve().parents[2] / "maps"


def test_transcript_name_has_date_number_and_safe_names():
    name = transcript_name(3, ("alice bot", "b/o/b"))
    assert re.fullmatch(r"\d{8}-\d{6}-game003-alice_bot-b_o_b\.jsonl", name)


def test_a_transcript_never_replaces_another(tmp_path):
    first = Transcript(tmp_path / "game.jsonl")
    first.note(None, "first")
    second = Transcript(tmp_path / "game.jsonl")
    third = Transcript(tmp_path / "game.jsonl")
    for transcript in (first, second, third):
        transcript.close()
    assert [t.path.name for t in (first, second, third)] == [
        "game.jsonl",
        "game-2.jsonl",
        "game-3.jsonl",
    ]
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
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--map", str(MAPS / "thetrap.xml"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert "cannot listen" in err and "Traceback" not in err


# --- serve() over real loopback TCP, with a stand-in for the referee -------------------------


def _fake_referee(played: list, release: trio.Event, started: list[trio.Event]):
    """A referee that records who plays, waits for ``release``, and reports a disconnect."""

    async def play_game(vampires, werewolves, game_map, settings, transcript=None, on_abort=None):
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

    return play_game


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
    return load_map(MAPS / "thetrap.xml")


async def test_serve_seats_first_admitted_refuses_third_and_drops_bad_first(tmp_path):
    played: list = []
    release = trio.Event()
    started = [trio.Event(), trio.Event()]
    results: list = []
    with trio.fail_after(10):  # a refusal that does not happen would hang: fail instead
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                lambda task_status: serve(
                    _map(),
                    Settings(),
                    port=0,
                    games=2,
                    transcripts=Transcripts(tmp_path),
                    events=results_into(results),
                    referee=_fake_referee(played, release, started),
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
