"""``vvw proxy``'s relay: each bot that connects gets its own connection to the upstream
server; every byte is forwarded unchanged the moment it arrives, each way, and only then
decoded by a :class:`protocol.watch.ConnectionWatch`, traced (:mod:`vvw.proxy_trace`) and
written, one transcript per game; each game also shown on a live view, if there is one.
"""

import itertools
import logging
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import trio

from engine import Kind
from protocol.records import Record, Source
from protocol.watch import ConnectionWatch, Event
from vvw.proxy_trace import Trace
from vvw.relaying import relay
from vvw.watching import WatchTranscripts

log = logging.getLogger(__name__)


class Shows(Protocol):
    """A live view (:class:`vvw.web.live.LiveHub`): a new game's records shown."""

    def record_sink(self, game_id: str, label: str) -> Callable[[Record], None]: ...


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
        hub: Shows | None = None,
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
    hub: Shows | None = None,
) -> None:
    """Serve until cancelled; ``task_status.started`` gets the port listened on."""
    proxy = Proxy(upstream, trace, transcript_dir, hub)
    listeners = await trio.open_tcp_listeners(listen[1], host=listen[0])
    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_listeners, proxy.handle, listeners)
        task_status.started(listeners[0].socket.getsockname()[1])
