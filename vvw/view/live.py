"""The live view: games as they are played, pushed to browsers over server-sent events.

A :class:`LiveHub` takes each game's transcript lines as they are written (a server's
:class:`~server.events.TranscriptLine` events, see :meth:`LiveHub.listener`), turns them
into view events (:mod:`vvw.view.model`) and pushes those to every viewer of that game.
:func:`serve_view` serves the page and the event streams over :mod:`vvw.web` (a ladder
mounts :func:`view_handler` among its own pages):

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

import attrs
import trio

from protocol.transcript import TranscriptError, parse_line
from server.events import EventSink, GameBegun, GameEnded, ServerEvent, TranscriptLine
from vvw.view.model import ViewBuilder, ViewEvent
from vvw.view.page import page
from vvw.web import Exchange, Handler, serve_http

log = logging.getLogger(__name__)

QUEUE = 512
"""Events a viewer may be behind before it is disconnected (to resynchronise)."""


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

    def __init__(self, tournament: bool = False, keep: int | None = None) -> None:
        self.tournament = tournament
        self.keep = keep
        """Finished games kept at most, the oldest forgotten first (``None``: every game;
        a server that runs for weeks keeps a few)."""
        self.games: dict[str, LiveGame] = {}
        self._viewers: set[_Viewer] = set()
        self._latest: str | None = None

    def line_sink(self, game_id: str, label: str) -> Callable[[str], None]:
        """A new game: the function its transcript lines (JSON text) are given to."""
        game = LiveGame(game_id, label)
        self.games[game_id] = game
        self._latest = game_id
        self._forget_old_games()
        self._broadcast_games()
        return lambda text: self._record(game, text)

    def listener(self, label: Callable[[int], str] = lambda number: f"game {number}") -> EventSink:
        """The events sink of a server whose games are shown: game ``N`` is ``"N"``, shown
        as ``label(N)``; each of its :class:`TranscriptLine` goes to its :meth:`line_sink`."""
        sinks: dict[int, Callable[[str], None]] = {}

        def hear(event: ServerEvent) -> None:
            if isinstance(event, GameBegun):
                sinks[event.number] = self.line_sink(str(event.number), label(event.number))
            elif isinstance(event, TranscriptLine) and event.number in sinks:
                sinks[event.number](event.text)
            elif isinstance(event, GameEnded):
                sinks.pop(event.number, None)

        return hear

    def _forget_old_games(self) -> None:
        if self.keep is None:
            return
        finished = [key for key, game in self.games.items() if game.builder.finished]
        for key in finished[: max(0, len(finished) - self.keep)]:
            del self.games[key]

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


def _sse(name: str, data: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def _stream_events(exchange: Exchange, hub: LiveHub, game_id: str | None) -> None:
    await exchange.stream("text/event-stream")
    snapshot, viewer = hub.subscribe(game_id)
    try:
        for name, data in snapshot:
            await exchange.send(_sse(name, data))
        async for name, data in viewer.receive:
            await exchange.send(_sse(name, data))
    finally:
        hub.leave(viewer)


def view_handler(hub: LiveHub) -> Handler:
    """The live view's pages: ``/`` (the page), ``/events`` (the event stream), ``/games``
    (the list of games). Paths are relative to where the handler is mounted (the page asks
    for ``events`` beside itself)."""

    async def handle(exchange: Exchange) -> None:
        path, game = exchange.request.path, exchange.request.parameter("game")
        if path == "/":
            body = page({"live": True, "tournament": hub.tournament}).encode()
            await exchange.respond(200, "text/html; charset=utf-8", body)
        elif path == "/events":
            await _stream_events(exchange, hub, game)
        elif path == "/games":
            body = json.dumps(hub.game_list()).encode()
            await exchange.respond(200, "application/json", body)
        else:
            await exchange.respond(404, "text/plain", b"not found\n")

    return handle


async def serve_view(
    hub: LiveHub,
    port: int,
    host: str = "127.0.0.1",
    *,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view on ``host:port`` until cancelled; tells ``task_status`` the port."""
    await serve_http(view_handler(hub), port, host, task_status=task_status)
