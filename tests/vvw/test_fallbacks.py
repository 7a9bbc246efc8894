"""A bot too slow for its client library plays only fallbacks (random plies the client
sends for it): check-bot fails it, and match, tournament, the results file and the tables
count them per bot, as they count skipped turns."""

import json
import re
import sys
from pathlib import Path

from vvw.cli import main
from vvw.records.results import read_results
from vvw.records.standings import format_text, standings, to_json

SLOW = Path(__file__).resolve().parent / "bots" / "slow_bot.py"


def slow(seconds: float = 0.6) -> str:
    return f"{sys.executable} {SLOW} {{host}} {{port}} {seconds}"


def test_check_bot_fails_a_bot_whose_plies_were_fallbacks(capsys):
    status = main(["check-bot", slow(), "--steps", "3", "--move-time", "1"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "3. answers the first, empty UPD with a legal MOV in time: Failed" in out
    assert "a fallback: its client library sent a random legal ply as slow is late" in out
    assert "1 failed" in out


def test_check_bot_passes_the_same_bot_when_it_is_quick(capsys):
    status = main(["check-bot", slow(0.0), "--steps", "3", "--move-time", "1"])
    assert status == 0, capsys.readouterr().out


def test_match_counts_each_bots_fallback_plies(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    words = ["--map", "testmap", "name=slow", slow(), "random", "--ply-limit", "6"]
    assert main(["match", *words, "--move-time", "1", "--games", "2", "--json", "r.json"]) == 0
    out = capsys.readouterr().out
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(games) == 2, out
    # Every ply it sent was a fallback (a busy machine may skip a turn: fewer than 3).
    mark = r" \| fallback plies \(not the bot's own\): slow ([123]) of \1 \|"
    assert all(re.search(mark, line) for line in games), out
    assert re.search(r"warning: (\d) of slow's \1 plies were not its own", out)
    header, slow_row, random_row = [
        line.split() for line in out.splitlines() if line.startswith(("bot ", "slow ", "random "))
    ]
    assert header[-1] == "fallback" and random_row[-1] == "0"
    assert slow_row[-1] == slow_row[-6] != "0"  # as many fallbacks as replies
    kept = json.loads((tmp_path / "r.json").read_text())
    assert [game["fallbacks"]["vampires"] > 0 for game in kept] == [True, False]
    assert [game["fallbacks"]["werewolves"] > 0 for game in kept] == [False, True]


def test_tournament_results_and_tables_count_fallback_plies(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    words = ["name=slow", slow(), "random", "--maps", "testmap", "--ply-limit", "6"]
    assert main(["tournament", *words, "--move-time", "1", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    header, games = read_results(results)
    sides = [side for game in games for side in (game.vampires, game.werewolves)]
    assert {side.name: side.fallbacks == len(side.thinks) > 0 for side in sides} == {
        "slow": True,
        "random": False,
    }
    table = standings(header, games)
    rows = {row["participant"]: row["fallback_plies"] for row in to_json(table)["participants"]}
    assert rows == {"slow": sum(s.fallbacks for s in sides), "random": 0}
    assert "fallback" in format_text(table).splitlines()[2]
    assert format_text(table) in out


def test_the_client_and_the_bot_starter_name_the_same_variable():
    from agents import client
    from server import processes

    assert client.FALLBACKS_VARIABLE == processes.FALLBACKS_VARIABLE
