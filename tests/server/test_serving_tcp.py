"""serve() with the real lobby and referee, over loopback TCP (127.0.0.1, port 0)."""

import trio

from engine import Kind, Termination
from protocol.codec import Bye, End, Map, Nme, Upd, encode
from protocol.records import Command, Direction, Frame, Header, Ply, Result
from tests.helpers.serving import Manual, Seats, fake_bot, start_server
from vvw.transcripts import read_transcript


async def _read_all(stream) -> bytes:
    data = bytearray()
    while chunk := await stream.receive_some():
        data += chunk
    return bytes(data)


async def test_lobby_misfits_refusal_and_two_games_with_reconnecting_bots(tmp_path):
    results: list = []
    seats = Seats()
    with trio.fail_after(20):  # a refusal or a drop that never comes would hang: fail instead
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, games=2, seats=seats)
            # Connections that never complete an NME keep no one out.
            early = await trio.open_tcp_stream("127.0.0.1", port)
            await early.aclose()
            silent = await trio.open_tcp_stream("127.0.0.1", port)
            wrong = await trio.open_tcp_stream("127.0.0.1", port)
            await wrong.send_all(b"MOV\x00")
            assert await _read_all(wrong) == b""  # dropped, nothing sent
            await wrong.aclose()
            # Game 1: the test plays the vampires by hand, a fake bot the werewolves.
            vamp = Manual(await trio.open_tcp_stream("127.0.0.1", port))
            await vamp.stream.send_all(encode(Nme(b"vamp")))
            await vamp.until(Map)  # greeted
            wolf = await fake_bot(nursery, port, b"wolf", 2)
            await vamp.until(Upd)  # the game has begun
            third = await trio.open_tcp_stream("127.0.0.1", port)
            await third.send_all(encode(Nme(b"third")))
            assert await _read_all(third) == b""  # refused cleanly: closed, nothing sent
            await third.aclose()
            await vamp.stream.send_all(b"MOV\x00")  # illegal: the vampires lose
            await vamp.until(Bye)
            assert vamp.messages[-2:] == [End(), Bye()]
            assert await _read_all(vamp.stream) == b""
            await vamp.stream.aclose()
            await silent.aclose()
            # Game 2: both reconnect.
            bots = [await fake_bot(nursery, port, b"wolf", 3)]
            await seats.events[2].wait()  # the first must be seated before the second connects
            bots.append(await fake_bot(nursery, port, b"vamp", 4))
    first, second = results
    assert (first.winner, first.termination, first.plies) == (
        Kind.WEREWOLVES,
        Termination.ILLEGAL_PLY,
        0,
    )
    assert (first.vampires.name, first.werewolves.name) == ("vamp", "wolf")
    assert wolf.received[-2:] == [End(), Bye()]
    assert second.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert (second.vampires.name, second.werewolves.name) == ("wolf", "vamp")
    for bot in bots:
        assert bot.received[-2:] == [End(), Bye()]
    # Only the abnormal game's transcript is kept; it holds the whole conversation.
    (kept,) = tmp_path.glob("*.jsonl")
    assert "game001-vamp-wolf" in kept.name
    lines = read_transcript(kept)
    frames = [
        (f.side, f.direction, f.command)
        for f in lines
        if isinstance(f, Frame) and f.side is not None
    ]
    V, W, IN, OUT = Kind.VAMPIRES, Kind.WEREWOLVES, Direction.IN, Direction.OUT
    assert frames[:2] == [(V, IN, Command.NME), (V, OUT, Command.SET)]
    assert (W, IN, Command.NME) in frames and (V, IN, Command.MOV) in frames
    result = lines[-5]
    assert isinstance(result, Result) and result.termination is Termination.ILLEGAL_PLY


async def _normal_game(folder, keep: bool):
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, folder, keep_all=keep, seats=seats)
            await fake_bot(nursery, port, b"a", 1)
            await seats.events[0].wait()
            await fake_bot(nursery, port, b"b", 2)
    assert results[0].termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    return sorted(folder.glob("*.jsonl"))


async def test_normal_games_transcript_kept_only_on_demand(tmp_path):
    assert await _normal_game(tmp_path / "normal", keep=False) == []
    (kept,) = await _normal_game(tmp_path / "all", keep=True)
    lines = read_transcript(kept)
    assert isinstance(lines[0], Header)
    result = lines[-5]
    assert isinstance(result, Result)
    assert sum(isinstance(line, Ply) for line in lines) == result.plies


async def test_a_seated_bot_that_leaves_before_the_game_frees_its_seat(tmp_path):
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await start_server(nursery, results, tmp_path, seats=seats)
            quitter = Manual(await trio.open_tcp_stream("127.0.0.1", port))
            await quitter.stream.send_all(encode(Nme(b"quitter")))
            await quitter.until(Map)  # seated as the vampires and greeted
            await quitter.stream.send_eof()
            assert await _read_all(quitter.stream) == b""  # the server let it go
            await quitter.stream.aclose()
            bots = [await fake_bot(nursery, port, b"a", 1)]
            await seats.events[1].wait()
            bots.append(await fake_bot(nursery, port, b"b", 2))
    (result,) = results
    assert (result.vampires.name, result.werewolves.name) == ("a", "b")
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    for bot in bots:
        assert bot.received[-2:] == [End(), Bye()]
