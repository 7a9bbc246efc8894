"""How often a search bot's choice flips with one more ply of depth, on big open maps.

    python -m benchmarks.flips [--bots expectiminimax] [--maps NAME,…] [--plies 0,4,8,12,20]
        [--depths 2-5] [--against REF]

A choice that changes between depth ``d`` and ``d + 1`` is where a time budget turns into
luck: whether the clock stops the search before or after depth ``d + 1`` decides the ply.
For each position (the map's opening, then the positions after ``--plies`` plies of
``alphabeta --depth 2`` self-play, as :mod:`benchmarks.agents` makes them; by default the
big open maps of :func:`benchmarks.target_maps.big_open_maps`), each bot chooses at every
depth of ``--depths``, made fresh each time. A line per position shows the plies chosen
from the shallowest depth to the deepest as letters (``AABA``: the first ply at depths 2,
3 and 5, another at 4), then, per bot (and per version with ``--against REF``), the share
of positions whose choice at ``d`` differs from ``d + 1``, for each ``d``.

For this tree's bots, each flip is also *weighed*: both plies searched ``d + 1`` deep
(:meth:`agents.deepening.Deepening.root_values`, from an empty table) and the gap between
their values printed in thousandths of a win (``3→4 +0.9``: at depth 4 the new ply is
worth 0.0009 of a win more than depth 3's). A gap of a few thousandths is a choice between
plies of almost the same worth (the position's); a large one is the deeper search seeing
what the shallower one could not (the horizon's). The summary gives the median and largest
gap per bot.
"""

import argparse
import statistics
from collections import defaultdict
from contextlib import ExitStack
from itertools import pairwise

from agents.deepening import Deepening
from agents.evaluation import WIN
from agents.registry import make_agent
from benchmarks.agents import positions
from benchmarks.target_maps import big_open_maps
from benchmarks.versions import ROOT, Searcher, checkout
from engine import GameState, Ply


def letters(plies: list[Ply]) -> str:
    """Each distinct ply a letter, in order of first appearance: ``AABA``."""
    seen: dict[Ply, str] = {}
    return "".join(seen.setdefault(ply, chr(ord("A") + len(seen))) for ply in plies)


def gap(bot: str, state: GameState, depth: int, before: Ply, after: Ply) -> float:
    """How much more ``after`` is worth than ``before`` to this tree's ``bot``, both searched
    ``depth`` deep from an empty table, in thousandths of a win."""
    agent = make_agent(bot, depth=depth)
    if not isinstance(agent, Deepening):
        raise ValueError(f"{bot} is not a search bot: its plies cannot be weighed")
    agent.new_game(state.to_move, state)
    values = dict(agent.root_values(state, depth=depth, plies=[before, after]))
    return (values[after] - values[before]) / WIN * 1000


def depth_range(text: str) -> list[int]:
    """``"2-5"`` → ``[2, 3, 4, 5]``."""
    low, _, high = text.partition("-")
    first, last = int(low), int(high or low)
    if not 1 <= first < last:
        raise ValueError(f"--depths must be two depths, the first at least 1: got {text!r}")
    return list(range(first, last + 1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.flips",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--bots", default="expectiminimax", help="comma-separated")
    parser.add_argument("--maps", default=None, help="map names (default: big open maps)")
    parser.add_argument("--plies", default="0,4,8,12,20", help="plies played before each")
    parser.add_argument("--depths", default="2-5", help="the depths compared, FIRST-LAST")
    parser.add_argument("--against", metavar="REF", help="also a git ref's bots, interleaved")
    args = parser.parse_args(argv)
    try:
        depths = depth_range(args.depths)
        maps = args.maps.split(",") if args.maps else list(big_open_maps(1))
        places = list(positions(maps, [int(word) for word in args.plies.split(",")]))
    except ValueError as error:
        parser.error(str(error))
    bots = args.bots.split(",")
    flips: dict[tuple[str, str], list[list[bool]]] = defaultdict(list)
    gaps: dict[str, list[float]] = defaultdict(list)
    print(f"{len(places)} positions; plies chosen at depths {depths[0]} to {depths[-1]}")
    with ExitStack() as stack:
        searchers = [stack.enter_context(Searcher(ROOT, "this"))]
        if args.against:
            tree = stack.enter_context(checkout(args.against))
            searchers.append(stack.enter_context(Searcher(tree, args.against[:9])))
        for where, state in places:
            for bot in bots:
                for searcher in searchers:
                    chosen = [
                        searcher.choose(bot, state, None, {"depth": depth}).ply for depth in depths
                    ]
                    flips[(bot, searcher.label)].append([a != b for a, b in pairwise(chosen)])
                    shown = letters(chosen)
                    if searcher.label == "this":
                        steps = zip(depths, pairwise(chosen), strict=False)
                        weighed = [
                            (depth, gap(bot, state, depth + 1, before, after))
                            for depth, (before, after) in steps
                            if before != after
                        ]
                        gaps[bot] += [value for _, value in weighed]
                        shown += "".join(f"  {d}→{d + 1} {value:+.1f}" for d, value in weighed)
                    print(f"{bot:<15} {where:<30} {searcher.label:<9} {shown}", flush=True)
    for (bot, label), rows in flips.items():
        shares = []
        for index, depth in enumerate(depths[:-1]):
            flipped = sum(row[index] for row in rows)
            shares.append(f"{depth}→{depth + 1}: {flipped}/{len(rows)}")
        anywhere = sum(any(row) for row in rows)
        print(
            f"{bot} ({label}): the choice flips {', '.join(shares)};"
            f" at some depth on {anywhere} of {len(rows)} positions"
        )
    for bot, values in gaps.items():
        if values:
            print(
                f"{bot}: the new ply is worth {statistics.median(values):+.1f} thousandths of a"
                f" win more than the old one at the deeper depth (median; at most"
                f" {max(values):+.1f}) over {len(values)} flips"
            )


if __name__ == "__main__":
    main()
