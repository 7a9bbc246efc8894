"""Scripted fake bots for memory-stream tests: each plays the client side of one stream."""

import random
from collections.abc import Callable

import trio

from engine import GameState
from engine.movegen import random_ply
from protocol.codec import FROM_SERVER, Bye, Decoder, End, Message, Mov, Nme, encode
from protocol.session import ClientSession, YourTurn

Policy = Callable[[GameState, int], bytes | None]
"""Given the bot's view of the board and its turn number, the bytes to send (None: nothing)."""


def random_policy(seed: int = 0) -> Policy:
    rng = random.Random(seed)

    def policy(state: GameState, turn: int) -> bytes:
        return encode(Mov(tuple(tuple(m) for m in random_ply(state, rng))))

    return policy


class FakeBot:
    """Sends NME, keeps a board from MAP/UPD (a :class:`ClientSession`), answers each UPD
    with ``policy``."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        name: bytes,
        policy: Policy,
        chunk: int | None = None,
        delay: float = 0.0,
        after_end: bytes = b"",
        close_after: int | None = None,
        chaser: tuple[float, bytes] | None = None,
    ) -> None:
        self.stream, self.name, self.policy = stream, name, policy
        self.chunk = chunk
        self.delay = delay
        """Seconds (trio clock) to think before each reply."""
        self.after_end = after_end
        """Bytes to send when END arrives (a bot that misbehaves after the game)."""
        self.close_after = close_after
        """Hang up right after replying on this turn."""
        self.chaser = chaser
        """``(seconds, bytes)``: sent that long after the first reply, in a write of its own."""
        self.received: list[Message] = []
        self.session = ClientSession()
        self.turn = 0
        """UPDs answered on this connection."""

    async def send(self, data: bytes) -> None:
        step = self.chunk or len(data) or 1
        for i in range(0, len(data), step):
            await self.stream.send_all(data[i : i + step])

    async def run(self) -> None:
        decoder = Decoder(FROM_SERVER)
        await self.send(encode(Nme(self.name)))
        try:
            while True:
                data = await self.stream.receive_some(65536)
                if not data:
                    return
                for message in decoder.feed(data):
                    self.received.append(message)
                    event = self.session.receive(message)
                    if isinstance(event, YourTurn):
                        reply = self.policy(event.state, self.turn)
                        self.turn += 1
                        if reply is CLOSE:
                            await self.stream.aclose()
                            return
                        if self.delay:
                            await trio.sleep(self.delay)
                        if reply is not None:
                            await self.send(reply)
                        if self.turn - 1 == self.close_after:
                            return
                        if self.chaser is not None and self.turn == 1:
                            await trio.sleep(self.chaser[0])
                            await self.send(self.chaser[1])
                    if isinstance(message, End) and self.after_end:
                        await self.send(self.after_end)
                    if isinstance(message, Bye):
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        finally:
            await self.stream.aclose()  # as a real bot's exit closes its socket


CLOSE = b"<close the connection>"
"""A policy's answer that makes the fake bot close its connection instead of replying."""


def scripted(replies: dict[int, bytes | None], then: Policy | None = None) -> Policy:
    """Answer turn ``n`` with ``replies[n]`` (``None``: stay silent), other turns with ``then``."""

    def policy(state: GameState, turn: int) -> bytes | None:
        if turn in replies:
            return replies[turn]
        return then(state, turn) if then is not None else None

    return policy


def mov(*moves: tuple[int, int, int, int, int]) -> bytes:
    """The bytes of ``MOV`` with these ``(x, y, count, tx, ty)`` moves."""
    return encode(Mov(tuple(moves)))
