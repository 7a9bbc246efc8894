"""The live view: games as they are played, pushed to browsers over server-sent events.

A :class:`LiveHub` takes each game's transcript lines as they are written (a server's
:class:`~server.events.TranscriptLine` events, see :meth:`LiveHub.listener`), turns them
into view events (:mod:`vvw.view.model`) and pushes those to every viewer of that game.
:func:`serve_view` is a small HTTP server (h11 over trio) for the page and the event
streams:

- ``GET /`` the page (``?game=ID`` for one game; without it, the latest game, followed
  from one game to the next);
- ``GET /events[?game=ID]`` the event stream: first the game so far, then each event as
  it happens; ``games`` events list the games and their state;
- ``GET /games`` that list as JSON.

A viewer never slows a game: events go to each viewer through a bounded queue, and a
viewer whose queue is full is disconnected (its browser reconnects and gets the game as
it stands). A viewer that goes away costs the game nothing.
"""

import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import attrs
import h11
import trio

from protocol.transcript import TranscriptError, parse_line
from server.events import EventSink, GameBegun, ServerEvent, TranscriptLine
from vvw.view.model import ViewBuilder, ViewEvent
from vvw.view.page import page

log = logging.getLogger(__name__)

QUEUE = 512
"""Events a viewer may be behind before it is disconnected (to resynchronise)."""
REQUEST_TIME = 10.0
"""Seconds a browser has to send its request."""


@attrs.define(eq=False)
class _Viewer:
    """One event stream: its queue, and the game it follows (``None``: the latest)."""

    send: trio.MemorySendChannel[tuple[str, Any]]
    receive: trio.MemoryReceiveChannel[tuple[str, Any]]
    game: str | None


@attrs.define(eq=False)
class LiveGame:
    """One game's view events so far, and where it is shown."""

    id: str
    label: str
    builder: ViewBuilder = attrs.field(factory=ViewBuilder)
    lines: int = 0

    def summary(self) -> dict[str, Any]:
        """The game's line in the list of games."""
        names = self.builder.names
        title = f"{self.label}: {names.get('vampires', '?')} vs {names.get('werewolves', '?')}"
        if self.builder.finished:
            status = self.builder.events[-1]["text"]
        else:
            status = f"playing, ply {self.builder.plies}"
        return {"id": self.id, "title": title, "status": status}


class LiveHub:
    """The games being shown, and their viewers."""

    def __init__(self, tournament: bool = False) -> None:
        self.tournament = tournament
        self.games: dict[str, LiveGame] = {}
        self._viewers: set[_Viewer] = set()
        self._latest: str | None = None

    def line_sink(self, game_id: str, label: str) -> Callable[[str], None]:
        """A new game: the function its transcript lines (JSON text) are given to."""
        game = LiveGame(game_id, label)
        self.games[game_id] = game
        self._latest = game_id
        self._broadcast_games()
        return lambda text: self._record(game, text)

    def listener(self, label: Callable[[int], str] = lambda number: f"game {number}") -> EventSink:
        """The events sink of a server whose games are shown: game ``N`` is ``"N"``, shown
        as ``label(N)``; each of its :class:`TranscriptLine` goes to its :meth:`line_sink`."""
        sinks: dict[int, Callable[[str], None]] = {}

        def hear(event: ServerEvent) -> None:
            if isinstance(event, GameBegun):
                sinks[event.number] = self.line_sink(str(event.number), label(event.number))
            elif isinstance(event, TranscriptLine):
                sinks[event.number](event.text)

        return hear

    def _record(self, game: LiveGame, text: str) -> None:
        game.lines += 1
        try:
            record = parse_line(text, game.lines)
        except TranscriptError as error:  # our own writer's line: a bug, not the game's end
            log.warning("live view: game %s: %s", game.id, error)
            return
        was_finished = game.builder.finished
        had_names = len(game.builder.names)
        for event in game.builder.feed(record):
            self._publish(game, event)
        if game.builder.finished != was_finished or len(game.builder.names) != had_names:
            self._broadcast_games()

    def _publish(self, game: LiveGame, event: ViewEvent) -> None:
        for viewer in list(self._viewers):
            if viewer.game == game.id or (viewer.game is None and self._latest == game.id):
                self._offer(viewer, ("view", event))

    def _offer(self, viewer: _Viewer, item: tuple[str, Any]) -> None:
        try:
            viewer.send.send_nowait(item)
        except trio.WouldBlock:  # too slow: drop it; its browser reconnects and catches up
            log.info("live view: a viewer fell %d events behind; disconnected", QUEUE)
            self._viewers.discard(viewer)
            viewer.send.close()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self._viewers.discard(viewer)

    def game_list(self) -> list[dict[str, Any]]:
        """Every game, newest last."""
        return [game.summary() for game in self.games.values()]

    def _broadcast_games(self) -> None:
        listing = self.game_list()
        for viewer in list(self._viewers):
            self._offer(viewer, ("games", listing))

    def subscribe(self, game_id: str | None) -> tuple[list[tuple[str, Any]], _Viewer]:
        """A new viewer of ``game_id`` (``None``: the latest game, and the next ones).

        Returns what it must see first (the list of games, the game so far) and the viewer,
        whose ``receive`` channel then follows; :meth:`leave` when it goes.
        """
        snapshot: list[tuple[str, Any]] = [("games", self.game_list())]
        shown = self.games.get(game_id or self._latest or "")
        if shown is not None:
            snapshot.extend(("view", event) for event in shown.builder.events)
        send, receive = trio.open_memory_channel[tuple[str, Any]](QUEUE)
        viewer = _Viewer(send, receive, game_id)
        self._viewers.add(viewer)
        return snapshot, viewer

    def leave(self, viewer: _Viewer) -> None:
        """A viewer went away."""
        self._viewers.discard(viewer)
        viewer.send.close()
        viewer.receive.close()


# --- HTTP -----------------------------------------------------------------------------------


async def _read_request(stream: trio.abc.Stream, conn: h11.Connection) -> h11.Request | None:
    with trio.move_on_after(REQUEST_TIME):
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(bytes(await stream.receive_some(65536)))
                continue
            return event if isinstance(event, h11.Request) else None
    return None


async def _respond(
    stream: trio.abc.Stream, conn: h11.Connection, status: int, kind: str, body: bytes
) -> None:
    headers = [
        ("content-type", kind),
        ("content-length", str(len(body))),
        ("cache-control", "no-store"),
        ("connection", "close"),
    ]
    await stream.send_all(conn.send(h11.Response(status_code=status, headers=headers)))
    await stream.send_all(conn.send(h11.Data(data=body)))
    await stream.send_all(conn.send(h11.EndOfMessage()))


def _sse(name: str, data: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def _stream_events(
    stream: trio.abc.Stream, conn: h11.Connection, hub: LiveHub, game_id: str | None
) -> None:
    headers = [
        ("content-type", "text/event-stream"),
        ("cache-control", "no-store"),
        ("connection", "close"),
    ]
    await stream.send_all(conn.send(h11.Response(status_code=200, headers=headers)))
    snapshot, viewer = hub.subscribe(game_id)
    try:
        for name, data in snapshot:
            await stream.send_all(conn.send(h11.Data(data=_sse(name, data))))
        async for name, data in viewer.receive:
            await stream.send_all(conn.send(h11.Data(data=_sse(name, data))))
    finally:
        hub.leave(viewer)


async def handle_http(stream: trio.abc.Stream, hub: LiveHub) -> None:
    """Answer one HTTP connection (one request; the connection closes after it)."""
    conn = h11.Connection(h11.SERVER)
    try:
        request = await _read_request(stream, conn)
        if request is None:
            return
        url = urlsplit(request.target.decode("latin-1"))
        asked = parse_qs(url.query).get("game")
        game = asked[0] if asked else None
        if request.method not in (b"GET", b"HEAD"):
            await _respond(stream, conn, 405, "text/plain", b"only GET\n")
        elif url.path == "/":
            body = page({"live": True, "tournament": hub.tournament}).encode()
            await _respond(stream, conn, 200, "text/html; charset=utf-8", body)
        elif url.path == "/events":
            await _stream_events(stream, conn, hub, game)
        elif url.path == "/games":
            body = json.dumps(hub.game_list()).encode()
            await _respond(stream, conn, 200, "application/json", body)
        else:
            await _respond(stream, conn, 404, "text/plain", b"not found\n")
    except (trio.BrokenResourceError, trio.ClosedResourceError, h11.ProtocolError):
        pass  # the browser went away or spoke nonsense: nothing to do
    finally:
        await trio.aclose_forcefully(stream)


async def serve_view(
    hub: LiveHub,
    port: int,
    host: str = "127.0.0.1",
    *,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view on ``host:port`` until cancelled; tells ``task_status`` the port."""
    listeners = await trio.open_tcp_listeners(port, host=host)
    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_listeners, lambda s: handle_http(s, hub), listeners)
        task_status.started(listeners[0].socket.getsockname()[1])
