"""The ladder's web pages, served beside its games by the project's HTTP server.

:class:`LadderPages` is a :data:`vvw.web.Handler`:

- ``/`` the leaderboard, ``/games`` the games in progress and the latest ones,
  ``/teams/NAME`` a team's page (:mod:`vvw.ladder.pages`);
- ``/games/ID/replay`` a finished game's replay (the viewer's page), ``/games/ID/transcript``
  its transcript (JSON Lines, as plain text);
- ``/live/`` the live view of the games in progress (:func:`vvw.view.live.view_handler`).

It never slows a game: a page is made in a worker thread (one at a time, on a connection
to the ladder's file of its own, which never waits for a game being written nor holds one
up), and kept for :data:`PAGE_AGE` seconds unless the ladder changed meanwhile, so a
crowd polling the leaderboard costs one page now and then. The ladder's own pages carry
no script, and a policy that forbids any (a defence beside the escaping of every text).
"""

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

import attrs
import trio

from protocol.transcript import TranscriptError
from vvw.ladder.pages import games_page, leaderboard_page, not_found_page, team_page
from vvw.ladder.ratings import Rating
from vvw.ladder.store import GameStatus, LadderReader, Snapshot
from vvw.ladder.tables import leaderboard, ratings_of, team_report
from vvw.view.live import LiveHub, view_handler
from vvw.view.page import replay_page
from vvw.web import Exchange, Headers

PAGE_AGE = 5.0
"""Seconds a page is kept while the ladder does not change ("5 min ago" stays true)."""
LATEST_GAMES = 100
"""Games the latest games' page lists."""
REPLAYS = 16
"""Replays kept made (the latest asked for)."""
HTML = "text/html; charset=utf-8"
OWN_PAGES: Headers = (
    ("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
)
"""The headers of the ladder's own pages: no script runs on them, whatever they show."""
VIEWER_PAGES: Headers = (("x-content-type-options", "nosniff"),)
GAME_PATH = re.compile(r"/games/(\d{1,12})/(replay|transcript)")


@attrs.frozen
class Page:
    status: int
    kind: str
    body: bytes
    headers: Headers = OWN_PAGES


class _Ratings:
    """The ratings of a snapshot's games, computed again only when games have ended."""

    def __init__(self) -> None:
        self._key: tuple[int, int] | None = None
        self._ratings: dict[str, Rating] = {}

    def of(self, snapshot: Snapshot) -> dict[str, Rating]:
        rated = [game for game in snapshot.games if game.rated]
        key = (len(rated), rated[-1].id if rated else 0)
        if key != self._key:
            self._ratings, self._key = ratings_of(snapshot), key
        return self._ratings


class LadderPages:
    """The pages of the ladder at ``path`` (see the module's docstring). ``online`` and
    ``version`` are the server's: the teams connected now, and a count of its changes."""

    def __init__(
        self,
        path: Path,
        hub: LiveHub,
        online: Callable[[], frozenset[str]] = frozenset,
        version: Callable[[], int] = lambda: 0,
    ) -> None:
        self.path = path
        self._online = online
        self._version = version
        self._live = view_handler(hub)
        self._made: dict[str, tuple[int, float, Page]] = {}
        self._replays: OrderedDict[int, Page] = OrderedDict()
        self._ratings = _Ratings()
        self._making = trio.CapacityLimiter(1)
        self._lock = threading.Lock()

    async def __call__(self, exchange: Exchange) -> None:
        path = exchange.request.path
        if path == "/live":
            await exchange.respond(301, "text/plain", b"/live/\n", [("location", "/live/")])
            return
        if path.startswith("/live/"):
            exchange.request = attrs.evolve(exchange.request, path=path.removeprefix("/live"))
            await self._live(exchange)
            return
        page = await self.page(path)
        await exchange.respond(page.status, page.kind, page.body, page.headers)

    async def page(self, path: str) -> Page:
        """The page at ``path``, made in a worker thread unless a fresh one is kept."""
        version, now = self._version(), time.monotonic()
        kept = self._made.get(path)
        if kept is not None and kept[0] == version and now - kept[1] < PAGE_AGE:
            return kept[2]
        make = functools.partial(self._make, path, self._online())
        page = await trio.to_thread.run_sync(make, limiter=self._making)
        if page.status == 200 and not GAME_PATH.fullmatch(path):
            if len(self._made) > 1000:  # team pages asked for by name: bounded
                self._made.clear()
            self._made[path] = (version, now, page)
        return page

    def _make(self, path: str, online: frozenset[str]) -> Page:
        """The page at ``path`` (in a worker thread)."""
        with LadderReader.open(self.path) as reader:
            if (found := GAME_PATH.fullmatch(path)) is not None:
                return self._game_file(reader, int(found[1]), found[2])
            snapshot = reader.snapshot()
        ratings = self._ratings.of(snapshot)
        now = snapshot.taken
        if path == "/":
            body = leaderboard_page(leaderboard(snapshot, ratings, online), now)
        elif path == "/games":
            latest = list(reversed(snapshot.games[-LATEST_GAMES:]))
            body = games_page(latest, now)
        elif path.startswith("/teams/"):
            report = team_report(snapshot, unquote(path.removeprefix("/teams/")), ratings, online)
            if report is None:
                return Page(404, HTML, not_found_page("No such team or bot").encode())
            body = team_page(report, now)
        else:
            return Page(404, HTML, not_found_page("No such page").encode())
        return Page(200, HTML, body.encode())

    def _game_file(self, reader: LadderReader, number: int, what: str) -> Page:
        """A game's replay or transcript."""
        try:
            game = reader.game(number)
        except ValueError:
            game = None
        if game is None or game.transcript is None:
            return Page(404, HTML, not_found_page("No transcript for this game").encode())
        transcript = reader.transcripts / game.transcript
        if what == "transcript":
            try:
                data = transcript.read_bytes()
            except OSError:
                return Page(404, HTML, not_found_page("The transcript is gone").encode())
            return Page(200, "text/plain; charset=utf-8", data, VIEWER_PAGES)
        with self._lock:
            kept = self._replays.get(number)
        if kept is not None:
            return kept
        try:
            page = Page(200, HTML, replay_page(transcript)[0].encode(), VIEWER_PAGES)
        except (OSError, UnicodeDecodeError, TranscriptError):
            return Page(404, HTML, not_found_page("The transcript cannot be shown").encode())
        if game.status is not GameStatus.PLAYING:
            with self._lock:
                self._replays[number] = page
                while len(self._replays) > REPLAYS:
                    self._replays.popitem(last=False)
        return page
