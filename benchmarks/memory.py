"""Search bots' memory: the peak resident memory of each bot's process over a whole game.

    python -m benchmarks.memory [--bots alphabeta,expectiminimax]
        [--maps thetrap,testmap,testmap2,testmap-5x9,all_in,gen-30x30]
        [--move-time 2] [--opponent greedy] [--side werewolves] [--seed 1]

Each bot plays one game per map against ``--opponent`` in the in-process arena, in a fresh
process of its own (so the peak is that game's alone), on ``--side``; the opponent is a
light bot, so the process's peak is the search bot's. The bot searches ``--move-time`` per
move (its ``time_budget``) and the arena allows :data:`GRACE` seconds more, so that a loaded
machine (or ``nice``) that makes it late does not end the game before its memory is seen.
A line per game: the resident memory once everything is imported and the bot made
(``start``), the peak over the game (``peak``, from ``getrusage``), the plies played, the
search's nodes per second over the whole game (from the bot's ``last_stats`` after each
move, as for :mod:`benchmarks.agents`), the mean depth reached and the result. Games are
played one after the other, each in a fresh worker of the one pool (:mod:`vvw.running.pool`).
"""

import argparse
import resource
import time
from pathlib import Path
from typing import Any

import attrs

from agents.arena import play_game
from agents.registry import BOTS, make_agent
from engine import GameState, Kind, Ply
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.mapfile import load_map
from vvw.running.pool import WorkerPool

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
DEFAULT_MAPS = "thetrap,testmap,testmap2,testmap-5x9,all_in,gen-30x30"
SIDES = {"vampires": VAMPIRES, "werewolves": WEREWOLVES}
GRACE = 10.0
"""Seconds the arena allows a reply beyond ``--move-time``."""


class Recorder:
    """A bot that plays as ``agent`` and adds up the nodes, seconds and depths of its
    searches (its ``last_stats`` after each move)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.nodes = self.moves = self.depths = 0
        self.seconds = 0.0

    def new_game(self, species: Kind, state: GameState) -> None:
        self.agent.new_game(species, state)

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        ply = self.agent.choose_ply(state, deadline)
        stats = self.agent.last_stats
        self.nodes += stats.nodes
        self.seconds += stats.seconds
        self.depths += stats.depth
        self.moves += 1
        return ply


@attrs.frozen
class Figures:
    """One game's memory and speed figures."""

    start_mb: float
    peak_mb: float
    plies: int
    nodes_per_second: float
    mean_depth: float
    result: str


def resident_mb() -> float:
    """This process's resident memory now, in MB (from /proc)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 1e6


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (``ru_maxrss`` is in kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


def one_game(
    bot: str, map_name: str, move_time: float, opponent: str, side: str, seed: int
) -> Figures:
    """Play one game (in a fresh worker process) and measure it."""
    start = load_map(MAPS_DIR / f"{map_name}.xml")
    searcher = Recorder(make_agent(bot, seed=seed, time_budget=move_time))
    other = make_agent(opponent, seed=seed)
    before = resident_mb()
    allowed = move_time + GRACE
    if SIDES[side] == VAMPIRES:
        record = play_game(searcher, other, start, move_time=allowed, seed=seed)
    else:
        record = play_game(other, searcher, start, move_time=allowed, seed=seed)
    won = record.winner == SIDES[side]
    result = "draw" if record.winner is None else "won" if won else "lost"
    result += f" ({record.termination.value})"
    rate = searcher.nodes / searcher.seconds if searcher.seconds > 0 else 0.0
    depth = searcher.depths / searcher.moves if searcher.moves else 0.0
    return Figures(before, peak_mb(), record.plies, rate, depth, result)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.memory",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--bots", default="alphabeta,expectiminimax", help="comma-separated")
    parser.add_argument("--maps", default=DEFAULT_MAPS, help="comma-separated names in maps/")
    parser.add_argument("--move-time", type=float, default=2.0, help="seconds per move")
    parser.add_argument("--opponent", default="greedy", help="the other bot (default greedy)")
    parser.add_argument(
        "--side",
        choices=sorted(SIDES),
        default="werewolves",
        help="the search bot's side (default werewolves)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the bots and the dice")
    args = parser.parse_args(argv)
    if args.move_time <= 0:
        parser.error("--move-time must be positive")
    maps, bots = args.maps.split(","), args.bots.split(",")
    for bot in [*bots, args.opponent]:
        if bot not in BOTS:
            parser.error(f"no bot {bot!r}; built-in bots: {', '.join(BOTS)}")
    for name in maps:
        if not (MAPS_DIR / f"{name}.xml").is_file():
            parser.error(f"no map {name!r} in {MAPS_DIR.name}/")
    print(
        f"--move-time {args.move_time} --side {args.side} --opponent {args.opponent}"
        f" --seed {args.seed}"
    )
    print(
        f"{'bot':<15} {'map':<12} {'start MB':>8} {'peak MB':>8} {'plies':>5}"
        f" {'nodes/s':>8} {'depth':>5}  result"
    )
    for bot in bots:
        for name in maps:
            began = time.monotonic()
            with WorkerPool(1, fresh=True) as pool:
                figures = pool.call(
                    one_game, bot, name, args.move_time, args.opponent, args.side, args.seed
                )
            print(
                f"{bot:<15} {name:<12} {figures.start_mb:>8.0f} {figures.peak_mb:>8.0f}"
                f" {figures.plies:>5} {figures.nodes_per_second:>8.0f}"
                f" {figures.mean_depth:>5.1f}  {figures.result}"
                f"  [{time.monotonic() - began:.0f} s]",
                flush=True,
            )


if __name__ == "__main__":
    main()
