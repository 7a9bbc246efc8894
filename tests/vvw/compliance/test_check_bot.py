"""``vvw check-bot``: every built-in bot passes; deliberately broken bots fail at the right
step, with the right message, and the exit status says so."""

import sys
from pathlib import Path

import pytest

from agents.registry import BOTS
from vvw.cli import main

BOT = Path(__file__).resolve().parents[3] / "tests" / "server" / "bots" / "bot.py"
FAST = ["--move-time", "0.3", "--long-plies", "20", "--connect-time", "5"]
QUICK_BOTS = ("random", "greedy")


def _check(capsys, bot: str, *options: str) -> tuple[int, str]:
    status = main(["check-bot", bot, *FAST, *options])
    return status, capsys.readouterr().out


def _broken(mode: str) -> str:
    return f"{sys.executable} {BOT} {mode} {{host}} {{port}}"


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=() if name in QUICK_BOTS else pytest.mark.slow) for name in BOTS],
)
def test_every_built_in_bot_passes_every_step(capsys, name):
    status, out = _check(capsys, name)
    assert status == 0, out
    assert out.count(": Passed") == 9 and "9 passed, 0 failed" in out


def test_a_well_behaved_bot_process_passes_every_step(capsys):
    status, out = _check(capsys, _broken("play"))
    assert status == 0, out


def _failed_step(out: str) -> tuple[int, list[str]]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith(": Failed"))
    following = [line for line in lines[at + 1 :] if line.startswith("     ")]
    return int(lines[at].split(".")[0]), following


@pytest.mark.parametrize(
    ("mode", "steps", "step", "expected", "got"),
    [
        ("silent", "1", 1, "expected: NME within 1 s of connecting", "nothing in 1 s"),
        ("garbage", "1", 1, "expected: NME within 1 s", "bytes that are no message"),
        ("late", "3", 3, "expected: a MOV within 0.3 s of `UPD 0`", "no MOV in 0.3 s: `MOV 1:"),
        (
            "illegal",
            "4",
            4,
            "expected: a legal ply for the vampires",
            "rule 3 (the source cell holds fewer creatures than the move sends)",
        ),
        (
            "linger",
            "5",
            5,
            "expected: the bot exits within 2 s of END, BYE",
            "still running after 2 s",
        ),
        (
            "spinclose",
            "9",
            9,
            "expected: the bot exits within 2 s of the server closing",
            "still running after 2 s",
        ),
        (
            "crash",
            "3",
            3,
            "expected: a MOV within 0.3 s",
            "the bot closed its connection (the bot exited with code 3)",
        ),
    ],
)
def test_a_broken_bot_fails_at_the_right_step_with_the_right_message(
    capsys, mode, steps, step, expected, got
):
    status, out = _check(capsys, _broken(mode), "--steps", steps, "--connect-time", "1")
    assert status == 1
    failed, details = _failed_step(out)
    assert failed == step, out
    assert any(line.strip().startswith(expected) for line in details), out
    assert any(line.strip().startswith("got: ") and got in line for line in details), out
    assert "the bot's last output:" in out


def test_the_bots_own_output_is_shown_with_a_failure(capsys):
    _, out = _check(capsys, _broken("crash"), "--steps", "3")
    assert "| boom: the bot broke" in out


def test_steps_name_a_list_and_ranges_and_bad_ones_are_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["check-bot", "greedy", "--steps", "0,12"])
    assert exited.value.code == 2
    assert "steps are 1..9" in capsys.readouterr().err


def test_one_illegal_ply_is_one_failure_shown_once_the_steps_after_it_skipped(capsys):
    status, out = _check(capsys, _broken("illegal"))
    assert status == 1
    lines = out.splitlines()
    assert lines[-1] == "4 passed, 3 failed, 2 skipped"
    assert "5. after END then BYE, exits: Skipped (step 4 failed)" in lines
    assert out.count("expected: ") == 1 and out.count("the bot's last output:") == 1
    for step in (6, 8):  # the same bot makes the same mistake in its later sessions
        assert any(
            line.startswith(f"{step}. ")
            and line.endswith("(the same fault as step 4: an illegal ply, rule 3)")
            for line in lines
        ), out


def test_a_failure_on_a_large_board_draws_the_board_around_the_move_and_cuts_long_lines(capsys):
    status, out = _check(capsys, _broken("illegal"), "--steps", "8")
    assert status == 1
    assert "(around the move: columns " in out and "of 30 rows × 30 columns)" in out
    assert max(len(line) for line in out.splitlines()) <= 180, out


STUDENT_MODULE = '''"""A student's own module, named as one of our packages."""


def choose(groups):
    x, y, n = max(groups, key=lambda group: group[2])
    return [(x, y, n, x + (1 if x == 0 else -1), y)]
'''
STUDENT_BOT = """import sys

import {name}
from {library} import play_blocking


class Mine:
    name = "mine"

    def new_game(self, species, state):
        pass

    def choose_ply(self, state, deadline):
        return {name}.choose(state.groups(state.to_move))


print(play_blocking(Mine(), sys.argv[1], int(sys.argv[2])))
"""


@pytest.mark.parametrize(
    ("name", "library"),
    [
        ("engine", "agents.client"),
        ("protocol", "agents.client"),
        ("server", "agents.client"),
        ("agents", "vvw.client"),
    ],
)
def test_a_bot_beside_its_own_module_named_as_one_of_ours_uses_both(
    capsys, tmp_path, name, library
):
    # the student's engine.py (say) is theirs in their bot, and ours in the client library
    (tmp_path / f"{name}.py").write_text(STUDENT_MODULE)
    (tmp_path / "mybot.py").write_text(STUDENT_BOT.format(name=name, library=library))
    bot = f"{sys.executable} {tmp_path / 'mybot.py'} {{host}} {{port}}"
    status, out = _check(capsys, bot, "--steps", "1-5")
    assert status == 0, out


def test_a_bot_whose_own_agents_py_hides_the_library_is_told_how_to_import_it(capsys, tmp_path):
    (tmp_path / "agents.py").write_text(STUDENT_MODULE)
    (tmp_path / "mybot.py").write_text(STUDENT_BOT.format(name="agents", library="agents.client"))
    bot = f"{sys.executable} {tmp_path / 'mybot.py'} {{host}} {{port}}"
    status, out = _check(capsys, bot, "--steps", "1")
    assert status == 1
    assert "agents.py hides vvw's agents package" in out and "from vvw.client import" in out
