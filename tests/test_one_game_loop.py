"""One game loop: a seeded game played through the referee (bytes over memory streams) and
through the in-process arena (direct calls) is the same game, with the same result."""

from pathlib import Path

import pytest
import trio
import trio.testing

from agents.arena import play_game as play_in_arena
from agents.base import Agent
from agents.client import play_on
from agents.registry import make_agent
from engine import GameResult, Kind
from engine.mapfile import GameMap, load_map
from server.lobby import admit, connected, greet
from server.referee import play_game as referee_game
from server.settings import Settings

MAPS = Path(__file__).resolve().parent.parent / "maps"
MOVE_TIME = 30.0
"""Generous: both ways must see every reply on time, however loaded the machine."""


async def through_the_referee(
    vampires: str, werewolves: str, game_map: GameMap, seed: int
) -> GameResult:
    """The game over two memory streams, each bot driven by the protocol client."""
    bots = {
        Kind.VAMPIRES: make_agent(vampires, seed=seed),
        Kind.WEREWOLVES: make_agent(werewolves, seed=seed + 1),
    }
    streams = {kind: trio.testing.memory_stream_pair() for kind in bots}
    settings = Settings(seed=seed, move_time=MOVE_TIME)

    async def bot(agent: Agent, stream: trio.abc.Stream) -> None:
        async with stream:  # a bot that is done hangs up, as its process would
            await play_on(stream, agent, time_budget=MOVE_TIME)

    async with trio.open_nursery() as nursery:
        for kind, agent in bots.items():
            nursery.start_soon(bot, agent, streams[kind][1])
        async with (
            connected(streams[Kind.VAMPIRES][0], "v") as vp,
            connected(streams[Kind.WEREWOLVES][0], "w") as wp,
        ):
            for player, kind in ((vp, Kind.VAMPIRES), (wp, Kind.WEREWOLVES)):
                assert await admit(player, 5) is None
                player.species = kind
                await greet(player, game_map, kind)
            return await referee_game(vp, wp, game_map, settings)


def in_the_arena(vampires: str, werewolves: str, game_map: GameMap, seed: int) -> GameResult:
    return play_in_arena(
        make_agent(vampires, seed=seed),
        make_agent(werewolves, seed=seed + 1),
        game_map,
        move_time=MOVE_TIME,
        seed=seed,
    )


def comparable(result: GameResult) -> tuple:
    """Everything but the think times (which depend on the machine)."""
    return (
        result.winner,
        result.termination,
        result.detail,
        result.plies,
        result.vampires.name,
        result.vampires.creatures,
        result.vampires.skipped_turns,
        result.werewolves.name,
        result.werewolves.creatures,
        result.werewolves.skipped_turns,
        result.map_name,
        result.seed,
    )


@pytest.mark.parametrize(
    ("vampires", "werewolves", "map_name", "seed"),
    [
        ("greedy", "random", "testmap.xml", 1),
        ("random", "greedy", "thetrap.xml", 2),
        ("random", "random", "testmap2.xml", 3),
        ("greedy", "greedy", "testmap-5x9.xml", 4),
        ("random", "random", "testmap.xml", 5),
        ("greedy", "random", "gen-10x10.xml", 6),
    ],
)
async def test_the_referee_and_the_arena_play_the_same_seeded_game(
    vampires: str, werewolves: str, map_name: str, seed: int
) -> None:
    game_map = load_map(MAPS / map_name)
    served = await through_the_referee(vampires, werewolves, game_map, seed)
    direct = in_the_arena(vampires, werewolves, game_map, seed)
    assert comparable(served) == comparable(direct)
    assert not served.termination.is_abnormal  # a real game, not an early fault
