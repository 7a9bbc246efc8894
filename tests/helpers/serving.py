"""serve() on a free loopback port, and the clients the serving tests drive against it."""

import trio

from engine import Kind, Rules
from protocol.codec import FROM_SERVER, Decoder, Message
from server.serving import serve
from server.settings import Settings
from tests.helpers.maps import load
from tests.server.fakes import FakeBot, random_policy

MAP = load("testmap")


async def start_server(nursery, results: list, tmp_path, **options) -> int:
    """Start ``serve`` on MAP on a free loopback port (20 plies, seed 1); the port."""
    options.setdefault("settings", Settings(seed=1, rules=Rules(max_plies=20)))
    return await nursery.start(
        lambda task_status: serve(
            MAP,
            port=0,
            transcript_dir=tmp_path,
            on_result=results.append,
            task_status=task_status,
            **options,
        )
    )


async def fake_bot(nursery, port: int, name: bytes, seed: int) -> FakeBot:
    """A :class:`FakeBot` playing random plies, connected to ``port`` and running."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    bot = FakeBot(stream, name, random_policy(seed))
    nursery.start_soon(bot.run)
    return bot


class Manual:
    """A bot driven step by step by the test."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream, self.decoder, self.messages = stream, Decoder(FROM_SERVER), []

    async def until(self, kind: type) -> list[Message]:
        while not any(isinstance(m, kind) for m in self.messages):
            data = await self.stream.receive_some()
            assert data, "closed early"
            self.messages += self.decoder.feed(data)
        return self.messages


class Seats:
    """``on_seated`` hook: an event per seating, in order."""

    def __init__(self) -> None:
        self.events = [trio.Event() for _ in range(8)]
        self.count = 0

    def __call__(self, species: Kind, name: str) -> None:
        self.events[self.count].set()
        self.count += 1
