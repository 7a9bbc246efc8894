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
