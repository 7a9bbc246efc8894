"""The in-process arena: two bots play one game by direct calls, no protocol, no threads.

:func:`play_game` gives each bot real deadlines (``monotonic() + move_time``), checks every
ply with the engine and applies it with a seeded ``random.Random``. A bot loses at once if
it returns an illegal or empty ply, raises, or replies after its deadline (the arena
forfeits on time, stricter than the course server, which skips the turn). Used by the
tests and by :mod:`benchmarks.strength` and :mod:`benchmarks.human_phase`.
"""

import logging
import random
import time
from collections.abc import Callable
from enum import Enum

import attrs

from agents.base import Agent
from engine import GameState, Kind, Rules, apply_ply, end_of_game, find_violation, opponent
from engine.ending import EndReason, totals
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.mapfile import GameMap
from engine.rules import DEFAULT_RULES

log = logging.getLogger(__name__)


class Termination(Enum):
    """Why an arena game stopped."""

    ELIMINATION = "elimination"
    PLY_LIMIT = "ply limit"
    ILLEGAL_PLY = "illegal ply"
    TIMEOUT = "timeout"
    CRASH = "crash"
    STOPPED = "stopped"
    """The caller's ``stop_when`` said so before the game ended: no winner."""


@attrs.frozen
class GameRecord:
    """How one arena game went. ``winner`` is a species or ``None`` for a draw."""

    winner: Kind | None
    termination: Termination
    plies: int
    vampires: int
    werewolves: int
    slowest: dict[Kind, float]
    """The slowest reply of each side, in seconds."""
    reason: str = ""
    """For a loss by illegal ply, timeout or crash: what happened, in one line."""
    final: GameState | None = attrs.field(default=None, eq=False, repr=False)


def play_game(
    vampires: Agent,
    werewolves: Agent,
    start: GameMap | GameState,
    *,
    move_time: float,
    rules: Rules = DEFAULT_RULES,
    seed: int = 0,
    stop_when: Callable[[GameState], bool] | None = None,
) -> GameRecord:
    """Play one game between ``vampires`` (moves first) and ``werewolves`` from ``start``.

    With ``stop_when``, the game stops (:attr:`Termination.STOPPED`, no winner) at the
    first position, before either bot is asked, for which it is true and the game is not
    over: to measure one phase of a game, say.
    """
    state = start.initial_state() if isinstance(start, GameMap) else start
    rng = random.Random(seed)
    agents = {VAMPIRES: vampires, WEREWOLVES: werewolves}
    slowest = {VAMPIRES: 0.0, WEREWOLVES: 0.0}
    for species, agent in agents.items():
        agent.new_game(species, state)

    def forfeit(loser: Kind, termination: Termination, reason: str) -> GameRecord:
        log.info("%s loses: %s", loser.name.lower(), reason)
        v, w = totals(state)
        return GameRecord(opponent(loser), termination, state.ply, v, w, slowest, reason, state)

    while True:
        ending = end_of_game(state, rules)
        if ending is not None:
            v, w = totals(state)
            termination = (
                Termination.ELIMINATION
                if ending.reason == EndReason.ELIMINATION
                else Termination.PLY_LIMIT
            )
            return GameRecord(ending.winner, termination, state.ply, v, w, slowest, "", state)
        if stop_when is not None and stop_when(state):
            v, w = totals(state)
            return GameRecord(None, Termination.STOPPED, state.ply, v, w, slowest, "", state)
        species = state.to_move
        agent = agents[species]
        began = time.monotonic()
        deadline = began + move_time
        try:
            ply = agent.choose_ply(state, deadline)
        except Exception as error:  # a crashing bot loses, whatever it raised
            return forfeit(species, Termination.CRASH, f"{agent.name} raised {error!r}")
        finished = time.monotonic()
        slowest[species] = max(slowest[species], finished - began)
        if finished > deadline:
            return forfeit(
                species,
                Termination.TIMEOUT,
                f"{agent.name} replied after {finished - began:.3f} s (limit {move_time} s)",
            )
        try:
            ply = tuple(ply)
            violation = find_violation(state, ply)
        except Exception as error:  # not even a sequence of moves
            return forfeit(species, Termination.ILLEGAL_PLY, f"malformed ply: {error!r}")
        if violation is not None:
            return forfeit(species, Termination.ILLEGAL_PLY, f"{agent.name}: {violation}")
        state = apply_ply(state, ply, rng, rules, check=False).state
