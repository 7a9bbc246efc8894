"""``vvw match`` with two built-in bot processes over loopback TCP, as a user runs it."""

import json
from pathlib import Path

from vvw.cli import main

THETRAP = Path(__file__).resolve().parents[2] / "maps" / "thetrap.xml"


def test_match_plays_real_bot_processes_and_writes_results(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results.json"
    code = main(
        [
            "match",
            "--map",
            str(THETRAP),
            "random --seed 1",
            "random --seed 2",
            "--games",
            "2",
            "--seed",
            "7",
            "--json",
            str(results),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "game 1 on " in out and "game 2 on " in out
    data = json.loads(results.read_text())
    games = data if isinstance(data, list) else data.get("games", data.get("results"))
    assert len(games) == 2
    assert all(game["termination"] in ("elimination", "ply limit") for game in games)
