"""A connected bot as the server sees it: a stream, a reader task, and what it sent.

A reader task decodes everything the bot sends, as it arrives, into timestamped events
on a channel. The referee takes events when it is that bot's turn and throws away what
arrived in between (late moves), so a bot can never block the server, whatever it sends.
"""

import logging
from collections.abc import Callable

import attrs
import trio

from engine import Kind
from protocol.codec import FROM_BOT, Decoder, Message, ProtocolError, encode
from protocol.printable import printable
from protocol.records import Direction

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0
"""Seconds a write may wait for a bot that does not read its socket."""
MAX_QUEUED = 100
"""Messages a bot may have sent that the server has not taken yet (a bot sends one MOV a
turn, a late one at times): one more is flooding, a protocol error that ends its part, so
what a connection holds in memory is bounded whatever it sends."""


@attrs.frozen
class Received:
    """A complete message from the bot, and when its last byte arrived."""

    message: Message
    time: float


@attrs.frozen
class Garbled:
    """The bot sent bytes that are not a valid message."""

    error: ProtocolError
    time: float


@attrs.frozen
class Closed:
    """The bot's connection ended (``reason`` says how)."""

    reason: str
    time: float


Event = Received | Garbled | Closed
FrameHook = Callable[["Player", Direction, Message | None, bytes], None]
"""Called for each frame: (player, its direction, decoded message or None, raw bytes)."""


class SendFailed(Exception):
    """A write to the bot failed: its connection is gone or it stopped reading."""


@attrs.define(eq=False)
class Player:
    """One connection, from accept to close."""

    stream: trio.abc.Stream
    peer: str
    """Where it connected from (for logs), e.g. ``127.0.0.1:53122``."""
    name: str = ""
    species: Kind | None = None
    """The side it plays once seated."""
    decoder: Decoder = attrs.field(factory=lambda: Decoder(FROM_BOT))
    on_frame: FrameHook | None = None
    events_in: trio.MemorySendChannel[Event] = attrs.field(init=False)
    events: trio.MemoryReceiveChannel[Event] = attrs.field(init=False)
    closed: Closed | Garbled | None = None
    """Set once the reader has stopped (end of stream or garbage)."""
    reader_done: trio.Event = attrs.field(factory=trio.Event)
    queued: int = 0
    """Messages received and not taken yet (at most :data:`MAX_QUEUED`)."""
    _reading: trio.CancelScope = attrs.field(init=False, factory=trio.CancelScope)
    _forfeit: str = attrs.field(init=False, default="its part was ended")

    def __attrs_post_init__(self) -> None:
        self.events_in, self.events = trio.open_memory_channel(float("inf"))

    async def read_forever(self) -> None:
        """Decode what the bot sends into events until its stream ends, turns garbage, or
        :meth:`forfeit` is called."""
        event: Closed | Garbled | None = None
        with self._reading:
            event = await self._read()
        if event is None:  # ended from outside
            event = Closed(self._forfeit, _now())
        self.closed = event
        self.events_in.send_nowait(event)
        self.reader_done.set()

    def forfeit(self, reason: str) -> None:
        """End the bot's part from outside, e.g. when its process exited while another
        process still holds the connection: the reader stops, and the last event is
        :class:`Closed` with ``reason``."""
        self._forfeit = reason
        self._reading.cancel()

    async def _read(self) -> Closed | Garbled:
        event: Closed | Garbled
        try:
            while True:
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                    event = Closed(f"connection lost ({error or type(error).__name__})", _now())
                    break
                now = _now()
                if not data:
                    self.decoder.close()
                    event = Closed("the bot closed its connection", now)
                    break
                for message in self.decoder.feed(data):
                    if self.queued >= MAX_QUEUED:
                        raise ProtocolError(
                            self.decoder.offset,
                            encode(message)[:8],
                            f"flooding: {MAX_QUEUED} messages sent and not yet asked for",
                        )
                    self._queue(message, now)
        except ProtocolError as error:
            now = _now()
            for message in error.decoded:  # a MOV that came whole before the garbage counts
                self._queue(message, now)
            if self.on_frame is not None:
                self.on_frame(self, Direction.IN, None, error.data)
            event = Garbled(error, now)
        return event

    def _queue(self, message: Message, now: float) -> None:
        if self.on_frame is not None:
            self.on_frame(self, Direction.IN, message, encode(message))
        self.queued += 1
        self.events_in.send_nowait(Received(message, now))

    def _taken(self, event: Event) -> Event:
        if isinstance(event, Received):
            self.queued -= 1
        return event

    async def next_event(self) -> Event:
        """The next thing the bot did (waits for it)."""
        return self._taken(await self.events.receive())

    def stale_events(self) -> list[Event]:
        """Take every event already received, and drop buffered bytes of a cut message."""
        stale = []
        while True:
            try:
                stale.append(self._taken(self.events.receive_nowait()))
            except trio.WouldBlock:
                break
        dropped = self.decoder.discard()
        if dropped:
            log.info("%s: discarded %d late bytes", self.label, dropped)
        return stale

    @property
    def label(self) -> str:
        return f"{printable(self.name) or '?'} ({self.peer})"

    async def send(self, message: Message) -> None:
        """Send one message in a single write; :class:`SendFailed` if it cannot go."""
        await self.send_together((message,))

    async def send_together(self, messages: tuple[Message, ...]) -> None:
        """Send ``messages`` in a single write (as the course server sends SET+HUM+HME)."""
        frames = [encode(message) for message in messages]
        if self.on_frame is not None:
            for message, frame in zip(messages, frames, strict=True):
                self.on_frame(self, Direction.OUT, message, frame)
        data = b"".join(frames)
        try:
            with trio.fail_after(SEND_TIMEOUT):
                await self.stream.send_all(data)
        except trio.TooSlowError:
            raise SendFailed(f"the bot has not read its socket for {SEND_TIMEOUT:g} s") from None
        except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
            raise SendFailed(f"connection lost ({error or type(error).__name__})") from None

    async def send_quietly(self, message: Message) -> bool:
        """Send if the connection still works; ``False`` (and no error) if it does not."""
        try:
            await self.send(message)
        except SendFailed as error:
            log.info("%s: %s not delivered: %s", self.label, type(message).__name__, error)
            return False
        return True

    async def close(self, linger: float = 1.0) -> None:
        """Half-close, let the bot read what was sent (up to ``linger`` s), then close.

        Closing a socket with unread input makes the kernel send a reset, which can make
        the bot lose the END/BYE it has not read yet; half-closing first avoids that.
        """
        with trio.CancelScope(shield=True):
            if isinstance(self.stream, trio.abc.HalfCloseableStream):
                try:
                    with trio.move_on_after(linger):
                        await self.stream.send_eof()
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
            with trio.move_on_after(linger):
                await self.reader_done.wait()
            await self.stream.aclose()


def _now() -> float:
    return trio.current_time()
