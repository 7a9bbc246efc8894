"""Who the ladder lets in: a connection's address, its ``NME``, its team's credentials.

A connection to the ladder's port (:meth:`Gate.admit`) is

1. refused unread while its address is slowed down for failed logins
   (:class:`~vvw.ladder.limiter.FailureLimiter`, :meth:`Gate.slowed`);
2. admitted as ``vvw serve`` admits (:class:`server.lobby.Admissions`: a few at once
   waiting for their ``NME``, a silent one dropped after the connect time, the oldest
   giving way in a flood); a connection dropped so counts as a failed login;
3. refused, and counted as a failed login, unless its ``NME`` is a team's credentials;
   refused if the team has all its connections open already. A relay of ``vvw ladder
   join`` is told why (:func:`vvw.ladder.notes.send_note`).

A token is never told, logged or written: a connection's name is its team's from the
moment its ``NME`` is read, and its ``NME`` is written in the transcript with the team's
name alone (:meth:`Gate.frame`).
"""

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import attrs
import trio

from protocol.codec import Message, Nme, encode
from protocol.records import Direction
from server.events import Dropped
from server.lobby import Admissions
from server.player import Player
from server.transcript import FrameRecorder
from vvw.ladder.credentials import Credentials, CredentialsError, parse_credentials
from vvw.ladder.diskthread import StoreThread
from vvw.ladder.events import Refused
from vvw.ladder.limiter import FailureLimiter
from vvw.ladder.notes import refusal_note, send_note
from vvw.ladder.refusals import Refusal
from vvw.ladder.store import LadderStore


@attrs.frozen
class Admitted:
    """A connection let in for ``team``; ``relay``: ``vvw ladder join``'s relay, which
    reads a note after its game."""

    team: str
    relay: bool


def peer_of(stream: trio.SocketStream) -> str:
    """``host:port`` of the other end of ``stream`` (``?`` if it is gone already)."""
    try:
        return "{}:{}".format(*stream.socket.getpeername()[:2])
    except OSError:
        return "?"


def _address(peer: str) -> str:
    """The address of ``peer`` (``host:port``): failed logins are counted per address."""
    return peer.rpartition(":")[0] or peer


class Gate:
    """The ladder's door (see the module's docstring); it counts each team's connections
    open (:meth:`counted`)."""

    def __init__(
        self,
        store: LadderStore,
        store_thread: StoreThread,
        limiter: FailureLimiter,
        recorder: FrameRecorder,
        tell: Callable[[Refused | Dropped], None],
    ) -> None:
        self.store = store
        self._store = store_thread
        self.limiter = limiter
        self.connections: Counter[str] = Counter()
        self._recorder = recorder
        self._tell = tell
        self._admissions = Admissions()

    def slowed(self, peer: str) -> bool:
        """Whether ``peer``'s address is refused unread for now."""
        return self.limiter.wait(_address(peer)) > 0

    async def admit(self, player: Player) -> Admitted | None:
        """Read ``player``'s ``NME`` and check its credentials: let in, or ``None`` once
        it is told (:class:`Refused`, a relay told why; :class:`Dropped` before its
        ``NME``)."""
        address = _address(player.peer)
        dropped = await self._admissions.admit(player, self.store.settings.game.connect_time)
        credentials = player.name
        player.name = ""  # the token is never shown, whatever comes next
        if dropped is not None:
            self.limiter.failed(address)
            self._tell(dropped)
            return None
        try:
            presented = parse_credentials(credentials.encode())
        except CredentialsError:
            self.limiter.failed(address)
            self._tell(Refused(player.peer, Refusal.NOT_CREDENTIALS))
            return None
        refusal, team = await self._check(presented)
        if refusal is not None:
            if refusal.failed_login:
                self.limiter.failed(address)
            self._tell(Refused(player.peer, refusal, team))
            if presented.relay:
                await send_note(player, refusal_note(refusal), bye=True)
            return None
        self.limiter.succeeded(address)
        player.name = team
        return Admitted(team, presented.relay)

    async def _check(self, credentials: Credentials) -> tuple[Refusal | None, str]:
        """Why ``credentials`` are refused, if they are, and their team's name (as it was
        added once they are a team's)."""
        refusal = await self._store.run(self.store.authenticate, credentials)
        if refusal is not None:
            return refusal, credentials.team
        team = await self._store.run(self.store.canonical_name, credentials.team)
        if self.connections[team] >= self.store.settings.team_connections:
            return Refusal.TEAM_FULL, team
        return None, team

    @contextmanager
    def counted(self, team: str) -> Iterator[None]:
        """One more connection of ``team`` open for the life of the block."""
        self.connections[team] += 1
        try:
            yield
        finally:
            self.connections[team] -= 1

    def frame(
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
