"""What a command cannot parse is one line on standard error and exit status 2, as the
README says of every error; an argument of another command says where it belongs."""

import subprocess
import sys

import pytest


def _vvw(*words: str) -> subprocess.CompletedProcess[str]:
    """``vvw WORDS…`` run as a user runs it, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "vvw", *words], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["match", "greedy", "random"], "vvw match: error: the following arguments are required"),
        (
            ["match", "--map", "thetrap", "--games", "x", "greedy", "random"],
            "'x' is not a whole number",
        ),
        (["tournament", "report"], "vvw tournament report: error: the following arguments"),
        (["map"], "ACTION (one of: check, show, generate)"),
        ([], "vvw: error: the following arguments are required: COMMAND (one of: map, "),
        (["match", "--nosuch", "--map", "thetrap", "greedy", "random"], "vvw match: error:"),
    ],
)
def test_an_argument_error_is_one_line_and_exit_status_2(words, says):
    done = _vvw(*words)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert "usage:" not in done.stderr


def test_an_html_report_asked_of_a_tournament_says_where_it_is_made():
    done = _vvw("tournament", "greedy", "random", "--map", "thetrap", "--html", "site")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("vvw tournament: error: unrecognized arguments: --html site;")
    assert "vvw tournament report RESULTS.jsonl --html DIR" in done.stderr
