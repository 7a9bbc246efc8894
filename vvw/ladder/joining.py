"""A team's bot on a ladder, game after game, through a relay that presents its credentials.

``vvw ladder join`` runs the team's bot once per game, as bots are run (one game per
connection; a bot exits after ``END``). :func:`play_once` starts it against a relay on a
loopback port of its own, reads its ``NME``, connects to the ladder, presents the team's
credentials as the ``NME`` instead, then relays every byte both ways unchanged: the bot
needs no change and never sees the token (nor do its command line and environment).

The relay watches the game as :class:`~protocol.watch.ConnectionWatch` sees it (the side,
the plies, the creatures at the end, a ply our referee would refuse, the longest reply)
and says what it saw. The course protocol tells a bot no result: a game that did not end
by elimination is reported with its counts, and the ladder's pages say how it was judged.

:func:`join` plays again and again. A connection refused before any game (a wrong token,
the team's connections all open, an address slowed down for failed logins) or a ladder
out of reach is tried again after a wait that doubles up to :data:`LONGEST_WAIT`; a bot
that cannot start, connect or send its ``NME`` stops it (:class:`BotFailed`).
"""

import contextlib
import itertools
import time
from collections.abc import Callable
from enum import Enum
from functools import partial
from pathlib import Path

import attrs
import trio

from engine import GameState, IllegalPly, Kind, opponent
from protocol.codec import (
    FROM_BOT,
    FROM_SERVER,
    Bye,
    Decoder,
    Nme,
    ProtocolError,
    encode,
    message_name,
)
from protocol.watch import Began, ConnectionWatch, Ended, Event, Played
from server.processes import BotProcess, await_exit, start_bot, stop_bot
from server.race import wait_unless
from vvw.errors import CommandError, UsageError
from vvw.ladder.credentials import Credentials, format_credentials
from vvw.ladder.notes import MAX_NOTE, Note, NoteError, read_note, read_refusal
from vvw.relaying import RECEIVE_SIZE, Feed, pump
from vvw.running.participants import Participant
from vvw.wording import plies

CONNECT_TIME = 30.0
"""Seconds the bot has to connect to the relay and send its ``NME``."""
EXIT_GRACE = 5.0
"""Seconds the bot has to exit by itself once its game is over, before it is ended."""
FIRST_WAIT = 1.0
LONGEST_WAIT = 60.0
"""Seconds between tries when the ladder refuses or cannot be reached, doubling up to this."""


class BotFailed(CommandError):
    """The bot could not play at all (start, connect, send its ``NME``); ``str()`` says
    why in one line (exit status 1, inside an exception group too)."""


@attrs.frozen
class GameSeen:
    """One connection's game as the relay saw it."""

    species: Kind
    plies: int
    ours: int
    """Our creatures on the last board the bot was shown (or played to)."""
    theirs: int
    over: bool
    """Whether the ladder said ``END`` (else the connection ended during the game)."""
    illegal: tuple[int, IllegalPly] | None = None
    """The first ply of ours our referee would refuse: its number and why."""
    longest_think: float = 0.0
    crash: str | None = None
    """How the bot's process ended, if it crashed."""
    note: Note | None = None
    """The ladder's word on the game, when it said it."""

    def describe(self) -> str:
        """One line: the ladder's note (``game 12 on thetrap as vampires against beta: won
        by elimination after 84 plies``), else what the relay saw; the longest reply."""
        side = self.species.name.lower()
        counts = f"{self.ours} of yours, {self.theirs} of theirs"
        think = f"; longest reply {self.longest_think:.2f} s"
        crash = "" if self.crash is None else f"; {self.crash}"
        if self.note is not None:
            return f"{self.note.describe()}{think}{crash}"
        if self.illegal is not None:
            number, violation = self.illegal
            return (
                f"a game as {side}: lost, your bot's ply {number} is illegal ({violation}),"
                f" after {plies(self.plies)}{think}{crash}"
            )
        if not self.over:
            return (
                f"a game as {side}: the connection ended during the game after {plies(self.plies)}"
                f" ({counts}): lost if your bot left, aborted if the ladder stopped{crash}"
            )
        if self.theirs == 0 and self.ours > 0:
            verdict = "won by elimination"
        elif self.ours == 0 and self.theirs > 0:
            verdict = "lost by elimination"
        else:
            verdict = "game over (the ladder's pages say who won and how)"
        return f"a game as {side}: {verdict} after {plies(self.plies)} ({counts}){think}{crash}"


class JoinRefused(UsageError):
    """The ladder refused the credentials for good (a wrong token, no such team); one line
    (exit status 2: the command cannot run as typed)."""


@attrs.frozen
class NoGame:
    """A connection that had no game, and why; ``final``: trying again cannot help (a
    wrong token: the command then ends)."""

    reason: str
    final: bool = False


@attrs.define
class Joining:
    """Where :func:`join` is: games played so far, and whether one is being played."""

    games: int = 0
    playing: bool = False


class End(Enum):
    """An end of the relayed connection."""

    BOT = "bot"
    LADDER = "ladder"


class _Sight:
    """What the watch of one connection showed: the side, the latest board, our plies."""

    def __init__(self, joining: Joining) -> None:
        self.joining = joining
        self.species: Kind | None = None
        self.state: GameState | None = None
        self.over = False
        self.illegal: tuple[int, IllegalPly] | None = None
        self.longest_think = 0.0
        self.ended = trio.Event()
        self.note: bytearray | None = None
        """The bytes after ``BYE`` (``None`` before it): the ladder's note."""
        self.first_to_close: End | None = None
        """Whose side of the connection ended first."""

    def closed(self, side: End) -> None:
        if self.first_to_close is None:
            self.first_to_close = side

    def see(self, events: list[Event]) -> None:
        for event in events:
            match event:
                case Began(species=species, state=state):
                    self.species, self.state = species, state
                    self.joining.playing = True
                case Played(ply_number=number, before=before, after=after, think=think):
                    self.state = after or before.with_ply(number)
                    self.longest_think = max(self.longest_think, think or 0.0)
                    if event.violation is not None and self.illegal is None:
                        self.illegal = (number, event.violation)
                case Ended(state=state):
                    self.state, self.over = state, True
                    self.joining.playing = False
                    self.ended.set()

    def result(self, crash: str | None) -> GameSeen | None:
        if self.species is None or self.state is None:
            return None
        try:
            note = None if self.note is None else read_note(bytes(self.note))
        except NoteError:
            note = None
        return GameSeen(
            self.species,
            self.state.ply,
            self.state.total(self.species),
            self.state.total(opponent(self.species)),
            self.over,
            self.illegal,
            self.longest_think,
            crash,
            note,
        )


async def _accept(listener: trio.SocketListener, bot: BotProcess) -> trio.SocketStream:
    """The bot's connection to the relay; :class:`BotFailed` if it does not come."""
    with trio.move_on_after(CONNECT_TIME):
        stream = await wait_unless(listener.accept, bot.wait)
        if stream is not None:
            return stream
        raise BotFailed(
            f"the bot exited with code {bot.exit_code} before connecting: {bot.stderr_tail()}"
        )
    raise BotFailed(f"the bot did not connect within {CONNECT_TIME:g} s")


async def _first_message(stream: trio.SocketStream) -> tuple[Nme, bytes]:
    """The bot's ``NME`` and the bytes that came after it; :class:`BotFailed` if none."""
    decoder, received = Decoder(FROM_BOT), b""
    with trio.move_on_after(CONNECT_TIME):
        while True:
            data = await stream.receive_some(65536)
            if not data:
                raise BotFailed("the bot closed its connection before its NME")
            received += data
            try:
                messages = decoder.feed(data)
            except ProtocolError as error:
                raise BotFailed(f"the bot's first bytes are not a message: {error}") from None
            if messages:
                first = messages[0]
                if not isinstance(first, Nme):
                    raise BotFailed(f"the bot's first message is {message_name(first)}, not NME")
                return first, received[len(encode(first)) :]
    raise BotFailed(f"the bot sent no NME within {CONNECT_TIME:g} s")


async def play_once(
    participant: Participant,
    ladder: tuple[str, int],
    credentials: Credentials,
    logs: Path,
    label: str,
    joining: Joining,
) -> GameSeen | NoGame:
    """Run the bot for one connection to ``ladder`` (see the module's docstring); its
    standard output and error go to ``logs/LABEL.out`` and ``.err``, removed if empty.
    ``OSError`` if the ladder cannot be reached."""
    joining.playing = False
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    try:
        bot = await start_bot(label, participant.argv("127.0.0.1", port), logs)
    except OSError as error:
        await listener.aclose()
        raise BotFailed(str(error)) from None
    try:
        async with listener:
            stream = await _accept(listener, bot)
        sight = await _relay(stream, ladder, credentials, joining)
        await await_exit(bot, EXIT_GRACE)
    finally:
        await stop_bot(bot)
        for path in (bot.stdout_path, bot.stderr_path):
            if path.exists() and path.stat().st_size == 0:
                path.unlink()
    crash = None
    if bot.crashed:
        crash = f"your bot exited with code {bot.exit_code}: {bot.stderr_tail(2)}"
    seen = sight.result(crash)
    if seen is not None:
        return seen
    refused = None if sight.note is None else read_refusal(bytes(sight.note))
    if refused is not None:  # BYE, then why: the bot may well have left first, as it should
        reason, final = refused
        return NoGame(f"the ladder refused the connection: {reason}", final)
    if sight.first_to_close is End.BOT:
        how = "" if crash is None else f" ({crash.removeprefix('your bot ')})"
        raise BotFailed(f"the bot left while it waited for its game{how}: a bot must wait")
    return NoGame(
        "the ladder closed the connection before any game without a word: too many failed"
        " logins from this address lately (wait, then try again), or too many connections"
        " waiting at once"
    )


async def _relay(
    bot: trio.SocketStream, ladder: tuple[str, int], credentials: Credentials, joining: Joining
) -> _Sight:
    """Relay the bot's connection to the ladder with the credentials in its ``NME``; what
    the watch saw, and the ladder's note. :class:`BotFailed` if the bot sends no ``NME``,
    ``OSError`` if the ladder cannot be reached."""
    async with bot:
        nme, rest = await _first_message(bot)
        server = await trio.open_tcp_stream(*ladder)
        watch, sight = ConnectionWatch(), _Sight(joining)
        sight.see(watch.from_bot(encode(nme) + rest, time.monotonic()))

        def feed(read: Callable[[bytes, float], list[Event]], data: bytes, at: float) -> None:
            sight.see(read(data, at))

        async with server, trio.open_nursery() as nursery:
            presented = encode(Nme(format_credentials(attrs.evolve(credentials, relay=True))))
            try:
                await server.send_all(presented + rest)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return sight

            async def after_the_end() -> None:  # a bot that lingers after END is let go
                await sight.ended.wait()
                await trio.sleep(EXIT_GRACE)
                nursery.cancel_scope.cancel()

            async def from_bot(give_up: Callable[[], None]) -> None:
                await pump(bot, server, partial(feed, watch.from_bot), give_up)
                sight.closed(End.BOT)

            async def both_ways() -> None:
                async with trio.open_nursery() as ways:
                    ways.start_soon(from_bot, ways.cancel_scope.cancel)
                    ways.start_soon(_to_bot, server, bot, partial(feed, watch.from_server), sight)
                nursery.cancel_scope.cancel()

            nursery.start_soon(after_the_end)
            nursery.start_soon(both_ways)
        return sight


async def _to_bot(
    server: trio.SocketStream, bot: trio.SocketStream, feed: Feed, sight: _Sight
) -> None:
    """Forward the ladder's bytes to the bot up to the end of its ``BYE``; what follows is
    the ladder's note (:mod:`vvw.ladder.notes`), kept in ``sight`` and never forwarded."""
    decoder: Decoder | None = Decoder(FROM_SERVER)
    fed = decoded = 0
    """Bytes of the stream fed to the decoder; bytes of the messages it decoded."""
    while True:
        try:
            data = await server.receive_some(RECEIVE_SIZE)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        if not data:
            sight.closed(End.LADDER)
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await bot.send_eof()
            return
        if sight.note is not None:  # after BYE
            sight.note += data[: MAX_NOTE - len(sight.note)]
            continue
        at, cut = time.monotonic(), len(data)
        if decoder is not None:
            try:
                messages = decoder.feed(data)
            except ProtocolError as error:  # the ladder's bytes are forwarded as they are
                messages, decoder = list(error.decoded), None
            for message in messages:
                decoded += len(encode(message))
                if isinstance(message, Bye):
                    cut, sight.note = decoded - fed, bytearray()
                    break
            fed += len(data)
        if sight.note is not None:
            sight.note += data[cut:]
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await bot.send_all(data[:cut])
        feed(data[:cut], at)


async def join(
    participant: Participant,
    ladder: tuple[str, int],
    credentials: Credentials,
    logs: Path,
    hear: Callable[[GameSeen | NoGame, float], None],
    joining: Joining,
    games: int | None = None,
) -> None:
    """Play game after game until cancelled, or until ``games`` connections had a game
    (``joining`` says where it is). ``hear`` is given each connection's outcome and the
    seconds before the next try (0 after a game). :class:`JoinRefused` if the ladder
    refuses the credentials (trying again cannot help)."""
    wait = FIRST_WAIT
    for connection in itertools.count(1):
        if games is not None and joining.games >= games:
            return
        try:
            label = f"{connection:05d}-{participant.name}"
            outcome = await play_once(participant, ladder, credentials, logs, label, joining)
        except OSError as error:
            host, port = ladder
            outcome = NoGame(f"cannot reach the ladder at {host}:{port}: {error.strerror or error}")
        if isinstance(outcome, GameSeen):
            joining.games += 1
            wait = FIRST_WAIT
            hear(outcome, 0.0)
            continue
        if outcome.final:
            raise JoinRefused(outcome.reason)
        hear(outcome, wait)
        await trio.sleep(wait)
        wait = min(LONGEST_WAIT, wait * 2)
