"""The client session: the board kept from MAP/UPD is the engine's, and contradictions are
refused with a reason."""

import random
from pathlib import Path

import pytest

from engine import VAMPIRES, WEREWOLVES, GameState, Kind, apply_ply, end_of_game
from engine.mapfile import GameMap, load_map
from engine.movegen import random_ply
from protocol.cells import map_cells, ply_cells, update_cells
from protocol.codec import Bye, End, Hme, Hum, Map, Message, Mov, Nme, Set, Upd
from protocol.session import (
    ClientSession,
    GameOver,
    GameStarted,
    Goodbye,
    SessionError,
    YourTurn,
)

THETRAP = load_map(Path(__file__).resolve().parents[2] / "maps" / "thetrap.xml")


def greeting(game_map: GameMap, species: Kind) -> list[Message]:
    """SET, HUM, HME, MAP as a server sends them to ``species``."""
    x, y, _ = game_map.start(species == VAMPIRES)
    houses = tuple((hx, hy) for hx, hy, _ in game_map.humans)
    return [
        Set(game_map.rows, game_map.cols),
        Hum(houses),
        Hme(x, y),
        Map(map_cells(game_map.initial_state())),
    ]


def feed(session: ClientSession, messages: list[Message]) -> list[object]:
    return [session.receive(message) for message in messages]


@pytest.mark.parametrize("species", [VAMPIRES, WEREWOLVES])
def test_map_starts_a_game_as_the_species_standing_on_the_hme_cell(species: Kind) -> None:
    session = ClientSession()
    events = feed(session, greeting(THETRAP, species))
    initial = THETRAP.initial_state()
    assert events[:3] == [None, None, None]
    assert events[3] == GameStarted(species, initial.with_ply(int(species == WEREWOLVES)))
    assert session.species == species
    assert session.houses == tuple((x, y) for x, y, _ in THETRAP.humans)
    assert session.in_game


@pytest.mark.parametrize(("species", "seed"), [(VAMPIRES, 1), (WEREWOLVES, 2), (VAMPIRES, 3)])
def test_each_upd_gives_the_engines_board_with_our_species_to_move(
    species: Kind, seed: int
) -> None:
    session = ClientSession()
    feed(session, greeting(THETRAP, species))
    state, rng = THETRAP.initial_state(), random.Random(seed)
    last: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    turns = 0
    while end_of_game(state) is None:
        if state.to_move == species:
            event = session.receive(Upd(update_cells(state, (last[0], last[1]))))
            assert event == YourTurn(state.with_ply(2 * turns + (species == WEREWOLVES)), turns)
            turns += 1
        mover, ply = state.ply & 1, random_ply(state, rng)
        state = apply_ply(state, ply, rng).state
        last[mover] = ply_cells(ply)
    assert turns >= 2
    over = session.receive(End())
    assert isinstance(over, GameOver) and over.state.to_move == species
    assert not session.in_game
    assert session.receive(Bye()) == Goodbye()


def test_end_outside_a_game_means_nothing_and_set_starts_the_next_game() -> None:
    session = ClientSession()
    assert session.receive(End()) is None
    feed(session, [*greeting(THETRAP, VAMPIRES), Upd(())])
    assert isinstance(session.receive(End()), GameOver)
    assert session.receive(End()) is None
    events = feed(session, greeting(THETRAP, WEREWOLVES))
    assert events[-1] == GameStarted(WEREWOLVES, THETRAP.initial_state().with_ply(1))
    assert session.receive(Upd(())) == YourTurn(THETRAP.initial_state().with_ply(1), 0)


def test_the_last_board_stays_after_end_until_the_next_set() -> None:
    session = ClientSession()
    feed(session, [*greeting(THETRAP, VAMPIRES), Upd(((4, 3, 0, 0, 0), (3, 2, 0, 4, 0)))])
    before = session.state
    session.receive(End())
    assert session.state == before and isinstance(before, GameState)
    session.receive(Set(3, 3))
    assert session.state is None


SET, HME = Set(5, 10), Hme(4, 3)
STARTED = [SET, HME, Map(((4, 3, 0, 4, 0),))]


@pytest.mark.parametrize(
    ("messages", "reason"),
    [
        ([Upd(())], "UPD before SET"),
        ([Hme(1, 1)], "HME before SET"),
        ([Map(())], "MAP before SET"),
        ([Set(0, 4)], "SET 0 4: an empty grid"),
        ([SET, Map(((4, 3, 0, 4, 0),))], "MAP before HME"),
        ([SET, HME, Map(((4, 3, 4, 0, 0),))], "MAP has no vampires or werewolves at HME (4,3)"),
        ([SET, HME, Map(((11, 3, 0, 4, 0),))], "MAP: cell (11,3) is outside the 5 × 10 grid"),
        ([SET, HME, Map(((4, 3, 0, 4, 2),))], "MAP: cell (4,3) holds two kinds: H0 V4 W2"),
        ([SET, HME, Upd(())], "UPD before MAP"),
        ([*STARTED, Map(())], "a second MAP in the same game"),
        ([*STARTED, Upd(((4, 5, 1, 0, 0),))], "UPD: cell (4,5) is outside the 5 × 10 grid"),
        ([*STARTED, End(), Upd(())], "UPD after END"),
    ],
)
def test_a_message_that_contradicts_the_game_is_refused_and_the_session_stays_failed(
    messages: list[Message], reason: str
) -> None:
    session = ClientSession()
    *before, last = messages
    feed(session, before)
    with pytest.raises(SessionError) as caught:
        session.receive(last)
    assert str(caught.value).startswith(reason)
    assert caught.value.command == type(last).__name__.upper()
    with pytest.raises(SessionError) as again:
        session.receive(Bye())
    assert again.value is caught.value


@pytest.mark.parametrize("message", [Nme(b"x"), Mov(())])
def test_a_bots_message_is_a_callers_bug_not_a_server_contradiction(message: Message) -> None:
    with pytest.raises(TypeError, match="a server never sends"):
        ClientSession().receive(message)
