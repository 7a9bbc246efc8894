"""Options before the positional words: ``--map``'s maps (and ``--builtin``'s bots) take
every word that follows them, so each command that has both gives the trailing words that
are not maps (or bots) back to its positionals, as ``vvw match`` does."""

import argparse

import pytest

from vvw.cli import build_parser, main
from vvw.ladder.queries import LadderReader


def _greedy_options_beside_positionals() -> set[str]:
    """The commands with an option of many values and positional words."""

    def walk(parser: argparse.ArgumentParser, name: str) -> set[str]:
        many = [a for a in parser._actions if a.option_strings and a.nargs in ("+", "*")]
        positional = [
            a
            for a in parser._actions
            if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
        ]
        found = {name} if many and positional else set()
        for word, sub in getattr(parser, "subcommands", {}).items():
            found |= walk(sub, f"{name} {word}".strip())
        return found

    return walk(build_parser(), "")


def test_every_command_with_options_of_many_values_before_positionals_is_one_tested_here():
    assert _greedy_options_beside_positionals() == {"match", "tournament", "play", "ladder new"}


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["play", "--map", "thetrap", "nosuchbot"], "cannot start nosuchbot"),
        (["play", "--map", "thetrap", "greedy", "random"], "one bot plays you, got 2"),
        (["play", "--map", "thetrap"], "no bot to play against: vvw play BOT --map MAP"),
        (["match", "--map", "thetrap", "nosuchbot", "random"], "cannot start nosuchbot"),
        (["tournament", "--maps", "thetrap", "nosuchbot", "random"], "nosuchbot"),
        (["ladder", "new", "--map", "thetrap"], "one ladder file to make"),
    ],
)
def test_bots_after_the_maps_are_read_as_bots(words, says, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert main([*words, "--port", "0", "--no-open"] if words[0] == "play" else words) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(
    ("words", "builtins"),
    [
        (["--map", "thetrap", "testmap", "x.db"], ("random", "greedy", "alphabeta")),
        (["--map", "thetrap", "--builtin", "greedy", "random", "x.db"], ("greedy", "random")),
        (["x.db", "--map", "thetrap"], ("random", "greedy", "alphabeta")),
    ],
)
def test_ladder_new_takes_its_file_after_the_maps_or_the_bots(
    words, builtins, capsys, monkeypatch, tmp_path
):
    monkeypatch.chdir(tmp_path)
    assert main(["ladder", "new", *words]) == 0, capsys.readouterr().err
    with LadderReader.open(tmp_path / "x.db") as reader:
        settings = reader.settings
    assert settings.builtins == builtins
    assert len(settings.maps) == 1 + ("testmap" in words)
