"""``vvw proxy`` between our server and real bot processes: not a byte changed, and every
illegal ply or garbled message flagged while the game goes on as the server rules it."""

import io
import sys
from functools import partial
from pathlib import Path

import trio

from engine import Kind, Rules, Termination
from protocol.records import Direction, Frame, Header, Player, Ply, Source
from server.events import GameEnded, Seated
from server.serving import Transcripts, serve
from server.settings import Settings
from tests.helpers.maps import load
from vvw.argtypes import address
from vvw.proxy_trace import Trace
from vvw.proxying import run_proxy
from vvw.transcripts import read_transcript

MAP = load("testmap")

BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
SETTINGS = Settings(seed=1, rules=Rules(max_plies=20), connect_time=10.0)


async def _game_through_proxy(tmp_path: Path, modes: tuple[str, str]):
    """One game on our server, both bots through the proxy: (result, trace text)."""
    results: list = []
    out = io.StringIO()
    seated, finished = trio.Event(), trio.Event()

    def hear(event) -> None:
        if isinstance(event, Seated):
            seated.set()
        elif isinstance(event, GameEnded):
            results.append(event.result)
            finished.set()

    async def server(task_status=trio.TASK_STATUS_IGNORED) -> None:
        await serve(
            MAP,
            SETTINGS,
            port=0,
            transcripts=Transcripts(tmp_path / "server", keep_all=True),
            events=hear,
            task_status=task_status,
        )

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server_port = await nursery.start(server)
            proxy_port = await nursery.start(
                run_proxy,
                ("127.0.0.1", 0),
                ("127.0.0.1", server_port),
                Trace(out),
                tmp_path / "proxy",
            )
            async with trio.open_nursery() as bots:
                for mode in modes:
                    command = [sys.executable, str(BOT), mode, "127.0.0.1", str(proxy_port)]
                    bots.start_soon(partial(trio.run_process, command, check=False))
                    await seated.wait()  # the first bot takes the vampires' seat
            await finished.wait()
            nursery.cancel_scope.cancel()
    return results[0], out.getvalue()


def _bytes_by_side(path: Path) -> dict[tuple[Kind | None, str], bytes]:
    sides: dict[tuple[Kind | None, str], bytes] = {}
    for record in read_transcript(path):
        if isinstance(record, Frame):
            key = (record.side, record.direction)
            sides[key] = sides.get(key, b"") + record.raw
    return sides


async def test_the_proxy_changes_no_byte_both_transcripts_are_equal(tmp_path):
    result, trace = await _game_through_proxy(tmp_path, ("play", "play"))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    (server_file,) = (tmp_path / "server").glob("*.jsonl")
    server = _bytes_by_side(server_file)
    proxy_files = sorted((tmp_path / "proxy").glob("*.jsonl"))
    assert len(proxy_files) == 2
    seen = {}
    for path in proxy_files:
        records = read_transcript(path)
        header = records[0]
        assert isinstance(header, Header) and header.source is Source.PROXY
        (player,) = [r for r in records if isinstance(r, Player)]
        assert player.side is not None
        proxy = _bytes_by_side(path)
        for direction in (Direction.IN, Direction.OUT):
            seen[(player.side, direction)] = proxy[(player.side, direction)]
        plies = [r for r in records if isinstance(r, Ply)]
        assert plies and all(p.violation is None and p.think is not None for p in plies)
    assert seen == server
    assert "!!" not in trace and "ply 1 vampires" in trace


async def test_the_proxy_flags_an_illegal_ply_and_the_game_ends_as_the_server_rules(tmp_path):
    result, trace = await _game_through_proxy(tmp_path, ("illegal", "play"))
    assert result.termination is Termination.ILLEGAL_PLY and result.winner is Kind.WEREWOLVES
    flagged = [line for line in trace.splitlines() if "!! ILLEGAL" in line]
    assert len(flagged) == 1 and "ply 3 by the vampires" in flagged[0]
    assert "rule 3 (the source cell holds fewer creatures than the move sends)" in flagged[0]
    assert "<- END" in trace


async def test_the_proxy_flags_garbled_bytes_and_still_forwards_them(tmp_path):
    result, trace = await _game_through_proxy(tmp_path, ("garble", "play"))
    assert result.termination is Termination.PROTOCOL_ERROR and result.winner is Kind.WEREWOLVES
    assert "!! MALFORMED from the bot (forwarded as is): unknown command b'XYZ'" in trace
    assert "bytes: 58 59 5a" in trace
    (server_file,) = (tmp_path / "server").glob("*.jsonl")
    records = read_transcript(server_file)
    garbled = [r for r in records if isinstance(r, Frame) and r.command is None]
    assert [frame.raw for frame in garbled] == [b"XYZ"]  # the server got them, unchanged


def test_an_address_takes_host_and_port():
    assert address("example.org:5555") == ("example.org", 5555)
    assert address("5555") == ("127.0.0.1", 5555)
    assert address("[::1]:7") == ("::1", 7)
