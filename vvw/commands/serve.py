"""``vvw serve``: serve games on a TCP port, course-compatible, one result line per game."""

import argparse
import collections
import signal
import sys

import trio

from engine import GameResult, OnTimeout, Rules, Termination
from engine.mapfile import GameMap
from engine.rules import Variant
from server.events import EventSink, GameEnded, ServerEvent, fan_out
from server.serving import Transcripts, serve
from server.settings import Settings
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.mapchoice import resolve_maps
from vvw.paths import folder_to_write
from vvw.signals import exit_code, run_until_signal
from vvw.view.live import LiveHub, serve_view


def add_map_arguments(parser: argparse.ArgumentParser, several_maps: bool = False) -> None:
    """``--map``: one (``serve``) or several (``match``, ``tournament``)."""
    if several_maps:
        parser.add_argument(
            "--map",
            "--maps",
            dest="map",
            action="extend",
            nargs="+",
            required=True,
            metavar="MAP",
            help="map files, globs, bundled names (thetrap) or gen:SEED; played in turn",
        )
    else:
        parser.add_argument(
            "--map", action="append", required=True, help="map file, or bundled name (thetrap)"
        )


def add_game_settings(parser: argparse.ArgumentParser) -> None:
    """The settings of each game: clocks, limits, rules, seed."""
    parser.add_argument(
        "--move-time", type=positive_float, default=2.0, help="seconds per reply (default 2)"
    )
    parser.add_argument(
        "--on-timeout",
        choices=["skip", "forfeit"],
        default="skip",
        help="a bot with no MOV in time: skips its turn (default, as the course server) or loses",
    )
    parser.add_argument(
        "--ply-limit", type=positive_int, default=200, help="plies per game (default 200)"
    )
    parser.add_argument(
        "--game-time", type=positive_float, default=300.0, help="seconds per game (default 300)"
    )
    parser.add_argument(
        "--variant",
        choices=["server", "spec"],
        default="server",
        help="battle rules: the course server's (default) or the specification's reading",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the random battles")


def add_settings_arguments(parser: argparse.ArgumentParser, several_maps: bool = False) -> None:
    """The settings shared by ``serve`` and ``match``: maps, games, game settings, transcripts."""
    add_map_arguments(parser, several_maps)
    parser.add_argument("--games", type=positive_int, default=1, help="games to play (default 1)")
    add_game_settings(parser)
    parser.add_argument(
        "--transcript",
        type=folder_to_write,
        default=None,
        metavar="DIR",
        help="write transcripts here (kept for abnormal games)",
    )
    parser.add_argument(
        "--keep-transcripts", action="store_true", help="keep the transcripts of normal games too"
    )


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(
        rules=Rules(variant=Variant(args.variant), max_plies=args.ply_limit),
        move_time=args.move_time,
        on_timeout=OnTimeout(args.on_timeout),
        game_time=args.game_time,
        seed=args.seed,
    )


def map_from(args: argparse.Namespace) -> GameMap | None:
    """The one map, or ``None`` after printing one error line."""
    try:
        choices = resolve_maps(args.map)
    except ValueError as error:
        print(f"vvw: {error}", file=sys.stderr)
        return None
    if len(choices) != 1:
        print(f"vvw: one map only, got {len(choices)}: {' '.join(args.map)}", file=sys.stderr)
        return None
    return choices[0].game_map


def tally(results: list[GameResult]) -> str:
    counts = collections.Counter(
        r.termination.value
        if r.termination is Termination.ABORTED
        else "draw"
        if r.winner is None
        else r.winner.name.lower()
        for r in results
    )
    games = "1 game" if len(results) == 1 else f"{len(results)} games"
    return f"{games}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def os_error_in(error: BaseException) -> OSError | None:
    """The OSError inside ``error`` (possibly wrapped in exception groups), if any."""
    if isinstance(error, OSError):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = os_error_in(inner)
            if found is not None:
                return found
    return None


def run(args: argparse.Namespace) -> int:
    game_map = map_from(args)
    if game_map is None:
        return 2
    results: list[GameResult] = []

    def on_result(event: ServerEvent) -> None:
        if isinstance(event, GameEnded):
            results.append(event.result)
            print(event.result.summary(), flush=True)

    hub = LiveHub() if args.view else None
    events: EventSink = on_result if hub is None else fan_out(on_result, hub.listener())

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            if hub is not None:
                view_port = await nursery.start(serve_view, hub, args.view_port, args.host)
                print(f"live view on http://{args.host}:{view_port}/", file=sys.stderr, flush=True)

            async def serving(task_status: trio.TaskStatus[int]) -> None:
                await serve(
                    game_map,
                    settings_from(args),
                    host=args.host,
                    port=args.port,
                    games=args.games,
                    transcripts=Transcripts(
                        args.transcript, keep_all=args.keep_transcripts, lines=hub is not None
                    ),
                    events=events,
                    task_status=task_status,
                )
                nursery.cancel_scope.cancel()  # the games are over: so is the live view

            port = await nursery.start(serving)
            print(f"serving on {args.host}:{port}", file=sys.stderr, flush=True)

    try:
        signum = trio.run(run_until_signal, main)
    except (OSError, ExceptionGroup) as error:
        failure = os_error_in(error)
        if failure is None:
            raise
        print(
            f"vvw serve: cannot listen on {args.host}:{args.port}: {failure.strerror}",
            file=sys.stderr,
        )
        return 2
    print(tally(results), flush=True)
    if signum is None:
        return 0
    print(f"vvw serve: stopped by {signal.Signals(signum).name}", file=sys.stderr)
    return exit_code(signum)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve games to two bots over TCP")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--port", type=port_number, default=5555, help="TCP port (default 5555; 0: any free one)"
    )
    add_settings_arguments(parser)
    add_view_arguments(parser)
    parser.set_defaults(func=run)


def add_view_arguments(parser: argparse.ArgumentParser, own_host: bool = False) -> None:
    """``--view`` and ``--view-port`` (and ``--view-host`` with ``own_host``): the live view
    in the browser, on ``--host`` unless the command has a ``--view-host`` of its own."""
    host = "--view-host" if own_host else "--host"
    parser.add_argument(
        "--view",
        action="store_true",
        help=f"show the games live in the browser (a page on {host}:--view-port)",
    )
    parser.add_argument(
        "--view-port",
        type=port_number,
        default=5580,
        metavar="PORT",
        help="port of the live view (default %(default)s; 0: any free one)",
    )
    if own_host:
        parser.add_argument(
            "--view-host",
            default="127.0.0.1",
            help="address of the live view (default %(default)s)",
        )
