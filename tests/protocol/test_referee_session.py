"""The referee session, the server side sans I/O: what it sends is what a client needs to
know the board the game is played on, turn after turn, and what it makes of a bot's
messages is one table (MOV in turn played, MOV out of turn discarded, NME ignored)."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Kind, Limits, Move, Rules, Termination
from engine.mapfile import load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply
from protocol.codec import (
    ALL,
    FROM_SERVER,
    Bye,
    Decoder,
    End,
    Hme,
    Hum,
    Map,
    Mov,
    Nme,
    ProtocolError,
    Set,
    Upd,
    encode,
)
from protocol.referee import (
    END_OF_GAME,
    GONE,
    GOODBYE,
    Fault,
    Heard,
    RefereeSession,
    disconnected,
    garbled,
    greeting,
    hear,
    moves,
)
from protocol.session import ClientSession, GameOver, GameStarted, Goodbye, YourTurn

THETRAP = load_map(Path(__file__).resolve().parents[2] / "maps" / "thetrap.xml")


def _client(game_map, species: Kind) -> ClientSession:
    """A client that has read the greeting, as the bot playing ``species`` does."""
    client = ClientSession()
    events = [client.receive(m) for write in greeting(game_map, species) for m in write]
    started = events[-1]
    assert isinstance(started, GameStarted) and started.species is species
    assert started.state.contents == game_map.initial_state().contents
    return client


def test_the_greeting_is_set_hum_hme_in_one_write_then_map_as_the_course_server_sends_it():
    first, second = greeting(THETRAP, Kind.WEREWOLVES)
    x, y, _ = THETRAP.start(False)
    assert first == (
        Set(THETRAP.rows, THETRAP.cols),
        Hum(tuple((hx, hy) for hx, hy, _ in THETRAP.humans)),
        Hme(x, y),
    )
    assert [type(m) for m in second] == [Map]
    data = b"".join(encode(m) for m in first + second)
    assert data.startswith(b"SET" + bytes([THETRAP.rows, THETRAP.cols]) + b"HUM")


@pytest.mark.parametrize("species", [Kind.VAMPIRES, Kind.WEREWOLVES])
def test_a_client_greeted_knows_its_species_and_the_starting_board(species):
    _client(generate_map(10, 8, 3, 1), species)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), skips=st.sets(st.integers(0, 30), max_size=6))
def test_each_side_told_by_the_upds_alone_knows_the_board_of_the_game(seed, skips):
    """The law of the UPD: a client that reads only the greeting and its own UPDs knows,
    at each of its turns, exactly the board the referee's game is at (skipped turns and
    battles included)."""
    game_map = generate_map(12, 9, 4, seed % 7)
    session = RefereeSession(Game(game_map.initial_state(), seed=seed, rules=Rules(max_plies=30)))
    clients = {kind: _client(game_map, kind) for kind in (Kind.VAMPIRES, Kind.WEREWOLVES)}
    rng = random.Random(seed)
    turns = 0
    while session.result is None:
        mover = session.to_move
        event = clients[mover].receive(session.update())
        assert isinstance(event, YourTurn)
        assert event.state.contents == session.game.state.contents
        if turns in skips:
            session.no_reply(elapsed=0.0)
        else:
            session.reply(random_ply(event.state, rng), think=0.0, elapsed=0.0)
        turns += 1
    for client in clients.values():
        assert [client.receive(m) for m in GOODBYE][1] == Goodbye()


def test_the_first_upd_is_empty_for_the_vampires_and_lists_their_ply_for_the_werewolves():
    session = RefereeSession(Game(THETRAP.initial_state()))
    assert session.update() == Upd(())
    ply = random_ply(session.game.state, random.Random(1))
    session.reply(ply, 0.0, 0.0)
    listed = {(x, y) for x, y, *_ in session.update().cells}
    assert listed == {m.source for m in ply} | {m.target for m in ply}


def test_a_skipped_turn_lists_nothing_of_its_own():
    session = RefereeSession(Game(THETRAP.initial_state()))
    session.no_reply(0.0)
    assert session.update() == Upd(())


@given(moves_=st.lists(st.tuples(*[st.integers(0, 255)] * 5), max_size=4), in_turn=st.booleans())
def test_a_mov_is_the_ply_in_turn_and_late_out_of_turn(moves_, in_turn):
    heard = hear(Mov(tuple(moves_)), in_turn=in_turn)
    assert heard is (Heard.MOVE if in_turn else Heard.LATE)


@given(name=st.binary(max_size=20), in_turn=st.booleans())
def test_an_nme_during_the_game_is_ignored_in_turn_or_not(name, in_turn):
    assert hear(Nme(name), in_turn=in_turn) is Heard.IGNORED


@pytest.mark.parametrize("message", [Set(1, 1), Upd(()), End(), Bye(), Map(()), Hme(0, 0)])
def test_any_other_message_during_the_game_is_a_protocol_error(message):
    command = encode(message)[:3].decode()
    assert command in ALL
    assert hear(message, in_turn=True) == Fault(
        Termination.PROTOCOL_ERROR, f"sent {command} during the game"
    )


def test_garbage_and_a_closed_connection_are_faults_that_lose_the_game():
    error = ProtocolError(3, b"XYZ", "unknown command b'XYZ'")
    assert garbled(error) == Fault(Termination.PROTOCOL_ERROR, str(error))
    assert disconnected("the bot closed") == Fault(Termination.DISCONNECT, "the bot closed")
    session = RefereeSession(Game(THETRAP.initial_state(), names=("v", "w")))
    result = session.lose(Kind.VAMPIRES, GONE)
    assert (result.winner, result.termination, result.detail) == (
        Kind.WEREWOLVES,
        Termination.DISCONNECT,
        "v: gone",
    )


def test_a_reply_after_the_move_time_is_a_skipped_turn_told_with_how_late():
    game = Game(THETRAP.initial_state(), limits=Limits(move_time=1.0))
    session = RefereeSession(game)
    turn = session.reply(random_ply(game.state, random.Random(2)), think=1.5, elapsed=1.5)
    assert turn is not None and turn.ply is None
    assert session.update() == Upd(())


def test_end_of_game_then_a_new_set_starts_a_second_game_and_goodbye_ends_the_connection():
    client = _client(THETRAP, Kind.VAMPIRES)
    decoder = Decoder(FROM_SERVER)
    said = decoder.feed(b"".join(encode(m) for m in END_OF_GAME))
    assert isinstance(client.receive(said[0]), GameOver)
    client.receive(greeting(THETRAP, Kind.WEREWOLVES)[0][0])
    assert client.in_game
    assert [type(m) for m in GOODBYE] == [End, Bye]


def test_moves_are_the_engines_moves_of_a_mov():
    assert moves(Mov(((1, 2, 3, 2, 2),))) == [Move(1, 2, 3, 2, 2)]
