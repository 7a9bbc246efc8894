"""How bot specs become commands: built-in bots think within the server's time per move."""

import sys

from vvw.running.bots import bot_command, time_budget


def test_a_built_in_bot_leaves_a_tenth_of_the_move_time_and_at_least_a_tenth_of_a_second():
    argv = bot_command("alphabeta", "127.0.0.1", 5555, move_time=0.37)
    assert argv[:6] == [sys.executable, "-P", "-m", "vvw", "agent", "alphabeta"]
    assert argv[argv.index("--time-budget") + 1] == "0.27"
    assert time_budget(2.0) == 1.8
    assert time_budget(0.5) == 0.4
    assert time_budget(0.1) == 0.05  # never less than half


def test_a_built_in_bot_s_own_time_budget_comes_last_so_it_wins() -> None:
    argv = bot_command("greedy --time-budget 0.05", "127.0.0.1", 5555, move_time=2.0)
    assert argv[-2:] == ["--time-budget", "0.05"]
    assert argv.index("--time-budget") < len(argv) - 2


def test_a_command_is_not_given_a_time_budget() -> None:
    argv = bot_command("./mybot {host} {port}", "127.0.0.1", 5555, move_time=0.3)
    assert argv == ["./mybot", "127.0.0.1", "5555"]
