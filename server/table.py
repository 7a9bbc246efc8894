"""The table: two seats filled by admitted bots, held until their game is over.

:func:`take_seat` greets an admitted player and gives it the free seat (vampires first);
:func:`hold_seat` keeps its connection open until its game is over, or frees the seat if
it leaves before the game begins; :func:`end_parts` ends a seated player's part from
outside (its process exited). Each reports what happened as :mod:`server.events`.
"""

import logging

import attrs
import trio

from engine import Kind
from engine.mapfile import GameMap
from server.events import Dropped, DropReason, EventSink, Seated, Unseated
from server.lobby import greet
from server.player import Closed, Player, SendFailed
from server.race import wait_unless
from server.referee import ABORT_GOODBYE, say_goodbye

log = logging.getLogger(__name__)

EXIT_GRACE = 0.5
"""Seconds a seated bot's connection has, once its process has exited, to deliver what it
sent and close by itself; then its part is over, whoever still holds the connection."""


@attrs.define(eq=False)
class Seats:
    """The seats of one game: who sits, whether both are taken, whether the game is over."""

    players: list[Player] = attrs.field(factory=list)
    full: trio.Event = attrs.field(factory=trio.Event)
    done: trio.Event = attrs.field(factory=trio.Event)

    def by_species(self) -> tuple[Player, Player]:
        """(vampires, werewolves), once full."""
        seated = {player.species: player for player in self.players}
        return seated[Kind.VAMPIRES], seated[Kind.WEREWOLVES]


@attrs.define(eq=False)
class Table:
    """The seats of the game being formed (new ones for each game)."""

    seats: Seats = attrs.field(factory=Seats)
    seating: trio.Lock = attrs.field(factory=trio.Lock)
    """Held while a player is greeted, so seats are given in order."""

    def next_game(self) -> None:
        """The game is over: empty seats for the next one."""
        self.seats = Seats()


async def take_seat(
    player: Player, table: Table, game_map: GameMap, events: EventSink
) -> Seats | None:
    """Greet ``player`` and give it the free seat (:class:`Seated`); the seats it took, or
    ``None`` if both were taken meanwhile or the greeting could not be sent
    (:class:`Dropped`)."""
    async with table.seating:
        seats = table.seats
        if seats.full.is_set():
            log.info("dropped %s: the table is full", player.peer)
            return None
        # The seat nobody holds: the vampires' when a seated vampire left.
        held = {seated.species for seated in seats.players}
        species = Kind.WEREWOLVES if Kind.VAMPIRES in held else Kind.VAMPIRES
        player.species = species
        try:
            await greet(player, game_map, species)
        except SendFailed as error:
            log.info("dropped %s: greeting failed: %s", player.peer, error)
            events(Dropped(player.peer, DropReason.GREETING_FAILED, f"greeting failed: {error}"))
            return None
        seats.players.append(player)
        events(Seated(species, player.name, player.peer))
        if len(seats.players) == 2:
            seats.full.set()
        return seats


async def hold_seat(player: Player, seats: Seats, events: EventSink) -> None:
    """Keep a seated player's connection until its game is over; if it hangs up before
    the game begins, free its seat (:class:`Unseated`). Cancelled (the server stops), it first
    lets the player part properly (see :func:`_part`)."""
    try:
        await wait_unless(seats.full.wait, player.reader_done.wait)
        # It hung up first. Bytes that are no message keep the seat: the game, once it
        # begins, judges them (a protocol error, its transcript kept), whether they came
        # before the second bot was seated or after.
        if not seats.full.is_set() and isinstance(player.closed, Closed):
            seats.players.remove(player)  # at once: no other task runs in between
            detail = _how_it_left(player)
            log.info("unseated %s before the game: %s", player.peer, detail)
            assert player.species is not None
            events(Unseated(player.species, player.name, player.peer, detail))
            return
        await seats.done.wait()
    except BaseException:
        await _part(player, seats)
        raise


def _how_it_left(player: Player) -> str:
    if isinstance(player.closed, Closed):
        return player.closed.reason
    return str(player.closed.error) if player.closed is not None else "?"


async def _part(player: Player, seats: Seats) -> None:
    """A seated player's last words when the server stops: END/BYE before the game, or
    (the game has begun) wait until the referee has said them, before its stream closes."""
    with trio.CancelScope(shield=True):
        if seats.full.is_set():
            with trio.move_on_after(ABORT_GOODBYE + 1):
                await seats.done.wait()
        else:
            with trio.move_on_after(ABORT_GOODBYE):
                await say_goodbye([player])


async def end_parts(forfeits: trio.MemoryReceiveChannel[tuple[Kind, str]], table: Table) -> None:
    """For each ``(species, reason)`` received (a bot's process exited), end the part of
    the player seated on that side once :data:`EXIT_GRACE` has passed, unless its
    connection closed by itself meanwhile."""

    async def end(player: Player, reason: str) -> None:
        with trio.move_on_after(EXIT_GRACE):
            await player.reader_done.wait()
        player.forfeit(reason)  # nothing changes if the reader is done

    async with trio.open_nursery() as nursery:
        async for species, reason in forfeits:
            for player in table.seats.players:
                if player.species == species:
                    nursery.start_soon(end, player, reason)
