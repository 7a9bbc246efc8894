"""The lobby over memory streams: who is admitted, who is dropped, and why."""

import pytest
import trio
import trio.testing

from engine import Kind
from protocol.codec import FROM_SERVER, Decoder, Hme, Hum, Map, Set, encode
from server.events import Dropped, DropReason
from server.lobby import Admissions, admit, connected, greet
from server.player import Closed
from tests.helpers.maps import load

MAP = load("testmap")


async def _admit(*writes: bytes, close: bool = False, connect_time: float = 5.0):
    """What ``admit`` says about a bot that writes ``writes`` (then maybe hangs up)."""
    server, bot = trio.testing.memory_stream_pair()
    for data in writes:
        await bot.send_all(data)
    if close:
        await bot.aclose()
    async with connected(server, "peer") as player:
        why = await admit(player, connect_time)
        admitted_at = trio.current_time()
        await bot.aclose()
    return why, player, admitted_at


@pytest.mark.parametrize("name", [b"abc", bytes(range(1, 256)), "é ß 名".encode()])
async def test_names_of_any_length_up_to_255_are_admitted_exactly(name):
    assert len(name) <= 255
    why, player, _at = await _admit(b"NME" + bytes([len(name)]) + name)
    assert why is None
    assert player.name == name.decode("utf-8", errors="replace")


async def test_empty_name_is_admitted_and_never_blocks(autojump_clock):
    why, player, at = await _admit(b"NME\x00")
    assert (why, player.name) == (None, "")
    assert at == 0


async def test_name_split_over_many_writes_is_admitted():
    data = b"NME\x05alice"
    why, player, _at = await _admit(*(data[i : i + 1] for i in range(len(data))))
    assert (why, player.name) == (None, "alice")


async def test_closed_before_nme_is_dropped():
    why, _, _ = await _admit(b"NME\x05ali", close=True)
    assert why.reason is DropReason.GARBLED
    assert why.detail.startswith(
        "connection closed in the middle of a NME message (7 bytes received)"
    )


async def test_closed_without_a_byte_is_dropped():
    why, _, _ = await _admit(close=True)
    assert why == Dropped(
        "peer", DropReason.HUNG_UP, "closed before NME: the bot closed its connection"
    )


async def test_first_message_not_nme_is_dropped():
    why, _, _ = await _admit(b"MOV\x00")
    assert why == Dropped("peer", DropReason.NOT_NME, "first message is MOV, not NME")


async def test_garbage_is_dropped_with_the_protocol_error():
    why, _, _ = await _admit(b"GET / HTTP/1.1\r\n")
    assert why.reason is DropReason.GARBLED and why.detail.startswith("unknown command")
    assert "47 45 54" in why.detail  # the bytes, in hex


async def test_cancelled_connection_closes_as_soon_as_the_bot_hangs_up(autojump_clock):
    # As when the server stops after its last game: the reader must still see the bot
    # answer the half-close, or the close waits out its whole linger.
    server, bot = trio.testing.memory_stream_pair()

    async def bot_hangs_up_at_end_of_stream() -> None:
        while await bot.receive_some():
            pass
        await bot.aclose()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot_hangs_up_at_end_of_stream)
        with trio.CancelScope() as scope:
            async with connected(server, "peer") as player:
                scope.cancel()
                await trio.sleep_forever()
    assert isinstance(player.closed, Closed)
    assert player.closed.reason == "the bot closed its connection"
    assert trio.current_time() == 0  # no linger waited out


async def test_no_nme_in_time_is_dropped(autojump_clock):
    why, _player, at = await _admit(b"NM", connect_time=30.0)
    assert why == Dropped("peer", DropReason.SILENT, "no NME within 30 s")
    assert at == pytest.approx(30.0)


async def test_when_too_many_wait_for_their_nme_the_oldest_gives_way(autojump_clock):
    admissions = Admissions(limit=2)
    said: dict[int, object] = {}
    silent = []

    async def connection(number: int) -> None:
        server, bot = trio.testing.memory_stream_pair()
        silent.append(bot)
        async with connected(server, f"peer{number}") as player:
            said[number] = await admissions.admit(player, connect_time=30.0)

    async with trio.open_nursery() as nursery:
        for number in range(3):
            nursery.start_soon(connection, number)
            await trio.sleep(1)
    assert said[0] == Dropped(
        "peer0",
        DropReason.GAVE_WAY,
        "no NME yet, and it gave way to a newer connection (2 were waiting for theirs)",
    )
    assert [said[1].reason, said[2].reason] == [DropReason.SILENT, DropReason.SILENT]


@pytest.mark.parametrize("species", [Kind.VAMPIRES, Kind.WEREWOLVES])
async def test_greeting_is_set_hum_hme_in_one_write_then_map(species):
    server, bot = trio.testing.memory_stream_pair()
    await bot.send_all(b"NME\x01x")
    async with connected(server, "peer") as player:
        await admit(player, 5)
        await greet(player, MAP, species)
        received = bytearray()
        while len(received) < 42:  # SET, HUM, HME: 18 bytes; MAP: 24
            received += await bot.receive_some()
        await bot.aclose()
    x, y, _ = MAP.start(species == Kind.VAMPIRES)
    greeting = encode(Set(5, 6)) + encode(Hum(((2, 2), (4, 4)))) + encode(Hme(x, y))
    assert received.startswith(greeting)
    assert Decoder(FROM_SERVER).feed(received[len(greeting) :]) == [
        Map(((2, 2, 1, 0, 0), (2, 3, 0, 0, 3), (4, 4, 1, 0, 0), (5, 4, 0, 3, 0)))
    ]
