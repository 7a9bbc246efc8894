"""The one replay reader: a transcript's records in, the game's boards out — the engine's own
boards, game by game, whether the header holds the first board or only the MAP frame does
(the transcripts of before), and one bot's side from the server's frames to it."""

from pathlib import Path

import attrs
import pytest
import trio
import trio.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, GameState, Kind, Rules, Termination, ply_outcomes
from engine.mapfile import GameMap
from protocol.records import Command, Direction, Frame, Header, Ply, Record, Skip, Source
from protocol.replay import Ended, ReplayedTurn, Replayer, Started, Told, replay
from protocol.transcript import TranscriptWriter
from protocol.watch import ConnectionWatch
from server.lobby import admit, connected, greet
from server.referee import play_game
from server.settings import Settings
from server.transcript import FrameRecorder, Transcript
from tests.helpers.course import WATCHED_PLIES, watch_course_game
from tests.helpers.maps import load
from tests.server.fakes import FakeBot, random_policy
from vvw.transcripts import read_transcript
from vvw.watching import WatchTranscripts

GAMES = Path(__file__).resolve().parents[2] / "docs" / "games"
V, W = Kind.VAMPIRES, Kind.WEREWOLVES
MAPS = {name: load(name) for name in ("testmap", "thetrap", "testmap-5x9")}


def _served(folder: Path, game_map: GameMap, seed: int, plies: int) -> list[Record]:
    """One game between two random bots on our referee (over memory streams): its records."""
    transcript = Transcript(folder / f"{game_map.name}-{seed}-{plies}.jsonl")

    async def play() -> None:
        streams = [trio.testing.memory_stream_pair() for _ in range(2)]
        bots = [
            FakeBot(bot, name, random_policy(seed + number))
            for number, ((_, bot), name) in enumerate(zip(streams, (b"a", b"b"), strict=True))
        ]
        recorder = FrameRecorder()
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.run)
            (a, _), (b, _) = streams
            async with connected(a, "a", recorder) as vp, connected(b, "b", recorder) as wp:
                assert await admit(vp, 5) is None and await admit(wp, 5) is None
                vp.species, wp.species = V, W
                await greet(vp, game_map, V)
                await greet(wp, game_map, W)
                recorder.attach(transcript, [vp, wp])
                rules = Settings(seed=seed, rules=Rules(max_plies=plies), move_time=60)
                await play_game(vp, wp, game_map, rules, transcript)

    trio.run(play)
    transcript.close()
    return read_transcript(transcript.path)


def _as_before(records: list[Record]) -> list[Record]:
    """The records as transcripts wrote them before the header held the first board."""
    header, *rest = records
    assert isinstance(header, Header)
    return [attrs.evolve(header, rows=None, cols=None, board=None), *rest]


def _engine_states(start: GameState, turns: tuple[ReplayedTurn, ...], seed: int, plies: int):
    """The boards the engine's own game reaches, fed the same plies with the same seed."""
    game = Game(start, rules=Rules(max_plies=plies), seed=seed)
    for turn in turns:
        played = game.reply(turn.ply, 0.0, 0.0) if turn.ply is not None else game.no_reply(0.0)
        assert played is not None
        yield played.state


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(sorted(MAPS)), st.integers(0, 2**16), st.integers(1, 30))
def test_a_replay_s_boards_are_the_engine_s_game_by_game(tmp_path, name, seed, plies):
    game_map = MAPS[name]
    records = _served(tmp_path, game_map, seed, plies)
    game = replay(records)
    assert game.start == game_map.initial_state()
    assert game.rules == Rules(max_plies=plies)
    assert game.names == {V: "a", W: "b"}
    assert game.result is not None and game.result.plies == len(game.turns)
    assert [turn.number for turn in game.turns] == list(range(1, len(game.turns) + 1))
    boards = [turn.after for turn in game.turns]
    assert boards == list(_engine_states(game.start, game.turns, seed, plies))
    befores = [turn.before for turn in game.turns]
    assert befores == [game.start, *boards[:-1]]
    # Read as the transcripts of before (the first board in the MAP frame only): the same game.
    assert replay(_as_before(records)) == attrs.evolve(game, header=_as_before(records)[0])


def test_each_board_after_is_one_the_engine_says_the_ply_can_lead_to():
    for path in sorted(GAMES.glob("*.jsonl")):
        game = replay(read_transcript(path))
        assert game.result is not None and game.result.termination in Termination
        for turn in game.turns:
            assert turn.ply is not None and turn.after is not None
            outcomes = ply_outcomes(turn.before, turn.ply)
            boards = {state.with_ply(turn.number) for _, state in outcomes}
            assert turn.after in boards, f"{path.name}: ply {turn.number}"


def test_the_replayer_tells_the_game_as_its_records_come():
    records = read_transcript(sorted(GAMES.glob("thetrap-*.jsonl"))[0])
    replayer = Replayer()
    told = [event for record in records for event in replayer.feed(record)]
    started, *turns, ended = told
    assert isinstance(started, Started) and started.state == replayer.start
    assert all(isinstance(turn, ReplayedTurn) for turn in turns)
    assert isinstance(ended, Ended) and ended.result is not None
    assert replayer.size == (replayer.start.rows, replayer.start.cols)


def test_one_bot_s_side_is_replayed_from_the_server_s_frames_to_it(tmp_path):
    watch = ConnectionWatch()
    transcripts = WatchTranscripts(tmp_path, Source.AGENT)
    transcripts.record(watch_course_game(watch, 0.0))
    transcripts.close()
    records = read_transcript(transcripts.paths[0])
    replayer = Replayer()
    events = [event for record in records for event in replayer.feed(record)]
    turns = [event for event in events if isinstance(event, ReplayedTurn)]
    assert [tuple(turn.ply or ()) for turn in turns] == [
        tuple(tuple(move) for move in ply) for ply in WATCHED_PLIES
    ]
    assert all(isinstance(turn.record, Ply) for turn in turns)
    assert len([event for event in events if isinstance(event, Told)]) == len(WATCHED_PLIES)
    assert isinstance(events[-1], Ended) and events[-1].result is None  # END, not judged
    assert replayer.one_sided and turns[0].before == replayer.start


def test_a_transcript_without_a_board_is_refused():
    records = read_transcript(sorted(GAMES.glob("*.jsonl"))[0])[:1]
    with pytest.raises(ValueError, match="no MAP"):
        replay(records)


def test_a_skipped_turn_keeps_the_board_and_counts_a_ply():
    start = MAPS["testmap"].initial_state()
    records: list[Record] = []
    writer = TranscriptWriter(records.append, lambda: 0.0)
    writer.write_header(Source.SERVER, start=start)
    map_frame = Frame(0.0, V, Direction.OUT, Command.MAP, "MAP", b"")  # not decoded: the
    replayer = Replayer()  # header holds the board
    assert [replayer.feed(record) for record in (*records, map_frame)] == [[], [Started(start)]]
    (turn,) = replayer.feed(Skip(1.0, V, 0))
    assert isinstance(turn, ReplayedTurn) and turn.ply is None and turn.number == 1
    assert turn.before == start and turn.after == start.with_ply(1) == replayer.board
