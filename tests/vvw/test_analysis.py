"""Game analysis (``vvw analyse``): plies judged, luck weighed, the same every time."""

import json
import multiprocessing
import threading
from concurrent.futures import Future
from fractions import Fraction
from functools import partial
from pathlib import Path

import pytest
import trio

from agents.client import play
from agents.expectiminimax import ExpectiminimaxAgent
from agents.judge.curve import CURVE
from agents.random_bot import RandomAgent
from engine import VAMPIRES, WEREWOLVES, GameState, Move, Rules, Turn, battle_outcomes
from engine.kinds import HUMANS
from protocol.records import Ply as PlyRecord
from server.serving import serve
from server.settings import Settings as ServerSettings
from tests.helpers.boards import board
from tests.helpers.maps import load
from vvw.analysis.files import analysis_json
from vvw.analysis.game import PlayedTurn, game_from_records, game_from_turns
from vvw.analysis.game_analysis import analyse_game
from vvw.analysis.judging import Label, Thresholds, accuracy, ply_accuracy
from vvw.analysis.ledger import TurnAnalysis, search_turn
from vvw.analysis.search import PositionSearch, Settings
from vvw.analysis.sides import Swing
from vvw.analysis.workers import searched_turns
from vvw.cli import main
from vvw.transcripts import read_transcript
from vvw.watching import recording

GAMES = Path(__file__).resolve().parents[2] / "docs" / "games"
SHORT_GAME = GAMES / "thetrap-seed2025-vs-expectiminimax.jsonl"

WALK_INTO_KILL = board(
    """
    H4 .  H4 .  .  .
    .  V5 .  .  .  .
    .  .  .  .  .  .
    .  .  .  W8 .  .
    .  .  .  .  .  .
    .  .  .  .  .  .
    """
)
"""The vampires' 5 can take the houses beside them; stepping to (2,2) puts them next to
the werewolves' 8, who kill them for sure (16 ≥ 15) and win."""


def one_turn_game(before: GameState, ply: tuple[Move, ...], after: GameState):
    turn = Turn(before.to_move, before.ply, ply, after)
    return game_from_turns(before, [turn], names=("a", "b"), finished=False)


def test_walking_into_a_certain_kill_is_a_blunder_and_the_engine_names_a_ply_that_does_not():
    walk = (Move(1, 1, 5, 2, 2),)
    after = GameState.from_cells(
        6,
        6,
        {(0, 0): (HUMANS, 4), (2, 0): (HUMANS, 4), (2, 2): (VAMPIRES, 5), (3, 3): (WEREWOLVES, 8)},
        1,
    )
    analysis = analyse_game(one_turn_game(WALK_INTO_KILL, walk, after))
    (turn,) = analysis.turns
    assert turn.after == 0.0  # the kill is within the horizon: a certain loss
    assert turn.score > 0.3
    assert analysis.label(turn) is Label.BLUNDER
    assert turn.best != walk
    (better,) = turn.best
    assert max(abs(better.tx - 3), abs(better.ty - 3)) > 1  # not next to the werewolves
    summary = analysis.summary(VAMPIRES)
    assert summary.counts[Label.BLUNDER] == 1
    assert summary.swings[0].turn is turn
    assert "better (1,1)->" in summary.swings[0].text


def test_a_lucky_battle_credits_its_exact_luck_to_the_side_that_won_it():
    before = board("V8 W7 .")
    strike = (Move(0, 0, 8, 1, 0),)
    after = board(". V3 .", ply=1)  # the vampires won, 3 left: the werewolves are gone
    analysis = analyse_game(one_turn_game(before, strike, after))
    (battle,) = analysis.battles
    # Every outcome ends the game: the vampires win if they win the battle with someone
    # left (both gone: the werewolves win), so the expected score is that chance exactly.
    outcomes = battle_outcomes(VAMPIRES, 8, WEREWOLVES, 7, exact=True)
    chance = sum(o.probability for o in outcomes if o.winner == VAMPIRES and o.survivors)
    assert isinstance(chance, Fraction)
    assert battle.expected == pytest.approx(float(chance), abs=1e-12)
    assert battle.happened == 1.0
    assert battle.luck_for(VAMPIRES) == pytest.approx(1 - float(chance), abs=1e-12)
    assert battle.luck_for(WEREWOLVES) == pytest.approx(float(chance) - 1, abs=1e-12)
    assert (battle.attackers, battle.defenders, battle.won) == (8, 7, True)
    assert round(100 * battle.win_probability) == 64
    (turn,) = analysis.turns
    assert turn.luck == pytest.approx(1 - float(chance), abs=1e-12)  # the ply's luck too
    assert turn.after == 1.0 and turn.score == pytest.approx(turn.after - turn.play - turn.luck)
    assert analysis.summary(VAMPIRES).luck == pytest.approx(100 * (1 - float(chance)))
    assert analysis.summary(WEREWOLVES).luck == pytest.approx(-100 * (1 - float(chance)))
    assert "8 against 7 at 64 %, won" in analysis.summary(VAMPIRES).sentence


def test_an_unlucky_battle_of_two_costs_the_mover_the_share_of_each():
    before = board(
        """
        .  W3 .  .
        V4 .  .  .
        .  .  .  .
        V5 W4 .  .
        """
    )
    both = (Move(0, 1, 4, 1, 0), Move(0, 3, 5, 1, 3))  # 4 against 3, 5 against 4
    after = GameState.from_cells(4, 4, {(1, 0): (VAMPIRES, 2), (1, 3): (WEREWOLVES, 1)}, 1)
    search = PositionSearch(Settings(depth=2))
    turn = search_turn(search, PlayedTurn(1, VAMPIRES, before, both, after), next_known=False)
    first, second = turn.battles
    assert first.cell == (1, 0) and second.cell == (1, 3)
    assert first.happened == second.expected  # the shares chain: they add up to the ply's
    assert first.luck + second.luck == pytest.approx(second.happened - first.expected)


def test_a_ply_the_candidate_generator_never_makes_is_judged():
    state = WALK_INTO_KILL
    odd = (Move(1, 1, 1, 0, 1), Move(1, 1, 1, 1, 2), Move(1, 1, 3, 2, 1))  # a three-way split
    assert odd not in ExpectiminimaxAgent().plies(state)
    after = GameState.from_cells(
        6,
        6,
        {
            (0, 0): (HUMANS, 4),
            (2, 0): (HUMANS, 4),
            (0, 1): (VAMPIRES, 1),
            (1, 2): (VAMPIRES, 1),
            (2, 1): (VAMPIRES, 3),
            (3, 3): (WEREWOLVES, 8),
        },
        1,
    )
    analysis = analyse_game(one_turn_game(state, odd, after), Settings(depth=3))
    (turn,) = analysis.turns
    assert turn.judged and turn.expected == turn.after
    assert turn.drop > 0  # worse than converting a house, as it should be


def test_the_same_transcript_at_a_fixed_depth_gives_the_same_analysis_in_one_process_or_two():
    game = game_from_records(read_transcript(SHORT_GAME))
    once = analysis_json(analyse_game(game, Settings(depth=3), jobs=1))
    twice = analysis_json(analyse_game(game, Settings(depth=3), jobs=2))
    assert once == twice
    assert len(once["plies"]) == 20
    assert once["vampires"][-1] == 100.0  # the vampires won: the curve ends at their score


def test_analysis_stopped_early_ends_its_workers_without_cancelling_a_turn(monkeypatch):
    # On Python 3.11 the pool's own thread fails, with a traceback, to mark a cancelled
    # future broken once its workers are ended (CPython gh-107219): a stop must cancel
    # nothing, and leave no thread failing behind it.
    cancelled, failed = [], []
    monkeypatch.setattr(Future, "cancel", lambda future: cancelled.append(future) or False)
    monkeypatch.setattr(threading, "excepthook", failed.append)
    game = game_from_records(read_transcript(SHORT_GAME))
    before = set(threading.enumerate())
    turns = searched_turns(game, Settings(depth=3), jobs=2)
    assert next(turns).turn == game.turns[0]
    turns.close()
    for thread in set(threading.enumerate()) - before:  # the pool's, ending
        thread.join(timeout=30)
    assert cancelled == [] and failed == []
    assert not [child for child in multiprocessing.active_children() if child.is_alive()]


def test_the_analysis_file_keeps_each_side_s_figures_as_computed_for_the_page_to_round():
    # The replay page rounds the file's figures to whole points as the terminal rounds the
    # computed ones: a figure rounded once already (97.46 to 97.5) would show as 98 on the
    # page beside the terminal's 97.
    game = game_from_records(read_transcript(SHORT_GAME))
    analysis = analyse_game(game, Settings(depth=2), jobs=1)
    written = analysis_json(analysis)["sides"]
    for side in (VAMPIRES, WEREWOLVES):
        summary = analysis.summary(side)
        figures = written[side.wire_name]
        assert (figures["accuracy"], figures["luck"], figures["play"]) == (
            summary.accuracy,
            summary.luck,
            summary.play,
        )


def test_a_server_transcript_gives_every_turn_with_the_boards_before_and_after():
    game = game_from_records(read_transcript(SHORT_GAME))
    assert game.map == "thetrap" and game.finished and game.winner == VAMPIRES
    assert [t.number for t in game.turns] == list(range(1, 21))
    for turn, following in zip(game.turns, game.turns[1:], strict=False):
        assert turn.before.to_move == turn.side
        assert turn.after == following.before


def test_thresholds_label_a_drop_as_lichess_does_and_refuse_falling_ones():
    thresholds = Thresholds()
    assert [thresholds.label(d) for d in (9.9, 10, 20, 30)] == [
        None,
        Label.INACCURACY,
        Label.MISTAKE,
        Label.BLUNDER,
    ]
    assert Thresholds.parse("5, 10, 15").label(12) is Label.MISTAKE
    with pytest.raises(ValueError, match="rising"):
        Thresholds.parse("30,20,10")
    with pytest.raises(ValueError, match="three numbers"):
        Thresholds.parse("10,20")


def test_accuracy_is_full_for_perfect_play_and_falls_with_the_points_lost():
    assert ply_accuracy(0) == pytest.approx(100, abs=0.01)
    assert ply_accuracy(10) > ply_accuracy(30) > ply_accuracy(60)
    assert accuracy([]) is None
    assert accuracy([0, 0, 40]) < accuracy([0, 0, 10])


def test_the_curves_rise_and_a_decided_game_is_certain():
    values = [-0.9e6, -0.5e6, 0.0, 0.5e6, 0.9e6]
    scores = [CURVE.searched(v) for v in values]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    assert CURVE.searched(1e6 - 30) == 1.0 and CURVE.searched(-1e6 + 30) == 0.0
    assert CURVE.solved(1.0) == 1.0 and CURVE.solved(0.0) == 0.0
    assert CURVE.solved(0.3) < CURVE.solved(0.7)


def test_a_level_position_is_worth_nothing_to_either_side():
    # The bot's contempt would tip it toward whichever side is searched for: both sides
    # of one level position would count ahead.
    level = board(
        """
        V3 .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  W3
        """
    )
    search = PositionSearch(Settings(depth=3))
    for state in (level, level.with_ply(1)):
        searched = search.position(state)
        assert searched.how == "search"
        assert searched.score == pytest.approx(0.5, abs=0.02)


def test_vvw_analyse_prints_the_report_and_writes_the_file_replay_reads(tmp_path, capsys):
    transcript = tmp_path / "game.jsonl"
    transcript.write_bytes(SHORT_GAME.read_bytes())
    assert main(["analyse", str(transcript), "--depth", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "vampires (seed2025) vs werewolves (expectiminimax) on thetrap" in out
    assert "random battles" in out and "9 against 8 at 62 %, lost" in out
    written = json.loads((tmp_path / "game.analysis.json").read_text())
    assert written["format"] == "vvw-analysis"
    assert written["transcript"]["name"] == "game.jsonl"
    assert (
        main(["analyze", str(transcript), "--depth", "2", "--jobs", "1", "--json", "--no-file"])
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed["plies"] == written["plies"]


def test_vvw_analyse_refuses_a_file_that_is_no_transcript_in_one_line(tmp_path, capsys):
    map_file = tmp_path / "map.xml"
    map_file.write_text("<Map Rows='3' Columns='3'></Map>\n")
    assert main(["analyse", str(map_file)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("vvw analyse: ")
    assert main(["analyse", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_leaves_out_an_analysis_of_other_bytes_and_refuses_one_named(tmp_path, capsys):
    transcript = tmp_path / "game.jsonl"
    transcript.write_bytes(SHORT_GAME.read_bytes())
    assert main(["analyse", str(transcript), "--depth", "1", "--jobs", "1"]) == 0
    transcript.write_bytes(SHORT_GAME.read_bytes() + b"\n")  # another file now
    capsys.readouterr()
    assert main(["replay", str(transcript)]) == 0
    assert "analysis of another game" in capsys.readouterr().err
    assert '"analysis"' not in (tmp_path / "game.html").read_text()
    named = ["replay", str(transcript), "--analysis", str(tmp_path / "game.analysis.json")]
    assert main(named) == 2
    assert "analyse it again" in capsys.readouterr().err


def test_with_a_time_per_position_the_search_goes_as_deep_as_it_allows():
    walk = (Move(1, 1, 5, 2, 2),)
    after = GameState.from_cells(
        6,
        6,
        {(0, 0): (HUMANS, 4), (2, 0): (HUMANS, 4), (2, 2): (VAMPIRES, 5), (3, 3): (WEREWOLVES, 8)},
        1,
    )
    analysis = analyse_game(one_turn_game(WALK_INTO_KILL, walk, after), Settings(seconds=0.3))
    (turn,) = analysis.turns
    assert turn.depth >= 1 and turn.after == 0.0


async def test_a_bots_own_transcript_is_analysed_on_its_own_plies(tmp_path):
    settings = ServerSettings(seed=3, rules=Rules(max_plies=24))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(partial(serve, load("testmap"), settings, port=0, games=1))
            nursery.start_soon(
                partial(
                    play,
                    RandomAgent(seed=1),
                    "127.0.0.1",
                    port,
                    name="mine",
                    wrap_stream=recording(tmp_path, f"127.0.0.1:{port}"),
                )
            )
            nursery.start_soon(partial(play, RandomAgent(seed=2), "127.0.0.1", port, name="b"))
    (transcript,) = tmp_path.glob("*.jsonl")
    records = read_transcript(transcript)
    own = [r for r in records if isinstance(r, PlyRecord)]
    game = game_from_records(records)
    assert [t.number for t in game.turns] == [r.ply_number for r in own]
    assert {t.side for t in game.turns} == {own[0].side}
    analysis = analyse_game(game, Settings(depth=1))
    for turn in analysis.turns:
        assert turn.before.to_move == turn.side and turn.judged
    assert all(b.side == own[0].side for b in analysis.battles)  # only outcomes it saw


@pytest.mark.parametrize(
    ("after", "words"), [(0.244, "lost 1 point (25 → 24)"), (0.0, "lost 25 points")]
)
def test_a_swing_counts_its_points_in_words(after: float, words: str) -> None:
    move = (Move(1, 1, 5, 2, 2),)
    turn = TurnAnalysis(
        1, VAMPIRES, WALK_INTO_KILL, 0.25, move, 4, "search", move, after, expected=after
    )
    assert f"ply 1: (1,1)->(2,2) x5 {words}" in Swing(turn).text
