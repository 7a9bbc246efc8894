"""benchmarks.endgames: positions survive their file, playouts pair up, a playout ends."""

import json

import pytest

from benchmarks.endgames import (
    Playout,
    Position,
    compare,
    main,
    play_out,
    position_from_json,
    position_to_json,
    summary,
)
from benchmarks.strength import Task
from engine import GameState, Termination
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES


def _position(swapped: bool = False) -> Position:
    # 3 × 3: vampires 5 on (0, 0), werewolves 3 on (2, 2), no humans; werewolves to move.
    cells = ((0, int(VAMPIRES), 5), (8, int(WEREWOLVES), 3))
    task = Task("greedy", "random", 4, "gen", swapped, 0.05, 123)
    return Position(task, GameState(3, 3, cells, 195))


def _playout(index: int, repeat: int, score: float, start: int = 0) -> Playout:
    return Playout(index, repeat, start, 50, score, 0, Termination.PLY_LIMIT, 200, "")


def test_a_position_survives_its_json() -> None:
    position = _position()
    assert position_from_json(json.loads(json.dumps(position_to_json(position)))) == position


def test_the_margin_is_the_first_bots() -> None:
    assert _position().margin == 2
    assert _position(swapped=True).margin == -2


def test_a_position_file_with_bad_cells_is_refused() -> None:
    data = position_to_json(_position())
    data["cells"].append([8, int(HUMANS), 0])
    with pytest.raises(ValueError):
        position_from_json(data)


def test_a_playout_plays_to_the_end_with_the_same_dice_each_time() -> None:
    first = play_out((_position(), 0))
    assert first == play_out((_position(), 0))
    assert first.index == 4 and first.repeat == 0 and first.start_margin == 2
    assert first.termination in (Termination.PLY_LIMIT, Termination.ELIMINATION)
    assert first.score in (0.0, 0.5, 1.0)


def test_compare_pairs_playouts_by_position_and_repeat() -> None:
    earlier = [_playout(1, 0, 0.0), _playout(1, 1, 1.0), _playout(2, 0, 0.5)]
    now = [_playout(1, 0, 1.0), _playout(1, 1, 1.0), _playout(2, 0, 0.5), _playout(3, 0, 1.0)]
    line = compare(now, earlier)
    assert "over 3" in line and "+33.3 points" in line and "1 changed result" in line
    assert compare(now, []) == "compared: no playout in common"


def test_summary_sorts_by_the_count_at_the_start() -> None:
    text = summary([_playout(1, 0, 1.0, start=3), _playout(2, 0, 0.0, start=-1)])
    assert "score 50.0%" in text
    assert "ahead     1 playouts, 100.0%" in text and "behind    1 playouts, 0.0%" in text
    assert "level" not in text


def test_a_missing_compare_file_is_a_usage_error(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--compare", str(tmp_path / "none.json"), "--positions", str(tmp_path / "p.json")])
    assert stop.value.code == 2
    assert "not a --json file" in capsys.readouterr().err


def test_the_command_plays_out_saved_positions(tmp_path, capsys) -> None:
    positions = tmp_path / "positions.json"
    positions.write_text(json.dumps({"positions": [position_to_json(_position())]}))
    out = tmp_path / "playouts.json"
    args = ["--positions", str(positions), "--pair", "greedy:random", "--repeats", "2"]
    assert main([*args, "--move-time", "0.05", "--jobs", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 positions read" in printed and "playouts 2:" in printed
    assert len(json.loads(out.read_text())["playouts"]) == 2


def test_summary_lists_forfeits() -> None:
    late = Playout(7, 1, 0, 50, 0.0, -9, Termination.TIME_FORFEIT, 120, "replied after 0.25 s")
    text = summary([late, _playout(2, 0, 1.0)])
    assert "forfeits: 1" in text and "#7 repeat 1: time forfeit replied after 0.25 s" in text
