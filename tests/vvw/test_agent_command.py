"""``vvw agent``: a bad bot option is one clear line, before any connection; each game
played is a line, and vvw serve counts the games per bot name."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from vvw.cli import main


@pytest.mark.parametrize(
    ("bot", "options", "says"),
    [
        ("alphabeta", ["-o", "widht=8"], "bot 'alphabeta' has no option widht; its options: "),
        ("greedy", ["--depth", "3"], "bot 'greedy' has no option depth; its options: seed"),
        ("expectiminimax", ["-o", "depth=deep"], "must be int, got 'deep'"),
    ],
)
def test_a_bad_bot_option_is_refused_in_one_line_naming_the_valid_ones(
    bot: str, options: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["agent", bot, "127.0.0.1", "1", *options]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("words", "code", "says"),
    [
        # Host and port after the options are taken as such (port 1: nobody listens).
        (["--time-budget", "1", "127.0.0.1", "1"], 1, "cannot connect to 127.0.0.1:1"),
        (["127.0.0.1", "--time-budget", "1", "1"], 1, "cannot connect to 127.0.0.1:1"),
        (["--time-budget", "1", "127.0.0.1", "port"], 2, "'port' is not a port number"),
        (["127.0.0.1", "1", "--time-budget", "1", "more"], 2, "unexpected argument 'more'"),
    ],
)
def test_host_and_port_may_follow_the_options(
    words: list[str], code: int, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["agent", "greedy", *words]) == code
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


SETTINGS = ("--games", "2", "--ply-limit", "20")


def test_two_agents_on_vvw_serve_each_print_their_games_and_serve_tallies_per_name(
    tmp_path: Path,
) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "vvw", "serve", *("--map", "testmap", "--port", "0"), *SETTINGS],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    agents: list[subprocess.Popen[str]] = []
    try:
        assert server.stderr is not None
        serving = server.stderr.readline()
        assert serving.startswith("serving on 127.0.0.1:"), serving
        port = serving.rsplit(":", 1)[1].strip()
        for bot, name in (("random", "a"), ("greedy", "b")):
            settings = ("--games", "2", "--name", name, "--seed", "1")
            agents.append(
                subprocess.Popen(
                    [sys.executable, "-m", "vvw", "agent", bot, "127.0.0.1", port, *settings],
                    cwd=tmp_path,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        said = [agent.communicate(timeout=120)[0] for agent in agents]
        out, _ = server.communicate(timeout=60)
    finally:
        for process in (server, *agents):
            process.kill()
            process.wait()
    for name, lines in zip("ab", said, strict=True):
        games = [line for line in lines.splitlines() if line.startswith("game ")]
        assert len(games) == 2
        for number, game in enumerate(games, 1):
            played = rf"game {number}: {name} played the (vampires|werewolves): \d+ replies?, "
            assert re.match(played, game), game
            assert re.search(r"; the last board it was told: vampires \d+, werewolves \d+$", game)
        assert lines.splitlines()[-1].startswith(f"{name}: 2 games, ")
    tally = out.splitlines()[-1]  # per name, in the order the names first played
    counts = re.fullmatch(r"2 games: (\w) (\d) wins?, (\w) (\d) wins?, (\d) draws?", tally)
    assert counts is not None, tally
    first, first_wins, second, second_wins, draws = counts.groups()
    assert {first, second} == {"a", "b"}
    assert int(first_wins) + int(second_wins) + int(draws) == 2
