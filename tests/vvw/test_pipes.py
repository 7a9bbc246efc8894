"""``vvw … | head -1``: a closed pipe ends any command quietly, and a results file stays whole."""

import subprocess
import sys
from pathlib import Path

import pytest

from vvw.errors import BROKEN_PIPE
from vvw.records.results import read_results

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
PLAY = f"{sys.executable} {BOT} play {{host}} {{port}}"
GAME = ROOT / "docs" / "games" / "testmap2-expectiminimax-vs-seed2025.jsonl"
"""A transcript whose rendering, boards drawn, is longer than a pipe holds."""


def _read_one_line_then_close(words: list[str], cwd: Path) -> tuple[int, str]:
    """What ``vvw WORDS | head -1`` does to vvw: its exit status and standard error."""
    command = subprocess.Popen(
        [sys.executable, "-m", "vvw", *words],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert command.stdout is not None and command.stderr is not None
    assert command.stdout.readline()
    command.stdout.close()
    code = command.wait(timeout=60)
    return code, command.stderr.read()


@pytest.mark.parametrize(
    "words",
    [
        ["tournament", "name=a", PLAY, "name=b", PLAY, "name=c", PLAY, "--maps", "testmap"],
        ["match", "--map", "testmap", PLAY, PLAY, "--games", "4"],
        ["log", "show", str(GAME), "--boards"],
    ],
    ids=["tournament", "match", "log show"],
)
def test_a_closed_pipe_ends_a_command_quietly(words: list[str], tmp_path: Path) -> None:
    extra = ["--ply-limit", "8", "--results", str(tmp_path / "r.jsonl")]
    code, err = _read_one_line_then_close(
        words + (extra if words[0] == "tournament" else []), tmp_path
    )
    assert (code, err) == (BROKEN_PIPE, "")
    if words[0] == "tournament":
        text = (tmp_path / "r.jsonl").read_text()
        assert text.endswith("\n")  # no line cut short
        header, games = read_results(tmp_path / "r.jsonl")
        assert len(games) < header.games
