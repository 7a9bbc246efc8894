"""benchmarks.strength's acceptance options: other styles, big open maps, a fixed depth."""

import argparse
import json
from pathlib import Path

import pytest

from benchmarks import strength
from benchmarks.target_maps import big_open_maps
from vvw.mapchoice import resolve_maps


def test_styles_pairs_a_bot_with_every_opponent_of_another_style() -> None:
    assert strength.STYLE_OPPONENTS == ("seed2019", "zcsn", "seed2025", "racer", "striker")
    assert strength.pairings(None, "expectiminimax") == [
        ("expectiminimax", name) for name in strength.STYLE_OPPONENTS
    ]
    assert strength.pairings([("alphabeta", "greedy")], "expectiminimax") == [
        ("alphabeta", "greedy"),
        *(("expectiminimax", name) for name in strength.STYLE_OPPONENTS),
    ]
    assert strength.pairings(None, None) == strength.parse_pairs(strength.DEFAULT_PAIRS)


def test_big_names_the_big_open_maps_and_generated_names_are_maps() -> None:
    parser = argparse.ArgumentParser()
    names = strength.map_names(parser, "thetrap,big,gen:3:12x12:4")
    big = list(big_open_maps(strength.BIG_PER_SIZE))
    assert names == ["thetrap", *big, "gen:3:12x12:4"]
    assert len(big) == 4 * strength.BIG_PER_SIZE
    for name in [*big, "gen:3:12x12:4"]:
        assert strength.game_map(name, 0) == resolve_maps([name])[0].game_map
    with pytest.raises(SystemExit):
        strength.map_names(parser, "gen:3:12x")


def test_depth_fixes_the_first_bots_search_depth() -> None:
    task = strength.Task("alphabeta", "racer", 0, "thetrap", False, 1.0, 1, depth=2)
    _, vampires, _ = strength.task_game(task)
    assert vampires.max_depth == 2  # type: ignore[attr-defined]


def test_a_depth_the_first_bot_does_not_take_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit):
        strength.main(["--pairs", "racer:greedy", "--depth", "3", "--games", "2"])
    assert "no option depth" in capsys.readouterr().err


def test_a_styles_run_plays_each_opponent_as_both_sides(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(strength, "STYLE_OPPONENTS", ("racer", "random"))
    out = tmp_path / "styles.json"
    arguments = ["--styles", "greedy", "--games", "2", "--maps", "gen:3:12x12:4"]
    arguments += ["--move-time", "1", "--jobs", "1", "--json", str(out)]
    assert strength.main(arguments) == 0
    payload = json.loads(out.read_text())
    assert [row["pairing"] for row in payload["table"]] == ["greedy:racer", "greedy:random"]
    for row in payload["maps"]:
        assert row["map"] == "gen:3:12x12:4"
        assert row["vampires_games"] == row["werewolves_games"] == 1
