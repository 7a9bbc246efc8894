"""``vvw ladder``: a class ladder's file and its teams (see docs/ladder.md).

``vvw ladder new FILE`` makes a ladder with the settings of ``vvw serve``; ``vvw ladder
team add|list|remove|reset FILE [NAME]`` manages its teams. ``add`` and ``reset`` print the
team's token on standard output, once: the ladder keeps only its hash.
"""

import argparse
import sqlite3
import sys
import time
from pathlib import Path

import attrs

from vvw.argtypes import positive_float, positive_int
from vvw.errors import CommandError, UsageError
from vvw.game_arguments import add_game_settings, add_map_arguments, settings_from
from vvw.ladder.credentials import TeamNameError
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
from vvw.ladder.store import LadderReader, LadderStore, StoreError, TeamError
from vvw.mapchoice import resolve_maps


def new(args: argparse.Namespace) -> int:
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
    except StoreError as error:
        raise CommandError(str(error)) from None
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


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.ladder_func(args))
    except TeamNameError as error:  # a bad name was typed
        raise UsageError(str(error)) from None
    except (StoreError, TeamError) as error:  # no such file, a name taken
        raise CommandError(str(error)) from None
    except sqlite3.Error as error:
        raise CommandError(f"{args.file}: {error}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ladder",
        help="a class ladder: make one, manage its teams",
        description="A class ladder: one server pairs the teams' bots, rates every team and"
        " shows it all on a web page (docs/ladder.md).",
    )
    parser.set_defaults(func=run)
    commands = parser.add_subparsers(dest="ladder_command", metavar="COMMAND", required=True)

    made = commands.add_parser(
        "new", help="make a ladder file with its settings", description="Make a ladder file."
    )
    made.add_argument("file", type=Path, metavar="FILE", help="the ladder to make (ladder.db)")
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
    made.add_argument(
        "--anchor",
        default=ANCHOR,
        metavar="BOT",
        help="the built-in bot whose rating is fixed (default %(default)s)",
    )
    made.add_argument(
        "--anchor-rating",
        type=float,
        default=ANCHOR_RATING,
        metavar="ELO",
        help="its rating (default %(default)g)",
    )
    made.add_argument(
        "--patience",
        type=positive_float,
        default=PATIENCE,
        metavar="SECONDS",
        help="a bot alone this long plays a built-in bot of about its strength"
        " (default %(default)g)",
    )
    made.add_argument(
        "--team-connections",
        type=positive_int,
        default=TEAM_CONNECTIONS,
        metavar="N",
        help="connections a team may have at once (default %(default)s)",
    )
    made.set_defaults(ladder_func=new)

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
        action.add_argument("file", type=Path, metavar="FILE", help="the ladder (ladder.db)")
        action.add_argument("name", metavar="NAME", help="the team's name")
        action.set_defaults(ladder_func=func)
    listing = actions.add_parser("list", help="list the teams", description="List the teams.")
    listing.add_argument("file", type=Path, metavar="FILE", help="the ladder (ladder.db)")
    listing.set_defaults(ladder_func=team_list)
