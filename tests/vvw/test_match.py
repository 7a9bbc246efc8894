"""``vvw match`` as a user runs it: results per bot, reasons that say what happened, files."""

import json
import math
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from engine import Termination
from server.settings import Settings
from vvw.cli import main
from vvw.game_arguments import split_maps_and_bots
from vvw.mapchoice import resolve_maps
from vvw.running.local_game import play_one
from vvw.running.participants import Participant, parse_participants

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"


def bot(mode: str) -> str:
    return f"{sys.executable} {BOT} {mode} {{host}} {{port}}"


def test_participants_are_named_by_bot_and_told_apart():
    players = parse_participants(
        [
            "greedy",
            "greedy",
            "alphabeta --depth 4",
            "name=mine",
            "cmd=python3 x/bot.py {port}",
            "python3 -u other.py",
        ]
    )
    assert [p.name for p in players] == [
        "greedy#1",
        "greedy#2",
        "alphabeta --depth 4",
        "mine",
        "other.py",
    ]
    assert players[3] == Participant("mine", "python3 x/bot.py {port}")


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["name=a", "greedy", "name=a", "random"], "two participants are named 'a'"),
        (["greedy", "name=x"], "name=x is not followed by a bot"),
        ([""], "empty bot command"),
    ],
)
def test_bad_participants_say_why(words, says):
    with pytest.raises(ValueError, match=says):
        parse_participants(words)


def test_built_in_bots_get_their_seed_and_name_and_commands_their_seed():
    argv = Participant("deep", "alphabeta --depth 4").argv("127.0.0.1", 5, seed=9)
    assert argv[-10:] == [
        "127.0.0.1",
        "5",
        "--quiet",
        "--quiet-stop",
        "--seed",
        "9",
        "--name",
        "deep",
        "--depth",
        "4",
    ]
    assert Participant("x", "./bot --seed {seed}").argv("h", 5, seed=9) == [
        "./bot",
        "--seed",
        "9",
        "h",
        "5",
    ]


def test_maps_by_file_glob_bundled_name_and_seed():
    labels = [
        c.label
        for c in resolve_maps(
            ["thetrap", str(ROOT / "maps" / "test*.xml"), "gen:3", "gen:4:10x8:2"]
        )
    ]
    assert labels[0] == "thetrap" and labels[-2:] == ["gen:3:20x15:6", "gen:4:10x8:2"]
    assert [Path(label).name for label in labels[1:-2]] == [
        "testmap-5x9.xml",
        "testmap.xml",
        "testmap2.xml",
    ]
    assert resolve_maps(["gen:4:10x8:2"])[0].game_map == resolve_maps(["gen:4:10x8:2"])[0].game_map
    with pytest.raises(ValueError, match="unknown map 'nowhere' \\(bundled: all_in, "):
        resolve_maps(["nowhere"])


def test_a_shell_glob_before_the_bots_leaves_the_bots():
    maps = [str(ROOT / "maps" / "thetrap.xml"), "thetrap"]
    assert split_maps_and_bots([*maps, "greedy", "random"], []) == (maps, ["greedy", "random"])


def test_the_first_word_of_map_is_a_map_even_one_that_is_not_there(capsys):
    assert split_maps_and_bots(["thetrapp", "greedy", "random"], []) == (
        ["thetrapp"],
        ["greedy", "random"],
    )
    assert main(["match", "--map", "thetrapp", "greedy", "random"]) == 2
    assert capsys.readouterr().err.startswith(
        "vvw match: unknown map 'thetrapp' (bundled: all_in, gen-10x10, "
    )


async def _one(tmp_path: Path, first: str):
    players = (Participant("bad", first), Participant("good", bot("play")))
    with trio.fail_after(20):
        return await play_one(
            resolve_maps(["testmap"])[0].game_map, Settings(seed=1), players, tmp_path / "game"
        )


async def test_garbage_before_nme_loses_at_once_with_what_was_sent(tmp_path):
    played = await _one(tmp_path, bot("garbage"))
    result = played.result
    assert result.termination is Termination.PROTOCOL_ERROR
    assert (result.vampires.name, result.werewolves.name) == ("bad", "good")
    assert "unknown command b'HEL'" in result.detail and "dropped before the game" in result.detail


async def test_a_bot_exiting_before_nme_is_a_crash_and_its_prints_are_kept(tmp_path):
    played = await _one(tmp_path, bot("exit"))
    assert played.result.termination is Termination.CRASH
    assert re.search(
        r"exited with code 4 before its NME, [0-9.]+ s after it started:"
        r" cannot start: no model file",
        played.result.detail,
    )
    out = tmp_path / "game" / "vampires-bad.out"
    assert played.outputs[played.result.vampires.species] == [
        out,
        tmp_path / "game" / "vampires-bad.err",
    ]
    assert out.read_text() == "my debugging print\n"


def test_match_tallies_per_bot_and_writes_json_after_each_game(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "match",
            "--map",
            "thetrap",
            "random --seed 1",
            "greedy",
            "--games",
            "2",
            "--seed",
            "3",
            "--ply-limit",
            "20",
            "--json",
            "r.json",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "game 1 on thetrap: " in out and "game 2 on thetrap: " in out
    games = json.loads((tmp_path / "r.json").read_text())
    wins = {"random --seed 1": 0, "greedy": 0}
    for game in games:
        if game["winner"] is not None:
            wins[game[game["winner"]]["name"]] += 1
    draws = 2 - sum(wins.values())
    assert (
        f"2 games: random --seed 1 {wins['random --seed 1']} win" in out
        and f"greedy {wins['greedy']} win" in out
        and f"{draws} draw" in out
    )
    # built-in bots printed nothing: no folder of their output; each game's transcript kept
    assert [path.name for path in (tmp_path / "runs").iterdir()] == ["transcripts"]
    kept = sorted((tmp_path / "runs" / "transcripts").iterdir())
    assert [re.sub(r"^\d{8}-\d{6}-", "", path.name) for path in kept] == [
        "game001-random_--seed_1-greedy.jsonl",
        "game002-greedy-random_--seed_1.jsonl",
    ]
    for path in kept:
        assert f" | transcript {path.relative_to(tmp_path)}\n" in out
    assert main(["log", "show", str(kept[-1])]) == 0  # the README's runs/transcripts/<game>.jsonl
    assert out.splitlines()[-2:] == [
        f"watch the last game again: vvw replay {kept[-1].relative_to(tmp_path)} --open",
        f"or read it in the terminal: vvw log show {kept[-1].relative_to(tmp_path)} --boards",
    ]


def test_a_broken_game_names_its_transcript_and_only_files_that_exist(tmp_path, capsys):
    folder = tmp_path / "kept"
    stall = f"{bot('stall')} {tmp_path / 'stalled'}"
    words = ["--map", "testmap", "name=stall", stall, "greedy", "--on-timeout", "forfeit"]
    assert main(["match", *words, "--move-time", "0.3", "--transcript", str(folder)]) == 0
    out = capsys.readouterr().out
    (transcript,) = folder.iterdir()
    assert f"abnormal games:\n  game 1: time forfeit: {transcript}\n" in out
    named = re.findall(r"(/\S+)", out)
    assert named and all(Path(path.rstrip(",")).exists() for path in named), named


def test_no_transcript_keeps_none(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["match", "--map", "testmap", "random", "greedy", "--no-transcript"]) == 0
    assert "transcript" not in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_a_game_shows_the_turns_each_bot_let_pass(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    words = ["--map", "testmap", "random", "name=mute", bot("nomove"), "--ply-limit", "6"]
    assert main(["match", *words, "--move-time", "0.3", "--seed", "1"]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game 1")]
    assert " | skipped turns: mute 3 | " in line


def test_a_game_stopped_by_ctrl_c_is_listed_as_aborted_and_not_counted(tmp_path):
    stalled = tmp_path / "stalled"
    words = ["--map", "testmap2", "greedy", f"{bot('stall')} {stalled}", "--games", "2"]
    run = subprocess.Popen(
        [sys.executable, "-m", "vvw", "match", *words, "--move-time", "1000"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not stalled.exists():  # the stalling bot's first UPD: game 1 is being played
            assert time.monotonic() < deadline, "the game never began"
            time.sleep(0.02)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=30)
    finally:
        run.kill()
        run.wait()
    assert run.returncode == 130, err
    assert "game 1 on testmap2: aborted after 1 ply: " in out
    assert "no game finished; 1 aborted (not counted)\n" in out
    assert "scores" not in out and "0 wins" not in out
    assert err == "vvw match: stopped by SIGINT after 0 of 2 games\n"


def test_a_match_shows_a_running_score_and_ends_with_each_bots_think_times(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    words = ["--map", "testmap", "random", "greedy", "--games", "2", "--ply-limit", "20"]
    assert main(["match", *words, "--seed", "4", "--json", "r.json", "--no-transcript"]) == 0
    lines = capsys.readouterr().out.splitlines()
    games = json.loads((tmp_path / "r.json").read_text())
    scores = [line for line in lines if line.startswith("score of random vs greedy: ")]
    assert [line.rsplit(", ", 1)[1] for line in scores] == ["1 game left", "0 games left"]
    wins = {"random": 0, "greedy": 0}
    for number, game in enumerate(games):
        if game["winner"] is not None:
            wins[game[game["winner"]]["name"]] += 1
        draws = number + 1 - sum(wins.values())
        assert f": {wins['random']}-{draws}-{wins['greedy']} (W-D-L), " in scores[number]
    assert re.search(r", Elo [-+](\d+\.\d|inf) ± (\d+\.\d|inf), ", scores[-1])
    thinks = {
        name: [
            t
            for game in games
            for side in ("vampires", "werewolves")
            for t in game[side]["thinks"]
            if game[side]["name"] == name
        ]
        for name in ("random", "greedy")
    }
    header = lines.index(
        "bot        W-D-L  score        Elo ± 95 %  replies   think     p95     max  skipped"
        " fallback"
    )
    for row, name in zip(lines[header + 1 : header + 3], ("random", "greedy"), strict=True):
        replies, mean, p95, longest, skipped, fallbacks = row.split()[-6:]
        assert row.startswith(f"{name} ") and int(replies) == len(thinks[name]) > 0
        times = sorted(thinks[name])
        assert mean == f"{sum(times) / len(times):.3f}s" and longest == f"{times[-1]:.3f}s"
        assert p95 == f"{times[math.ceil(0.95 * len(times)) - 1]:.3f}s" and skipped == "0"
        assert fallbacks == "0"


def test_match_refuses_an_existing_or_unwritable_results_file_before_playing(tmp_path, capsys):
    existing = tmp_path / "r.json"
    existing.write_text("mine")
    for target, says in (
        (existing, "exists (use --force"),
        (existing / "r.json", "is a file, not a folder"),
    ):
        assert main(["match", "--map", "thetrap", "random", "random", "--json", str(target)]) == 2
        assert says in capsys.readouterr().err
    assert existing.read_text() == "mine"
