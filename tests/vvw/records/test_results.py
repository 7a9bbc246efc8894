"""The results file: typed in and out (the winner a Kind, the termination a Termination),
and versioned: a file of a newer version is refused in one line naming it."""

import json
from pathlib import Path

import pytest

from engine import Kind, Termination
from vvw.cli import main
from vvw.records.results import (
    VERSION,
    GameLine,
    Header,
    ResultsFileError,
    ResultsWriter,
    Side,
    read_results,
)

HEADER = Header(
    participants=[("a", "x"), ("b", "y")],
    format="round-robin",
    maps=["thetrap"],
    rounds=1,
    seed=7,
    games=2,
)


def _game(number: int, winner: Kind | None, termination: Termination) -> GameLine:
    return GameLine(
        key=f"r1:m0:a:b:{number}",
        pair="r1:m0:a:b",
        round=1,
        map="thetrap",
        battle_seed=7,
        vampires=Side("a", "x"),
        werewolves=Side("b", "y"),
        winner=winner,
        termination=termination,
    )


def _write(path: Path, games: list[GameLine]) -> Path:
    writer = ResultsWriter(path, HEADER)
    for game in games:
        writer.add(game)
    writer.close()
    return path


def test_every_winner_and_termination_is_read_back_as_the_enum_written(tmp_path):
    games = [
        _game(number, winner, termination)
        for number, (winner, termination) in enumerate(
            (winner, termination)
            for winner in (Kind.VAMPIRES, Kind.WEREWOLVES, None)
            for termination in Termination
        )
    ]
    header, read = read_results(_write(tmp_path / "r.jsonl", games))
    assert (header, read) == (HEADER, games)
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert lines[0]["version"] == VERSION
    assert {(line["winner"], line["termination"]) for line in lines[1:]} == {
        (side, termination.value)
        for side in ("vampires", "werewolves", None)
        for termination in Termination
    }


def test_a_file_written_before_versions_is_read_as_version_1(tmp_path):
    path = _write(tmp_path / "r.jsonl", [_game(1, Kind.VAMPIRES, Termination.ELIMINATION)])
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    del header["version"]
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert read_results(path) == (HEADER, [_game(1, Kind.VAMPIRES, Termination.ELIMINATION)])


def test_a_newer_version_is_refused_in_one_line_naming_it(tmp_path, capsys):
    path = _write(tmp_path / "r.jsonl", [])
    header = json.loads(path.read_text())
    header["version"] = VERSION + 1
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(ResultsFileError, match=f"results file version {VERSION + 1} is newer"):
        read_results(path)
    assert main(["tournament", "report", str(path)]) == 2  # a file it cannot use: exit 2
    err = capsys.readouterr().err
    assert f"version {VERSION + 1}" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("termination", "forfeit by charm", "'forfeit by charm' is not a valid Termination"),
        ("winner", "humans", "winner 'humans' is not vampires, werewolves or null"),
    ],
)
def test_an_unknown_winner_or_termination_is_not_a_results_line(tmp_path, field, value, says):
    path = _write(tmp_path / "r.jsonl", [_game(1, Kind.VAMPIRES, Termination.ELIMINATION)])
    header, game = path.read_text().splitlines()
    fields = json.loads(game)
    fields[field] = value
    path.write_text(f"{header}\n{json.dumps(fields)}\n")
    with pytest.raises(
        ResultsFileError, match=f"r.jsonl, line 2, is not a results line \\({says}\\)"
    ):
        read_results(path)
