"""Bad files and folders on the command line: one clear line and an exit code, no traceback."""

from pathlib import Path

import pytest

from engine.mapfile import load_map
from vvw.cli import main
from vvw.paths import folder_to_write


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "afile"
    path.write_text("not a folder")
    return path


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("output", "says"),
    [
        ("missing/dir/x.xml", "cannot write {o}: no folder {tmp}/missing/dir"),
        ("adir", "cannot write {o}: it is a folder"),
        ("afile/x.xml", "cannot write {o}: {tmp}/afile is not a folder"),
    ],
)
def test_map_generate_to_a_path_it_cannot_write_says_why_in_one_line(
    output: str, says: str, tmp_path: Path, a_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "adir").mkdir()
    target = tmp_path / output
    assert main(["map", "generate", "10", "10", "4", "-o", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert _one_line(err) == "vvw map generate: " + says.format(o=target, tmp=tmp_path)
    assert not (tmp_path / "missing").exists()


def test_map_generate_replaces_a_file_it_may_write(
    a_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["map", "generate", "10", "10", "4", "--seed", "1", "-o", str(a_file)]) == 0
    assert load_map(a_file).cols == 10


@pytest.mark.parametrize("command", [["serve"], ["match", "random", "random"]])
@pytest.mark.parametrize(
    ("folder", "says"),
    [
        ("afile", "argument --transcript: {tmp}/afile is a file, not a folder"),
        ("afile/sub", "argument --transcript: cannot make the folder {tmp}/afile/sub: "),
    ],
)
def test_a_transcript_folder_that_cannot_be_one_is_refused_before_any_game(
    command: list[str],
    folder: str,
    says: str,
    tmp_path: Path,
    a_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--map", "thetrap", "--transcript", str(tmp_path / folder)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert last.startswith(f"vvw {command[0]}: error: " + says.format(tmp=tmp_path))


@pytest.mark.parametrize(
    ("folder", "says"),
    [
        ("afile", "{tmp}/afile is a file, not a folder"),
        ("afile/sub", "cannot make the folder {tmp}/afile/sub: "),
    ],
)
def test_agent_and_proxy_refuse_a_transcript_folder_that_cannot_be_one(
    folder: str, says: str, tmp_path: Path, a_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = str(tmp_path / folder)
    with pytest.raises(SystemExit) as exited:
        main(["agent", "random", "127.0.0.1", "1", "--transcript", where])
    assert exited.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("vvw agent: error: argument --transcript: " + says.format(tmp=tmp_path))
    assert main(["proxy", "--upstream", "1", "--listen", "0", "--transcript", where]) == 2
    err = capsys.readouterr().err
    assert _one_line(err).startswith("vvw proxy: --transcript: " + says.format(tmp=tmp_path))


def test_a_missing_transcript_folder_is_made(tmp_path: Path) -> None:
    assert folder_to_write(str(tmp_path / "new" / "runs")).is_dir()


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--time-budget", "nan", "argument --time-budget: nan is not a number of seconds above 0"),
        ("--time-budget", "0", "argument --time-budget: 0 is not a number of seconds above 0"),
        ("--games", "0", "argument --games: 0 is below 1"),
    ],
)
def test_agent_checks_its_numbers_when_it_reads_them(
    option: str, value: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["agent", "random", "127.0.0.1", "1", option, value])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(f"vvw agent: error: {says}\n")
