"""``vvw proxy --listen 5556 --upstream HOST:5555``: watch bots play on any server.

Each bot that connects to the proxy gets its own connection to the upstream server; every
byte is forwarded unchanged the moment it arrives, each way (a bot cannot tell the proxy is
there), and only then decoded by a :class:`protocol.watch.ConnectionWatch`: the proxy prints
a live trace (each message, each ply with the board after it and the bot's think time, a
flag for a ply our referee would rule illegal or bytes that are no message) and writes one
transcript per game in the format of our server. Several bots at once, several games per
connection. The relay is :mod:`vvw.proxying`, the trace :mod:`vvw.proxy_trace`.
"""

import argparse
import sys
import tempfile
from functools import partial
from pathlib import Path

import trio

from vvw import signals
from vvw.argtypes import address, port_number
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import add_view_arguments
from vvw.paths import PathError, make_folder
from vvw.ports import Listening, check_free, start_listening
from vvw.proxy_trace import Trace
from vvw.proxying import run_proxy
from vvw.web.live import LiveHub, showing


def run(args: argparse.Namespace) -> int:
    bots = Listening(args.host, args.listen, "the bots (--listen)")
    view = Listening(args.host, args.view_port, "the live view (--view-port)")
    check_free([bots, view] if args.view else [bots])
    trace = Trace(sys.stdout, boards=not args.no_boards, show_hex=args.hex, quiet=args.quiet)
    try:
        transcript_dir = None if args.no_transcript else make_folder(Path(args.transcript))
    except PathError as error:
        raise UsageError(f"--transcript: {error}") from None
    host, port = args.upstream
    print(
        f"vvw proxy: listening on {args.host}:{args.listen}, relaying to {host}:{port}"
        + (f"; transcripts in {transcript_dir}/" if transcript_dir else ""),
        flush=True,
    )
    hub = LiveHub() if args.view else None
    # The live view reads the transcripts as they are written: with --no-transcript, in a
    # scratch folder deleted at the end.
    scratch = tempfile.TemporaryDirectory(prefix="vvw-") if hub and not transcript_dir else None
    written_to = Path(scratch.name) if scratch is not None else transcript_dir

    async def main() -> None:
        async with (
            showing(hub, view, lambda at: print(f"vvw proxy: live view on {at}", flush=True)),
            trio.open_nursery() as nursery,
        ):
            await start_listening(
                nursery,
                bots,
                partial(run_proxy, hub=hub),
                (args.host, args.listen),
                args.upstream,
                trace,
                written_to,
            )

    try:
        signum = signals.run(main)
    finally:
        if scratch is not None:
            scratch.cleanup()
    if signum is not None:
        raise Stopped(signum)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "proxy",
        help="relay bots to a server and trace their traffic",
        description=(
            "Sit between bots and any course-compatible server: forward every byte unchanged,"
            " print each message and ply with the board, flag illegal plies and bad bytes,"
            " write transcripts."
        ),
    )
    parser.add_argument(
        "--listen", type=port_number, default=5556, help="port the bots connect to (default 5556)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--upstream",
        type=address,
        required=True,
        metavar="HOST:PORT",
        help="the server to relay to, e.g. 192.168.1.10:5555",
    )
    parser.add_argument(
        "--transcript",
        default="runs/proxy",
        metavar="DIR",
        help="folder of the transcripts, one per game (default runs/proxy)",
    )
    parser.add_argument("--no-transcript", action="store_true", help="write no transcript")
    parser.add_argument("--no-boards", action="store_true", help="do not draw boards")
    parser.add_argument("--hex", action="store_true", help="also print each message's bytes")
    parser.add_argument("--quiet", action="store_true", help="only games, flags and connections")
    parser.epilog = "example: vvw proxy --listen 5556 --upstream 192.168.1.10:5555"
    add_view_arguments(parser)
    parser.set_defaults(func=run)
