"""``vvw ladder``: a class ladder's file, its teams, its server, and a team's bot on it.

``vvw ladder new FILE`` makes a ladder with the settings of ``vvw serve``; ``vvw ladder
team add|list|remove|reset FILE [NAME]`` manages its teams (``add`` and ``reset`` print the
team's token on standard output, once: the ladder keeps only its hash); ``vvw ladder serve
FILE`` serves it, the bots on one port and the pages on another; ``vvw ladder join
HOST:PORT --team NAME BOT`` plays a team's bot on it, game after game. See docs/ladder.md.
Each has a module of its own here (:mod:`.making`, :mod:`.serve`, :mod:`.join`).
"""

import argparse
import sqlite3

from vvw.commands.ladder.join import register_join
from vvw.commands.ladder.making import register_new, register_team
from vvw.commands.ladder.serve import register_serve
from vvw.documents import guide
from vvw.errors import CommandError, UsageError
from vvw.ladder.credentials import TeamNameError, TokenError
from vvw.ladder.queries import TeamError
from vvw.ladder.schema import StoreError


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.ladder_func(args))
    except (TeamNameError, TokenError, StoreError, TeamError) as error:  # bad words, a name taken
        raise UsageError(str(error)) from None
    except sqlite3.Error as error:
        raise CommandError(f"{args.file}: {error}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ladder",
        help="a class ladder: make one, manage its teams, serve it, join it",
        description="A class ladder: one server pairs the teams' bots, rates every team and"
        f" shows it all on web pages ({guide('ladder.md')}).",
    )
    parser.set_defaults(func=run)
    commands = parser.add_subparsers(dest="ladder_command", metavar="COMMAND", required=True)
    register_new(commands)
    register_team(commands)
    register_serve(commands)
    register_join(commands)
