"""``vvw map check|show|generate``: validate, draw and make map files."""

import argparse
import sys
from pathlib import Path

from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapfile import GameMap, MapFileError, dump_map, load_map
from engine.mapgen import generate_map
from vvw.command_parser import add_actions
from vvw.errors import UsageError
from vvw.mapchoice import resolve_maps
from vvw.paths import write_file


def describe_map(game_map: GameMap) -> str:
    """``5 × 10, 4 houses (9 humans), vampires 4 at (4,3), werewolves 4 at (4,1)``."""
    humans = sum(n for _, _, n in game_map.humans)
    vx, vy, vn = game_map.vampires
    wx, wy, wn = game_map.werewolves
    return (
        f"{game_map.rows} rows × {game_map.cols} columns, {len(game_map.humans)} houses"
        f" ({humans} humans), vampires {vn} at ({vx},{vy}), werewolves {wn} at ({wx},{wy})"
    )


def check(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.files:
        try:
            game_map = load_map(path)
        except MapFileError as error:
            print(f"error {error}", file=sys.stderr)
            bad += 1
        else:
            print(f"ok    {path}: {describe_map(game_map)}")
    if len(args.files) > 1:
        print(f"{len(args.files) - bad} good, {bad} bad", file=sys.stderr if bad else sys.stdout)
    return 1 if bad else 0


def show(args: argparse.Namespace) -> int:
    """Draw the map named by a file, a bundled name (``thetrap``) or ``gen:SEED…``."""
    text = args.file
    try:
        if Path(text).exists():
            game_map = load_map(text)
        else:
            choices = resolve_maps([text])
            if len(choices) != 1:
                raise ValueError(f"{text} names {len(choices)} maps; show draws one")
            game_map = choices[0].game_map
    except ValueError as error:  # a MapFileError too
        raise UsageError(str(error)) from None
    state = game_map.initial_state()
    print(f"{text}: {describe_map(game_map)}")
    print(state.draw())
    totals = {kind: state.total(kind) for kind in (HUMANS, VAMPIRES, WEREWOLVES)}
    print(
        f"H humans {totals[HUMANS]}, V vampires {totals[VAMPIRES]},"
        f" W werewolves {totals[WEREWOLVES]}; x is the column, y the row, (0,0) top left"
    )
    return 0


def generate(args: argparse.Namespace) -> int:
    try:
        game_map = generate_map(args.width, args.height, args.homes, args.seed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    data = dump_map(game_map)
    if args.output is None:
        sys.stdout.buffer.write(data)
    else:
        write_file(args.output, data)
        print(f"wrote {args.output}: {describe_map(game_map)}", file=sys.stderr)
    return 0


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    commands = add_actions(
        subparsers,
        "map",
        help="check, draw or generate map files",
        description="Check, draw or generate the course's XML map files.",
    )

    checker = commands.add_parser(
        "check",
        help="validate map files",
        description="Validate map files: one line per file; exit 1 if any is bad.",
        epilog="example: vvw map check maps/*.xml",
    )
    checker.add_argument("files", nargs="+", type=Path, metavar="FILE")
    checker.set_defaults(func=check)

    shower = commands.add_parser(
        "show",
        help="draw a map in the terminal",
        description="Draw a map's starting board: H humans, V vampires, W werewolves.",
        epilog="examples: vvw map show maps/thetrap.xml; vvw map show thetrap;"
        " vvw map show gen:4:25x25:10",
    )
    shower.add_argument(
        "file",
        metavar="MAP",
        help="a map file, a bundled map's name (thetrap) or gen:SEED[:WIDTHxHEIGHT[:HOMES]]",
    )
    shower.set_defaults(func=show)

    generator = commands.add_parser(
        "generate",
        help="make a centrally symmetric random map",
        description=(
            "Make a map like the course's generator: HOMES human groups of 1-19 on the left"
            " half, each mirrored through the centre, and mirrored starts of 2-19 creatures."
        ),
        epilog="example: vvw map generate 20 20 8 --seed 3 -o maps/mine.xml",
    )
    generator.add_argument("width", type=int, help="columns")
    generator.add_argument("height", type=int, help="rows")
    generator.add_argument("homes", type=int, help="human groups before mirroring")
    generator.add_argument("--seed", type=int, default=None, help="same seed, same map")
    generator.add_argument(
        "-o", "--output", type=Path, default=None, help="file to write (default: stdout)"
    )
    generator.set_defaults(func=generate)
