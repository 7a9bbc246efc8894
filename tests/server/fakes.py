"""Scripted fake bots for memory-stream tests: each plays the client side of one stream."""

import random
from collections.abc import Callable

import trio

from engine import GameState, Kind
from engine.movegen import random_ply
from server.protocol import FROM_SERVER, Bye, Decoder, Map, Message, Mov, Nme, Set, Upd, encode

Policy = Callable[[GameState, int], bytes | None]
"""Given the bot's view of the board and its turn number, the bytes to send (None: nothing)."""


def random_policy(seed: int = 0) -> Policy:
    rng = random.Random(seed)

    def policy(state: GameState, turn: int) -> bytes:
        return encode(Mov(tuple(tuple(m) for m in random_ply(state, rng))))

    return policy


class FakeBot:
    """Sends NME, keeps a board from MAP/UPD, answers each UPD with ``policy``."""

    def __init__(self, stream: trio.abc.Stream, name: bytes, species: Kind, policy: Policy,
                 chunk: int | None = None) -> None:
        self.stream, self.name, self.species, self.policy = stream, name, species, policy
        self.chunk = chunk
        self.received: list[Message] = []
        self.cells: dict[tuple[int, int], tuple[Kind, int]] = {}
        self.size = (0, 0)
        self.turn = 0

    async def send(self, data: bytes) -> None:
        step = self.chunk or len(data) or 1
        for i in range(0, len(data), step):
            await self.stream.send_all(data[i:i + step])

    def state(self) -> GameState:
        ply = 0 if self.species == Kind.VAMPIRES else 1
        return GameState.from_cells(*self.size, self.cells, ply=ply)

    def _apply(self, cells) -> None:
        for x, y, h, v, w in cells:
            for kind, n in ((Kind.HUMANS, h), (Kind.VAMPIRES, v), (Kind.WEREWOLVES, w)):
                if n:
                    self.cells[(x, y)] = (kind, n)
                    break
            else:
                self.cells.pop((x, y), None)

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
                    if isinstance(message, Set):
                        self.size = (message.rows, message.cols)
                    elif isinstance(message, Map | Upd):
                        self._apply(message.cells)
                    if isinstance(message, Upd):
                        reply = self.policy(self.state(), self.turn)
                        self.turn += 1
                        if reply is not None:
                            await self.send(reply)
                    if isinstance(message, Bye):
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
