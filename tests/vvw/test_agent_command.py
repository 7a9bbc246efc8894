"""``vvw agent``: a bad bot option is one clear line, before any connection."""

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
