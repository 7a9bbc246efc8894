"""The ladder's web pages, served beside its games by the project's HTTP server.

:class:`LadderPages` is a :data:`vvw.web.server.Handler`:

- ``/`` the leaderboard, ``/games`` the games in progress and the latest ones,
  ``/teams/NAME`` a team's page (:mod:`vvw.ladder.pages`);
- ``/games/ID/replay`` a finished game's replay (the viewer's page, with the game's
  analysis when ``vvw analyse`` made one beside the transcript), ``/games/ID/transcript``
  its transcript (JSON Lines, as plain text);
- ``/live/`` the live view of the games in progress (:func:`vvw.web.live.view_handler`).

It never slows a game. Pages are made in a worker thread, one at a time, on a connection
to the ladder's file of the thread's own (which never waits for a game being written nor
holds one up). What they show is read once per *moment* (:class:`Moment`: the games and
players, the ratings overall and on each map), a moment lasting at least :data:`FRESH`
seconds, and up to :data:`STALE` while the ladder does not change; each page is made at
most once a moment, however many browsers ask for it at once. A class polling the pages
every second so costs a few pages every few seconds. The ladder's own pages carry no
script, and a policy that forbids any (a defence beside the escaping of every text).
"""

import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import attrs
import trio

from protocol.reading import TranscriptError
from vvw.analysis.files import AnalysisFileError, analysis_path, read_analysis
from vvw.ladder.pages import games_page, leaderboard_page, not_found_page, team_page
from vvw.ladder.queries import LadderReader
from vvw.ladder.ratings import Rating
from vvw.ladder.snapshot import Snapshot, StoredGame
from vvw.ladder.tables import leaderboard, map_ratings_of, ratings_of, team_report
from vvw.web.live import LiveHub, view_handler
from vvw.web.server import Exchange, Headers
from vvw.web.viewer import replay_page

log = logging.getLogger(__name__)

FRESH = 2.0
"""Seconds a moment is shown at least, whatever happens meanwhile."""
STALE = 10.0
"""Seconds a moment is shown at most while the ladder does not change ("5 min ago")."""
LATEST_GAMES = 100
"""Games the games' page lists."""
REPLAYS = 16
"""Replays kept made (the latest asked for)."""
PAGES = 1000
"""Pages kept made at most (team pages are asked for by any name)."""
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


@attrs.frozen(eq=False)
class Moment:
    """What the pages show, as read at one moment."""

    version: int
    """The server's count of changes when it was read."""
    taken: float
    """When it was read (the pages' clock, ``time.monotonic()``)."""
    snapshot: Snapshot
    ratings: dict[str, Rating]
    map_ratings: dict[str, dict[str, Rating]]
    online: frozenset[str]


def _not_found(what: str) -> Page:
    return Page(404, HTML, not_found_page(what).encode())


class LadderPages:
    """The pages of the ladder at ``path`` (see the module's docstring). ``online`` and
    ``version`` are the server's: the teams connected now, and a count of its changes."""

    def __init__(
        self,
        path: Path,
        hub: LiveHub,
        online: Callable[[], frozenset[str]] = frozenset,
        version: Callable[[], int] = lambda: 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self._online = online
        self._version = version
        self._clock = clock
        self._live = view_handler(hub)
        self._moment: Moment | None = None
        self._made: dict[str, tuple[Moment, Page]] = {}
        self._making: dict[str, trio.Event] = {}
        """The pages being made, each set once made."""
        self._reading: trio.Event | None = None
        """Set once the moment being read is read."""
        self._replays: OrderedDict[tuple[int, bool], Page] = OrderedDict()
        """Replays made, by game and whether with an analysis."""
        self._worker = trio.CapacityLimiter(1)
        self._readers = threading.local()

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
        """The page at ``path``: the one made this moment, or made now in the worker (the
        browsers asking for it meanwhile wait for that one)."""
        while (making := self._making.get(path)) is not None:
            await making.wait()
        self._making[path] = done = trio.Event()
        try:
            moment = await self._current()
            kept = self._made.get(path)
            if kept is not None and kept[0] is moment:
                return kept[1]
            page = await trio.to_thread.run_sync(self._make, path, moment, limiter=self._worker)
            if page.status == 200 and not GAME_PATH.fullmatch(path):
                if len(self._made) >= PAGES:
                    self._made.clear()
                self._made[path] = (moment, page)
            return page
        finally:
            del self._making[path]
            done.set()

    async def _current(self) -> Moment:
        """The moment shown now: the last one while fresh, or while nothing changed."""
        while self._reading is not None:
            await self._reading.wait()
        moment, version, now = self._moment, self._version(), self._clock()
        if moment is not None and (
            now - moment.taken < FRESH or (moment.version == version and now - moment.taken < STALE)
        ):
            return moment
        self._reading = reading = trio.Event()
        try:
            online = self._online()
            moment = await trio.to_thread.run_sync(
                self._read, version, online, limiter=self._worker
            )
            self._moment = moment
            return moment
        finally:
            self._reading = None
            reading.set()

    def _reader(self) -> LadderReader:
        """The worker thread's own connection to the ladder."""
        reader: LadderReader | None = getattr(self._readers, "reader", None)
        if reader is None:
            reader = self._readers.reader = LadderReader.open(self.path)
        return reader

    def _read(self, version: int, online: frozenset[str]) -> Moment:
        """The ladder as it is now (in the worker)."""
        snapshot = self._reader().snapshot()
        previous = self._moment
        rated = sum(game.rated for game in snapshot.games)
        if previous is not None and rated == sum(g.rated for g in previous.snapshot.games):
            ratings, map_ratings = previous.ratings, previous.map_ratings  # no game ended
        else:
            ratings, map_ratings = ratings_of(snapshot), map_ratings_of(snapshot)
        return Moment(version, self._clock(), snapshot, ratings, map_ratings, online)

    def _make(self, path: str, moment: Moment) -> Page:
        """The page at ``path`` as of ``moment`` (in the worker)."""
        if (found := GAME_PATH.fullmatch(path)) is not None:
            return self._game_file(int(found[1]), found[2])
        snapshot, ratings, now = moment.snapshot, moment.ratings, time.time()
        if path == "/":
            body = leaderboard_page(leaderboard(snapshot, ratings, moment.online), now)
        elif path == "/games":
            latest = list(reversed(snapshot.games[-LATEST_GAMES:]))
            body = games_page(latest, now, self._analysed(latest))
        elif path.startswith("/teams/"):
            name = unquote(path.removeprefix("/teams/"))
            report = team_report(snapshot, name, ratings, moment.online, moment.map_ratings)
            if report is None:
                return _not_found("No such team or bot")
            body = team_page(report, now, self._analysed((*report.abnormal, *report.latest)))
        else:
            return _not_found("No such page")
        return Page(200, HTML, body.encode())

    def _analysed(self, games: Iterable[StoredGame]) -> set[int]:
        """The numbers of ``games`` analysed (``vvw analyse``: a file beside the transcript)."""
        folder = self._reader().transcripts
        return {
            game.id
            for game in games
            if game.transcript is not None and analysis_path(folder / game.transcript).exists()
        }

    def _analysis(self, transcript: Path) -> dict[str, Any] | None:
        """The analysis of the game in ``transcript``, if it was analysed (a stale or
        damaged analysis file is left out)."""
        path = analysis_path(transcript)
        if not path.exists():
            return None
        try:
            return read_analysis(path, transcript)
        except AnalysisFileError as error:
            log.warning("the replay is shown without its analysis: %s", error)
            return None

    def _game_file(self, number: int, what: str) -> Page:
        """A game's replay or transcript (in the worker)."""
        reader = self._reader()
        try:
            game = reader.game(number)
        except ValueError:
            return _not_found("No such game")
        if game.transcript is None:
            return _not_found("No transcript for this game (yet)")
        transcript = reader.transcripts / game.transcript
        if what == "transcript":
            try:
                return Page(200, "text/plain; charset=utf-8", transcript.read_bytes(), VIEWER_PAGES)
            except OSError:
                return _not_found("The transcript is gone")
        analysed = analysis_path(transcript).exists()
        if (kept := self._replays.get((number, analysed))) is not None:
            return kept
        try:
            made, _ = replay_page(
                transcript, analysis=self._analysis(transcript), back=("/games", "the games")
            )
        except (OSError, UnicodeDecodeError, TranscriptError):
            return _not_found("The transcript cannot be shown")
        page = Page(200, HTML, made.encode(), VIEWER_PAGES)
        self._replays[number, analysed] = page
        while len(self._replays) > REPLAYS:
            self._replays.popitem(last=False)
        return page
