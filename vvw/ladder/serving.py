"""The ladder's server: the course protocol on one port, the teams' bots paired and played.

Any course-compatible bot connects to :meth:`LadderServer.serve`'s port and presents its
team's credentials as its ``NME`` (``ladder:TEAM:TOKEN``, which ``vvw ladder join`` writes
for it). Each connection's life (:meth:`LadderServer._connection`):

1. refused unread while its address is slowed down for failed logins
   (:class:`~vvw.ladder.limiter.FailureLimiter`);
2. admitted as ``vvw serve`` admits (:class:`server.lobby.Admissions`: a few at once
   waiting for their ``NME``, a silent one dropped after the connect time, the oldest
   giving way in a flood); a connection dropped so counts as a failed login;
3. refused, and counted as a failed login, unless its ``NME`` is a team's credentials;
   refused if the team has all its connections open already;
4. waiting until a pairing round gives it a game, which it then plays to its end; a
   connection that closes while it waits just leaves.

Every :data:`PAIRING_INTERVAL` seconds a round calls :func:`vvw.ladder.pairing.pair` with
the bots waiting, the return games owed and the latest opponents, and starts the games it
gives, most urgent first, up to ``concurrency`` at once. A built-in bot's game starts its
process (``vvw agent``), which connects to a loopback port of its own with a name made for
that one game. Games are played by the server's own parts (:func:`server.lobby.greet`,
:func:`server.serving.play_seated`), each transcript kept in the folder beside the
ladder, each end written to the store in one transaction. A game stopped by the server's
stop is recorded as aborted; one left playing by a killed server is aborted when it
starts again (:meth:`~vvw.ladder.store.LadderStore.abort_interrupted`, by the command).

With ``analyse``, each finished game is analysed in the background
(:mod:`vvw.ladder.analysing`), its analysis written beside its transcript.

Everything is told, typed and in order, to the ``events`` sink: the server's events
(:mod:`server.events`: ``Dropped``, ``Seated``, ``GameBegun``, ``TranscriptLine``,
``GameEnded``) and the ladder's (:class:`Joined`, :class:`Refused`, :class:`Left`,
:class:`~vvw.ladder.analysing.Analysed`). A token is never told, logged or written: a
connection's name is its team's from the moment its ``NME`` is read, and its ``NME`` is
written in the transcript with the team's name alone (:meth:`LadderServer._frame`).
"""

import contextlib
import itertools
import logging
import secrets
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from engine.mapfile import GameMap
from protocol.codec import Bye, End, Message, Nme, encode
from protocol.records import Direction
from server.events import GameBegun, GameEnded, Seated, ServerEvent, TranscriptLine
from server.lobby import Admissions, connected, greet
from server.player import Player, SendFailed
from server.processes import await_exit, start_bot, stop_bot
from server.race import wait_unless
from server.referee import ABORT_GOODBYE
from server.serving import TranscriptKeeper, Transcripts, play_seated
from server.table import Seats
from server.transcript import FrameRecorder
from vvw.bots import bot_command
from vvw.ladder.analysing import Analysed, Analyses
from vvw.ladder.credentials import CredentialsError, parse_credentials
from vvw.ladder.limiter import FailureLimiter
from vvw.ladder.notes import note_of, refusal_note
from vvw.ladder.pairing import Builtin, Match, ReturnLeg, Waiting, pair
from vvw.ladder.ratings import Outcome, Rating, fit_ratings
from vvw.ladder.refusals import Refusal
from vvw.ladder.schema import transcripts_folder
from vvw.ladder.store import LadderStore
from vvw.ladder.stored import Pairing, StoredGame
from vvw.ladder.storethread import StoreThread
from vvw.ladder.tables import outcomes

log = logging.getLogger(__name__)

PAIRING_INTERVAL = 2.0
"""Seconds between pairing rounds: the bots that arrive meanwhile are paired together."""
RECENT_OPPONENTS = 5
"""Latest opponents of a team that the pairing avoids meeting again."""
BUILTIN_CONNECT_TIME = 30.0
"""Seconds a built-in bot's process has to start and connect."""
BUILTIN_EXIT_GRACE = 2.0
"""Seconds a built-in bot has to exit by itself after its game before it is ended."""
BUILTIN_STEP = 200.0
"""Rating points between two built-in bots next to each other in the list, until they play."""
NOTE_TIME = 2.0
"""Seconds to send a relay its game's note (:mod:`vvw.ladder.notes`)."""


@attrs.frozen
class Refused:
    """A connection refused before any game; ``team`` is the one its ``NME`` named."""

    peer: str
    refusal: Refusal
    team: str | None = None


@attrs.frozen
class Joined:
    """A team's connection was admitted: it waits for a game."""

    team: str
    peer: str


@attrs.frozen
class Left:
    """A team's connection closed while it waited (no game lost)."""

    team: str
    peer: str


LadderEvent = ServerEvent | Joined | Refused | Left | Analysed
LadderSink = Callable[[LadderEvent], None]


async def _tell_refusal(player: Player, refusal: Refusal) -> None:
    """Tell ``vvw ladder join``'s relay why it is refused: ``BYE`` (its bot stops), then
    the refusal's note (:func:`vvw.ladder.notes.refusal_note`)."""
    with trio.move_on_after(NOTE_TIME):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            note = refusal_note(refusal)
            await player.stream.send_all(encode(Bye()) + note)


@attrs.define(eq=False)
class Entrant:
    """A connection that plays for a team or a built-in bot, from its admission to the
    end of its game."""

    seat: int
    name: str
    player: Player
    since: float
    """When it began to wait (trio's clock)."""
    relay: bool = False
    """Whether it is ``vvw ladder join``'s relay, which reads a note after its game."""
    assigned: trio.Event = attrs.field(factory=trio.Event)
    """Set when its game begins: from then on its connection is held until ``done``."""
    done: trio.Event = attrs.field(factory=trio.Event)


@attrs.define(eq=False)
class _Expected:
    """A built-in bot's process on its way: its connection once it has come."""

    builtin: str
    arrived: trio.Event = attrs.field(factory=trio.Event)
    entrant: Entrant | None = None


def _peer(stream: trio.SocketStream) -> str:
    try:
        return "{}:{}".format(*stream.socket.getpeername()[:2])
    except OSError:
        return "?"


def _address(peer: str) -> str:
    """The address of ``peer`` (``host:port``): failed logins are counted per address."""
    return peer.rpartition(":")[0] or peer


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
        self.limiter = FailureLimiter(clock=trio.current_time) if limiter is None else limiter
        self.version = 0
        """Counts the changes the pages show: a team joined or left, a game began or ended."""
        self.ratings: dict[str, Rating] = {}
        """The latest ratings, from every finished game (refreshed before each pairing)."""
        self._listeners = [self._record, *([events] if events is not None else [])]
        self._seats = itertools.count(1)
        self._waiting: dict[int, Entrant] = {}
        self._connections: Counter[str] = Counter()
        self._expected: dict[str, _Expected] = {}
        self._games = 0
        self._outcomes: list[Outcome] = outcomes(store.snapshot().games)
        self._rated = -1
        """How many outcomes :attr:`ratings` were computed from."""
        self._recorder = FrameRecorder()
        self._admissions = Admissions()
        self._builtin_admissions = Admissions()
        self._builtin_port = 0
        self._logs = Path(tempfile.gettempdir())
        folder = transcripts_folder(store.path)
        self._analyses = None if analyse is None else Analyses(self._tell, analyse)
        self._keeper = TranscriptKeeper(
            Transcripts(folder, keep_all=True, lines=True), folder, self._tell
        )

    @property
    def online(self) -> frozenset[str]:
        """The teams with a connection open now."""
        return frozenset(team for team, count in self._connections.items() if count)

    @property
    def playing(self) -> int:
        """Games being played now (or waiting for their built-in bot's process)."""
        return self._games

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

    async def _finished(self, ended: GameEnded) -> None:
        """A game's end: written to the store in one transaction (off the event loop), then
        counted in the ratings, given to the analyses and told."""
        game = await self._store.run(_write_end, self.store, ended)
        self._outcomes.extend(outcomes([game]))
        if self._analyses is not None and game.rated and ended.transcript is not None:
            self._analyses.add(game.id, ended.transcript)
        self._tell(ended)

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
        self._builtin_port = builtins[0].socket.getsockname()[1]
        with tempfile.TemporaryDirectory(prefix="vvw-ladder-") as logs:
            self._logs = Path(logs)
            async with trio.open_nursery() as nursery:
                await nursery.start(trio.serve_listeners, _guarded(self._connection), listeners)
                await nursery.start(
                    trio.serve_listeners, _guarded(self._builtin_connection), builtins
                )
                nursery.start_soon(self._pair_forever, nursery)
                if self._analyses is not None:
                    nursery.start_soon(self._analyses.run)
                task_status.started(listeners[0].socket.getsockname()[1])

    def _frame(
        self, player: Player, direction: Direction, message: Message | None, raw: bytes
    ) -> None:
        """A frame of a team's connection to its transcript, its ``NME`` with the team's
        name in place of the credentials."""
        if isinstance(message, Nme):
            try:
                team = parse_credentials(message.name).team
            except CredentialsError:
                team = ""  # never seated: this frame is never written
            message = Nme(team.encode())
            raw = encode(message)
        self._recorder(player, direction, message, raw)

    async def _connection(self, stream: trio.SocketStream) -> None:
        peer = _peer(stream)
        address = _address(peer)
        if self.limiter.wait(address) > 0:
            await trio.aclose_forcefully(stream)
            self._tell(Refused(peer, Refusal.SLOWED))
            return
        async with connected(stream, peer, on_frame=self._frame) as player:
            dropped = await self._admissions.admit(player, self.settings.game.connect_time)
            credentials = player.name
            player.name = ""  # the token is never shown, whatever comes next
            if dropped is not None:
                self.limiter.failed(address)
                self._tell(dropped)
                return
            team, relay, refusal = await self._check(credentials)
            if refusal is not None or team is None:
                if (refusal or Refusal.NOT_CREDENTIALS).failed_login:
                    self.limiter.failed(address)
                self._tell(Refused(peer, refusal or Refusal.NOT_CREDENTIALS, team))
                if relay:
                    await _tell_refusal(player, refusal or Refusal.NOT_CREDENTIALS)
                return
            self.limiter.succeeded(address)
            player.name = team
            self._connections[team] += 1
            try:
                entrant = Entrant(next(self._seats), team, player, trio.current_time(), relay)
                self._waiting[entrant.seat] = entrant
                self._tell(Joined(team, peer))
                await self._hold(entrant)
            finally:
                self._connections[team] -= 1
                self.version += 1

    async def _check(self, name: str) -> tuple[str | None, bool, Refusal | None]:
        """The team whose credentials ``name`` (an ``NME``'s) presents and whether a relay
        presents them, or why it is refused."""
        try:
            credentials = parse_credentials(name.encode())
        except CredentialsError:
            return None, False, Refusal.NOT_CREDENTIALS
        team, relay = credentials.team, credentials.relay
        refusal = await self._store.run(self.store.authenticate, credentials)
        if refusal is not None:
            return team, relay, refusal
        team = await self._store.run(self.store.canonical_name, team)
        if self._connections[team] >= self.settings.team_connections:
            return team, relay, Refusal.TEAM_FULL
        return team, relay, None

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

    async def _builtin_connection(self, stream: trio.SocketStream) -> None:
        """A built-in bot's process connecting for the game it was started for."""
        async with connected(stream, _peer(stream), on_frame=self._recorder) as player:
            connect_time = self.settings.game.connect_time
            if await self._builtin_admissions.admit(player, connect_time) is not None:
                return
            expected = self._expected.pop(player.name, None)
            if expected is None:
                log.warning("a connection to the built-in bots' port named no game")
                return
            player.name = expected.builtin
            entrant = Entrant(next(self._seats), expected.builtin, player, trio.current_time())
            expected.entrant = entrant
            expected.arrived.set()
            await self._hold(entrant)

    # -- pairing -----------------------------------------------------------------------

    async def _pair_forever(self, nursery: trio.Nursery) -> None:
        while True:
            await self._refresh_ratings()
            await self._start_games(nursery)
            await trio.sleep(self.pairing_interval)

    async def _refresh_ratings(self) -> None:
        """The ratings from every finished game, computed in a thread if games ended."""
        if self._rated == len(self._outcomes):
            return
        games = list(self._outcomes)
        settings = self.settings
        self.ratings = await trio.to_thread.run_sync(
            fit_ratings, games, settings.anchor, settings.anchor_rating
        )
        self._rated = len(games)

    async def _start_games(self, nursery: trio.Nursery) -> None:
        """One pairing round: the games :func:`pair` gives, as many as there is room for.
        A bot that arrives while the store is read waits for the next round."""
        if self.concurrency - self._games <= 0 or not self._waiting:
            return
        names = {entrant.name for entrant in self._waiting.values()}
        owed, recent = await self._store.run(_pairing_facts, self.store, names)
        room = self.concurrency - self._games
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
            self._games += 1
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
                    side if isinstance(side, Entrant) else await self._start_builtin(side, nursery)
                    for side in (vampires, werewolves)
                ]
                teams = [side for side in sides if side is not None]
                if len(teams) == 2 and not any(t.player.reader_done.is_set() for t in teams):
                    await self._play(match, teams[0], teams[1])
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
            self._games -= 1

    def _wait_again(self, entrant: Entrant) -> None:
        if entrant.name in self.settings.builtins or entrant.player.reader_done.is_set():
            entrant.done.set()
        else:
            self._waiting[entrant.seat] = entrant

    async def _start_builtin(self, builtin: str, nursery: trio.Nursery) -> Entrant | None:
        """Start the process of the built-in bot ``builtin`` (ended when ``nursery`` is)
        and wait until it has connected; ``None`` if it could not."""
        name = f"{builtin}-{secrets.token_hex(6)}"
        expected = _Expected(builtin)
        self._expected[name] = expected
        argv = bot_command(
            builtin,
            "127.0.0.1",
            self._builtin_port,
            name=name,
            move_time=self.settings.game.move_time,
        )
        try:
            bot = await start_bot(name, argv, self._logs)
        except OSError as error:
            log.error("the built-in bot %s cannot start: %s", builtin, error)
            del self._expected[name]
            return None

        async def run() -> None:
            try:
                await trio.sleep_forever()
            finally:
                await await_exit(bot, BUILTIN_EXIT_GRACE)
                await stop_bot(bot)
                for path in (bot.stdout_path, bot.stderr_path):
                    path.unlink(missing_ok=True)

        nursery.start_soon(run)
        with trio.move_on_after(BUILTIN_CONNECT_TIME):
            await wait_unless(expected.arrived.wait, bot.wait)
        self._expected.pop(name, None)
        if expected.entrant is None:
            log.error(
                "the built-in bot %s did not connect (exit code %s): %s",
                builtin,
                bot.exit_code,
                bot.stderr_tail(),
            )
        return expected.entrant

    async def _pairing_of(
        self, match: Match, vampires: Entrant, werewolves: Entrant
    ) -> tuple[Pairing, int]:
        """The pairing and leg ``match`` plays: a return game's, or a new pairing's first."""
        if match.return_of is not None:
            return await self._store.run(self.store.pairing, match.return_of), 2
        return await self._store.run(self.store.new_pairing, vampires.name, werewolves.name), 1

    async def _play(self, match: Match, vampires: Entrant, werewolves: Entrant) -> None:
        """Greet both and play the game: recorded as it begins and as it ends (an aborted
        game's end too, before the server stops: :meth:`_finished`)."""
        pairing, leg = await self._pairing_of(match, vampires, werewolves)
        game = await self._store.run(self.store.begin_game, pairing.id, leg)
        for entrant, species in ((vampires, Kind.VAMPIRES), (werewolves, Kind.WEREWOLVES)):
            entrant.player.species = species
            entrant.assigned.set()
        ended: list[GameEnded] = []
        try:
            try:
                await self._greet_and_play(game.id, pairing, (vampires, werewolves), ended)
            finally:
                for event in ended:  # written even when the server stops (shielded)
                    await self._finished(event)
            await self._send_notes(game.id, (vampires, werewolves))
        finally:
            vampires.done.set()
            werewolves.done.set()

    async def _greet_and_play(
        self,
        number: int,
        pairing: Pairing,
        entrants: tuple[Entrant, Entrant],
        ended: list[GameEnded],
    ) -> None:
        """Greet both and play game ``number``; its end put in ``ended``, for :meth:`_play`
        to write before it is told."""
        players = [entrant.player for entrant in entrants]
        game_map = self.settings.map_of(pairing.id).game_map
        for player in players:
            try:
                await greet(player, game_map, species_of(player))
            except SendFailed as error:
                ended.append(_never_began(number, players, game_map, player, error))
                for other in players:
                    for message in (End(), Bye()):
                        await other.send_quietly(message)
                return
        for player in players:
            self._tell(Seated(species_of(player), player.name, player.peer))
        seats = Seats(players=players)
        seats.full.set()
        settings = attrs.evolve(self.settings.game, seed=pairing.battle_seed)

        def hold_the_end(event: ServerEvent) -> None:
            if isinstance(event, GameEnded):
                ended.append(event)
            else:
                self._tell(event)

        keeper = TranscriptKeeper(self._keeper.transcripts, self._keeper.folder, hold_the_end)
        await play_seated(number, seats, game_map, settings, keeper, self._recorder)

    async def _send_notes(self, number: int, entrants: tuple[Entrant, Entrant]) -> None:
        """Tell the relays among ``entrants`` how game ``number`` ended (after its BYE)."""
        game = await self._store.run(self.store.game, number)
        for entrant in entrants:
            if entrant.relay:
                gone = (trio.BrokenResourceError, trio.ClosedResourceError)
                with trio.move_on_after(NOTE_TIME), contextlib.suppress(*gone):
                    await entrant.player.stream.send_all(note_of(game, entrant.name))


def _write_end(store: LadderStore, ended: GameEnded) -> StoredGame:
    """Write the end of a game in one transaction (in the store's thread); the game."""
    transcript = None if ended.transcript is None else ended.transcript.name
    store.finish_game(ended.number, ended.result, transcript)
    return store.game(ended.number)


def _pairing_facts(
    store: LadderStore, names: set[str]
) -> tuple[list[ReturnLeg], dict[str, list[str]]]:
    """What a pairing round reads of the store (in its thread): the return games owed, and
    the latest opponents of each of ``names``."""
    owed = [ReturnLeg(p.id, *p.sides(2)) for p in store.owed_return_legs()]
    recent = {name: store.recent_opponents(name, RECENT_OPPONENTS) for name in names}
    return owed, recent


def species_of(player: Player) -> Kind:
    assert player.species is not None  # set before the greeting
    return player.species


def _never_began(
    number: int, players: list[Player], game_map: GameMap, gone: Player, error: SendFailed
) -> GameEnded:
    """The end of a game whose greeting could not reach ``gone``: aborted, never rated."""
    start = game_map.initial_state()
    vampires, werewolves = (
        PlayerRecord(species_of(p), p.name, start.total(species_of(p))) for p in players
    )
    detail = f"{gone.name} left before the game began ({error})"
    result = GameResult(
        None, Termination.ABORTED, detail, 0, vampires, werewolves, map_name=game_map.name
    )
    return GameEnded(number, result)
