"""What the commands say, as a new user reads it: no "1 replies", no "you wins", no detail
said twice, one minus sign, a version, a missing file called missing, a typo's likely
meaning, a results folder made, no empty output files kept."""

import re
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import attrs
import pytest

from agents.client import Summary
from engine import VAMPIRES, WEREWOLVES, GameResult, PlayerRecord, Termination
from tests.vvw.test_stopping import Command, _appears, bot
from vvw.analysis.sentences import chances_text
from vvw.cli import main
from vvw.mapchoice import resolve_maps
from vvw.running.participants import Participant
from vvw.running.person_game import wins, you

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "docs" / "games" / "testmap-5x9-expectiminimax-vs-zcsn.jsonl"


def test_vvw_says_its_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert re.fullmatch(r"vvw \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


def test_a_missing_map_file_is_said_missing_and_a_map_s_typo_gets_its_likely_name():
    with pytest.raises(ValueError, match=r"^no such map file: 'nosuch\.xml' \(bundled: all_in"):
        resolve_maps(["nosuch.xml"])
    with pytest.raises(ValueError, match=r"^no such map file: 'maps/x\.xml' "):
        resolve_maps(["maps/x.xml"])
    with pytest.raises(ValueError, match=r"^unknown map 'thetrapp' .*: did you mean thetrap\?$"):
        resolve_maps(["thetrapp"])


def test_a_built_in_bot_s_typo_gets_its_likely_name():
    said = Participant("randon", "randon").problem()
    assert said is not None and said.endswith(": did you mean the built-in bot random?")
    far = Participant("zzzq", "zzzq").problem()
    assert far is not None and "did you mean" not in far


def test_results_into_a_missing_folder_make_it(tmp_path, capsys):
    results = tmp_path / "new" / "deeper" / "r.jsonl"
    words = ["random", "random", "--map", "testmap", "--ply-limit", "2", "--results"]
    assert main(["tournament", *words, str(results)]) == 0
    assert results.is_file()
    json = tmp_path / "other" / "r.json"
    words = ["--map", "testmap", "random", "random", "--games", "1", "--ply-limit", "2"]
    assert main(["match", *words, "--json", str(json)]) == 0
    assert json.is_file()


def test_counts_are_said_in_the_singular_and_the_person_is_you():
    assert str(Summary(games=1, replies=1, fallbacks=1)).startswith("1 game, 1 reply (1 fallback),")
    assert str(Summary(games=2, replies=0, fallbacks=0)).startswith(
        "2 games, 0 replies (0 fallbacks),"
    )
    assert (wins("you"), wins("greedy"), wins("ann")) == ("you win", "greedy wins", "ann wins")
    assert (you("you"), you("ann")) == ("you", "you (ann)")


def test_the_chances_of_a_ply_that_lost_a_point_are_not_shown_unchanged():
    shown = chances_text(SimpleNamespace(score=0.803, expected=0.797))
    assert shown == "80.3 → 79.7"
    assert chances_text(SimpleNamespace(score=0.8, expected=0.62)) == "80 → 62"


def test_log_show_says_the_end_once(capsys):
    assert main(["log", "show", str(GAME)]) == 0
    (result,) = [line for line in capsys.readouterr().out.splitlines() if "result:" in line]
    assert re.search(r"result: \S+ win by elimination after \d+ plies$", result), result


def test_the_analysis_table_has_one_minus_sign(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "vvw", "analyse", str(GAME), "--no-file", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    table = done.stdout[done.stdout.index("per side") :].split("\n\n")[0]
    assert re.search(r"−\d", table) and not re.search(r"(?<![\w-])-\d", table), table


def test_check_bot_keeps_no_empty_output_file(tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(["check-bot", "random", "--logs", str(logs), "--steps", "1-2"]) == 0
    assert [path for path in logs.rglob("*") if path.is_file() and not path.stat().st_size] == []


def test_a_match_stopped_during_a_game_does_not_count_games_left(tmp_path):
    stalled = tmp_path / "stalled"
    words = ["match", "--map", "testmap", bot("stall", stalled), bot("play", tmp_path)]
    run = Command([*words, "--games", "3", "--move-time", "1000"], tmp_path)
    _appears(stalled)  # game 1 in progress
    run.process.send_signal(signal.SIGINT)
    out, _ = run.process.communicate(timeout=60)
    assert run.process.returncode == 130
    assert "game 1 on testmap:" in out and " left" not in out, out


def test_a_result_says_how_it_ended_once():
    sides = (PlayerRecord(VAMPIRES, "alpha", 7), PlayerRecord(WEREWOLVES, "greedy", 0))
    ended = GameResult(VAMPIRES, Termination.ELIMINATION, "elimination", 4, *sides)
    assert ended.summary() == "vampires (alpha) win by elimination after 4 plies"
    illegal = attrs.evolve(
        ended, termination=Termination.ILLEGAL_PLY, detail="greedy: off the grid"
    )
    assert illegal.summary().endswith("by illegal ply after 4 plies: greedy: off the grid")
