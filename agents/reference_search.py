"""The search the reference opponents share: textbook alpha-beta to a fixed depth, on time.

The earlier students' bots (``seed2019``, ``zcsn``, ``seed2025``) each ran minimax with
alpha-beta pruning to a fixed depth over their own model of the game. A bot gives its model
(:class:`Model`): the plies it considers for the side to move, the states a ply leads to
with their probabilities (the engine resolves the battles, under the rule reading the bot
believed), and its value of a line of play (the states from the root to the leaf, so a
value may depend on the way there) from the bot's own view.

Max nodes are the bot's turns, min nodes the enemy's; a ply with several outcomes is worth
the probability-weighted sum of its outcomes' values (each searched with a full window).
A finished game is worth ±:data:`WIN`. To be never late, the search deepens 1, 2, … up to
the bot's depth and stops at the stop time, by the search bots' driver
(:mod:`agents.deepening`): an unfinished iteration is dropped, unless it already proved a
ply better than the previous iteration's best (which it searched first); only the root's
plies are kept from one iteration to the next, best first. Plies are checked with
:func:`engine.find_violation`, so a model may offer an illegal combination: it is skipped.
"""

import time
from collections.abc import Sequence
from typing import Protocol

from agents.deepening import Deepening
from agents.search import OutOfTime
from engine import GameState, Ply, end_of_game, find_violation
from engine.movegen import group_moves
from engine.rules import Rules

WIN = 1e9
"""The value of a won game (a lost one is ``-WIN``); above any evaluation."""
MARGIN_SHARE = 0.2
"""The share of the time kept for sending (see :func:`agents.search.stop_time`), four times
the search bots': these bots are not tuned for speed (one node may take milliseconds), and
never being late matters more for a reference than the last tenth of a second."""

Outcomes = list[tuple[float, GameState]]


class Model(Protocol):
    """What a reference bot believes: its plies, the outcomes of a ply, its values."""

    rules: Rules

    def plies(self, state: GameState) -> list[Ply]:
        """The plies considered for ``state.to_move`` (illegal ones are skipped)."""
        ...

    def outcomes(self, state: GameState, ply: Ply) -> Outcomes:
        """The states the legal ``ply`` leads to, with probabilities summing to one."""
        ...

    def value(self, line: Sequence[GameState]) -> float:
        """The bot's value of the last state of ``line`` (root first), from its own view."""
        ...


class ReferenceAgent(Deepening[Outcomes]):
    """What the three reference bots share: the search above, run by the driver
    (:class:`agents.deepening.Deepening`) with the bot's :meth:`model` and
    :meth:`depth_for` a position.

    The cyclic garbage collector is paused during a search (the search makes no cycles;
    a collection over its tree takes tens of milliseconds), and the tree is freed before
    the collector is back, so it finds only the few objects it had before.
    """

    name = "reference"
    KEEP_PARTIAL = True
    MARGIN_SHARE = MARGIN_SHARE

    def model(self, state: GameState) -> Model:
        """The bot's beliefs for a search from ``state``."""
        raise NotImplementedError

    # -- the driver's hooks -------------------------------------------------------------

    def begin(self, state: GameState) -> None:
        self._model = self.model(state)
        self._me = state.to_move
        self._line = [state]

    def root_plies(self, state: GameState) -> list[Ply]:
        """The model's legal plies, or else any group's step (``ValueError`` if none)."""
        plies = self._plies(state)
        if not plies:
            plies = [tuple(group_moves(state))[:1]]
            if not plies[0]:
                raise ValueError("the side to move has no creatures: no ply to choose")
        return plies

    def root_child(self, state: GameState, ply: Ply) -> Outcomes:
        """The root ply's outcomes, kept from one iteration to the next (inner nodes make
        each ply's outcomes when they reach it and keep nothing: a tree kept would cost more
        to free after the reply than it saves)."""
        if time.monotonic() > self.clock.stop:
            raise OutOfTime
        return self._model.outcomes(state, ply)

    def searched(self, child: Outcomes, depth: int, alpha: float, beta: float) -> float:
        return self._chance(child, depth, alpha, beta)

    def settled(self, value: float) -> bool:
        return abs(value) >= WIN

    # -- the search ---------------------------------------------------------------------

    def _plies(self, state: GameState) -> list[Ply]:
        """The model's legal plies at ``state``, shuffled with the bot's generator."""
        plies = [
            ply
            for ply in dict.fromkeys(self._model.plies(state))
            if ply and find_violation(state, ply) is None
        ]
        self.rng.shuffle(plies)
        return plies

    def _chance(self, outcomes: Outcomes, depth: int, alpha: float, beta: float) -> float:
        """The value of a ply: its one outcome's, or the expectation over its outcomes."""
        if len(outcomes) == 1:
            return self._node(outcomes[0][1], depth, alpha, beta)
        inf = float("inf")
        return sum(p * self._node(child, depth, -inf, inf) for p, child in outcomes)

    def _node(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        self.clock.tick()
        self._line.append(state)
        try:
            end = end_of_game(state, self._model.rules)
            if end is not None:
                if end.winner is None:
                    return 0.0
                return WIN if end.winner == self._me else -WIN
            plies = self._plies(state) if depth > 0 else []
            if not plies:
                return self._model.value(self._line)
            outcomes = self._model.outcomes
            if state.to_move == self._me:
                value = -float("inf")
                for ply in plies:
                    value = max(value, self._chance(outcomes(state, ply), depth - 1, alpha, beta))
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
            else:
                value = float("inf")
                for ply in plies:
                    value = min(value, self._chance(outcomes(state, ply), depth - 1, alpha, beta))
                    beta = min(beta, value)
                    if alpha >= beta:
                        break
            return value
        finally:
            self._line.pop()
