"""A bots file names each participant's command, options, folder and time budget once;
``vvw match`` and ``vvw tournament`` take its bots by name (issue 45)."""

import json
import sys
from pathlib import Path

import pytest

from vvw.cli import main
from vvw.running.botsfile import read_bots
from vvw.running.participants import Participant, parse_participants

BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
SAYS_WHERE = (
    f'sh -c \'pwd > where.txt; exec {sys.executable} {BOT} play "$0" "$1"\' {{host}} {{port}}'
)
"""A bot that writes the folder it runs in to ``where.txt`` there, then plays."""


def bots_file(folder: Path, text: str) -> Path:
    path = folder / "bots.toml"
    path.write_text(text)
    return path


def test_each_bot_is_its_command_with_its_options_budget_and_folder(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    path = bots_file(
        tmp_path,
        """
        [mine]
        command = "./mybot {host} {port} --think {time_budget}"
        folder = "mine"
        time_budget = 1.5
        options = { depth = 4, fast = true, slow = false, style = "sharp" }

        [deep]
        command = "alphabeta"
        time_budget = 0.75
        options = { depth = 6 }
        """,
    )
    assert read_bots(path) == {
        "mine": Participant(
            "mine",
            "./mybot {host} {port} --think 1.5 --depth 4 --fast --style sharp",
            str(tmp_path / "mine"),
        ),
        "deep": Participant("deep", "alphabeta --depth 6 --time-budget 0.75"),
    }
    deep = read_bots(path)["deep"].argv("127.0.0.1", 5555, seed=1, move_time=2.0)
    assert deep[-4:] == ["--depth", "6", "--time-budget", "0.75"]  # after ours: it wins


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "[a]\ncomand = 'x'\n",
            "[a]: unknown key 'comand' (a bot has command, folder, time_budget",
        ),
        ("[a]\nfolder = '.'\n", '[a]: no command = "…"'),
        ("a = 'greedy'\n", ": a = … is not a bot: one table per bot, [NAME] then command"),
        ("[a]\ncommand = 'greedy\n", "not a bots file: bad TOML, "),
        ("[a]\ncommand = './bot'\ntime_budget = 1\n", "[a]: time_budget reaches a command through"),
        ("[a]\ncommand = 'greedy'\ntime_budget = 0\n", "[a]: time_budget is seconds per reply"),
        ("[a]\ncommand = 'x'\nfolder = 'nowhere'\n", "[a]: folder nowhere is not a folder"),
        ("[a]\ncommand = 'x'\noptions = { o = [1] }\n", "[a]: option o is a number, text or"),
        ("", ": no bot in it: one table per bot"),
    ],
)
def test_a_bad_bots_file_is_one_line_naming_the_file_and_the_bot(
    tmp_path: Path, text: str, says: str
) -> None:
    path = bots_file(tmp_path, text)
    with pytest.raises(ValueError) as refused:
        read_bots(path)
    assert str(refused.value).startswith(str(path)) and says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_commands_time_budget_is_the_files_or_else_the_one_the_move_time_leaves() -> None:
    mine = Participant("mine", "./mybot {host} {port} --think {time_budget}")
    assert mine.argv("h", 7, move_time=0.5) == ["./mybot", "h", "7", "--think", "0.4"]
    assert mine.argv("h", 7, move_time=2.0)[-1] == "1.8"


def test_a_name_of_the_file_is_its_bot_on_the_command_line(tmp_path: Path) -> None:
    known = read_bots(bots_file(tmp_path, "[mine]\ncommand = 'greedy'\n"))
    players = parse_participants(["mine", "name=other", "mine", "random"], known)
    assert [(p.name, p.spec) for p in players] == [
        ("mine", "greedy"),
        ("other", "greedy"),
        ("random", "random"),
    ]
    with pytest.raises(ValueError, match="two participants are named 'mine'"):
        parse_participants(["mine", "name=mine", "random"], known)


def test_a_match_plays_the_files_two_bots_each_in_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots" / "mine").mkdir(parents=True)
    path = bots_file(
        tmp_path / "bots",
        f'[mine]\ncommand = """{SAYS_WHERE}"""\nfolder = "mine"\n\n'
        "[quick]\ncommand = 'greedy'\ntime_budget = 0.5\n",
    )
    words = ["--bots", str(path), "--map", "testmap", "--ply-limit", "6", "--json", "r.json"]
    assert main(["match", *words, "--no-transcript"]) == 0
    assert (tmp_path / "bots" / "mine" / "where.txt").read_text().strip() == str(
        tmp_path / "bots" / "mine"
    )
    (game,) = json.loads((tmp_path / "r.json").read_text())
    assert (game["vampires"]["name"], game["werewolves"]["name"]) == ("mine", "quick")
    assert "1 game: mine " in capsys.readouterr().out


def test_a_tournament_plays_every_bot_of_the_file(tmp_path: Path) -> None:
    path = bots_file(
        tmp_path, "[a]\ncommand = 'random'\n[b]\ncommand = 'greedy'\n[c]\ncommand = 'random'\n"
    )
    results = tmp_path / "r.jsonl"
    words = ["--bots", str(path), "--maps", "testmap", "--ply-limit", "4", "--seed", "1"]
    assert main(["tournament", *words, "--results", str(results)]) == 0
    header = json.loads(results.read_text().splitlines()[0])
    assert header["participants"] == [["a", "random"], ["b", "greedy"], ["c", "random"]]
    assert len(results.read_text().splitlines()) == 1 + 6
