"""The generated maps the strength targets are measured on, as ``vvw`` map names.

    python -m benchmarks.target_maps [--per-size 2]

prints ``gen:SEED:WxH:HOMES`` names, ``--per-size`` of each size from 10 × 10 to 30 × 30
(``2 × side / 5`` homes before mirroring): the lowest seeds whose map starts the two
species at least ``MIN_START_DISTANCE`` cells apart (so the first plies are not one coin
flip) and whose conversions never stall (:func:`benchmarks.strength.playable`: on a map
where each side soon meets only houses bigger than itself, careful bots of any strength
draw). Use it in a shell: ``vvw tournament … --maps thetrap testmap2 testmap-5x9
$(python -m benchmarks.target_maps)``.
"""

import argparse
from collections.abc import Iterator

from benchmarks.strength import playable
from engine.mapfile import GameMap
from engine.mapgen import generate_map

SIDES = (10, 15, 20, 25, 30)
MIN_START_DISTANCE = 4


def start_distance(game_map: GameMap) -> int:
    """The Chebyshev distance between the two starts of a map."""
    vx, vy, _ = game_map.vampires
    wx, wy, _ = game_map.werewolves
    return max(abs(vx - wx), abs(vy - wy))


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.target_maps",
        description="Print the generated maps the strength targets are measured on.",
    )
    parser.add_argument(
        "--per-size", type=int, default=2, help="maps of each size, 10x10 to 30x30 (default 2)"
    )
    args = parser.parse_args(argv)
    if args.per_size < 1:
        parser.error("--per-size must be 1 or more")
    print(" ".join(target_maps(args.per_size)))


if __name__ == "__main__":
    main()
