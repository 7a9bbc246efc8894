"""``vvw match`` refuses bad bot commands in one line, without a traceback."""

from pathlib import Path

import pytest

from vvw.cli import main

MAP = str(Path(__file__).resolve().parents[2] / "maps" / "testmap.xml")


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("", "empty bot command"),
        ("'unclosed", "No closing quotation"),
        ("./no-such-bot-here", "cannot start no-such-bot-here: ./no-such-bot-here not found"),
    ],
)
def test_a_bad_bot_command_is_one_line_and_exit_code_2(spec, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["match", "--map", MAP, spec, "random", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
