"""benchmarks.engine --against: this tree's playouts beside another commit's, worktree removed."""

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from benchmarks import engine
from benchmarks.engine import ComparisonError, main, measure_playouts
from benchmarks.versions import ROOT
from tests.helpers.maps import MAPS

needs_git = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="needs git and the project's repository",
)


def worktrees() -> str:
    return subprocess.run(
        ["git", "worktree", "list", "--porcelain"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_playouts_run_over_the_engine_of_the_checkout_they_are_given() -> None:
    measure = measure_playouts(ROOT, MAPS / "thetrap.xml", 0.05, 1)
    assert measure.games >= 1 and measure.plies >= measure.games
    assert measure.rate > 0 and measure.cpu_rate > 0


def test_playouts_over_a_folder_without_an_engine_say_so(tmp_path: Path) -> None:
    # Not this tree's engine in its place, silently: the figure would compare nothing.
    with pytest.raises(ComparisonError, match=r"imported .*engine"):
        measure_playouts(tmp_path, MAPS / "thetrap.xml", 0.05, 1)


@needs_git
def test_against_a_ref_prints_both_sides_round_by_round_and_removes_its_worktree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    maps = [str(MAPS / "thetrap.xml"), str(MAPS / "testmap.xml")]
    main(["--against", "HEAD", "--repeats", "2", "--seconds", "0.05", "--maps", *maps])
    lines = capsys.readouterr().out.splitlines()
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    assert (
        lines[0].startswith(f"random plies/s, this tree ({head}")
        and f"against HEAD ({head})" in lines[0]
    )
    assert [line.split()[:2] for line in lines if line.startswith("round")] == [
        ["round", "1/2"],
        ["round", "2/2"],
    ]
    table = lines[lines.index(next(line for line in lines if line.startswith("map"))) :]
    assert table[0].split()[:3] == ["map", "this", "tree"] and head in table[0]
    assert [row.split()[0] for row in table[1:3]] == ["thetrap.xml", "testmap.xml"]
    assert "load average" in table[-1]
    assert list(tmp_path.iterdir()) == [] and str(tmp_path) not in worktrees()


@needs_git
def test_ctrl_c_prints_the_rounds_done_exits_130_and_removes_the_worktree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    measures = []

    def measure_until_the_third(*args: object) -> engine.Playouts:
        if len(measures) == 2:
            raise KeyboardInterrupt
        measures.append(engine.Playouts(1000, 10, 0.5, 0.25))
        return measures[-1]

    monkeypatch.setattr(engine, "measure_playouts", measure_until_the_third)
    with pytest.raises(SystemExit) as stopped:
        main(["--against", "HEAD", "--repeats", "3", "--maps", str(MAPS / "thetrap.xml")])
    assert stopped.value.code == 130
    lines = capsys.readouterr().out.splitlines()
    assert "interrupted after 1 of 3 rounds" in lines
    (row,) = [line.split() for line in lines if line.startswith("thetrap.xml")]
    assert row[1:4] == ["2,000", "2,000", "1.00"] and row[-1] == "1.00"
    assert list(tmp_path.iterdir()) == [] and str(tmp_path) not in worktrees()


@needs_git
def test_a_ref_that_names_no_commit_is_one_line_and_exit_status_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--against", "no-such-ref-anywhere", "--repeats", "1"])
    assert stopped.value.code == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no commit 'no-such-ref-anywhere'" in error
