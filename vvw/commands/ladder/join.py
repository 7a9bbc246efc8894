"""``vvw ladder join``: a team's bot on a ladder, game after game, each result printed as it
comes."""

import argparse
import sys
from pathlib import Path

from vvw import signals
from vvw.argtypes import address, positive_int
from vvw.commands.ladder.arguments import Option, add_options
from vvw.errors import Stopped, UsageError
from vvw.ladder.credentials import TOKEN_VARIABLE, Credentials, check_team_name, read_token
from vvw.ladder.joining import GameSeen, Joining, NoGame, join
from vvw.running.participants import parse_participants
from vvw.runs import new_run_dir, remove_if_empty
from vvw.wording import plural

JOIN_OPTIONS: tuple[Option, ...] = (
    (
        "--token-file",
        Path,
        None,
        "FILE",
        f"a file holding the team's token (default: ${TOKEN_VARIABLE})",
    ),
    ("--games", positive_int, None, "N", "stop after N games (default: until Ctrl-C)"),
)


def join_ladder(args: argparse.Namespace) -> int:
    try:
        check_team_name(args.team)
        [participant] = parse_participants([f"name={args.team}", args.bot])
    except ValueError as error:
        raise UsageError(str(error)) from None
    problem = participant.problem()
    if problem is not None:
        raise UsageError(problem)
    credentials = Credentials(args.team, read_token(args.token_file))
    host, port = args.ladder
    logs = new_run_dir(f"ladder-{args.team}")
    print(
        f"joining the ladder at {host}:{port} as team {args.team}: one game per run of"
        f" {args.bot!r}; its output in {logs}/; Ctrl-C stops",
        file=sys.stderr,
        flush=True,
    )
    joining = Joining()

    def hear(outcome: GameSeen | NoGame, wait: float) -> None:
        if isinstance(outcome, GameSeen):
            print(outcome.describe(), flush=True)
        else:
            print(f"{outcome.reason}; trying again in {wait:g} s", flush=True)

    async def main() -> None:
        await join(participant, args.ladder, credentials, logs, hear, joining, args.games)

    try:
        signum = signals.run(main)  # BotFailed, JoinRefused: errors of vvw.errors
    finally:
        remove_if_empty(logs)
    if signum is not None:
        lost = " (the game in progress is lost by disconnection)" if joining.playing else ""
        raise Stopped(signum, f"after {plural(joining.games, 'game')}{lost}")
    return 0


def register_join(commands: argparse._SubParsersAction) -> None:
    joined = commands.add_parser(
        "join",
        help="play a team's bot on a ladder, game after game",
        description="Play a team's bot on a ladder: BOT is run once per game (one connection,"
        " as the course server runs bots) against a local relay that presents the team's"
        " credentials in its NME, so the bot needs no change. Each result is printed as it"
        " comes. The token comes from --token-file or $" + TOKEN_VARIABLE + ", never from the"
        " command line.",
        epilog="example: VVW_LADDER_TOKEN=... vvw ladder join 10.0.0.5:5555 --team les-loups"
        ' "python3 mybot.py {host} {port}"',
    )
    joined.add_argument("ladder", type=address, metavar="HOST:PORT", help="the ladder's address")
    joined.add_argument(
        "bot",
        metavar="BOT",
        help="the bot: a command ({host} {port} filled in) or a built-in bot's name",
    )
    joined.add_argument("--team", required=True, metavar="NAME", help="the team's name")
    add_options(joined, JOIN_OPTIONS)
    joined.set_defaults(ladder_func=join_ladder)
