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
"""

import argparse
from collections import defaultdict
from contextlib import ExitStack
from itertools import pairwise

from benchmarks.agents import positions
from benchmarks.target_maps import big_open_maps
from benchmarks.versions import ROOT, Searcher, checkout
from engine import Ply


def letters(plies: list[Ply]) -> str:
    """Each distinct ply a letter, in order of first appearance: ``AABA``."""
    seen: dict[Ply, str] = {}
    return "".join(seen.setdefault(ply, chr(ord("A") + len(seen))) for ply in plies)


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


if __name__ == "__main__":
    main()
