"""serve() on a free loopback port, and the clients the serving tests drive against it."""

import trio

from engine import Rules
from protocol.codec import FROM_SERVER, Decoder, Message
from server.events import EventSink, GameEnded, Seated, ServerEvent, fan_out
from server.serving import Transcripts, serve
from server.settings import Settings
from tests.helpers.maps import load
from tests.server.fakes import FakeBot, random_policy

MAP = load("testmap")


def results_into(results: list) -> EventSink:
    """The events sink that appends each finished game's result to ``results``."""

    def hear(event: ServerEvent) -> None:
        if isinstance(event, GameEnded):
            results.append(event.result)

    return hear


async def start_server(
    nursery, results: list, tmp_path, seats: "Seats | None" = None, keep_all=False, **options
) -> int:
    """Start ``serve`` on MAP on a free loopback port (20 plies, seed 1), transcripts in
    ``tmp_path``; each game's result appended to ``results``, each seating told to ``seats``;
    the port."""
    options.setdefault("settings", Settings(seed=1, rules=Rules(max_plies=20)))

    def hear(event: ServerEvent) -> None:
        if isinstance(event, Seated) and seats is not None:
            seats(event)

    return await nursery.start(
        lambda task_status: serve(
            MAP,
            port=0,
            transcripts=Transcripts(tmp_path, keep_all=keep_all),
            events=fan_out(results_into(results), hear),
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
    """Told of each :class:`Seated`: a trio event per seating, in order."""

    def __init__(self) -> None:
        self.events = [trio.Event() for _ in range(8)]
        self.count = 0

    def __call__(self, seated: Seated) -> None:
        self.events[self.count].set()
        self.count += 1
