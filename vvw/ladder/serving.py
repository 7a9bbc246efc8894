"""The ladder's server: the course protocol on one port, the teams' bots paired and played.

Any course-compatible bot connects to :meth:`LadderServer.serve`'s port and presents its
team's credentials as its ``NME`` (``ladder:TEAM:TOKEN``, which ``vvw ladder join`` writes
for it). Each connection is let in or refused by the :class:`~vvw.ladder.admission.Gate`
(an address slowed down for failed logins, an ``NME`` that is not a team's credentials, a
team whose connections are all open), then waits until a pairing round gives it a game,
which it then plays to its end; a connection that closes while it waits just leaves.

Every :data:`PAIRING_INTERVAL` seconds a round calls :func:`vvw.ladder.pairing.pair` with
the bots waiting, the return games owed and the latest opponents, and starts the games it
gives, most urgent first, up to ``concurrency`` at once. A built-in bot's game starts its
process first (:mod:`vvw.ladder.builtinbots`). Each game is played and recorded by
:mod:`vvw.ladder.games`. A game stopped by the server's stop is recorded as aborted; one
left playing by a killed server is aborted when it starts again
(:meth:`~vvw.ladder.store.LadderStore.abort_interrupted`, by the command). The store's
calls are all made off the event loop (:mod:`vvw.ladder.diskthread`).

With ``analyse``, each finished game is analysed in the background
(:mod:`vvw.ladder.analysing`), its analysis written beside its transcript.

Everything is told, typed and in order, to the ``events`` sink: the server's events
(:mod:`server.events`: ``Dropped``, ``Seated``, ``GameBegun``, ``TranscriptLine``,
``GameEnded``) and the ladder's (:mod:`vvw.ladder.events`: ``Joined``, ``Refused``,
``Left``; :class:`~vvw.ladder.analysing.Analysed`). A token is never told, logged or
written (:mod:`vvw.ladder.admission`).
"""

import itertools
import logging
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from server.events import GameBegun, Seated, TranscriptLine
from server.lobby import connected
from server.race import wait_unless
from server.referee import ABORT_GOODBYE
from server.transcript import FrameRecorder
from vvw.ladder.admission import Gate, peer_of
from vvw.ladder.analysing import Analyses
from vvw.ladder.builtinbots import BuiltinBots
from vvw.ladder.diskthread import StoreThread
from vvw.ladder.events import Joined, LadderEvent, LadderSink, Left, Refused
from vvw.ladder.games import Entrant, LadderGames
from vvw.ladder.limiter import FailureLimiter
from vvw.ladder.pairing import Builtin, Match, ReturnLeg, Waiting, pair
from vvw.ladder.ratings import Rating, fit_ratings
from vvw.ladder.refusals import Refusal
from vvw.ladder.store import LadderStore

log = logging.getLogger(__name__)

PAIRING_INTERVAL = 2.0
"""Seconds between pairing rounds: the bots that arrive meanwhile are paired together."""
RECENT_OPPONENTS = 5
"""Latest opponents of a team that the pairing avoids meeting again."""
BUILTIN_STEP = 200.0
"""Rating points between two built-in bots next to each other in the list, until they play."""


def _guarded(
    handler: Callable[[trio.SocketStream], Awaitable[None]],
) -> Callable[[trio.SocketStream], Awaitable[None]]:
    async def handle(stream: trio.SocketStream) -> None:
        try:
            await handler(stream)
        except Exception:  # one connection must never bring the server down
            log.exception("a ladder connection's handler failed")

    return handle


class LadderServer:
    """One ladder served (see the module's docstring)."""

    def __init__(
        self,
        store: LadderStore,
        *,
        concurrency: int = 4,
        events: LadderSink | None = None,
        pairing_interval: float = PAIRING_INTERVAL,
        limiter: FailureLimiter | None = None,
        analyse: int | None = None,
    ) -> None:
        """``analyse``: analyse each finished game at this depth in the background
        (:mod:`vvw.ladder.analysing`); ``None``: no analysis."""
        if concurrency < 1:
            raise ValueError("a ladder plays one game at a time at least")
        self.store = store
        self._store = StoreThread(store)
        self.settings = store.settings
        self.concurrency = concurrency
        self.pairing_interval = pairing_interval
        self.version = 0
        """Counts the changes the pages show: a team joined or left, a game began or ended."""
        self.ratings: dict[str, Rating] = {}
        """The latest ratings, from every finished game (refreshed before each pairing)."""
        self._listeners = [self._record, *([events] if events is not None else [])]
        self._seats = itertools.count(1)
        self._waiting: dict[int, Entrant] = {}
        self._in_progress = 0
        self._rated = -1
        """How many outcomes :attr:`ratings` were computed from."""
        recorder = FrameRecorder()
        limiter = FailureLimiter(clock=trio.current_time) if limiter is None else limiter
        self.gate = Gate(store, self._store, limiter, recorder, self._tell)
        self.builtins = BuiltinBots(self.settings, recorder, self._seats, self._hold)
        self._analyses = None if analyse is None else Analyses(self._tell, analyse)
        self.games = LadderGames(store, self._store, recorder, self._tell, self._analyses)

    @property
    def online(self) -> frozenset[str]:
        """The teams with a connection open now."""
        return frozenset(team for team, count in self.gate.connections.items() if count)

    @property
    def playing(self) -> int:
        """Games being played now (or waiting for their built-in bot's process)."""
        return self._in_progress

    @property
    def waiting(self) -> list[str]:
        """The teams of the connections waiting for a game, longest waiting first."""
        return [entrant.name for entrant in self._waiting.values()]

    def _tell(self, event: LadderEvent) -> None:
        for listener in self._listeners:
            listener(event)

    def _record(self, event: LadderEvent) -> None:
        """The server's part of each event: logged, and counted as a change the pages show."""
        if isinstance(event, TranscriptLine):
            return
        if isinstance(event, Joined | Left | Refused | Seated | GameBegun):
            log.info("%r", event)
        self.version += 1

    def rating_of(self, name: str) -> float:
        """``name``'s rating; the anchor's for a team yet to play. A built-in bot yet to
        play is taken as :data:`BUILTIN_STEP` points weaker or stronger than the anchor per
        place it has before or after it in the ladder's list of built-in bots (weakest
        first), so that each is met by the teams of about its strength from the start."""
        rating = self.ratings.get(name)
        if rating is not None and (rating.games or name == self.settings.anchor):
            return rating.elo
        builtins, anchor = self.settings.builtins, self.settings.anchor_rating
        if name not in builtins:
            return anchor
        return anchor + BUILTIN_STEP * (builtins.index(name) - builtins.index(self.settings.anchor))

    # -- serving -----------------------------------------------------------------------

    async def serve(
        self,
        host: str = "127.0.0.1",
        port: int = 5555,
        *,
        task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve until cancelled; tells ``task_status`` the port (``OSError`` if it cannot
        be listened on). The games in progress when it is cancelled end as aborted."""
        listeners = await trio.open_tcp_listeners(port, host=host)
        builtins = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.builtins.port = builtins[0].socket.getsockname()[1]
        with tempfile.TemporaryDirectory(prefix="vvw-ladder-") as logs:
            self.builtins.logs = Path(logs)
            async with trio.open_nursery() as nursery:
                await nursery.start(trio.serve_listeners, _guarded(self._connection), listeners)
                await nursery.start(
                    trio.serve_listeners, _guarded(self.builtins.connection), builtins
                )
                nursery.start_soon(self._pair_forever, nursery)
                if self._analyses is not None:
                    nursery.start_soon(self._analyses.run)
                task_status.started(listeners[0].socket.getsockname()[1])

    async def _connection(self, stream: trio.SocketStream) -> None:
        """A connection to the ladder's port: let in by the :class:`Gate`, then held
        until its game is over (or until it leaves while it waits)."""
        peer = peer_of(stream)
        if self.gate.slowed(peer):
            await trio.aclose_forcefully(stream)
            self._tell(Refused(peer, Refusal.SLOWED))
            return
        async with connected(stream, peer, on_frame=self.gate.frame) as player:
            admitted = await self.gate.admit(player)
            if admitted is None:
                return
            try:
                with self.gate.counted(admitted.team):
                    seat = next(self._seats)
                    entrant = Entrant(
                        seat, admitted.team, player, trio.current_time(), admitted.relay
                    )
                    self._waiting[entrant.seat] = entrant
                    self._tell(Joined(admitted.team, peer))
                    await self._hold(entrant)
            finally:
                self.version += 1

    async def _hold(self, entrant: Entrant) -> None:
        """Keep a connection until its game is over; while it waits, until it closes."""
        player = entrant.player
        try:
            await wait_unless(entrant.assigned.wait, player.reader_done.wait, entrant.done.wait)
            if not entrant.assigned.is_set():  # it closed while it waited, or was let go
                self._waiting.pop(entrant.seat, None)
                if entrant.name not in self.settings.builtins:
                    self._tell(Left(entrant.name, player.peer))
                return
            await entrant.done.wait()
        except BaseException:  # the server stops: its game says END/BYE first
            self._waiting.pop(entrant.seat, None)
            with trio.CancelScope(shield=True), trio.move_on_after(ABORT_GOODBYE + 1):
                if entrant.assigned.is_set():
                    await entrant.done.wait()
            raise

    # -- pairing -----------------------------------------------------------------------

    async def _pair_forever(self, nursery: trio.Nursery) -> None:
        while True:
            await self._refresh_ratings()
            await self._start_games(nursery)
            await trio.sleep(self.pairing_interval)

    async def _refresh_ratings(self) -> None:
        """The ratings from every finished game, computed in a thread if games ended."""
        if self._rated == len(self.games.outcomes):
            return
        games = list(self.games.outcomes)
        settings = self.settings
        self.ratings = await trio.to_thread.run_sync(
            fit_ratings, games, settings.anchor, settings.anchor_rating
        )
        self._rated = len(games)

    async def _start_games(self, nursery: trio.Nursery) -> None:
        """One pairing round: the games :func:`pair` gives, as many as there is room for.
        A bot that arrives while the store is read waits for the next round."""
        if self.concurrency - self._in_progress <= 0 or not self._waiting:
            return
        names = {entrant.name for entrant in self._waiting.values()}
        owed, recent = await self._store.run(_pairing_facts, self.store, names)
        room = self.concurrency - self._in_progress
        waiting = [
            Waiting(entrant.seat, entrant.name, self.rating_of(entrant.name), entrant.since)
            for entrant in self._waiting.values()
            if entrant.name in recent
        ]
        if not waiting:
            return
        builtins = [Builtin(name, self.rating_of(name)) for name in self.settings.builtins]
        matches = pair(
            waiting,
            now=trio.current_time(),
            patience=self.settings.patience,
            builtins=builtins,
            owed=owed,
            recent=recent,
        )
        for match in matches[:room]:
            sides = [
                self._waiting.pop(side.seat) if isinstance(side, Waiting) else side.player
                for side in (match.vampires, match.werewolves)
            ]
            self._in_progress += 1
            nursery.start_soon(self._play_match, match, sides[0], sides[1])

    # -- games -------------------------------------------------------------------------

    async def _play_match(
        self, match: Match, vampires: Entrant | str, werewolves: Entrant | str
    ) -> None:
        """A game of ``match``: its built-in bot started if it has one, then played. A
        failure of ours ends this game (left playing, aborted at the next start), never the
        server."""
        try:
            async with trio.open_nursery() as nursery:
                sides = [
                    side if isinstance(side, Entrant) else await self.builtins.start(side, nursery)
                    for side in (vampires, werewolves)
                ]
                teams = [side for side in sides if side is not None]
                if len(teams) == 2 and not any(t.player.reader_done.is_set() for t in teams):
                    await self.games.play(match, teams[0], teams[1])
                else:  # a bot left, or a built-in bot did not come: the others wait again
                    for entrant in teams:
                        self._wait_again(entrant)
                nursery.cancel_scope.cancel()
        except Exception:
            log.exception("a ladder game failed")
            for side in (vampires, werewolves):
                if isinstance(side, Entrant):
                    side.done.set()
        finally:
            self._in_progress -= 1

    def _wait_again(self, entrant: Entrant) -> None:
        if entrant.name in self.settings.builtins or entrant.player.reader_done.is_set():
            entrant.done.set()
        else:
            self._waiting[entrant.seat] = entrant


def _pairing_facts(
    store: LadderStore, names: set[str]
) -> tuple[list[ReturnLeg], dict[str, list[str]]]:
    """What a pairing round reads of the store (in its thread): the return games owed, and
    the latest opponents of each of ``names``."""
    owed = [ReturnLeg(p.id, *p.sides(2)) for p in store.owed_return_legs()]
    recent = {name: store.recent_opponents(name, RECENT_OPPONENTS) for name in names}
    return owed, recent
