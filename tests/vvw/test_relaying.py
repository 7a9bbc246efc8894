"""A relayed connection is recorded whole whichever side closes first: every byte each side
sent reaches the watcher, in every order of the two sides' last bytes and closes, and when
one side is gone while the other still sends."""

import contextlib
import itertools

import pytest
import trio

from vvw.relaying import relay


async def _connected_pair() -> tuple[trio.SocketStream, trio.SocketStream]:
    """Two ends of a loopback TCP connection: (the outside end, the relay's end)."""
    (listener,) = await trio.open_tcp_listeners(0, host="127.0.0.1")
    async with listener:
        port = listener.socket.getsockname()[1]
        outside = await trio.open_tcp_stream("127.0.0.1", port)
        inside = await listener.accept()
    return outside, inside


class Seen:
    """What the relay fed for one side, and an event when ``wanted`` bytes have come."""

    def __init__(self) -> None:
        self.data = b""
        self.grew = trio.Event()

    def __call__(self, data: bytes, _at: float) -> None:
        self.data += data
        self.grew.set()

    async def until(self, size: int) -> None:
        while len(self.data) < size:
            self.grew = trio.Event()
            await self.grew.wait()


STEPS = ("bot sends", "bot closes", "server sends", "server closes")
ORDERS = [
    order
    for order in itertools.permutations(STEPS)
    if order.index("bot sends") < order.index("bot closes")
    and order.index("server sends") < order.index("server closes")
]


@pytest.mark.parametrize("order", ORDERS, ids=[" then ".join(order) for order in ORDERS])
async def test_every_byte_of_both_sides_is_fed_in_every_order_of_closing(order):
    with trio.fail_after(15):
        bot, bot_side = await _connected_pair()
        server, server_side = await _connected_pair()
        from_bot, from_server = Seen(), Seen()
        said = {"bot": b"MOV" + bytes(6) * 40, "server": b"END" + b"BYE"}
        ends = {"bot": bot, "server": server}
        async with trio.open_nursery() as nursery:
            nursery.start_soon(relay, bot_side, server_side, from_bot, from_server)
            for step in order:
                who, what = step.split()
                end = ends[who]
                if what == "sends":
                    # The other side may be gone: what was sent counts all the same.
                    with contextlib.suppress(trio.BrokenResourceError):
                        await end.send_all(said[who])
                else:
                    await end.aclose()
        assert from_bot.data == said["bot"]
        assert from_server.data == said["server"]


async def test_a_side_that_goes_on_sending_to_a_gone_one_is_recorded_to_its_end():
    """The bot is gone: the relay's writes to it fail, the server's bytes are still fed."""
    chunks = [b"UPD" + bytes([n]) * 200 for n in range(30)]
    with trio.fail_after(15):
        bot, bot_side = await _connected_pair()
        server, server_side = await _connected_pair()
        from_bot, from_server = Seen(), Seen()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(relay, bot_side, server_side, from_bot, from_server)
            await bot.aclose()
            assert await server.receive_some() == b""  # the bot's end reached the server
            size = 0
            for chunk in chunks:  # one at a time: the writes to the gone bot fail
                await server.send_all(chunk)
                size += len(chunk)
                await from_server.until(size)
            await server.aclose()
    assert from_server.data == b"".join(chunks)
    assert from_bot.data == b""
