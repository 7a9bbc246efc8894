"""``vvw ladder``: a class ladder's file, its teams, its server, and a team's bot on it.

``vvw ladder new FILE`` makes a ladder with the settings of ``vvw serve``; ``vvw ladder
team add|list|remove|reset FILE [NAME]`` manages its teams (``add`` and ``reset`` print the
team's token on standard output, once: the ladder keeps only its hash); ``vvw ladder serve
FILE`` serves it, the bots on one port and the pages on another; ``vvw ladder join
HOST:PORT --team NAME BOT`` plays a team's bot on it, game after game. See docs/ladder.md.
"""

import argparse
import logging
import os
import sqlite3
import sys
import time
from pathlib import Path

import attrs
import trio

from agents.registry import BOTS
from engine.result import printable
from server.events import Dropped, EventSink, GameEnded, ServerEvent
from vvw import signals
from vvw.argtypes import address, positive_float, positive_int
from vvw.documents import guide
from vvw.errors import CommandError, Stopped, UsageError
from vvw.game_arguments import (
    add_game_settings,
    add_map_arguments,
    settings_from,
    split_maps_and_bots,
)
from vvw.ladder.analysing import DEPTH as ANALYSIS_DEPTH
from vvw.ladder.credentials import (
    TOKEN_PATTERN,
    Credentials,
    TeamNameError,
    check_team_name,
)
from vvw.ladder.events import LadderEvent, LadderSink, Refused
from vvw.ladder.joining import GameSeen, Joining, NoGame, join
from vvw.ladder.queries import LadderReader, TeamError
from vvw.ladder.recovery import recover_interrupted
from vvw.ladder.refusals import Refusal
from vvw.ladder.schema import StoreError
from vvw.ladder.serving import PAIRING_INTERVAL, LadderServer
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
from vvw.ladder.web import LadderPages
from vvw.mapchoice import resolve_maps
from vvw.participants import parse_participants
from vvw.ports import Listening, check_free, start_listening
from vvw.runs import new_run_dir, remove_if_empty
from vvw.view.live import LiveHub
from vvw.web import serve_http
from vvw.wording import plural

log = logging.getLogger(__name__)

LISTEN = "127.0.0.1:5555"
WEB = "127.0.0.1:5580"
CONCURRENCY = 4
TOKEN_VARIABLE = "VVW_LADDER_TOKEN"
"""Where ``vvw ladder join`` finds the team's token without ``--token-file``."""
SLOWED_NOTE = 60.0
"""Seconds between two lines saying that one address is refused for failed logins."""
LIVE_GAMES = 20
"""Finished games the live view keeps beside those in progress."""


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


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class _Printer:
    """What ``vvw ladder serve`` prints as it serves: each game's end on standard output,
    each connection refused on standard error (an address refused for its failed logins
    at most once a minute)."""

    def __init__(self) -> None:
        self._slowed: dict[str, float] = {}

    def __call__(self, event: LadderEvent) -> None:
        match event:
            case GameEnded(number=number, result=result):
                where = f" on {result.map_name}" if result.map_name else ""
                print(f"game {number}{where}: {result.summary()}", flush=True)
            case Refused(peer=peer, refusal=Refusal.SLOWED):
                host = peer.rpartition(":")[0]
                now = time.monotonic()
                if now - self._slowed.get(host, -SLOWED_NOTE) >= SLOWED_NOTE:
                    self._slowed[host] = now
                    _note(f"refusing {host} for a while: too many failed logins")
            case Refused(peer=peer, refusal=refusal, team=team):
                named = "" if team is None else f" (team {team})"
                _note(f"refused {peer}: {refusal.value}{named}")
            case Dropped(peer=peer, detail=detail):
                _note(f"dropped {peer} before its NME: {printable(detail)}")


def serve(args: argparse.Namespace) -> int:
    (host, port), (web_host, web_port) = args.listen, args.web
    bots = Listening(host, port, "the bots (--listen)")
    web = Listening(web_host, web_port, "the pages (--web)")
    check_free([bots, web])
    store = LadderStore.open(args.file)
    aborted = recover_interrupted(store)
    if aborted:
        _note(
            f"{plural(len(aborted), 'game')} left playing when the server last stopped, recorded as"
            f" aborted (never rated): {', '.join(map(str, aborted))}"
        )
    hub = LiveHub(keep=LIVE_GAMES)
    server = LadderServer(
        store,
        concurrency=args.concurrency,
        events=_fan_out(_only_the_server_s(hub.listener()), _Printer()),
        pairing_interval=args.pairing_interval,
        analyse=args.analysis_depth if args.analyse else None,
    )
    pages = LadderPages(args.file, hub, lambda: server.online, lambda: server.version)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            web_port = await start_listening(
                nursery, web, serve_http, pages, args.web[1], args.web[0]
            )
            port = await start_listening(
                nursery, bots, server.serve, args.listen[0], args.listen[1]
            )
            _note(
                f"ladder {args.file}: bots connect to {args.listen[0]}:{port}"
                f" (vvw ladder join {args.listen[0]}:{port} --team NAME BOT), pages on"
                f" http://{args.web[0]}:{web_port}/; Ctrl-C stops (games in progress are"
                " then aborted)"
            )

    try:
        signum = signals.run(main)
    finally:
        store.close()
    if signum is not None:
        raise Stopped(signum)
    return 0


def _only_the_server_s(sink: EventSink) -> LadderSink:
    """A sink of the server's events that hears only those among the ladder's."""

    def hear(event: LadderEvent) -> None:
        if isinstance(event, ServerEvent):
            sink(event)

    return hear


def _fan_out(*sinks: LadderSink) -> LadderSink:
    def every(event: LadderEvent) -> None:
        for sink in sinks:
            sink(event)

    return every


def _token(args: argparse.Namespace) -> str:
    """The team's token: from ``--token-file``, else from the environment variable, which
    is then removed (the bot's process never inherits it)."""
    if args.token_file is not None:
        try:
            token = args.token_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise UsageError(f"cannot read the token file {args.token_file}: {reason}") from None
        where = f"the token file {args.token_file}"
    else:
        token = os.environ.pop(TOKEN_VARIABLE, "").strip()
        where = f"${TOKEN_VARIABLE}"
        if not token:
            raise UsageError(
                f"no token: give --token-file FILE or set {TOKEN_VARIABLE} (a token never goes"
                " on a command line, where other users of the machine can read it)"
            )
    if TOKEN_PATTERN.fullmatch(token) is None:
        raise UsageError(
            f"{where} does not hold a ladder token (32 letters, digits, '-' and '_', as"
            " `vvw ladder team add` printed it)"
        )
    return token


def join_ladder(args: argparse.Namespace) -> int:
    try:
        check_team_name(args.team)
        [participant] = parse_participants([f"name={args.team}", args.bot])
    except ValueError as error:
        raise UsageError(str(error)) from None
    problem = participant.problem()
    if problem is not None:
        raise UsageError(problem)
    credentials = Credentials(args.team, _token(args))
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


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.ladder_func(args))
    except (TeamNameError, StoreError, TeamError) as error:  # a bad name, file; a name taken
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

    served = commands.add_parser(
        "serve",
        help="serve a ladder: the bots on one port, the pages on another",
        description="Serve a ladder: any course-compatible bot connects to --listen with its"
        " team's credentials in its NME (vvw ladder join does that for it); the bots waiting"
        " are paired (close ratings, opponents not met lately, two games a pairing with sides"
        " swapped), every game is kept and rated, and the pages on --web show the leaderboard,"
        " the games (live, and replays) and each team's. Loopback only by default: give a LAN"
        " address (or 0.0.0.0) to let the class in.",
    )
    served.add_argument("file", type=Path, metavar="FILE", help="the ladder (ladder.db)")
    served.add_argument(
        "--listen",
        type=address,
        default=address(LISTEN),
        metavar="HOST:PORT",
        help=f"where the bots connect (default {LISTEN})",
    )
    served.add_argument(
        "--web",
        type=address,
        default=address(WEB),
        metavar="HOST:PORT",
        help=f"where the pages are (default {WEB})",
    )
    served.add_argument(
        "--concurrency",
        type=positive_int,
        default=CONCURRENCY,
        metavar="N",
        help="games played at once at most (default %(default)s; a built-in bot's game runs"
        " its bot on this machine)",
    )
    served.add_argument(
        "--pairing-interval",
        type=positive_float,
        default=PAIRING_INTERVAL,
        metavar="SECONDS",
        help="seconds between pairing rounds (default %(default)g)",
    )
    served.add_argument(
        "--analyse",
        action="store_true",
        help="analyse each finished game in the background (vvw analyse, one game at a time,"
        " at a lower priority): its replay then shows the analysis",
    )
    served.add_argument(
        "--analysis-depth",
        type=positive_int,
        default=ANALYSIS_DEPTH,
        metavar="N",
        help="plies searched from each position by --analyse (default %(default)s)",
    )
    served.set_defaults(ladder_func=serve)

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
    joined.add_argument(
        "--token-file",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"a file holding the team's token (default: ${TOKEN_VARIABLE})",
    )
    joined.add_argument(
        "--games",
        type=positive_int,
        default=None,
        metavar="N",
        help="stop after N games (default: until Ctrl-C)",
    )
    joined.set_defaults(ladder_func=join_ladder)
