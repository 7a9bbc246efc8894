"""benchmarks.learned_bot: expectiminimax with the learned chances at its leaves, and the
tournament participant that runs it with the built-in bot's time budget and seed."""

import shlex
import time

import pytest

from agents.expectiminimax import ExpectiminimaxAgent
from benchmarks.agents import positions
from benchmarks.learned_bot import LearnedAgent, main, participant
from engine import find_violation, opponent
from vvw.analysis.leaves import default_leaf
from vvw.analysis.search import LEAF_EDGE, as_value
from vvw.running.bots import bot_command
from vvw.running.participants import parse_participants


def test_it_plays_a_legal_ply_searched_two_plies_deep() -> None:
    [(_, state)] = list(positions(["testmap-5x9"], [2]))
    agent = LearnedAgent(depth=2, seed=1)
    agent.new_game(state.to_move, state)
    ply = agent.choose_ply(state, time.monotonic() + 60)
    assert ply and find_violation(state, ply) is None
    assert agent.last_stats is not None and agent.last_stats.depth == 2


def test_its_leaf_is_the_learned_chance_for_the_side_searched_for() -> None:
    [(_, state)] = list(positions(["testmap2"], [4]))
    chance = default_leaf()(state)
    assert LEAF_EDGE < chance < 1 - LEAF_EDGE
    agent = LearnedAgent()
    agent.new_game(state.to_move, state)
    assert agent.leaf_value(state) == as_value(chance)
    agent.new_game(opponent(state.to_move), state)
    assert agent.leaf_value(state) == as_value(1 - chance)


def test_it_is_expectiminimax_at_its_defaults_but_for_risk() -> None:
    learned, plain = LearnedAgent(), ExpectiminimaxAgent()
    assert (learned.width, learned.min_width, learned.max_outcomes, learned.coverage) == (
        plain.width,
        plain.min_width,
        plain.max_outcomes,
        plain.coverage,
    )
    assert learned.endgame and plain.endgame
    assert learned.risk == 0.0 < plain.risk


def test_the_participant_thinks_as_long_as_the_builtin_bot_in_a_tournament(capsys) -> None:
    main(["participant"])
    line = capsys.readouterr().out.strip()
    assert line == participant()
    [player] = parse_participants(shlex.split(line))
    assert player.name == "learned" and not player.builtin
    for move_time in (0.6, 2.0):
        ours = player.argv("127.0.0.1", 5000, seed=7, move_time=move_time)
        theirs = bot_command("expectiminimax", "127.0.0.1", 5000, seed=7, move_time=move_time)
        for flag in ("--time-budget", "--seed"):
            assert ours[ours.index(flag) + 1] == theirs[theirs.index(flag) + 1]
        assert ours[ours.index("benchmarks.learned_bot") + 1 :][:2] == ["127.0.0.1", "5000"]


def test_as_a_client_it_reads_vvw_agents_command_line(capsys) -> None:
    # Host and port after the options, as vvw agent takes them (port 1: nobody listens).
    assert main(["--time-budget", "0.5", "--seed", "3", "127.0.0.1", "1"]) == 1
    err = capsys.readouterr().err
    assert "cannot connect to 127.0.0.1:1" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as refused:
        main(["127.0.0.1", "1", "--widht", "8"])
    assert refused.value.code == 2
    assert "has no option widht" in capsys.readouterr().err
