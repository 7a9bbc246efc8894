"""The generated maps the strength targets are measured on, as ``vvw`` map names.

    python -m benchmarks.target_maps [--per-size 2] [--big-per-size 1] [--only-big]

prints ``gen:SEED:WxH:HOMES`` names, ``--per-size`` of each size from 10 × 10 to 30 × 30
(``2 × side / 5`` homes before mirroring): the lowest seeds whose map starts the two
species at least ``MIN_START_DISTANCE`` cells apart (so the first plies are not one coin
flip) and whose conversions never stall (:func:`playable`: on a map where each side soon
meets only houses bigger than itself, careful bots of any strength draw; the strength
benchmark's ``gen`` maps are such maps too). Then ``--big-per-size`` **big open maps** of
each size from 25 × 25 to 40 × 40 (:func:`big_open_maps`: few houses, all large, the
starts half the board apart), where the search's speed and horizon decide most (issue 49:
a bot that lost a ply of depth there lost games). Use it in a shell: ``vvw tournament …
--maps thetrap testmap2 testmap-5x9 $(python -m benchmarks.target_maps)``.
"""

import argparse
from collections.abc import Iterator

from engine.mapfile import GameMap
from engine.mapgen import generate_map
from engine.state import distance

SIDES = (10, 15, 20, 25, 30)
MIN_START_DISTANCE = 4
BIG_SIDES = (25, 30, 35, 40)
BIG_MIN_HOUSE = 5
"""The smallest house of a big open map: a few large houses, no crumbs."""


def playable(game_map: GameMap) -> bool:
    """Whether a side's starting group can convert every house of its half of the map.

    The group converts the houses it can (no more humans than itself) one after another,
    smallest first, growing by each; one house of each mirrored pair counts as its half.
    The generator draws the starts (2–19) and the houses (1–19) independently, so on about
    one generated map in six (one in four of the 10 × 10 ones) each side soon meets only
    houses larger than itself: nobody converts them without a losing gamble, and careful
    bots of any strength draw at the ply limit. Such maps say nothing about strength, so
    the strength benchmark skips them.
    """
    count = game_map.vampires[2]
    for humans in sorted(house[2] for house in game_map.humans)[::2]:
        if humans > count:
            return False
        count += humans
    return True


def start_distance(game_map: GameMap) -> int:
    """The Chebyshev distance between the two starts of a map."""
    vx, vy, _ = game_map.vampires
    wx, wy, _ = game_map.werewolves
    return distance((vx, vy), (wx, wy))


def target_maps(per_size: int) -> Iterator[str]:
    """``per_size`` map names for each side in :data:`SIDES`, lowest seeds first."""
    for side in SIDES:
        homes = 2 * side // 5
        found, seed = 0, 0
        while found < per_size:
            seed += 1
            game_map = generate_map(side, side, homes, seed)
            if start_distance(game_map) >= MIN_START_DISTANCE and playable(game_map):
                found += 1
                yield f"gen:{seed}:{side}x{side}:{homes}"


def big_open_maps(per_size: int) -> Iterator[str]:
    """``per_size`` big open maps for each side in :data:`BIG_SIDES`, lowest seeds first:
    ``side / 6`` homes before mirroring, none under :data:`BIG_MIN_HOUSE` humans, the
    starts at least half a side apart, conversions that never stall."""
    for side in BIG_SIDES:
        homes = side // 6
        found, seed = 0, 0
        while found < per_size:
            seed += 1
            game_map = generate_map(side, side, homes, seed)
            if (
                start_distance(game_map) >= side // 2
                and min(house[2] for house in game_map.humans) >= BIG_MIN_HOUSE
                and playable(game_map)
            ):
                found += 1
                yield f"gen:{seed}:{side}x{side}:{homes}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.target_maps",
        description="Print the generated maps the strength targets are measured on.",
    )
    parser.add_argument(
        "--per-size", type=int, default=2, help="maps of each size, 10x10 to 30x30 (default 2)"
    )
    parser.add_argument(
        "--big-per-size",
        type=int,
        default=1,
        help="big open maps of each size, 25x25 to 40x40 (default 1)",
    )
    parser.add_argument("--only-big", action="store_true", help="print the big open maps only")
    args = parser.parse_args(argv)
    if args.per_size < 1:
        parser.error("--per-size must be 1 or more")
    if args.big_per_size < 0:
        parser.error("--big-per-size must be 0 or more")
    names = [] if args.only_big else list(target_maps(args.per_size))
    print(" ".join(names + list(big_open_maps(args.big_per_size))))


if __name__ == "__main__":
    main()
