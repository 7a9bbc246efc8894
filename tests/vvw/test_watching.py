"""A watched connection written down: one transcript per game, every byte as it went, the
plies as the watch judged them; frames before a game's MAP wait for it."""

from engine import Kind, Rule
from protocol.codec import End, Mov, Nme, encode
from protocol.records import Command, Direction, Frame, Header, Note, Ply, Source
from protocol.watch import ConnectionWatch
from tests.helpers.course import GREETING_VAMPIRES, MAP_BYTES, UPD_VAMPIRES, watch_course_game
from vvw.transcripts import read_transcript
from vvw.watching import WatchTranscripts


def test_the_course_game_is_written_down_byte_for_byte_with_its_plies_judged(tmp_path):
    watch = ConnectionWatch()
    transcripts = WatchTranscripts(tmp_path, Source.PROXY, peer="course:5555")
    transcripts.record(watch_course_game(watch, 100.0))
    transcripts.record(watch.close(110.0))
    transcripts.close()
    (path,) = transcripts.paths
    assert path.name.endswith("-proxy-alice-game1.jsonl")
    records = read_transcript(path)
    assert isinstance(records[0], Header) and records[0].rows == 5 and records[0].cols == 10
    assert records[0].peer == "course:5555" and records[0].t == 0.0
    plies = [r for r in records if isinstance(r, Ply)]
    assert [p.think for p in plies] == [0.25, 0.25, 0.25]
    assert plies[2].violation is not None and plies[2].violation.rule is Rule.TOO_FEW
    assert str(plies[2].violation).startswith("rule 3")
    frames = [r for r in records if isinstance(r, Frame)]
    assert frames[0].command is Command.NME and frames[0].side is Kind.VAMPIRES
    assert b"".join(f.raw for f in frames if f.direction is Direction.OUT) == (
        GREETING_VAMPIRES
        + MAP_BYTES
        + b"".join(bytes.fromhex(u) for u in UPD_VAMPIRES)
        + encode(End())
    )


def test_a_second_game_on_the_same_connection_gets_its_own_transcript(tmp_path):
    watch = ConnectionWatch()
    transcripts = WatchTranscripts(tmp_path, Source.AGENT, first_game=3)
    transcripts.record(watch_course_game(watch, 0.0))
    transcripts.record(watch_course_game(watch, 20.0))
    transcripts.close()
    assert watch.games == 2
    assert [p.name.rsplit("-", 1)[-1] for p in transcripts.paths] == [
        "game3.jsonl",
        "game4.jsonl",
    ]
    second = read_transcript(transcripts.paths[1])
    # what follows END (the NME of the next game included) stays with the game that ended
    assert [r.command for r in second if isinstance(r, Frame)][:2] == [Command.SET, Command.HUM]


def test_a_connection_that_never_reached_a_game_leaves_its_frames_all_the_same(tmp_path):
    watch = ConnectionWatch()
    transcripts = WatchTranscripts(tmp_path, Source.PROXY)
    data = encode(Nme(b"bob")) + encode(Mov(((1, 1, 1, 1, 2),))) + b"XYZ\x01"
    transcripts.record(watch.from_bot(data, 1.0))
    transcripts.close()
    (path,) = transcripts.paths
    assert path.name.endswith("-proxy-bob-no-game.jsonl")
    records = read_transcript(path)
    assert any(isinstance(r, Note) and "no message" in r.text for r in records)
    assert any(isinstance(r, Note) and "out of turn" in r.text for r in records)
