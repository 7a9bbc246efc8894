"""``vvw map check|show|generate``: exit codes, one-line messages, never a traceback."""

from pathlib import Path

import pytest

from engine.mapfile import load_map
from tests.helpers.maps import MAPS
from vvw.cli import main

THETRAP = str(MAPS / "thetrap.xml")
THETRAP_LINE = (
    "5 rows × 10 columns, 4 houses (9 humans), vampires 4 at (4,3), werewolves 4 at (4,1)"
)


@pytest.fixture
def bad_map(tmp_path: Path) -> Path:
    path = tmp_path / "bad.xml"
    path.write_text('<Map Rows="2" Columns="2"><Vampires X="0" Y="0" Count="0"/></Map>')
    return path


def test_check_accepts_a_good_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check", THETRAP]) == 0
    out, err = capsys.readouterr()
    assert out == f"ok    {THETRAP}: {THETRAP_LINE}\n"
    assert err == ""


def test_check_reports_a_bad_map_and_exits_1(
    bad_map: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["map", "check", str(bad_map)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f'error {bad_map}, line 1, <Vampires X="0" Y="0" Count="0"/>:'
        " Count must be at least 1 (an empty cell needs no element)\n"
    )


def test_check_counts_good_and_bad_files(
    bad_map: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.xml"
    assert main(["map", "check", THETRAP, str(bad_map), str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"ok    {THETRAP}: {THETRAP_LINE}"]
    assert err.splitlines()[1:] == [
        f"error {missing}: cannot read the file: No such file or directory",
        "1 good, 2 bad",
    ]
    assert "Traceback" not in out + err


def test_check_passes_every_map_we_ship(capsys: pytest.CaptureFixture[str]) -> None:
    paths = sorted(str(p) for p in MAPS.glob("*.xml"))
    assert main(["map", "check", *paths]) == 0
    out, _ = capsys.readouterr()
    assert out.endswith(f"{len(paths)} good, 0 bad\n")


def test_show_draws_the_starting_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "show", THETRAP]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == f"{THETRAP}: {THETRAP_LINE}"
    assert lines[1:6] == load_map(THETRAP).initial_state().draw().splitlines()
    assert lines[6].startswith("H humans 9, V vampires 4, W werewolves 4;")
    assert err == ""


def test_show_takes_a_bundled_name_or_a_generated_map_as_other_commands_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["map", "show", "thetrap"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"thetrap: {THETRAP_LINE}"
    assert main(["map", "show", "gen:4:25x25:10"]) == 0
    assert capsys.readouterr().out.startswith("gen:4:25x25:10: 25 rows × 25 columns, 20 houses")
    assert main(["map", "show", "nothing-of-the-name"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("vvw map show: unknown map 'nothing-of-the-name' (bundled: all_in,")
    pattern = str(Path(THETRAP).parent / "test*.xml")
    assert main(["map", "show", pattern]) == 2
    assert capsys.readouterr().err == f"vvw map show: {pattern} names 3 maps; show draws one\n"


def test_show_refuses_a_bad_map_in_one_line(
    bad_map: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["map", "show", str(bad_map)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"vvw map show: {bad_map}, line 1,")
    assert err.count("\n") == 1


def test_generate_writes_a_map_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "mine.xml"
    assert main(["map", "generate", "20", "15", "6", "--seed", "3", "-o", str(target)]) == 0
    _, err = capsys.readouterr()
    game_map = load_map(target)
    assert (game_map.cols, game_map.rows, len(game_map.humans)) == (20, 15, 12)
    assert err.startswith(f"wrote {target}: 15 rows × 20 columns, 12 houses")
    assert main(["map", "generate", "20", "15", "6", "--seed", "3", "-o", str(tmp_path / "b")]) == 0
    assert (tmp_path / "b").read_bytes() == target.read_bytes()


def test_generate_writes_to_stdout_without_o(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["map", "generate", "6", "4", "2", "--seed", "1"]) == 0
    out, _ = capfdbinary.readouterr()
    assert out.startswith(b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8" ?>\r\n<Map Rows="4"')


def test_generate_refuses_an_impossible_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "generate", "2", "2", "5"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "vvw map generate: a 2 × 2 grid has room for 1 mirrored homes besides the starts, not 5\n"
    )


def test_a_missing_action_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["map"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(one of: check, show, generate)" in err
