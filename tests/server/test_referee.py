"""The referee over memory streams, with fake bots that behave and misbehave."""

from pathlib import Path

import trio
import trio.testing

from engine import Kind
from engine.mapfile import load_map
from server.lobby import admit, connected, greet
from server.protocol import Bye, End, Upd
from server.referee import play_game
from server.result import Termination
from server.settings import OnTimeout, Settings
from tests.server.fakes import FakeBot, random_policy

MAP = load_map(Path(__file__).parents[2] / "maps" / "testmap.xml")


async def _game(vamp_policy, wolf_policy, settings=None, chunk=None):
    settings = settings or Settings(seed=1)
    a_server, a_bot = trio.testing.memory_stream_pair()
    b_server, b_bot = trio.testing.memory_stream_pair()
    bots = [FakeBot(a_bot, b"vamp", Kind.VAMPIRES, vamp_policy, chunk),
            FakeBot(b_bot, b"wolf", Kind.WEREWOLVES, wolf_policy)]
    async with trio.open_nursery() as nursery:
        for bot in bots:
            nursery.start_soon(bot.run)
        async with connected(a_server, "a") as vp, connected(b_server, "b") as wp:
            assert await admit(vp, 5) is None
            assert await admit(wp, 5) is None
            await greet(vp, MAP, Kind.VAMPIRES)
            await greet(wp, MAP, Kind.WEREWOLVES)
            result = await play_game(vp, wp, MAP, settings)
    for bot in bots:
        assert bot.received[-2:] == [End(), Bye()]
    return result, bots


async def test_full_random_game_ends_by_the_board():
    result, bots = await _game(random_policy(1), random_policy(2))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert result.vampires.name == "vamp" and result.werewolves.name == "wolf"
    assert bots[0].received[4] == Upd(())
    assert result.seed == 1


async def test_same_seed_same_game():
    first, _ = await _game(random_policy(1), random_policy(2))
    second, _ = await _game(random_policy(1), random_policy(2))
    assert (first.winner, first.termination, first.plies, first.vampires.creatures) == (
        second.winner, second.termination, second.plies, second.vampires.creatures)


async def test_byte_by_byte_sends_play_normally():
    result, _ = await _game(random_policy(1), random_policy(2), chunk=1)
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)


async def test_mov_0_loses_by_illegal_ply():
    result, _ = await _game(lambda s, t: b"MOV\x00", random_policy(2))
    assert (result.winner, result.termination) == (Kind.WEREWOLVES, Termination.ILLEGAL_PLY)
    assert "rule 1" in result.detail


async def test_garbage_is_a_protocol_error():
    result, _ = await _game(random_policy(1), lambda s, t: b"XYZ\x01")
    assert (result.winner, result.termination) == (Kind.VAMPIRES, Termination.PROTOCOL_ERROR)


async def test_stall_skips_turns(autojump_clock):
    result, _ = await _game(random_policy(1), lambda s, t: None)
    assert result.werewolves.skipped_turns > 0
    assert result.winner != Kind.WEREWOLVES


async def test_stall_forfeits_when_set(autojump_clock):
    settings = Settings(seed=1, on_timeout=OnTimeout.FORFEIT)
    result, _ = await _game(random_policy(1), lambda s, t: None, settings)
    assert (result.winner, result.termination) == (Kind.VAMPIRES, Termination.TIME_FORFEIT)
