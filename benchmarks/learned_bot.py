"""``learned``: ``expectiminimax`` with the learned winning chances at its leaves (issue 57).

The bot is ``expectiminimax`` exactly (:class:`agents.expectiminimax.ExpectiminimaxAgent`
at its defaults: the same candidates and width at every node, the same widening when
they are few, the same chance nodes, deepening, transposition table and leaf cache kept
from move to move, the same clock and stop time, the same solved one-against-one
endgame) but for the value of a leaf: the side to move's expected score learned from
games (:func:`vvw.analysis.leaves.default_leaf`), kept within ``LEAF_EDGE`` of 0 and 1
and put on the bots' scale (:func:`vvw.analysis.search.as_value`), as ``vvw analyse``'s
:class:`~vvw.analysis.search.ChanceSearch` values it. Its values are expected scores:
``risk`` and ``contempt`` are 0 by default, as ChanceSearch has them (no cautious
utility: a chance node is the mean of its outcomes; the learned leaf has no contempt
anyway). A finished game keeps ``expectiminimax``'s value, a win, draw or loss with its
bonus for winning sooner (a ten-thousandth of a game at most), so the bot still takes
the quickest win.
It is not :class:`ChanceSearch` itself, which narrows its width level by level and starts
every search from empty tables: the point is ``expectiminimax``'s own tree with another
judge. ``agents/`` may not import ``vvw/``, so the bot lives here. The learned leaf costs
more than the evaluation (its features, then 200 trees: some 0.1 to 0.2 ms a leaf on a
big board): at 0.6 s a move the bot searches 1.2 to 2.7 times fewer nodes per second
than ``expectiminimax`` on big open maps and most often a ply less deep.

It runs as a protocol client with ``vvw agent``'s command line and behaviour (the same
parser and the same play loop: :func:`vvw.commands.agent.play_agent`):

    python -m benchmarks.learned_bot HOST PORT [--time-budget S] [--seed N] [--depth N] …
    python -m benchmarks.learned_bot participant   # a vvw tournament participant

**The time budget in a tournament.** ``vvw tournament … --move-time 0.6`` starts the
built-in ``expectiminimax`` as ``vvw agent expectiminimax 127.0.0.1 PORT --quiet
--quiet-stop --seed S --name expectiminimax --time-budget 0.5``
(:func:`vvw.running.bots.bot_command`; the budget is
:func:`vvw.running.bots.time_budget` of the move time: the move time less 10 % of it but
at least 0.1 s, so 0.5 at 0.6 s and 1.8 at 2 s). The client's deadline is then the UPD's
arrival plus 0.5 s (:func:`agents.client.play`), and the search stops a quarter of that
before it (``MARGIN_SHARE``, :func:`agents.search.stop_time`): at 0.375 s. A command
participant gets the same budget through ``{time_budget}`` (``f"{budget:g}"``, the same
:func:`~vvw.running.bots.time_budget`) and its seed through ``{seed}``, so the participant
:func:`participant` prints, ``… -m benchmarks.learned_bot {host} {port} --time-budget
{time_budget} --seed {seed} --quiet --quiet-stop``, thinks exactly as long as the built-in
bot under any ``--move-time``.

**The SPRT** (issue 57 item 6: one pair of games, sides swapped, on each of the 192 big
open maps of the earlier timed SPRT, the 13th to 60th of each size of ``target_maps
--only-big --big-per-size 60``, which prints 60 of each size; seed 51 as then; elo0 −10,
elo1 10, α = β = 0.1), at 0.6 s and at 2 s a move, on an otherwise idle machine:

    MAPS=$(python -m benchmarks.target_maps --only-big --big-per-size 60 \\
        | tr ' ' '\\n' | awk '(NR - 1) % 60 >= 12')
    LEARNED=$(python -m benchmarks.learned_bot participant)
    eval vvw tournament "$LEARNED" expectiminimax --maps $MAPS --rounds 1 --seed 51 \\
        --move-time 0.6 --concurrency 2 --sprt elo0=-10,elo1=10,alpha=0.1,beta=0.1 \\
        --results runs/learned-0.6.jsonl
    eval vvw tournament "$LEARNED" expectiminimax --maps $MAPS --rounds 1 --seed 51 \\
        --move-time 2 --concurrency 2 --sprt elo0=-10,elo1=10,alpha=0.1,beta=0.1 \\
        --results runs/learned-2.jsonl

(``eval``: the participant line holds its own quotes.) The learned bot is the first
participant, so the SPRT is of it against ``expectiminimax``; the tables' late turns and
fallback plies must stay near zero for the figures to count.
"""

import argparse
import sys
from typing import Any, cast

from agents.base import Agent
from agents.expectiminimax import ExpectiminimaxAgent, ExpectiminimaxOptions, cautious
from benchmarks.versions import ROOT, participant_line
from engine import GameState
from vvw.analysis.learned import shipped
from vvw.analysis.leaves import default_leaf
from vvw.analysis.search import leaf_as_value
from vvw.cli import run_handled
from vvw.commands.agent import play_agent
from vvw.running.bots import add_agent_arguments, bot_options

NAME = "learned"


class LearnedAgent(ExpectiminimaxAgent):
    """``expectiminimax`` with the learned chance at its leaves (module docstring)."""

    name = NAME

    def __init__(self, options: ExpectiminimaxOptions | None = None, **given: Any) -> None:
        if options is None:
            given = {"risk": 0.0, "contempt": 0.0, **given}  # values in expected score
        super().__init__(options, **given)
        self.judge = default_leaf(self.rules)
        shipped()  # the model read now, not during the first move's search

    def leaf_value(self, state: GameState, unfinished: bool = False) -> float:
        """The learned expected score for the bot's species, on the bots' scale."""
        return cautious(leaf_as_value(self.judge, state, self._own_species()), self.risk)


def participant() -> str:
    """The ``vvw tournament`` participant running this tree's learned bot with this
    interpreter, given the tournament's time budget and seed (module docstring)."""
    command = [
        "env",
        f"PYTHONPATH={ROOT}",
        sys.executable,
        "-P",
        "-m",
        "benchmarks.learned_bot",
        "{host}",
        "{port}",
        "--time-budget",
        "{time_budget}",
        "--seed",
        "{seed}",
        "--quiet",
        "--quiet-stop",
    ]
    return participant_line(NAME, command)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words == ["participant"]:
        print(participant())
        return 0
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.learned_bot",
        description="Play expectiminimax with the learned chances at its leaves against a"
        " server, as `vvw agent expectiminimax HOST PORT …` plays; `participant` prints a"
        " vvw tournament participant instead.",
    )
    add_agent_arguments(parser)
    args, extra = parser.parse_known_args([NAME, *words])
    try:
        agent = LearnedAgent(**bot_options(args, extra))
    except ValueError as error:
        parser.error(str(error))
    return run_handled(parser.prog, lambda: play_agent(cast(Agent, agent), args))


if __name__ == "__main__":
    sys.exit(main())
