"""One finished-game record: ``vvw match --json`` writes each game from the record the
results file keeps, in the format it has always written."""

import json
from pathlib import Path

from engine import GameResult, Kind, PlayerRecord, Termination
from vvw.records.game import finished_game, match_entry
from vvw.records.results import Header, ResultsWriter

RESULT = GameResult(
    Kind.WEREWOLVES,
    Termination.CRASH,
    "bot.py exited with code 3",
    7,
    PlayerRecord(Kind.VAMPIRES, "slow", 0, 0.25, 1, (0.1, 0.25, 0.123456789)),
    PlayerRecord(Kind.WEREWOLVES, "greedy", 9, 0.01, 0, (0.01, 0.005)),
    map_name="thetrap",
    seed=42,
)
OUTPUTS = {Kind.VAMPIRES: [Path("g/v.out"), Path("g/v.err")], Kind.WEREWOLVES: [Path("g/w.err")]}
FALLBACKS = {Kind.VAMPIRES: 2, Kind.WEREWOLVES: 0}


def test_a_match_entry_is_the_documented_json_of_a_game() -> None:
    entry = match_entry(finished_game(RESULT, "1", OUTPUTS, FALLBACKS, Path("t.jsonl")))
    assert json.loads(json.dumps(entry)) == {
        "winner": "werewolves",
        "termination": "crash",
        "detail": "bot.py exited with code 3",
        "plies": 7,
        "vampires": {
            "species": "vampires",
            "name": "slow",
            "creatures": 0,
            "longest_think": 0.25,
            "skipped_turns": 1,
            "thinks": [0.1, 0.25, 0.123456789],
        },
        "werewolves": {
            "species": "werewolves",
            "name": "greedy",
            "creatures": 9,
            "longest_think": 0.01,
            "skipped_turns": 0,
            "thinks": [0.01, 0.005],
        },
        "map_name": "thetrap",
        "seed": 42,
        "outputs": ["g/v.out", "g/v.err", "g/w.err"],
        "fallbacks": {"vampires": 2, "werewolves": 0},
    }


def test_a_match_entry_and_its_results_file_line_agree_field_by_field(tmp_path: Path) -> None:
    game = finished_game(RESULT, "1", OUTPUTS, FALLBACKS)
    header = Header(participants=[], format="match", maps=["thetrap"], rounds=1, seed=1, games=1)
    writer = ResultsWriter(tmp_path / "r.jsonl", header)
    writer.add(game)
    writer.close()
    line = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[1])
    entry = match_entry(game)
    same = ("winner", "termination", "plies")
    assert [entry[key] for key in same] == [line[key] for key in same]
    assert (entry["detail"], entry["map_name"], entry["seed"]) == (
        line["reason"],
        line["map"],
        line["battle_seed"],
    )
    for species in ("vampires", "werewolves"):
        for key in ("name", "creatures", "longest_think", "skipped_turns", "thinks"):
            assert entry[species][key] == line[species][key], (species, key)
        assert entry["fallbacks"][species] == line[species]["fallbacks"]
    assert entry["outputs"] == line["vampires"]["outputs"] + line["werewolves"]["outputs"]
