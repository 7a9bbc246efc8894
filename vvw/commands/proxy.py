"""``vvw proxy --listen 5556 --upstream HOST:5555``: watch bots play on any server.

Each bot that connects to the proxy gets its own connection to the upstream server; every
byte is forwarded unchanged the moment it arrives, each way (a bot cannot tell the proxy is
there), and only then decoded by a :class:`protocol.watch.ConnectionWatch`: the proxy prints
a live trace (each message, each ply with the board after it and the bot's think time, a
flag for a ply our referee would rule illegal or bytes that are no message) and writes one
transcript per game in the format of our server. Several bots at once, several games per
connection.
"""

import argparse
import itertools
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO

import trio

from engine import GameState, Kind, ply_text
from protocol.codec import describe
from protocol.records import Direction, Record, Source
from protocol.watch import (
    Began,
    ConnectionWatch,
    Ended,
    Event,
    Garbled,
    Odd,
    Played,
    Said,
    Told,
)
from vvw import signals
from vvw.argtypes import address, port_number
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import add_view_arguments
from vvw.paths import PathError, make_folder
from vvw.ports import Listening, check_free, start_listening
from vvw.relaying import relay
from vvw.watching import WatchTranscripts
from vvw.web.live import LiveHub, showing

log = logging.getLogger(__name__)


class Trace:
    """The live trace: one line per message, ply and flag, each prefixed by its connection."""

    def __init__(
        self, out: TextIO, boards: bool = True, show_hex: bool = False, quiet: bool = False
    ) -> None:
        self.out = out
        self.boards = boards
        self.show_hex = show_hex
        self.quiet = quiet
        self._wall = time.time() - time.monotonic()
        self._shown: dict[str, tuple[tuple[int, int, int], ...]] = {}
        """The last board drawn per connection: an UPD that says nothing new draws none."""

    def _clock(self, at: float) -> str:
        moment = at + self._wall
        millis = int(moment * 1000) % 1000
        return time.strftime("%H:%M:%S", time.localtime(moment)) + f".{millis:03d}"

    def lines(self, label: str, event: Event, transcript: Path | None = None) -> list[str]:
        """The text of one event (the proxy prints it; tests read it); ``transcript`` is
        the file the event's game is written to."""
        head = f"{self._clock(event.at)} [{label}]"
        match event:
            case Said(_, direction, message, raw):
                if self.quiet:
                    return []
                arrow = "->" if direction is Direction.IN else "<-"
                out = [f"{head} {arrow} {describe(message)}"]
                if self.show_hex:
                    out.append(f"{'':8}{raw.hex(' ')}")
                return out
            case Garbled(_, direction, raw, reason):
                who = "the bot" if direction is Direction.IN else "the server"
                return [
                    f"{head} !! MALFORMED from {who} (forwarded as is): {reason}",
                    f"{'':8}bytes: {raw[:64].hex(' ')}{' …' if len(raw) > 64 else ''}",
                ]
            case Odd(_, _, text):
                return [f"{head} !! {text}"]
            case Began(_, species, state):
                where = f"; transcript {transcript}" if transcript else ""
                out = [
                    f"{head} game begins: the bot plays {species.wire_name}"
                    f" on {state.rows} × {state.cols}{where}"
                ]
                if not self.quiet:
                    out += self._board(label, state)
                return out
            case Told(_, species, state):
                if self.quiet:
                    return []
                board = self._board(label, state)
                return [f"{'':8}board the {species.wire_name} play on:", *board] if board else []
            case Played():
                return self._played(label, head, event)
            case Ended():
                return [f"{head} game over (END)"] if self.quiet else []
        return []

    def _played(self, label: str, head: str, played: Played) -> list[str]:
        side = played.species.wire_name
        think = f" after {played.think:.3f} s" if played.think is not None else ""
        if played.violation is not None:
            move = played.violation.move
            return [
                f"{head} !! ILLEGAL ply {played.ply_number} by the {side}{think}:"
                f" {played.violation}",
                f"{'':8}move {move if move is not None else '(none)'}; the ply:"
                f" {ply_text(played.moves)}",
            ]
        if self.quiet:
            return []
        out = [f"{head} ply {played.ply_number} {side}{think}: {ply_text(played.moves)}"]
        for battle in played.battles:
            out.append(
                f"{'':8}random battle at ({battle.x},{battle.y}): {battle.attackers}"
                f" {battle.attacker.wire_name} vs {battle.defenders}"
                f" {battle.defender.wire_name}: the next UPD tells the outcome"
            )
        if played.after is not None:
            board = self._board(label, played.after)
            out += [f"{'':8}board after it:", *board] if board else []
        return out

    def _board(self, label: str, state: GameState) -> list[str]:
        if not self.boards or self._shown.get(label) == state.cells:
            return []
        self._shown[label] = state.cells
        return state.draw(coordinates=True, indent=" " * 8).splitlines()

    def show(self, label: str, events: list[Event], transcript: Path | None = None) -> None:
        for event in events:
            for text in self.lines(label, event, transcript):
                print(text, file=self.out)
        self.out.flush()

    def say(self, label: str, text: str) -> None:
        print(f"{self._clock(time.monotonic())} [{label}] {text}", file=self.out, flush=True)


def _peer(stream: trio.SocketStream) -> str:
    try:
        return "{}:{}".format(*stream.socket.getpeername()[:2])
    except OSError:
        return "?"


class Proxy:
    """Accepts bots and relays each to its own upstream connection."""

    def __init__(
        self,
        upstream: tuple[str, int],
        trace: Trace,
        transcript_dir: Path | None,
        hub: LiveHub | None = None,
    ) -> None:
        self.upstream = upstream
        self.trace = trace
        self.transcript_dir = transcript_dir
        self.hub = hub
        self._numbers = itertools.count(1)

    async def handle(self, bot: trio.SocketStream) -> None:
        """Relay one bot; a failure of ours ends its connection, never the proxy."""
        try:
            await self._relay(bot, next(self._numbers))
        except Exception:
            log.exception("relaying a connection failed")

    def _transcripts(
        self, number: int, watch: ConnectionWatch, bot_peer: str
    ) -> WatchTranscripts | None:
        """The transcripts of connection ``number``'s games (none without a folder), each
        game also shown on the live view, if there is one."""
        if self.transcript_dir is None:
            return None
        hub = self.hub
        host, port = self.upstream

        def on_game(_name: str, _species: Kind) -> Callable[[Record], None]:
            assert hub is not None
            return hub.record_sink(f"{number}.{watch.games}", f"bot {number}, game {watch.games}")

        return WatchTranscripts(
            self.transcript_dir,
            Source.PROXY,
            peer=f"{host}:{port}",
            player_peer=bot_peer,
            on_game=None if hub is None else on_game,
        )

    async def _relay(self, bot: trio.SocketStream, number: int) -> None:
        host, port = self.upstream
        bot_peer = _peer(bot)
        label = str(number)
        try:
            server = await trio.open_tcp_stream(host, port)
        except OSError as error:
            self.trace.say(label, f"bot {bot_peer}: cannot reach {host}:{port}: {error}")
            await bot.aclose()
            return
        self.trace.say(label, f"bot {bot_peer} connected; relayed to {host}:{port}")
        watch = ConnectionWatch()
        transcripts = self._transcripts(number, watch, bot_peer)

        def show(events: list[Event]) -> None:
            nonlocal label
            if watch.name and not label.endswith(watch.name):
                label = f"{number} {watch.name}"
            if transcripts is not None:
                transcripts.record(events)
            self.trace.show(label, events, transcripts.current if transcripts else None)

        watching = True

        def feed(read: Callable[[bytes, float], list[Event]], data: bytes, at: float) -> None:
            """Watch the bytes forwarded; a failure of ours stops the watching, not the relay."""
            nonlocal watching
            if not watching:
                return
            try:
                show(read(data, at))
            except Exception:
                watching = False
                log.exception("watching connection %d failed; relaying on without it", number)
                self.trace.say(label, "!! the trace of this connection stopped (a bug of ours)")

        await relay(bot, server, partial(feed, watch.from_bot), partial(feed, watch.from_server))
        if watching:
            show(watch.close(time.monotonic()))
        if transcripts is not None:
            transcripts.close()
        games = f"{watch.games} game(s)"
        files = ", ".join(map(str, transcripts.paths if transcripts else []))
        saved = f"; transcripts: {files}" if files else ""
        self.trace.say(label, f"connection closed after {games}{saved}")


async def run_proxy(
    listen: tuple[str, int],
    upstream: tuple[str, int],
    trace: Trace,
    transcript_dir: Path | None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
    *,
    hub: LiveHub | None = None,
) -> None:
    """Serve until cancelled; ``task_status.started`` gets the port listened on."""
    proxy = Proxy(upstream, trace, transcript_dir, hub)
    listeners = await trio.open_tcp_listeners(listen[1], host=listen[0])
    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_listeners, proxy.handle, listeners)
        task_status.started(listeners[0].socket.getsockname()[1])


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
