"""The table over memory streams: seats in order, a greeting that cannot go, a bot that
leaves before its game; each reported as a typed event."""

import trio
import trio.testing

from engine import Kind
from protocol.codec import Nme, encode
from server.events import Dropped, DropReason, Seated, ServerEvent, Unseated
from server.lobby import admit, connected
from server.table import Table, hold_seat, take_seat
from tests.helpers.maps import load

MAP = load("testmap")


async def test_seats_go_to_the_vampires_then_the_werewolves_and_a_third_finds_them_taken():
    table, heard = Table(), []
    for number in range(3):
        server, bot = trio.testing.memory_stream_pair()
        await bot.send_all(encode(Nme(f"bot{number}".encode())))
        async with connected(server, f"peer{number}") as player:
            assert await admit(player, 5) is None
            seats = await take_seat(player, table, MAP, heard.append)
            assert (seats is None) == (number == 2)
            await bot.aclose()
    assert heard == [
        Seated(Kind.VAMPIRES, "bot0", "peer0"),
        Seated(Kind.WEREWOLVES, "bot1", "peer1"),
    ]
    assert table.seats.full.is_set()


async def test_a_bot_whose_greeting_cannot_be_sent_is_dropped_and_takes_no_seat():
    table, heard = Table(), []
    server, bot = trio.testing.memory_stream_pair()
    await bot.send_all(encode(Nme(b"gone")))
    async with connected(server, "peer") as player:
        assert await admit(player, 5) is None
        await bot.aclose()  # it hangs up right after its NME
        assert await take_seat(player, table, MAP, heard.append) is None
    assert [(type(e), e.reason) for e in heard if isinstance(e, Dropped)] == [
        (Dropped, DropReason.GREETING_FAILED)
    ]
    assert table.seats.players == []


async def test_a_seated_bot_leaving_before_its_game_frees_the_vampires_seat_for_the_next():
    table = Table()
    heard: list[ServerEvent] = []
    server, bot = trio.testing.memory_stream_pair()
    await bot.send_all(encode(Nme(b"quitter")))
    with trio.fail_after(5):
        async with connected(server, "peer") as player:
            assert await admit(player, 5) is None
            seats = await take_seat(player, table, MAP, heard.append)
            assert seats is not None
            await bot.aclose()
            await hold_seat(player, seats, heard.append)
    assert isinstance(heard[-1], Unseated) and heard[-1].species is Kind.VAMPIRES
    assert table.seats.players == [] and not table.seats.full.is_set()
    server, bot = trio.testing.memory_stream_pair()
    await bot.send_all(encode(Nme(b"next")))
    async with connected(server, "peer2") as player:
        assert await admit(player, 5) is None
        assert await take_seat(player, table, MAP, heard.append) is not None
        await bot.aclose()
    assert heard[-1] == Seated(Kind.VAMPIRES, "next", "peer2")
