"""A ConnectionWatch fed the course server's own game (docs/protocol.md): every message, the
plies judged as our referee would, think times; sans I/O, so fed with made-up moments."""

from engine import Kind, Move, Rule
from protocol.codec import End, Mov, Nme, encode
from protocol.records import Direction
from protocol.watch import Began, ConnectionWatch, Ended, Garbled, Odd, Played, Said, Told
from tests.helpers.course import (
    GREETING_VAMPIRES,
    MAP_BYTES,
    UPD_VAMPIRES,
    WATCHED_PLIES,
    watch_course_game,
)


def test_the_course_game_is_judged_as_our_referee_would():
    watch = ConnectionWatch()
    events = watch_course_game(watch, 100.0)
    assert watch.close(110.0) == []
    assert watch.name == "alice" and watch.species is Kind.VAMPIRES
    (began,) = [e for e in events if isinstance(e, Began)]
    assert began.species is Kind.VAMPIRES and (began.state.rows, began.state.cols) == (5, 10)
    played = [e for e in events if isinstance(e, Played)]
    assert [p.moves for p in played] == [tuple(Move(*m) for m in ply) for ply in WATCHED_PLIES]
    assert [p.ply_number for p in played] == [1, 3, 5]
    assert [round(p.think, 6) for p in played] == [0.25, 0.25, 0.25]
    assert [p.violation for p in played[:2]] == [None, None]
    assert played[2].violation is not None and played[2].violation.rule is Rule.TOO_FEW
    assert played[0].after is not None and played[0].after.at(3, 2) == (Kind.VAMPIRES, 4)
    assert played[1].after is not None and played[1].after.at(2, 2) == (Kind.VAMPIRES, 8)
    assert len([e for e in events if isinstance(e, Told)]) == 3
    assert isinstance(events[-1], Ended)
    said = [e for e in events if isinstance(e, Said)]
    assert b"".join(e.raw for e in said if e.direction is Direction.OUT) == (
        GREETING_VAMPIRES
        + MAP_BYTES
        + b"".join(bytes.fromhex(u) for u in UPD_VAMPIRES)
        + encode(End())
    )


def test_garbage_is_reported_with_its_bytes_and_a_mov_out_of_turn_is_odd():
    watch = ConnectionWatch()
    data = encode(Nme(b"bob")) + encode(Mov(((1, 1, 1, 1, 2),))) + b"XYZ\x01"
    events = watch.from_bot(data, 1.0)
    assert [type(e) for e in events] == [Said, Said, Odd, Garbled]
    assert isinstance(events[2], Odd) and "out of turn" in events[2].text
    assert isinstance(events[3], Garbled) and events[3].raw == b"XYZ\x01"
    assert "unknown command b'XYZ' at byte 16" in events[3].reason
    later = watch.from_bot(b"MOV", 2.0)
    assert isinstance(later[0], Garbled) and later[0].raw == b"MOV"


def test_a_message_cut_by_the_end_of_the_connection_is_reported():
    watch = ConnectionWatch()
    assert watch.from_server(b"SET\x05", 1.0) == []
    (cut,) = watch.close(2.0)
    assert isinstance(cut, Garbled) and "in the middle of a SET message" in cut.reason
    assert cut.at == 2.0
