"""The in-process venue plays a scheduled game as the arena plays it: the same bots, seeds
and battles give the same game; each side named as scheduled."""

import trio

from agents.arena import play_game
from agents.registry import make_agent
from engine import Limits
from vvw.mapchoice import resolve_maps
from vvw.running.in_process import InProcess, built_in
from vvw.running.participants import Participant
from vvw.running.pool import WorkerPool
from vvw.running.schedule import ScheduledGame

GAME = ScheduledGame(
    key="k",
    pair="p",
    round=1,
    number=1,
    vampires=Participant("deep", "alphabeta --depth 2"),
    werewolves=Participant("greedy", "greedy"),
    map=resolve_maps(["testmap"])[0],
    battle_seed=11,
    seeds=(5, 6),
)


def test_a_spec_makes_the_built_in_bot_with_its_options_and_seed():
    bot = built_in("alphabeta --depth 2", seed=5)
    assert bot.max_depth == 2  # type: ignore[attr-defined]


def test_a_game_in_the_venue_is_the_arena_s_game_named_as_scheduled():
    with WorkerPool(1) as pool:
        done = trio.run(InProcess(pool, Limits(move_time=5.0)).play, GAME)
    alone = play_game(
        make_agent("alphabeta", seed=5, depth=2),
        make_agent("greedy", seed=6),
        GAME.map.game_map,
        move_time=5.0,
        seed=11,
    )
    result = done.played.result
    assert (result.winner, result.termination, result.plies) == (
        alone.winner,
        alone.termination,
        alone.plies,
    )
    assert (result.vampires.creatures, result.werewolves.creatures) == (
        alone.vampires.creatures,
        alone.werewolves.creatures,
    )
    assert done.line.names == ("deep", "greedy")
    assert (done.line.vampires.command, done.line.battle_seed) == ("alphabeta --depth 2", 11)
