"""The live view: games as they are played, pushed to browsers over server-sent events.

A :class:`LiveHub` takes each game's transcript records as they are written (a server's
:class:`~server.events.TranscriptLine` events, see :meth:`LiveHub.listener`), turns them
into view events (:mod:`vvw.web.model`) and pushes those to every viewer of that game.
:func:`serve_view` serves the page and the event streams over :mod:`vvw.web.server` (a ladder
mounts :func:`view_handler` among its own pages); :func:`live_view` runs it for a command,
and tells every page when the command ends:

- ``GET /`` the page (``?game=ID`` for one game; without it, the latest game, followed
  from one game to the next), or a tournament's dashboard (:mod:`vvw.web.dashboard`)
  when the command shows one and no game is asked for;
- ``GET /events[?game=ID]`` the event stream: first the list of games and the game so far,
  then each event as it happens: ``view`` (the game's own), ``game`` (one game's line in
  the list, at each of its plies), ``games`` (the whole list, when a game is added or
  forgotten), and ``finished`` once the command has ended (the stream then ends; the page
  stays); ``?board=1`` the dashboard's: the list, and ``board`` (its new body);
- ``GET /games`` the list as JSON; ``GET /replay?game=ID`` a kept game's replay page.

The page opens its event stream once it has loaded, so nothing holds its ``load`` event
(a headless ``chromium --screenshot`` of it finishes).

A viewer never slows a game: events go to each viewer through a bounded queue, and a
viewer whose queue is full is disconnected (its browser reconnects and gets the game as
it stands). A viewer that goes away costs the game nothing.
"""

import contextlib
import json
import logging
import zlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

import attrs
import trio

from protocol.records import Record
from server.events import EventSink, GameBegun, GameEnded, ServerEvent, TranscriptLine
from vvw.ports import Listening, start_listening
from vvw.web.dashboard import dashboard_page
from vvw.web.model import ViewBuilder, ViewEvent
from vvw.web.server import READ_ONLY, Exchange, Handler, serve_http
from vvw.web.viewer import page

log = logging.getLogger(__name__)

QUEUE = 512
"""Events a viewer may be behind before it is disconnected (to resynchronise)."""
FAREWELL_TIME = 2.0
"""Seconds the open pages have to hear that the command ended, before the view stops."""

Item = tuple[str, Any]
"""One server-sent event: its name and its data (JSON-ready)."""


@attrs.define(eq=False)
class _Viewer:
    """One event stream: its queue, and the game it follows (``None``: the latest; none
    for a dashboard, which follows the list of games and the board)."""

    send: trio.MemorySendChannel[Item]
    receive: trio.MemoryReceiveChannel[Item]
    game: str | None
    board: bool = False


@attrs.define(eq=False)
class LiveGame:
    """One game's view events so far, and how it is listed. A finished game keeps its
    events compressed (a tournament's hundreds of games stay small)."""

    id: str
    label: str
    builder: ViewBuilder = attrs.field(factory=ViewBuilder)
    _packed: bytes | None = None
    _final: dict[str, Any] | None = None

    @property
    def finished(self) -> bool:
        return self._packed is not None

    @property
    def events(self) -> list[ViewEvent]:
        """Every view event of the game so far."""
        if self._packed is None:
            return self.builder.events
        events: list[ViewEvent] = json.loads(zlib.decompress(self._packed))
        return events

    def feed(self, record: Record) -> list[ViewEvent]:
        """The view events of the game's next record (none once the game is over)."""
        if self._packed is not None:
            return []
        made = self.builder.feed(record)
        if self.builder.finished:
            self._final = self.summary()
            self._packed = zlib.compress(json.dumps(self.builder.events).encode())
            self.builder = ViewBuilder()
        return made

    def summary(self) -> dict[str, Any]:
        """The game's line in the list of games: its players (the participants' names when
        the command knows them), its plies so far, its state."""
        if self._final is not None:
            return self._final
        names = self.builder.names
        vampires, werewolves = names.get("vampires", "?"), names.get("werewolves", "?")
        plies = self.builder.plies
        finished = self.builder.finished
        status = self.builder.events[-1]["text"] if finished else f"playing, ply {plies}"
        return {
            "id": self.id,
            "label": self.label,
            "title": f"{self.label}: {vampires} vs {werewolves}",
            "names": {"vampires": vampires, "werewolves": werewolves},
            "plies": plies,
            "finished": finished,
            "status": status,
        }


class LiveHub:
    """The games being shown, and their viewers."""

    def __init__(self, tournament: bool = False, keep: int | None = None) -> None:
        self.tournament = tournament
        self.keep = keep
        """Finished games kept at most, the oldest forgotten first (``None``: every game;
        a server that runs for weeks keeps a few)."""
        self.games: dict[str, LiveGame] = {}
        self.finished = False
        """Whether the command has ended: no more events, every page told so."""
        self._viewers: set[_Viewer] = set()
        self._latest: str | None = None
        self._left = trio.lowlevel.ParkingLot()
        """Where :meth:`close` waits for the viewers to go."""
        self.board: str | None = None
        """The dashboard's body (HTML, :mod:`vvw.web.dashboard`), if the command has one:
        ``/`` shows it, each game one click away."""
        self.notes: dict[str, Callable[[], Any]] = {}
        """The command's own events (``vvw play``'s ``turn``): the latest of each name, for
        the pages that open later (made when sent: a clock's seconds left stay true)."""
        self.watched = trio.Event()
        """Set once a page follows a game (``vvw play`` starts the game then)."""

    def record_sink(
        self, game_id: str, label: str, names: Mapping[str, str] | None = None
    ) -> Callable[[Record], None]:
        """A new game: the function its transcript records are given to, as they are written.

        ``names`` (``{"vampires": …, "werewolves": …}``) are the participants' names, shown
        instead of those the bots send.
        """
        game = LiveGame(game_id, label, ViewBuilder(names))
        self.games[game_id] = game
        self._latest = game_id
        self._forget_old_games()
        self._broadcast(("games", self.game_list()))
        return lambda record: self._record(game, record)

    def listener(
        self,
        label: Callable[[int], str] | str = lambda number: f"game {number}",
        names: Mapping[str, str] | None = None,
    ) -> EventSink:
        """The events sink of a server whose games are shown: game ``N`` is ``"N"``, shown
        as ``label(N)`` (or ``label``) with the participants' ``names`` if given; each of
        its :class:`TranscriptLine` goes to its :meth:`record_sink`."""
        sinks: dict[int, Callable[[Record], None]] = {}

        def hear(event: ServerEvent) -> None:
            if isinstance(event, GameBegun):
                shown = label if isinstance(label, str) else label(event.number)
                sinks[event.number] = self.record_sink(str(event.number), shown, names)
            elif isinstance(event, TranscriptLine) and event.number in sinks:
                sinks[event.number](event.record)
            elif isinstance(event, GameEnded):
                sinks.pop(event.number, None)

        return hear

    def _forget_old_games(self) -> None:
        if self.keep is None:
            return
        finished = [key for key, game in self.games.items() if game.finished]
        for key in finished[: max(0, len(finished) - self.keep)]:
            del self.games[key]

    def _record(self, game: LiveGame, record: Record) -> None:
        made = game.feed(record)
        for event in made:
            for viewer in list(self._viewers):
                if viewer.board:
                    continue
                if viewer.game == game.id or (viewer.game is None and self._latest == game.id):
                    self._offer(viewer, ("view", event))
        if made:  # a ply, a result, names: the game's line in the list changed
            self._broadcast(("game", game.summary()))

    def _offer(self, viewer: _Viewer, item: Item) -> None:
        try:
            viewer.send.send_nowait(item)
        except trio.WouldBlock:  # too slow: drop it; its browser reconnects and catches up
            log.info("live view: a viewer fell %d events behind; disconnected", QUEUE)
            self._viewers.discard(viewer)
            viewer.send.close()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self._viewers.discard(viewer)

    def _broadcast(self, item: Item) -> None:
        for viewer in list(self._viewers):
            self._offer(viewer, item)

    def tell(self, name: str, data: Callable[[], Any]) -> None:
        """An event of the command's own to every page of a game, now and (the latest of
        each name) when one opens: ``name``, and ``data()`` (JSON-ready), made as it goes."""
        self.notes[name] = data
        for viewer in list(self._viewers):
            if not viewer.board:
                self._offer(viewer, (name, data()))

    def show_board(self, body: str) -> None:
        """The dashboard's new body, shown to every dashboard open."""
        self.board = body
        for viewer in list(self._viewers):
            if viewer.board:
                self._offer(viewer, ("board", body))

    def game_list(self) -> list[dict[str, Any]]:
        """Every game, newest last."""
        return [game.summary() for game in self.games.values()]

    def subscribe(self, game_id: str | None, board: bool = False) -> tuple[list[Item], _Viewer]:
        """A new viewer of ``game_id`` (``None``: the latest game, and the next ones), or of
        the dashboard (``board``).

        Returns what it must see first (the list of games, the game so far or the board,
        and ``finished`` if the command has ended) and the viewer, whose ``receive``
        channel then follows (closed at once when the command has ended); :meth:`leave`
        when it goes.
        """
        snapshot: list[Item] = [("games", self.game_list())]
        shown = None if board else self.games.get(game_id or self._latest or "")
        if shown is not None:
            snapshot.extend(("view", event) for event in shown.events)
        if board and self.board is not None:
            snapshot.append(("board", self.board))
        if not board:
            snapshot.extend((name, data()) for name, data in self.notes.items())
            self.watched.set()
        send, receive = trio.open_memory_channel[Item](QUEUE)
        viewer = _Viewer(send, receive, game_id, board)
        if self.finished:
            snapshot.append(("finished", {}))
            send.close()
        else:
            self._viewers.add(viewer)
        return snapshot, viewer

    def leave(self, viewer: _Viewer) -> None:
        """A viewer went away."""
        self._viewers.discard(viewer)
        viewer.send.close()
        viewer.receive.close()
        self._left.unpark_all()

    def finish(self) -> None:
        """The command has ended: every viewer is told so, and its stream ends."""
        self.finished = True
        for viewer in list(self._viewers):
            self._offer(viewer, ("finished", {}))
            viewer.send.close()

    async def close(self, grace: float = FAREWELL_TIME) -> None:
        """:meth:`finish`, then wait (up to ``grace`` seconds) for the streams to have said
        it and ended."""
        self.finish()
        with trio.move_on_after(grace):
            while self._viewers:
                await self._left.park()


# --- HTTP -----------------------------------------------------------------------------------


def _sse(name: str, data: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def _stream_events(
    exchange: Exchange, hub: LiveHub, game_id: str | None, board: bool
) -> None:
    await exchange.stream("text/event-stream")
    snapshot, viewer = hub.subscribe(game_id, board)
    try:
        for name, data in snapshot:
            await exchange.send(_sse(name, data))
        async for name, data in viewer.receive:
            await exchange.send(_sse(name, data))
        await exchange.end()
    finally:
        hub.leave(viewer)


def view_handler(
    hub: LiveHub, config: Mapping[str, Any] | None = None, extras: Sequence[str] = ()
) -> Handler:
    """The live view's pages: ``/`` (the page; the dashboard if the hub has one and no
    game is asked for), ``/events`` (the event stream; ``?board=1`` the dashboard's),
    ``/games`` (the list of games), ``/replay?game=ID`` (a game's replay page, as far as
    it has been played). Paths are relative to where the handler is mounted (a page asks
    for ``events`` beside itself). The page gets ``config`` and ``extras`` too (see
    :func:`~vvw.web.viewer.page`)."""
    shown = {"live": True, "tournament": hub.tournament, **(config or {})}

    async def handle(exchange: Exchange) -> None:
        path, game = exchange.request.path, exchange.request.parameter("game")
        if path == "/" and game is None and hub.board is not None:
            body = dashboard_page(hub.board, live=True).encode()
            await exchange.respond(200, "text/html; charset=utf-8", body)
        elif path == "/":
            body = page(shown, extras).encode()
            await exchange.respond(200, "text/html; charset=utf-8", body)
        elif path == "/events":
            board = exchange.request.parameter("board") is not None
            await _stream_events(exchange, hub, game, board)
        elif path == "/games":
            body = json.dumps(hub.game_list()).encode()
            await exchange.respond(200, "application/json", body)
        elif path == "/replay" and game in hub.games:
            body = page({"events": hub.games[game].events}).encode()
            await exchange.respond(200, "text/html; charset=utf-8", body)
        elif path == "/replay":
            why = f"game {game} is not kept here\n" if game else "which game? (?game=N)\n"
            await exchange.respond(404, "text/plain; charset=utf-8", why.encode())
        else:
            await exchange.respond(404, "text/plain", b"not found\n")

    return handle


async def serve_view(
    hub: LiveHub,
    port: int,
    host: str = "127.0.0.1",
    *,
    handler: Handler | None = None,
    methods: Sequence[str] = READ_ONLY,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view on ``host:port`` until cancelled (or ``handler``, which serves
    it among pages of its own, answering ``methods``); tells ``task_status`` the port."""
    await serve_http(
        handler or view_handler(hub), port, host, methods=methods, task_status=task_status
    )


@contextlib.asynccontextmanager
async def live_view(
    hub: LiveHub,
    place: Listening,
    announce: Callable[[str], None],
    *,
    handler: Handler | None = None,
    methods: Sequence[str] = READ_ONLY,
) -> AsyncIterator[int]:
    """The live view served at ``place`` while the block runs (its port given to the block
    and to ``announce`` as the page's address; ``handler`` and ``methods``: see
    :func:`serve_view`). However the block ends (its work done, Ctrl-C), the open pages
    are told it has finished before the view stops."""
    async with trio.open_nursery() as nursery:
        serving = trio.CancelScope(shield=True)  # serves on through a cancelled block

        async def run(task_status: trio.TaskStatus[int]) -> None:
            with serving:
                await serve_view(
                    hub,
                    place.port,
                    place.host,
                    handler=handler,
                    methods=methods,
                    task_status=task_status,
                )

        port = await start_listening(nursery, place, run)
        announce(f"http://{place.host}:{port}/")
        try:
            yield port
        finally:
            with trio.CancelScope(shield=True):
                await hub.close()
            serving.cancel()


def showing(
    hub: LiveHub | None, place: Listening, announce: Callable[[str], None]
) -> contextlib.AbstractAsyncContextManager[int | None]:
    """:func:`live_view` when there is a ``hub`` (``--view``), else nothing."""
    return live_view(hub, place, announce) if hub is not None else contextlib.nullcontext()
