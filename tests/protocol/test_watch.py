"""A ConnectionWatch fed the course server's own game (docs/protocol.md): every message, the
plies judged as our referee would, think times, and one transcript per game."""

from engine import Kind, Move, Rule
from protocol.codec import End, Mov, Nme, encode
from protocol.transcript import Frame, Header, Note, Ply, read_transcript
from protocol.watch import Began, ConnectionWatch, Ended, Garbled, Odd, Played, Said, Told
from tests.helpers.course import GREETING_VAMPIRES, MAP_BYTES, UPD_VAMPIRES

PLIES = [((4, 3, 4, 3, 2),), ((3, 2, 4, 2, 2),), ((2, 2, 9, 3, 2),)]


def _course_game(watch: ConnectionWatch, start: float) -> list:
    """The vampires' side of the course game; returns the events."""
    events = list(watch.from_bot(encode(Nme(b"alice")), start))
    events += watch.from_server(GREETING_VAMPIRES, start + 0.1)
    events += watch.from_server(MAP_BYTES, start + 0.2)
    for turn, (update, ply) in enumerate(zip(UPD_VAMPIRES, PLIES, strict=True)):
        at = start + 1 + turn
        events += watch.from_server(bytes.fromhex(update), at)
        mov = encode(Mov(ply))
        events += watch.from_bot(mov[:4], at + 0.1)  # a MOV in two pieces, as bots send
        events += watch.from_bot(mov[4:], at + 0.25)
    events += watch.from_server(encode(End()), start + 9)
    return events


def test_the_course_game_is_judged_as_our_referee_would(tmp_path):
    watch = ConnectionWatch(tmp_path, "proxy", peer="course:5555")
    events = _course_game(watch, 100.0)
    watch.close()
    assert watch.name == "alice" and watch.species is Kind.VAMPIRES
    (began,) = [e for e in events if isinstance(e, Began)]
    assert began.species is Kind.VAMPIRES and (began.state.rows, began.state.cols) == (5, 10)
    played = [e for e in events if isinstance(e, Played)]
    assert [p.moves for p in played] == [tuple(Move(*m) for m in ply) for ply in PLIES]
    assert [p.ply_number for p in played] == [1, 3, 5]
    assert [round(p.think, 6) for p in played] == [0.25, 0.25, 0.25]
    assert [p.violation for p in played[:2]] == [None, None]
    assert played[2].violation is not None and played[2].violation.rule is Rule.TOO_FEW
    assert played[0].after is not None and played[0].after.at(3, 2) == (Kind.VAMPIRES, 4)
    assert played[1].after is not None and played[1].after.at(2, 2) == (Kind.VAMPIRES, 8)
    assert len([e for e in events if isinstance(e, Told)]) == 3
    assert isinstance(events[-1], Ended)
    (path,) = watch.transcripts
    records = read_transcript(path)
    assert isinstance(records[0], Header) and records[0].rows == 5 and records[0].cols == 10
    plies = [r for r in records if isinstance(r, Ply)]
    assert plies[2].violation is not None and plies[2].violation.startswith("rule 3")
    frames = [r for r in records if isinstance(r, Frame)]
    assert frames[0].command == "NME" and frames[0].side is Kind.VAMPIRES
    assert b"".join(f.raw for f in frames if f.direction == "out") == (
        GREETING_VAMPIRES
        + MAP_BYTES
        + b"".join(bytes.fromhex(u) for u in UPD_VAMPIRES)
        + encode(End())
    )


def test_a_second_game_on_the_same_connection_gets_its_own_transcript(tmp_path):
    watch = ConnectionWatch(tmp_path, "agent")
    _course_game(watch, 0.0)
    _course_game(watch, 20.0)
    watch.close()
    assert watch.games == 2 and len(watch.transcripts) == 2
    second = read_transcript(watch.transcripts[1])
    # what follows END (the NME of the next game included) stays with the game that ended
    assert [r.command for r in second if isinstance(r, Frame)][:2] == ["SET", "HUM"]


def test_garbage_is_reported_with_its_bytes_and_a_mov_out_of_turn_is_odd(tmp_path):
    watch = ConnectionWatch(tmp_path)
    events = watch.from_bot(encode(Nme(b"bob")) + encode(Mov(((1, 1, 1, 1, 2),))) + b"XYZ\x01")
    assert [type(e) for e in events] == [Said, Said, Odd, Garbled]
    assert isinstance(events[2], Odd) and "out of turn" in events[2].text
    assert isinstance(events[3], Garbled) and events[3].raw == b"XYZ\x01"
    assert "unknown command b'XYZ' at byte 16" in events[3].reason
    later = watch.from_bot(b"MOV")
    assert isinstance(later[0], Garbled) and later[0].raw == b"MOV"
    watch.close()
    (path,) = watch.transcripts  # no game began: the frames are kept all the same
    records = read_transcript(path)
    assert any(isinstance(r, Note) and "no message" in r.text for r in records)


def test_a_message_cut_by_the_end_of_the_connection_is_reported():
    watch = ConnectionWatch()
    assert watch.from_server(b"SET\x05") == []
    (cut,) = watch.close()
    assert isinstance(cut, Garbled) and "in the middle of a SET message" in cut.reason
