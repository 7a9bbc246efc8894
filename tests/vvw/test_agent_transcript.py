"""``vvw agent --transcript DIR``: the bot's own side of the traffic, in our server's format,
holds the very bytes our server recorded for that side."""

from functools import partial

import trio

from agents.client import play
from agents.random_bot import RandomAgent
from engine import Rules
from protocol.records import Direction, Frame, Header, Player, Ply, Source
from server.serving import Transcripts, serve
from server.settings import Settings
from tests.helpers.maps import load
from vvw.transcripts import read_transcript
from vvw.watching import recording

MAP = load("testmap")


async def test_each_game_of_an_agent_leaves_a_transcript_of_its_own_side(tmp_path):
    settings = Settings(seed=3, rules=Rules(max_plies=12))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(
                    serve,
                    MAP,
                    settings,
                    port=0,
                    games=2,
                    transcripts=Transcripts(tmp_path / "server", keep_all=True),
                )
            )
            nursery.start_soon(
                partial(
                    play,
                    RandomAgent(seed=1),
                    "127.0.0.1",
                    port,
                    name="mine",
                    games=2,
                    wrap_stream=recording(tmp_path / "mine", f"127.0.0.1:{port}"),
                )
            )
            nursery.start_soon(
                partial(play, RandomAgent(seed=2), "127.0.0.1", port, name="theirs", games=2)
            )
    mine = sorted((tmp_path / "mine").glob("*.jsonl"))
    assert [path.name.rsplit("-", 1)[-1] for path in mine] == ["game1.jsonl", "game2.jsonl"]
    servers = sorted((tmp_path / "server").glob("*.jsonl"))
    for own, server in zip(mine, servers, strict=True):
        records = read_transcript(own)
        assert isinstance(records[0], Header) and records[0].source is Source.AGENT
        (player,) = [r for r in records if isinstance(r, Player)]
        assert player.name == "mine"
        plies = [r for r in records if isinstance(r, Ply)]
        assert plies and all(p.violation is None and p.think is not None for p in plies)
        for direction in Direction:
            ours = [r.raw for r in records if isinstance(r, Frame) and r.direction is direction]
            theirs = [
                r.raw
                for r in read_transcript(server)
                if isinstance(r, Frame) and r.side == player.side and r.direction is direction
            ]
            # After its last game's END the bot stops reading: the BYE may go unseen.
            assert b"".join(theirs) in (b"".join(ours), b"".join(ours) + b"BYE")
