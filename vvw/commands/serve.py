"""``vvw serve``: serve games on a TCP port, course-compatible, one result line per game
(with its transcript, kept in ``runs/transcripts/`` by default) and a tally per bot name."""

import argparse
import sys

import trio

from engine import GameResult
from engine.mapfile import GameMap
from server.events import EventSink, GameEnded, ServerEvent, fan_out
from server.serving import Transcripts, serve
from vvw import signals
from vvw.argtypes import port_number
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import (
    add_settings_arguments,
    add_view_arguments,
    settings_from,
    transcript_folder,
)
from vvw.mapchoice import resolve_maps
from vvw.ports import Listening, check_free, start_listening
from vvw.records.scores import Scores
from vvw.web.live import LiveHub, showing


def map_from(args: argparse.Namespace) -> GameMap:
    """The one map of ``--map``."""
    try:
        choices = resolve_maps(args.map)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if len(choices) != 1:
        raise UsageError(f"one map only, got {len(choices)}: {' '.join(args.map)}")
    return choices[0].game_map


def tally(results: list[GameResult]) -> str:
    """``2 games: alice 2 wins, bob 0 wins, 0 draws``: per bot name, whatever its side."""
    return Scores.of(results).line()


def run(args: argparse.Namespace) -> int:
    game_map = map_from(args)
    bots = Listening(args.host, args.port, "the bots (--port)")
    view = Listening(args.host, args.view_port, "the live view (--view-port)")
    check_free([bots, view] if args.view else [bots])
    results: list[GameResult] = []
    kept = transcript_folder(args)

    def on_result(event: ServerEvent) -> None:
        if isinstance(event, GameEnded):
            results.append(event.result)
            where = f" | transcript {event.transcript}" if event.transcript else ""
            print(event.result.summary() + where, flush=True)
            note = kept.kept(event.transcript)
            if note is not None:
                print(f"vvw serve: {note}", file=sys.stderr, flush=True)

    hub = LiveHub() if args.view else None
    events: EventSink = on_result if hub is None else fan_out(on_result, hub.listener())

    async def main() -> None:
        async with showing(hub, view, _announce):

            async def serving(task_status: trio.TaskStatus[int]) -> None:
                await serve(
                    game_map,
                    settings_from(args),
                    host=args.host,
                    port=args.port,
                    games=args.games,
                    transcripts=Transcripts(kept.folder, keep_all=True, lines=hub is not None),
                    events=events,
                    task_status=task_status,
                )

            async with trio.open_nursery() as nursery:
                port = await start_listening(nursery, bots, serving)
                print(f"serving on {args.host}:{port}", file=sys.stderr, flush=True)

    signum = signals.run(main)
    print(tally(results), flush=True)
    if signum is not None:
        raise Stopped(signum)
    return 0


def _announce(address: str) -> None:
    print(f"live view on {address}", file=sys.stderr, flush=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve games to two bots over TCP",
        description="Serve --games games on --port, course-compatible: the first bot to send"
        " its NME plays the vampires. Prints each game's result and where its transcript is"
        " kept, then the games won per bot name.",
        epilog="example: vvw serve --map thetrap --games 2 --view",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=port_number, default=5555, help="TCP port (default 5555; 0: any free one)"
    )
    add_settings_arguments(parser)
    add_view_arguments(parser)
    parser.set_defaults(func=run)
