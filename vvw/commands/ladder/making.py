"""``vvw ladder new`` and ``vvw ladder team add|list|remove|reset``: a ladder's file and its
teams (``add`` and ``reset`` print the team's token on standard output, once: the ladder
keeps only its hash)."""

import argparse
import sys
import time
from pathlib import Path

import attrs

from agents.registry import BOTS
from vvw.argtypes import positive_float, positive_int
from vvw.commands.ladder.arguments import Option, add_file, add_options
from vvw.errors import UsageError
from vvw.game_arguments import (
    add_game_settings,
    add_map_arguments,
    settings_from,
    split_maps_and_bots,
)
from vvw.ladder.queries import LadderReader
from vvw.ladder.schema import StoreError
from vvw.ladder.settings import (
    ANCHOR,
    ANCHOR_RATING,
    BUILTINS,
    PATIENCE,
    TEAM_CONNECTIONS,
    LadderMap,
    LadderSettings,
    SettingsError,
)
from vvw.ladder.store import LadderStore
from vvw.mapchoice import resolve_maps

NEW_OPTIONS: tuple[Option, ...] = (
    (
        "--anchor",
        str,
        ANCHOR,
        "BOT",
        "the built-in bot whose rating is fixed (default %(default)s)",
    ),
    ("--anchor-rating", float, ANCHOR_RATING, "ELO", "its rating (default %(default)g)"),
    (
        "--patience",
        positive_float,
        PATIENCE,
        "SECONDS",
        "a bot alone this long plays a built-in bot of about its strength (default %(default)g)",
    ),
    (
        "--team-connections",
        positive_int,
        TEAM_CONNECTIONS,
        "N",
        "connections a team may have at once (default %(default)s)",
    ),
)


def _file_to_make(args: argparse.Namespace) -> Path:
    """``FILE``, even typed after ``--map``'s maps or ``--builtin``'s bots, which take every
    word that follows them (``ladder new --map thetrap ladder.db``)."""
    if args.file is not None:
        return Path(args.file)
    args.map, words = split_maps_and_bots(args.map, [])
    if not words and args.builtin and args.builtin[-1] not in BOTS:
        words = [args.builtin.pop()]
    if len(words) != 1:
        got = f", got {' '.join(words)}" if words else ""
        raise UsageError(f"one ladder file to make: vvw ladder new FILE --map MAP{got}")
    return Path(words[0])


def new(args: argparse.Namespace) -> int:
    args.file = _file_to_make(args)
    try:
        maps = tuple(LadderMap.of(m.label, m.game_map) for m in resolve_maps(args.map))
        settings = LadderSettings(
            maps=maps,
            game=attrs.evolve(settings_from(args), seed=None),
            seed=args.seed,
            builtins=tuple(args.builtin or BUILTINS),
            anchor=args.anchor,
            anchor_rating=args.anchor_rating,
            patience=args.patience,
            team_connections=args.team_connections,
        )
    except (ValueError, SettingsError) as error:
        raise UsageError(str(error)) from None
    try:
        LadderStore.create(args.file, settings).close()
    except StoreError as error:  # the file exists, or cannot be made
        raise UsageError(str(error)) from None
    print(f"made the ladder {args.file}: {settings.describe()}")
    print(f"next: vvw ladder team add {args.file} NAME (once per team)")
    return 0


def _when(moment: float | None) -> str:
    return "-" if moment is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(moment))


def team_list(args: argparse.Namespace) -> int:
    with LadderReader.open(args.file) as ladder:
        snapshot = ladder.snapshot()
    teams = [player for player in snapshot.players if player.builtin is None]
    if not teams:
        print(f"no teams yet: vvw ladder team add {args.file} NAME")
        return 0
    print(f"{'team':<32} {'games':>5}  {'added':<16}  {'last seen':<16}  status")
    for team in teams:
        games = sum(1 for game in snapshot.games if team.name in game.names)
        status = "plays" if team.removed is None else f"removed {_when(team.removed)}"
        print(
            f"{team.name:<32} {games:>5}  {_when(team.created):<16}  {_when(team.last_seen):<16}"
            f"  {status}"
        )
    return 0


def _print_token(token: str, what: str) -> None:
    print(
        f"{what}; its token follows, shown this once (the ladder keeps only its hash;"
        " `vvw ladder team reset` makes a new one):",
        file=sys.stderr,
    )
    print(token, flush=True)


def team_add(args: argparse.Namespace) -> int:
    with LadderStore.open(args.file) as ladder:
        token = ladder.add_team(args.name)
    _print_token(token, f"team {args.name} added to {args.file}")
    return 0


def team_reset(args: argparse.Namespace) -> int:
    with LadderStore.open(args.file) as ladder:
        token = ladder.reset_token(args.name)
    _print_token(token, f"team {args.name} has a new token (the old one no longer works)")
    return 0


def team_remove(args: argparse.Namespace) -> int:
    with LadderStore.open(args.file) as ladder:
        kept = ladder.remove_team(args.name)
    if kept:
        print(
            f"team {args.name} removed: it can no longer connect; its {kept} games stay in"
            " the ratings, so its name stays taken"
        )
    else:
        print(f"team {args.name} removed")
    return 0


def register_new(commands: argparse._SubParsersAction) -> None:
    made = commands.add_parser(
        "new", help="make a ladder file with its settings", description="Make a ladder file."
    )
    made.add_argument(
        "file", nargs="?", type=Path, metavar="FILE", help="the ladder to make (ladder.db)"
    )
    add_map_arguments(made, several_maps=True)
    add_game_settings(made)
    made.add_argument(
        "--builtin",
        action="extend",
        nargs="+",
        metavar="BOT",
        help="the built-in bots that play the teams and anchor the ratings"
        f" (default: {' '.join(BUILTINS)})",
    )
    add_options(made, NEW_OPTIONS)
    made.set_defaults(ladder_func=new)


def register_team(commands: argparse._SubParsersAction) -> None:
    team = commands.add_parser(
        "team",
        help="add, list, remove a team, or reset its token",
        description="Manage a ladder's teams. `add` and `reset` print the team's token once.",
    )
    actions = team.add_subparsers(dest="team_command", metavar="ACTION", required=True)
    for name, func, what in (
        ("add", team_add, "add a team and print its token"),
        ("remove", team_remove, "remove a team (its games are kept)"),
        ("reset", team_reset, "give a team a new token and print it"),
    ):
        action = actions.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        add_file(action)
        action.add_argument("name", metavar="NAME", help="the team's name")
        action.set_defaults(ladder_func=func)
    listing = actions.add_parser("list", help="list the teams", description="List the teams.")
    add_file(listing)
    listing.set_defaults(ladder_func=team_list)
