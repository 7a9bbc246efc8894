"""The venue of games played in the in-process arena (:mod:`agents.arena`): built-in bots
called directly, no server, no protocol, each game in a worker process of the pool
(:mod:`vvw.running.pool`). The game's flow is the server's (one :class:`engine.Game`), so a
scheduled game played here is the game the server would play, only faster: the strength
benchmark's games.

A participant's spec is a built-in bot's name with its options (``"alphabeta --depth 3"``);
its seed is the scheduled game's, and the battles' the game's battle seed.
"""

import shlex
import time
from collections.abc import Callable

import attrs

from agents.arena import drive, new_game
from agents.base import Agent
from agents.registry import make_agent
from engine import Game, GameResult, Limits
from server.events import EventSink
from vvw.running.bots import extra_options
from vvw.running.local_game import Played
from vvw.running.playing import results_line
from vvw.running.pool import WorkerPool
from vvw.running.runner import Finished
from vvw.running.schedule import ScheduledGame


def built_in(spec: str, seed: int) -> Agent:
    """The built-in bot ``spec`` names (``"alphabeta --depth 3"``), made with ``seed``."""
    name, *words = shlex.split(spec)
    return make_agent(name, seed=seed, **extra_options(words))


def arena_game(game: ScheduledGame, limits: Limits) -> tuple[Game, Agent, Agent]:
    """``game`` in the arena, not yet played (see :func:`agents.arena.drive`), and its
    vampires and werewolves."""
    vampires = built_in(game.vampires.spec, game.seeds[0])
    werewolves = built_in(game.werewolves.spec, game.seeds[1])
    arena = new_game(vampires, werewolves, game.map.game_map, limits=limits, seed=game.battle_seed)
    return arena, vampires, werewolves


def play_in_arena(game: ScheduledGame, limits: Limits) -> GameResult:
    """Play ``game`` in the arena (in a worker): its result, each side named as scheduled."""
    result = drive(*arena_game(game, limits))
    return attrs.evolve(
        result,
        vampires=attrs.evolve(result.vampires, name=game.vampires.name),
        werewolves=attrs.evolve(result.werewolves, name=game.werewolves.name),
    )


@attrs.frozen
class InProcess:
    """Games played in the arena under ``limits``, in the workers of ``pool``."""

    pool: WorkerPool
    limits: Limits

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None = None,
        on_abort: Callable[[Finished], None] | None = None,
    ) -> Finished:
        """Play ``game`` in a worker; no server's events to hear, and a game stopped is
        not told (its worker ends with the pool)."""
        began = time.monotonic()
        result = await self.pool.run(play_in_arena, game, self.limits)
        played = Played(result, outputs={})
        return Finished(game, played, results_line(game, played, time.monotonic() - began, None))
