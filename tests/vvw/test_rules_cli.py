"""``vvw rules battle|vectors`` as a user runs them; the vectors file agrees with the engine."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine import GameState, Kind, Move, Rule, find_violation
from engine.rules import Variant
from engine.testing.oracles import Encounter, encounter_distribution, ply_distribution
from vvw.cli import main

LETTERS = {kind.letter: kind for kind in Kind}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["rules", *args])
    except SystemExit as exit:
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_random_battle_is_a_table_of_exact_fractions(capsys) -> None:
    code, out, err = run(capsys, "battle", "3V", "4W")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "3 vampires arriving on 4 werewolves (server rules):"
        " a random battle, the attackers win with P = 3/8 = 0.375",
        "outcome                                         decimal  probability",
        "vampires win, 3 left                           0.019775  81/4096",
        "vampires win, 2 left                           0.098877  405/4096",
        "vampires win, 1 left                           0.164795  675/4096",
        "vampires win, none left, the cell is empty     0.091553  375/4096",
        "werewolves hold, 4 left                        0.095367  3125/32768",
        "werewolves hold, 3 left                        0.228882  1875/8192",
        "werewolves hold, 2 left                        0.205994  3375/16384",
        "werewolves hold, 1 left                        0.082397  675/8192",
        "werewolves hold, none left, the cell is empty  0.012360  405/32768",
        "expected survivors: vampires 0.421875 (27/64), werewolves 1.5625 (25/16)",
    ]


def test_certain_outcomes_say_which_rule_decides(capsys) -> None:
    assert run(capsys, "battle", "5V", "4H")[1].splitlines() == [
        "5 vampires arriving on 4 humans (server rules): 5 ≥ 4: the humans are converted,"
        " no battle",
        "outcome                decimal  probability",
        "vampires win, 9 left  1.000000  1",
        "expected survivors: vampires 9, humans 0",
    ]
    assert run(capsys, "battle", "5v", "3w")[1].splitlines()[0] == (
        "5 vampires arriving on 3 werewolves (server rules): 2·5 ≥ 3·3: the defenders are"
        " killed, no battle"
    )


def test_the_spec_variant_kills_attackers_outnumbered_one_and_a_half_times(capsys) -> None:
    server = run(capsys, "battle", "2W", "3V")[1]
    spec = run(capsys, "battle", "2W", "3V", "--variant", "spec")[1]
    assert "a random battle, the attackers win with P = 1/3" in server
    assert spec.splitlines()[1:] == [
        "outcome                 decimal  probability",
        "vampires hold, 3 left  1.000000  1",
        "expected survivors: werewolves 0, vampires 3",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["5V", "3V"],
            "vvw rules battle: vampires arriving on vampires is not an encounter"
            " (the defenders are humans or werewolves)",
        ),
        (["4H", "3V"], "vvw rules battle: only vampires or werewolves attack, not humans"),
        (
            ["0V", "3W"],
            "vvw rules battle: error: argument ATTACKERS: '0V': a group holds 1..255 creatures",
        ),
        (
            ["5V", "3X"],
            "vvw rules battle: error: argument DEFENDERS: '3X' is not a group:"
            " a count and a letter, like 5V, 3W or 4H",
        ),
        (
            ["5V", "3W", "--variant", "book"],
            "vvw rules battle: error: argument --variant:"
            " invalid choice: 'book' (choose from 'server', 'spec')",
        ),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, args: list[str], message: str) -> None:
    code, out, err = run(capsys, "battle", *args)
    assert (code, out) == (2, "")
    assert err.strip().splitlines()[-1] == message


def encounter_of(entry: dict) -> Encounter:
    return Encounter(
        LETTERS[entry["attacker"]],
        entry["attackers"],
        LETTERS[entry["defender"]],
        entry["defenders"],
    )


def state_of(entry: dict, cells: list | None = None, after: int = 0) -> GameState:
    """The state an entry's ``state`` names, or the state with ``cells`` ``after`` plies on."""
    grid = {
        (x, y): (LETTERS[kind], n) for x, y, kind, n in (entry["cells"] if cells is None else cells)
    }
    ply = (0 if entry["to_move"] == "V" else 1) + after
    return GameState.from_cells(entry["rows"], entry["cols"], grid, ply)


def test_the_vectors_round_trip_through_the_engine(tmp_path: Path, capsys) -> None:
    path = tmp_path / "vectors.json"
    code, out, err = run(capsys, "vectors", "-o", str(path), "--max-count", "5", "--plies", "60")
    assert (code, out) == (0, "")
    assert err == f"wrote {path}: 150 encounters, 60 plies\n"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"]) == ("vvw-rules-vectors", 1)
    for entry in document["encounters"]:
        expected = encounter_distribution(encounter_of(entry), Variant(entry["variant"]))
        got = {
            (LETTERS[o["winner"]], o["survivors"]): Fraction(o["probability"])
            for o in entry["outcomes"]
        }
        assert got == expected
        assert all(o["decimal"] == float(Fraction(o["probability"])) for o in entry["outcomes"])
    verdicts = set()
    for entry in document["plies"]:
        state = state_of(entry["state"])
        ply = tuple(Move(*move) for move in entry["ply"])
        violation = find_violation(state, ply)
        broken = entry["broken_rule"]
        if violation is None:
            assert broken is None
            expected = ply_distribution(state, ply)
            got = {
                state_of(entry["state"], o["cells"], after=1): Fraction(o["probability"])
                for o in entry["outcomes"]
            }
            assert got == expected
        else:
            assert broken["name"] == violation.rule.name
            assert broken["number"] == violation.rule.number
            assert broken["reason"] == str(violation)
            assert broken["move"] is None or ply[broken["move"]] == violation.move
        verdicts.add(broken and broken["name"])
    assert verdicts == {None, *(rule.name for rule in Rule)}


def test_the_same_arguments_write_the_same_vectors(capsys) -> None:
    first = run(capsys, "vectors", "--max-count", "2", "--plies", "10", "--seed", "7")[1]
    again = run(capsys, "vectors", "--max-count", "2", "--plies", "10", "--seed", "7")[1]
    assert first == again and json.loads(first)["seed"] == 7


def test_vectors_that_cannot_be_written_are_one_line(tmp_path: Path, capsys) -> None:
    target = tmp_path / "missing" / "vectors.json"
    code, _, err = run(capsys, "vectors", "-o", str(target), "--max-count", "1", "--plies", "1")
    assert code == 2
    assert err == f"vvw rules vectors: cannot write {target}: no folder {target.parent}\n"
    code, _, err = run(capsys, "vectors", "--max-count", "31")
    assert code == 2
    assert err.splitlines()[-1].endswith("31 is above 30 (the file grows as its square)")
