"""The bots' protocol client on trio: NME, keep the board from MAP/UPD, answer every UPD in time.

A bot author writes one :class:`agents.base.Agent`; :func:`play` (TCP) or :func:`play_on`
(any trio stream) does the rest, as a real bot must:

- the board is kept by a :class:`protocol.session.ClientSession` from what the server sends
  (MAP, then the changed cells of each UPD): the species is the kind standing on the HME
  cell in MAP, and ``state.to_move`` is always the bot's own species;
- the agent thinks in a worker thread, so the connection stays served; its deadline is the
  ``time.monotonic()`` at which the UPD arrived plus ``time_budget``;
- if the agent raises, returns an illegal or empty ply, or is still thinking at the deadline,
  a legal random ply is sent instead (a *fallback*): never a late or an illegal ply. An agent
  still busy with an abandoned computation is not asked again until it is done. Each
  fallback is logged, counted in the :class:`Summary` and, when the environment names a
  file in :data:`FALLBACKS_VARIABLE` (``vvw match`` and ``vvw check-bot`` do), noted there
  as one line, so whoever runs the bot can count the plies that were not its own;
- the server is read all the time: if it sends anything after an UPD before the reply is
  ready (a server that skipped the turn, on a machine too busy to answer in time), that
  reply is not sent, since the server would take it as the answer to its next UPD;
- with no creature of its own left but asked to move (a server that did not end the game),
  the client sends nothing: ``MOV 0`` would be an illegal ply, a missing MOV only skips the
  turn;
- END ends a game, SET on the same connection starts another (``new_game`` is called again),
  BYE or the server closing ends the connection.

``new_game`` is called in the worker thread too, without a time limit: keep it quick.
"""

import contextlib
import logging
import math
import os
import random
import time
from collections.abc import Callable
from typing import Any

import attrs
import trio

from agents.base import Agent
from engine import GameState, Kind, MalformedPly, Ply, as_ply, find_violation
from engine.movegen import group_moves, random_ply
from protocol.codec import FROM_SERVER, Decoder, Message, Mov, Nme, ProtocolError, encode
from protocol.session import ClientSession, GameOver, GameStarted, Goodbye, YourTurn

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5555
DEFAULT_TIME_BUDGET = 1.8
"""Seconds per reply: the course server allows 2 s; the rest is a margin for the network."""
RECONNECT_TIME = 10.0
"""Seconds to keep trying to reconnect to a server that restarts between games."""
RECONNECT_INTERVAL = 0.2
FALLBACKS_VARIABLE = "VVW_FALLBACKS"
"""The environment variable naming a file to which each fallback adds a line (the bot's
name and why); ``server.processes`` sets it for every bot it starts."""


@attrs.define
class Summary:
    """What happened on the connection(s) of one :func:`play` or :func:`play_on` call."""

    games: int = 0
    """Games that ended with END."""
    replies: int = 0
    """MOV messages sent."""
    fallbacks: int = 0
    """Replies that were the fallback ply (the agent failed, was late or illegal)."""
    skipped: int = 0
    """UPDs left unanswered because the bot had no creature left."""
    overtaken: int = 0
    """UPDs left unanswered because the server had sent more before the reply was ready:
    it had moved on (skipped the turn), and a MOV then would answer a later UPD."""
    slowest: float = 0.0
    """Longest time in seconds from an UPD's arrival to its MOV being sent."""

    def __str__(self) -> str:
        return (
            f"{self.games} game{'' if self.games == 1 else 's'},"
            f" {self.replies} repl{'y' if self.replies == 1 else 'ies'}"
            f" ({self.fallbacks} fallback{'' if self.fallbacks == 1 else 's'}),"
            f" slowest reply {self.slowest:.3f} s"
        )


def fallback_ply(state: GameState, rng: random.Random) -> Ply:
    """A legal random ply for ``state.to_move``; ``()`` only when it has no creatures."""
    ply = random_ply(state, rng)
    if ply and find_violation(state, ply) is None:
        return ply
    for move in group_moves(state):
        if find_violation(state, (move,)) is None:
            return (move,)
    return ()


def note_fallback(why: str) -> None:
    """Add a line to the file :data:`FALLBACKS_VARIABLE` names, if it names one."""
    path = os.environ.get(FALLBACKS_VARIABLE)
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as notes:
            notes.write(" ".join(why.split()) + "\n")
    except OSError as error:  # the bot plays on: the count is a help, not the game
        log.warning("cannot note the fallback in %s: %s", path, error)


def _judged(done: bool, answer: object, state: GameState) -> tuple[Ply | None, str]:
    """The agent's answer as the ply to send, or ``None`` and why a fallback goes instead."""
    if not done:
        return None, "is late"
    if isinstance(answer, BaseException):
        return None, f"failed ({answer!r})"
    try:
        ply = as_ply(answer)
    except MalformedPly as error:
        return None, f"chose {answer!r}: {error}"
    violation = find_violation(state, ply)
    if violation is not None:
        return None, f"chose {answer!r} ({violation})"
    return ply, ""


class _Thinker:
    """Runs the agent in one worker thread at a time; remembers a computation left running."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.idle = trio.Event()
        self.idle.set()

    async def run(self, work: Callable[[], object], until: float | None) -> tuple[bool, object]:
        """``(True, result)`` of ``work()`` in a thread, ``(False, None)`` if not done by ``until``.

        ``until`` is in trio time (``None``: no limit). A computation still running at
        ``until`` is abandoned; the next call waits for it to finish, within its own limit.
        """
        with trio.move_on_at(until if until is not None else float("inf")):
            await self.idle.wait()
            # Past the limit already: give up here, before ``idle`` is replaced; once it
            # is, the thread must start, or nothing would ever set it again.
            await trio.lowlevel.checkpoint_if_cancelled()
            token = trio.lowlevel.current_trio_token()
            done = trio.Event()
            self.idle = done

            def in_thread() -> object:
                try:
                    return work()
                finally:
                    with contextlib.suppress(trio.RunFinishedError):
                        token.run_sync_soon(done.set)

            return True, await trio.to_thread.run_sync(in_thread, abandon_on_cancel=True)
        return False, None


@attrs.define
class _Connection:
    """One connection's conversation: the server's messages in (kept by a
    :class:`ClientSession`), the agent's MOVs out."""

    stream: trio.abc.Stream
    agent: Agent
    time_budget: float
    games: int | None
    rng: random.Random
    summary: Summary
    thinker: _Thinker
    on_game_over: Callable[[GameState, Summary], None] | None = None
    session: ClientSession = attrs.field(factory=ClientSession)
    send_failed: str = ""
    """Why a MOV could not be sent ('' while sending works): nothing is sent any more, and
    how the connection ended, as read, decides what that was (:func:`_converse`)."""

    async def handle(
        self, message: Message, arrived: tuple[float, float], overtaken: Callable[[], bool]
    ) -> bool:
        """Act on one message; ``False`` once the connection should end.

        ``overtaken()`` tells whether the server has sent more since ``message``.
        """
        match self.session.receive(message):
            case GameStarted(species, state):
                await self._start(species, state)
            case YourTurn(state):
                await self._reply(state, arrived, overtaken)
            case GameOver(state):
                self.summary.games += 1
                log.info("game over (%d played)", self.summary.games)
                if self.on_game_over is not None:
                    self.on_game_over(state, self.summary)
                if self.games is not None and self.summary.games >= self.games:
                    return False
            case Goodbye():
                return False
        return True

    async def _start(self, species: Kind, state: GameState) -> None:
        log.info("new game: %s on %d × %d", species.name.lower(), state.rows, state.cols)
        try:
            await self.thinker.run(lambda: self.agent.new_game(species, state), None)
        except Exception as error:  # the bot's own code: report it and play on
            log.warning("%s: new_game raised %r; playing on", self.agent.name, error)

    async def _reply(
        self, state: GameState, arrived: tuple[float, float], overtaken: Callable[[], bool]
    ) -> None:
        if self.send_failed:
            return
        if not state.total(state.to_move):
            log.warning("asked to move with no creature left: no MOV sent (the turn is skipped)")
            self.summary.skipped += 1
            return
        if overtaken():  # already behind: think about the newest UPD instead
            self.summary.overtaken += 1
            return
        arrived_trio, arrived_monotonic = arrived
        deadline = arrived_monotonic + self.time_budget
        done, answer = await self._think(state, deadline, arrived_trio + self.time_budget)
        if overtaken():
            # The server sent more while we thought: it skipped this turn (or ended the
            # game). A MOV now would be taken as the answer to its next UPD: illegal there.
            log.warning("%s replied after the server had moved on: no MOV sent", self.agent.name)
            self.summary.overtaken += 1
            return
        ply, why = _judged(done, answer, state)
        if ply is None:
            log.warning("%s %s: sending a fallback ply", self.agent.name, why)
            ply = fallback_ply(state, self.rng)
            self.summary.fallbacks += 1
            note_fallback(f"{self.agent.name} {why}")
        try:
            await self.stream.send_all(encode(Mov(tuple((*move,) for move in ply))))
        except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
            self.send_failed = f"a MOV could not be sent ({error or type(error).__name__})"
            log.warning("%s", self.send_failed)
            return
        self.summary.replies += 1
        self.summary.slowest = max(self.summary.slowest, trio.current_time() - arrived_trio)

    async def _think(self, state: GameState, deadline: float, until: float) -> tuple[bool, object]:
        agent = self.agent

        def choose() -> object:
            try:
                return agent.choose_ply(state, deadline)
            except Exception as error:  # the agent's bug must not end the game
                return error

        return await self.thinker.run(choose, until)


class TurnedAway(ConnectionError):
    """The server ended the connection before sending anything: a game was being played,
    or too many connections were waiting for their NME."""

    def __init__(self, how: str) -> None:
        super().__init__(f"turned away by the server before a game: {how}")


class ConnectionLost(ConnectionError):
    """The connection broke after the server had spoken: a reset, or a write that failed
    and was not explained by the server closing (``str()`` says how)."""


async def play_on(
    stream: trio.abc.Stream,
    agent: Agent,
    *,
    name: str | None = None,
    time_budget: float = DEFAULT_TIME_BUDGET,
    games: int | None = None,
    seed: int | None = None,
    summary: Summary | None = None,
    on_game_over: Callable[[GameState, Summary], None] | None = None,
) -> Summary:
    """Play on one open connection until BYE, the server closing, or ``games`` games ended.

    Sends NME first (``name``, else ``agent.name``; at most 255 bytes). At each END,
    ``on_game_over`` is given the game's last board (its ``to_move`` the bot's side) and the
    summary so far (END says nothing of who won: the board tells who was ahead). The server closing
    the connection ends the call normally, at any moment after its first byte (a warning is
    logged if a game was going on). Raises :class:`ProtocolError` if the server sends bytes
    that are not valid messages, :class:`SessionError` if it sends messages that contradict
    the game (an UPD before MAP…), :class:`TurnedAway` if the server ends the connection
    before sending anything, and :class:`ConnectionLost` if the connection breaks after that
    (a reset; a MOV that cannot be sent, unless the server is then seen to have closed):
    both are ``ConnectionError``, an ``OSError``. Nothing else, whatever the server sends or
    does. The stream is not closed here.
    """
    summary = summary if summary is not None else Summary()
    decoder = Decoder(FROM_SERVER)
    connection = _Connection(
        stream,
        agent,
        time_budget,
        games,
        random.Random(seed),
        summary,
        _Thinker(agent),
        on_game_over,
    )
    label = (name if name is not None else agent.name).encode()[:255]
    try:
        await stream.send_all(encode(Nme(label)))
    except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
        raise TurnedAway(f"the connection broke ({error or type(error).__name__})") from None
    # One task reads the server all the time, so a reply can see that the server has moved
    # on while the agent thought; this one answers, message by message.
    send, receive = trio.open_memory_channel[_Received](math.inf)
    failure: Exception | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_read_server, stream, decoder, send)
        try:
            await _converse(connection, receive, decoder)
        except Exception as error:  # raised below, outside the nursery (no exception group)
            failure = error
        nursery.cancel_scope.cancel()
    if failure is not None:
        raise failure
    return summary


_Received = tuple[Message, tuple[float, float]] | Exception | None
"""A message with its arrival times, a failure of the connection, or ``None`` at its end."""


async def _read_server(
    stream: trio.abc.Stream, decoder: Decoder, send: trio.MemorySendChannel[_Received]
) -> None:
    """Feed everything the server sends, decoded, to ``send``; then its end or failure."""
    try:
        while data := await stream.receive_some():
            arrived = (trio.current_time(), time.monotonic())
            for message in decoder.feed(data):
                send.send_nowait((message, arrived))
        decoder.close()
        send.send_nowait(None)
    except (ProtocolError, trio.BrokenResourceError, trio.ClosedResourceError) as error:
        send.send_nowait(error)


async def _converse(
    connection: _Connection, receive: trio.MemoryReceiveChannel[_Received], decoder: Decoder
) -> None:
    """Act on the server's messages in order until the connection should end."""

    def overtaken() -> bool:
        return receive.statistics().current_buffer_used > 0

    async for item in receive:
        if isinstance(item, trio.BrokenResourceError | trio.ClosedResourceError):
            how = f"the connection broke ({item or type(item).__name__})"
            if not decoder.offset:
                raise TurnedAway(how)
            raise ConnectionLost(
                f"{how} after {connection.send_failed}" if connection.send_failed else how
            )
        if isinstance(item, Exception):
            raise item
        if item is None:
            if not decoder.offset:
                raise TurnedAway("the server closed the connection without a word")
            if connection.session.in_game:
                log.warning("the server closed the connection during a game")
            return
        message, arrived = item
        if not await connection.handle(message, arrived, overtaken):
            return


async def play(
    agent: Agent,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    name: str | None = None,
    time_budget: float = DEFAULT_TIME_BUDGET,
    games: int | None = None,
    seed: int | None = None,
    wrap_stream: Callable[[trio.abc.Stream, int], trio.abc.Stream] | None = None,
    on_game_over: Callable[[GameState, Summary], None] | None = None,
) -> Summary:
    """Connect over TCP and play; ``OSError`` if the server cannot be reached.

    ``games=None`` plays what one connection offers. ``games=N`` plays N games, connecting
    again (for up to :data:`RECONNECT_TIME` seconds) when the server closes the connection
    after a finished game, as the course server's auto-restart expects; a connection the
    server turns away meanwhile (ours, still ending the last game) is tried again within
    that time. ``wrap_stream``
    is given each new connection and the number of games played before it, and returns the
    stream to play on (``vvw agent --transcript`` writes the traffic down so:
    :func:`vvw.watching.recording`); ``on_game_over`` is :func:`play_on`'s. Raises what
    :func:`play_on` raises.
    """
    summary = Summary()
    first = True
    until = math.inf
    """Until when a restarting server is waited for (after a game: RECONNECT_TIME more)."""
    while games is None or summary.games < games:
        before = summary.games
        connection = await (_connect(host, port) if first else _reconnect(host, port, until))
        if connection is None:
            break
        stream: trio.abc.Stream = connection
        if wrap_stream is not None:
            stream = wrap_stream(stream, summary.games)
        async with stream:
            try:
                await play_on(
                    stream,
                    agent,
                    name=name,
                    time_budget=time_budget,
                    games=None if games is None else games - summary.games,
                    seed=seed,
                    summary=summary,
                    on_game_over=on_game_over,
                )
            except TurnedAway as error:
                if first:
                    raise
                log.info("%s; trying again", error)  # the server was still ending a game
                await trio.sleep(RECONNECT_INTERVAL)
                continue
        first = False
        if games is None or summary.games == before:
            break
        until = trio.current_time() + RECONNECT_TIME
    log.info("done: %s", summary)
    return summary


async def _connect(host: str, port: int) -> trio.SocketStream:
    """A connection, or ``OSError("cannot connect to HOST:PORT: <reason>")``."""
    try:
        return await trio.open_tcp_stream(host, port)
    except OSError as error:
        reason: BaseException = error
        while isinstance(reason.__cause__, BaseExceptionGroup | OSError):
            cause = reason.__cause__
            reason = cause.exceptions[0] if isinstance(cause, BaseExceptionGroup) else cause
        errno = getattr(reason, "errno", None)
        if isinstance(errno, int) and errno > 0:
            text = os.strerror(errno)
        else:
            text = getattr(reason, "strerror", None) or str(reason)
        raise OSError(f"cannot connect to {host}:{port}: {text}") from error


async def _reconnect(host: str, port: int, until: float) -> trio.SocketStream | None:
    """Connect again to a restarting server; ``None`` if it does not listen by ``until``
    (trio time)."""
    with trio.move_on_at(until):
        while True:
            try:
                return await trio.open_tcp_stream(host, port)
            except OSError:
                await trio.sleep(RECONNECT_INTERVAL)
    log.info("the server did not listen again within %g s", RECONNECT_TIME)
    return None


def play_blocking(
    agent: Agent, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, **options: Any
) -> Summary:
    """:func:`play` for synchronous callers (``python -m agents``): runs its own trio loop."""
    return trio.run(lambda: play(agent, host, port, **options))
