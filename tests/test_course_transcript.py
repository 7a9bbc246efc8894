"""The short thetrap game of protocol.md, replayed through the engine and the UPD builder:
every UPD must be byte-identical to what the course server sent."""

import random

from engine import IllegalPly, Move, Rule, apply_ply, check_ply
from engine.mapfile import load_map
from protocol.cells import map_cells, ply_cells, update_cells
from protocol.codec import Hme, Hum, Map, Set, Upd, encode
from tests.helpers.course import GREETING_VAMPIRES, MAP_BYTES, PLIES, UPD_VAMPIRES, UPD_WEREWOLVES
from tests.helpers.maps import MAPS


def test_greeting_and_map_are_the_course_servers_bytes() -> None:
    game_map = load_map(MAPS / "thetrap.xml")
    state = game_map.initial_state()
    greeting = (
        encode(Set(game_map.rows, game_map.cols))
        + encode(Hum(tuple((x, y) for x, y, _ in game_map.humans)))
        + encode(Hme(*game_map.vampires[:2]))
    )
    assert greeting == GREETING_VAMPIRES
    assert encode(Map(map_cells(state))) == MAP_BYTES


def test_every_update_is_the_course_servers_bytes() -> None:
    state = load_map(MAPS / "thetrap.xml").initial_state()
    rng = random.Random(0)
    last: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    sent = {0: [encode(Upd(()))], 1: []}
    for ply in PLIES:
        mover = state.ply & 1
        state = apply_ply(state, ply, rng).state
        last[mover] = ply_cells(ply)
        receiver = state.ply & 1
        sent[receiver].append(encode(Upd(update_cells(state, (last[0], last[1])))))
    assert [data.hex() for data in sent[0]] == UPD_VAMPIRES
    assert [data.hex() for data in sent[1]] == UPD_WEREWOLVES
    try:
        check_ply(state, (Move(2, 2, 9, 3, 2),))
    except IllegalPly as error:
        assert error.rule is Rule.TOO_FEW
    else:
        raise AssertionError("9 from a cell of 8 must be illegal")
