"""``vvw ladder serve``: a ladder served, the bots on one port and the pages on another;
each game's end printed on standard output, each connection refused on standard error."""

import argparse
import sys
import time

import trio

from protocol.printable import printable
from server.events import Dropped, EventSink, GameEnded, ServerEvent
from vvw import signals
from vvw.argtypes import address, positive_float, positive_int
from vvw.commands.ladder.arguments import Option, add_file, add_options
from vvw.errors import Stopped
from vvw.ladder.analysing import DEPTH as ANALYSIS_DEPTH
from vvw.ladder.events import LadderEvent, LadderSink, Refused
from vvw.ladder.recovery import recover_interrupted
from vvw.ladder.refusals import Refusal
from vvw.ladder.serving import PAIRING_INTERVAL, LadderServer
from vvw.ladder.store import LadderStore
from vvw.ladder.web import LadderPages
from vvw.ports import Listening, check_free, start_listening
from vvw.web.live import LiveHub
from vvw.web.server import serve_http
from vvw.wording import plural

LISTEN = "127.0.0.1:5555"
WEB = "127.0.0.1:5580"
CONCURRENCY = 4
SLOWED_NOTE = 60.0
"""Seconds between two lines saying that one address is refused for failed logins."""
LIVE_GAMES = 20
"""Finished games the live view keeps beside those in progress."""

SERVE_OPTIONS: tuple[Option, ...] = (
    (
        "--listen",
        address,
        address(LISTEN),
        "HOST:PORT",
        f"where the bots connect (default {LISTEN})",
    ),
    ("--web", address, address(WEB), "HOST:PORT", f"where the pages are (default {WEB})"),
    (
        "--concurrency",
        positive_int,
        CONCURRENCY,
        "N",
        "games played at once at most (default %(default)s; a built-in bot's game runs its bot"
        " on this machine)",
    ),
    (
        "--pairing-interval",
        positive_float,
        PAIRING_INTERVAL,
        "SECONDS",
        "seconds between pairing rounds (default %(default)g)",
    ),
)

ANALYSIS_OPTIONS: tuple[Option, ...] = (
    (
        "--analysis-depth",
        positive_int,
        ANALYSIS_DEPTH,
        "N",
        "plies searched from each position by --analyse (default %(default)s)",
    ),
)


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


def register_serve(commands: argparse._SubParsersAction) -> None:
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
    add_file(served)
    add_options(served, SERVE_OPTIONS)
    served.add_argument(
        "--analyse",
        action="store_true",
        help="analyse each finished game in the background (vvw analyse, one game at a time,"
        " at a lower priority): its replay then shows the analysis",
    )
    add_options(served, ANALYSIS_OPTIONS)
    served.set_defaults(ladder_func=serve)
