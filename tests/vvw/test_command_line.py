"""The command line as a user meets it: one error path with one line and one exit status,
bots refused before the first game, messages that agree, help without markup."""

import argparse
import json
import signal
import sys
from pathlib import Path

import pytest

from engine import GameResult, Kind, PlayerRecord, Termination
from vvw.cli import build_parser, main
from vvw.command_parser import CommandParser
from vvw.errors import BROKEN_PIPE, CommandError, Stopped, UsageError, ending
from vvw.running.participants import Participant, parse_participants

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
PLAY = f"{sys.executable} {BOT} play {{host}} {{port}}"


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, (out, err)
    return err.strip()


def test_errors_inside_exception_groups_end_the_command_by_their_kind() -> None:
    group = BaseExceptionGroup("nursery", [ValueError("a bug"), UsageError("bad input")])
    assert ending(group, signal.SIGINT) == ("bad input", 2)
    assert ending(ExceptionGroup("n", [ExceptionGroup("m", [CommandError("no")])]), 2) == (
        "no",
        1,
    )
    interrupted = BaseExceptionGroup("n", [UsageError("x"), KeyboardInterrupt()])
    assert ending(interrupted, signal.SIGTERM) == ("stopped by SIGTERM", 143)
    assert ending(ExceptionGroup("n", [BrokenPipeError(), CommandError("x")]), 2) == (
        None,
        BROKEN_PIPE,
    )
    assert ending(Stopped(signal.SIGHUP, "after 1 game"), 2) == (
        "stopped by SIGHUP after 1 game",
        129,
    )
    assert ending(FileNotFoundError(2, "No such file or directory", "x.txt"), 2) == (
        "No such file or directory: x.txt",
        1,
    )
    assert ending(ExceptionGroup("n", [ValueError("a bug")]), 2) is None


def _parsers(parser: CommandParser) -> list[CommandParser]:
    return [parser] + [inner for sub in parser.subcommands.values() for inner in _parsers(sub)]


def test_every_help_reads_without_markup_and_names_its_own_command() -> None:
    parsers = _parsers(build_parser())
    names = {parser.prog for parser in parsers}
    assert {"vvw tournament report", "vvw map show", "vvw log show", "vvw check-bot"} <= names
    for parser in parsers:
        text = parser.format_help()
        for markup in ("``", ":mod:", ":func:", ":class:", ":data:"):
            assert markup not in text, f"{parser.prog} --help shows {markup}"


def test_tournament_report_is_a_subcommand_with_its_own_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["tournament", "report", "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert " ".join(out.split()).startswith(
        "usage: vvw tournament report [-h] [--csv | --json | --html DIR] FILE [FILE ...]"
    )
    assert "--concurrency" not in out
    with pytest.raises(SystemExit):
        main(["tournament", "report"])
    assert "vvw tournament report: error: the following arguments are required: FILE" in (
        capsys.readouterr().err
    )


def test_a_script_without_its_run_bit_is_refused_saying_how_to_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.py").write_text(BOT.read_text())
    assert main(["match", "--map", "testmap", "./broken.py illegal", "random"]) == 2
    assert _one_line(capsys) == (
        "vvw match: cannot start broken.py: ./broken.py is not executable:"
        " chmod +x ./broken.py, or run it as `python3 ./broken.py`"
    )


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("./nowhere", "./nowhere not found"),
        ("nowhere-on-path", "nowhere-on-path not found (not a program on PATH)"),
        (f"{sys.executable} gone.py {{host}} {{port}}", "gone.py not found"),
        ("./bots", "./bots is a folder, not a program"),
    ],
)
def test_a_command_that_cannot_start_says_why_before_any_game(
    spec: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    problem = Participant("x", spec).problem()
    assert problem is not None and problem.startswith(why)
    module = f"{sys.executable} -m vvw agent random {{host}} {{port}}"
    assert Participant("x", module).problem() is None


@pytest.mark.parametrize(
    "command",
    [
        ["match", "--map", "testmap", "alphabeta --dept 3", "random"],
        ["tournament", "alphabeta --dept 3", "random", "--maps", "testmap"],
    ],
)
def test_a_built_in_bots_mistyped_option_is_refused_before_the_first_game(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(command) == 2
    assert _one_line(capsys).startswith(
        f"vvw {command[0]}: cannot start alphabeta --dept 3: bot 'alphabeta' has no option dept;"
        " its options: time_budget (float), depth (int)"
    )
    assert list(tmp_path.iterdir()) == []  # no game, no results, no runs/ folder


def test_built_in_bots_options_are_checked_as_vvw_agent_reads_them() -> None:
    assert (
        Participant("a", "alphabeta --depth 2 -o width=3 --name deep --time-budget 0.5").problem()
        is None
    )
    assert "must be int, got 'deep'" in (
        Participant("e", "expectiminimax -o depth=deep").problem() or ""
    )
    assert "unexpected argument 'more'" in (Participant("g", "greedy more").problem() or "")


def test_name_and_bot_in_one_word_are_a_named_participant() -> None:
    assert parse_participants(["name=x python3 mybot.py {host} {port}", "greedy"]) == [
        Participant("x", "python3 mybot.py {host} {port}"),
        Participant("greedy", "greedy"),
    ]
    assert parse_participants(["name=y cmd=./bot", "name=z", "random"])[0] == Participant(
        "y", "./bot"
    )
    with pytest.raises(ValueError, match=r"name=z is not followed by a bot: name=NAME BOT, as two"):
        parse_participants(["greedy", "name=z"])


def test_a_match_without_two_bots_says_what_it_understood(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--map", "testmap", "name=x", "greedy"]) == 2
    assert _one_line(capsys) == "vvw match: two bots play a match, got 1: 'x' (greedy)"


def test_results_errors_say_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = ["tournament", PLAY, PLAY, "--maps", "testmap", "--results", str(tmp_path)]
    assert main(command) == 2
    assert _one_line(capsys) == (
        f"vvw tournament: --results {tmp_path} is a folder: name a file, e.g. {tmp_path}/r.jsonl"
    )
    assert main(["tournament", "report", str(tmp_path / "none.jsonl")]) == 2
    assert _one_line(capsys) == (
        f"vvw tournament report: cannot read {tmp_path / 'none.jsonl'}: No such file or directory"
    )
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(json.dumps({"type": "game"}) + "\n{\n" + json.dumps({"type": "x"}) + "\n")
    assert main(["tournament", "report", str(damaged)]) == 2
    assert _one_line(capsys).startswith(f"vvw tournament report: {damaged}, line 1, is not")


def test_a_bad_map_is_named_once_with_the_commands_own_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<map>\n</map>\n")
    assert main(["serve", "--map", str(bad), "--port", "0"]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"vvw serve: bad map {bad}, line 1") and line.count(str(bad)) == 1


def test_a_file_that_is_not_what_it_should_be_exits_2_in_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    for command in (
        ["map", "show", str(junk)],
        ["replay", str(junk)],
        ["log", "show", str(junk)],
        ["tournament", "report", str(junk)],
    ):
        assert main(command) == 2, command
        assert _one_line(capsys).startswith(f"vvw {' '.join(command[:-1])}: ")


def test_counts_are_in_the_singular_when_they_are_one() -> None:
    result = GameResult(
        winner=None,
        termination=Termination.ABORTED,
        detail="the server was stopped",
        plies=1,
        vampires=PlayerRecord(Kind.VAMPIRES, "a", 4),
        werewolves=PlayerRecord(Kind.WEREWOLVES, "b", 4),
    )
    assert result.summary() == "aborted after 1 ply: the server was stopped"
    assert str(Stopped(signal.SIGINT, "after 1 game")) == "stopped by SIGINT after 1 game"


def test_the_parser_of_a_command_is_told_apart_from_its_subcommands() -> None:
    args = build_parser().parse_args(["tournament", "report", "x.jsonl"])
    assert args.command_name == "vvw tournament report" and args.files == [Path("x.jsonl")]
    args = build_parser().parse_args(["tournament", "greedy", "random", "--maps", "testmap"])
    assert args.command_name == "vvw tournament" and args.participants == ["greedy", "random"]
    assert isinstance(args, argparse.Namespace)
