"""Search bots' speed: nodes per second, depth reached and the ply chosen, per position,
optionally beside another git ref's bots in the same run.

    python -m benchmarks.agents [--seconds 1.8 | --depth N] [--bots alphabeta,expectiminimax]
        [--maps thetrap,testmap2,gen-30x30] [--plies 0,20] [--against REF] [--rounds 1]
        [--seed N]

Positions: for each map (a name in maps/, or a generated ``gen:SEED:WxH:HOMES``) and each
ply count of ``--plies``, the position after that many plies of ``alphabeta --depth 2``
against itself with battles drawn by a fixed seed (ply 0 is the opening; the same
positions every run of one version). Each bot searches each position once, made fresh
(an empty table) in a worker process of its own tree (:mod:`benchmarks.versions`), for
``--seconds`` or to the fixed ``--depth``. A row for every bot and position: the deepest
finished depth, nodes, nodes per second of CPU time (the process's: on a machine shared
with other work it depends far less on the load than the wall clock's), the wall seconds,
and the ply chosen; ``no search`` where the bot answered without one (a solved endgame).

``--against REF`` checks REF out into a temporary git worktree and runs its bots on the
same positions, each position searched by this tree's bot then REF's, in turn, so both
see the same load; a summary line per bot gives the ratio of nodes per second (this tree
over REF, the geometric mean over the positions) and, at a fixed depth, how many
positions both chose the same ply. ``--rounds N`` repeats everything N times.
"""

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack

from agents.registry import BOTS, make_agent
from benchmarks.versions import ROOT, Answer, BotFailed, Searcher, checkout
from engine import GameState, apply_ply, end_of_game, ply_text
from vvw.mapchoice import resolve_maps

DEFAULT_MAPS = "thetrap,testmap2,gen-30x30"
DEFAULT_PLIES = "0,20"


def played(start: GameState, plies: int, seed: int = 0) -> GameState:
    """The position after ``plies`` plies of ``alphabeta --depth 2`` self-play (battles
    drawn with ``seed``), or the last one before the game ends."""
    rng = random.Random(seed)
    player = make_agent("alphabeta", depth=2)
    state = start
    for _ in range(plies):
        ply = player.choose_ply(state, time.monotonic() + 60)
        after = apply_ply(state, ply, rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


def positions(maps: list[str], plies: list[int]) -> Iterator[tuple[str, GameState]]:
    """``(label, state)`` for each map and ply count (see the module docstring)."""
    for choice in resolve_maps(maps):
        start = choice.game_map.initial_state()
        for count in plies:
            state = played(start, count)
            label = f"{choice.label} ply {state.ply}"
            yield label, state


def row(bot: str, where: str, version: str, answer: Answer) -> str:
    if answer.depth is None:
        figures = f"{'no search':>34}"
    else:
        figures = (
            f"{answer.depth:>5} {answer.nodes:>8} {answer.nodes_per_second:>11.0f}"
            f" {answer.seconds:>7.2f}"
        )
    return f"{bot:<15} {where:<30} {version:<9} {figures}  {ply_text(answer.ply)}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.agents",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=float, default=None, help="time per search (1.8)")
    limit.add_argument("--depth", type=int, default=None, help="a fixed depth instead")
    parser.add_argument("--bots", default="alphabeta,expectiminimax", help="comma-separated")
    parser.add_argument("--maps", default=DEFAULT_MAPS, help="comma-separated map names")
    parser.add_argument("--plies", default=DEFAULT_PLIES, help="plies played before each position")
    parser.add_argument("--against", metavar="REF", help="also run a git ref's bots, interleaved")
    parser.add_argument("--rounds", type=int, default=1, help="times to run everything")
    parser.add_argument("--seed", type=int, default=None, help="the bots' seed (default none)")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    unknown = [bot for bot in bots if bot not in BOTS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; built-in bots: {', '.join(BOTS)}")
    seconds = None if args.depth is not None else (args.seconds or 1.8)
    options = {} if args.depth is None else {"depth": args.depth}
    if args.seed is not None:
        options["seed"] = args.seed
    try:
        plies = [int(word) for word in args.plies.split(",")]
        places = list(positions(args.maps.split(","), plies))
    except ValueError as error:
        parser.error(str(error))
    limit_text = f"depth {args.depth}" if args.depth is not None else f"{seconds} s"
    print(f"{len(places)} positions, {limit_text} per search")
    print(
        f"{'bot':<15} {'position':<30} {'version':<9} {'depth':>5} {'nodes':>8}"
        f" {'nodes/cpu-s':>11} {'s':>7}  ply"
    )
    rates: dict[tuple[str, str], list[float]] = defaultdict(list)
    same: dict[str, list[bool]] = defaultdict(list)
    with ExitStack() as stack:
        searchers = [stack.enter_context(Searcher(ROOT, "this"))]
        if args.against:
            try:
                tree = stack.enter_context(checkout(args.against))
            except ValueError as error:
                parser.error(str(error))
            searchers.append(stack.enter_context(Searcher(tree, args.against[:9])))
        for _ in range(args.rounds):
            for where, state in places:
                for bot in bots:
                    answers = []
                    for searcher in searchers:
                        try:
                            answer = searcher.choose(bot, state, seconds, options)
                        except BotFailed as error:
                            print(f"{bot:<15} {where:<30} {searcher.label:<9} {error}")
                            continue
                        answers.append(answer)
                        print(row(bot, where, searcher.label, answer), flush=True)
                        if answer.depth is not None:
                            rates[(bot, searcher.label)].append(answer.nodes_per_second)
                    if len(answers) == 2:
                        same[bot].append(answers[0].ply == answers[1].ply)
    if args.against:
        for bot in bots:
            print(
                summary(bot, rates[(bot, "this")], rates[(bot, args.against[:9])], same[bot], args)
            )


def summary(
    bot: str, ours: list[float], theirs: list[float], same: list[bool], args: argparse.Namespace
) -> str:
    """The bot's nodes per second against REF's (geometric mean of the ratios) and, at a
    fixed depth, the plies both chose alike."""
    pairs = [(a, b) for a, b in zip(ours, theirs, strict=False) if a > 0 and b > 0]
    text = f"{bot}: "
    if pairs:
        ratio = math.exp(sum(math.log(a / b) for a, b in pairs) / len(pairs))
        text += f"nodes/s {ratio:.2f} times {args.against}'s over {len(pairs)} searches"
    if args.depth is not None:
        text += f"; the same ply at depth {args.depth} on {sum(same)} of {len(same)} positions"
    return text


if __name__ == "__main__":
    main()
