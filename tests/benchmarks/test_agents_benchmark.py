"""benchmarks.agents prints a row for every bot and position, a solved endgame included,
and runs a git ref's bots beside this tree's on the same positions."""

import subprocess
from pathlib import Path

import pytest

from benchmarks import agents as benchmark
from benchmarks.versions import checkout

ROOT = Path(__file__).resolve().parents[2]


def test_a_row_for_every_bot_and_position_even_a_solved_endgame(capsys) -> None:
    # thetrap after 20 plies is a one-against-one endgame: expectiminimax answers it from
    # its solution, without a search.
    bots = "alphabeta,expectiminimax,seed2025"
    benchmark.main(["--depth", "1", "--bots", bots, "--maps", "thetrap", "--plies", "0,20"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert len(rows) == 3 * 2
    assert sum("no search" in row for row in rows) == 1
    assert all(row.split()[4] == "this" for row in rows)


def test_an_unknown_ref_is_one_clear_error() -> None:
    with (
        pytest.raises(ValueError, match="git knows no commit 'no-such-ref'"),
        checkout("no-such-ref"),
    ):
        pass


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_against_a_ref_both_versions_search_the_same_positions(capsys) -> None:
    limits = ["--depth", "2", "--bots", "alphabeta", "--maps", "testmap-5x9", "--plies", "0"]
    benchmark.main([*limits, "--against", "HEAD"])
    out = capsys.readouterr().out.splitlines()
    versions = [row.split()[4] for row in out if row.startswith("alphabeta ")]
    assert versions == ["this", "HEAD"]
    assert out[-1].endswith("the same ply at depth 2 on 1 of 1 positions")


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_a_checkout_is_a_tree_of_the_ref_and_is_gone_after() -> None:
    with checkout("HEAD") as tree:
        assert (tree / "agents" / "deepening.py").exists() == (
            subprocess.run(
                ["git", "-C", str(ROOT), "cat-file", "-e", "HEAD:agents/deepening.py"],
                capture_output=True,
            ).returncode
            == 0
        )
        assert (tree / "engine" / "__init__.py").exists()
    assert not tree.exists()
