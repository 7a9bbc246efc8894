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
the bot's depth and stops at the stop time (:func:`stop_time`): an unfinished iteration is
dropped, unless it already proved a ply better than the previous iteration's best (which it
searched first); only the root's plies are kept from one iteration to the next, best
first. Plies are checked with :func:`engine.find_violation`, so a model may offer
an illegal combination: it is skipped.
"""

import random
import time
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from agents.search import collector_paused, stop_time
from engine import GameState, Kind, Ply, end_of_game, find_violation
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


class SearchResult(NamedTuple):
    """The ply chosen, the deepest finished ``depth``, ``nodes`` visited, the root value."""

    ply: Ply
    depth: int
    nodes: int
    value: float


class _OutOfTime(Exception):
    """Raised inside the search when the stop time has passed."""


class _Search:
    def __init__(self, model: Model, me: Kind, stop: float, rng: random.Random | None) -> None:
        self.model = model
        self.me = me
        self.stop = stop
        self.rng = rng
        self.nodes = 0
        self.line: list[GameState] = []

    def plies(self, state: GameState) -> list[Ply]:
        """The model's legal plies at ``state``, shuffled with the bot's generator if any."""
        plies = [
            ply
            for ply in dict.fromkeys(self.model.plies(state))
            if ply and find_violation(state, ply) is None
        ]
        if self.rng is not None:
            self.rng.shuffle(plies)
        return plies

    def children(self, state: GameState) -> list[tuple[Ply, Outcomes]]:
        """The legal plies at ``state`` with their outcomes (for the root, kept from one
        iteration to the next; inner nodes make each ply's outcomes when they reach it and
        keep nothing: a tree kept would cost more to free after the reply than it saves)."""
        found = []
        for ply in self.plies(state):
            if time.monotonic() > self.stop:
                raise _OutOfTime
            found.append((ply, self.model.outcomes(state, ply)))
        return found

    def root(
        self, children: list[tuple[Ply, Outcomes]], depth: int
    ) -> tuple[Ply, float, list[tuple[Ply, Outcomes]]]:
        """Every root ply searched to ``depth``: the best, its value, the plies reordered."""
        best: Ply | None = None
        best_value = alpha = -float("inf")
        scores = []
        for index, (ply, outcomes) in enumerate(children):
            try:
                value = self.chance(outcomes, depth - 1, alpha, float("inf"))
            except _OutOfTime:
                if best is not None and index > 0:
                    raise _OutOfTime(best, best_value) from None
                raise
            scores.append(value)
            if value > best_value:
                best, best_value = ply, value
                alpha = max(alpha, value)
        assert best is not None
        order = sorted(range(len(children)), key=lambda i: (children[i][0] != best, -scores[i]))
        return best, best_value, [children[i] for i in order]

    def chance(self, outcomes: Outcomes, depth: int, alpha: float, beta: float) -> float:
        """The value of a ply: its one outcome's, or the expectation over its outcomes."""
        if len(outcomes) == 1:
            return self.node(outcomes[0][1], depth, alpha, beta)
        inf = float("inf")
        return sum(p * self.node(child, depth, -inf, inf) for p, child in outcomes)

    def node(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if time.monotonic() > self.stop:
            raise _OutOfTime
        self.line.append(state)
        try:
            end = end_of_game(state, self.model.rules)
            if end is not None:
                if end.winner is None:
                    return 0.0
                return WIN if end.winner == self.me else -WIN
            plies = self.plies(state) if depth > 0 else []
            if not plies:
                return self.model.value(self.line)
            outcomes = self.model.outcomes
            if state.to_move == self.me:
                value = -float("inf")
                for ply in plies:
                    value = max(value, self.chance(outcomes(state, ply), depth - 1, alpha, beta))
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
            else:
                value = float("inf")
                for ply in plies:
                    value = min(value, self.chance(outcomes(state, ply), depth - 1, alpha, beta))
                    beta = min(beta, value)
                    if alpha >= beta:
                        break
            return value
        finally:
            self.line.pop()


def search(
    root: GameState,
    model: Model,
    max_depth: int,
    stop: float,
    rng: random.Random | None = None,
) -> SearchResult:
    """The best ply for ``root.to_move`` by ``model``, deepening up to ``max_depth`` plies
    until ``stop`` (a ``time.monotonic()`` value). ``rng`` shuffles each node's plies."""
    searcher = _Search(model, root.to_move, stop, rng)
    searcher.line.append(root)
    try:
        children = searcher.children(root)
    except _OutOfTime:
        children = []
    if not children:
        # No time, or nothing legal in the model: its first legal ply, or any group's step.
        plies = [p for p in model.plies(root) if p and find_violation(root, p) is None]
        fallback = plies[0] if plies else tuple(group_moves(root))[:1]
        if not fallback:
            raise ValueError("the side to move has no creatures: no ply to choose")
        return SearchResult(fallback, 0, searcher.nodes, 0.0)
    best, value, finished = children[0][0], 0.0, 0
    for depth in range(1, max_depth + 1):
        try:
            best, value, children = searcher.root(children, depth)
            finished = depth
        except _OutOfTime as partial:
            if partial.args:
                best, value = partial.args
            break
        if abs(value) >= WIN:
            break
    return SearchResult(best, finished, searcher.nodes, value)


class ReferenceAgent:
    """What the three reference bots share: options, the clock, and the call to
    :func:`search` with the bot's :meth:`model` and :meth:`depth_for` a position.

    The cyclic garbage collector is paused during a search (the search makes no cycles;
    a collection over its tree takes tens of milliseconds), and the tree is freed before
    the collector is back, so it finds only the few objects it had before.
    """

    name = "reference"

    def __init__(self, depth: int, time_budget: float | None, seed: int | None) -> None:
        if depth < 1:
            raise ValueError(f"depth must be 1 or more, got {depth}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time budget must be positive, got {time_budget}")
        self.depth = depth
        self.time_budget = time_budget
        self.rng = random.Random(seed)
        self.last: SearchResult | None = None

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget by default."""

    def model(self, state: GameState) -> Model:
        """The bot's beliefs for a search from ``state``."""
        raise NotImplementedError

    def depth_for(self, state: GameState) -> int:
        """How deep to search from ``state``."""
        return self.depth

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        began = time.monotonic()
        stop = stop_time(began, deadline, self.time_budget, MARGIN_SHARE)
        with collector_paused():
            self.last = search(state, self.model(state), self.depth_for(state), stop, self.rng)
        return self.last.ply
