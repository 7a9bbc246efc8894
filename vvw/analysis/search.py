"""The search over chances: a position's expected score, its best ply, a ply's outcomes.

:class:`ChanceSearch` is ``expectiminimax``'s tree (:mod:`agents.expectiminimax`: the same
candidate plies, Star1-pruned chance nodes, transposition table and deepening) with other
values: at its horizon a *leaf* gives the side to move's expected score (0 to 1,
:mod:`vvw.analysis.leaves`), and every node holds an expected score, so a max node is its
best child and a chance node (a ply with random battles) exactly the probability-weighted
mean of its outcomes. A position's expected score is the mean of the last two depths'
(:func:`smoothed`). A finished game is its result (1, ½ or 0) and a leaf never quite
reaches 0 or 1 (:data:`LEAF_EDGE`): nothing is certain but a finished game or a result the
search proved. It searches wider near the root than deep down (:attr:`Settings.widths`),
so it reaches deeper than the bots play. A one-against-one endgame is valued by its exact
solution (:mod:`agents.endgame`) through the endgame curve (:data:`CURVE`). Every search
starts from empty tables, so a position's answer depends on nothing searched before it: the
analysis is the same in any order, over any number of processes.
"""

from fractions import Fraction
from functools import partial
from typing import Any

import attrs

from agents.candidates import candidate_plies
from agents.deepening import Root
from agents.endgame import endgame_chance, endgame_ply
from agents.evaluation import DRAW, LOSS, WIN
from agents.expectiminimax import ExpectiminimaxAgent
from agents.search import OutOfTime
from engine import GameState, Kind, Ply, end_of_game, ply_outcomes
from engine.movegen import group_moves
from engine.rules import DEFAULT_RULES, Rules
from vvw.analysis.chances import CURVE, Curve
from vvw.analysis.leaves import Leaf, default_leaf

DEFAULT_DEPTH = 6
"""Plies searched below each position by default. A ply is judged by the search of the
position it leads to, so it is looked at 7 plies deep: one more than ``expectiminimax``
typically reaches at its default time budget (docs/agents.md), and a 200-ply game on
30 × 30 is analysed in two minutes on two cores."""
DEFAULT_WIDTHS = (16, 6, 4, 3, 3, 2)
"""Candidate plies searched at the root, one ply below it, two…; the last for all deeper."""
LEAF_EDGE = 0.01
"""A leaf's expected score is kept within ``[LEAF_EDGE, 1 − LEAF_EDGE]``."""
FULL_OUTCOMES = 6
"""Outcomes of a ply (its battles together) each searched as deep as a position, at most;
up to :data:`SOME_OUTCOMES` are searched two plies less, more than that one ply deep."""
SOME_OUTCOMES = 24


@attrs.frozen
class Settings:
    """How positions are searched: ``depth`` plies, or with ``seconds`` as deep as that
    time per position allows (the depth then varies with the machine: not deterministic),
    with ``widths[i]`` candidate plies ``i`` plies below the root (the last for deeper)."""

    depth: int = DEFAULT_DEPTH
    seconds: float | None = None
    widths: tuple[int, ...] = DEFAULT_WIDTHS


DEFAULT_SETTINGS = Settings()


@attrs.frozen
class Searched:
    """A position searched: its expected score for the side to move, the best ply found,
    the depth searched and how (``"search"``, ``"endgame"``: exactly solved), and the
    search's score or the endgame's exact chance (before its curve)."""

    score: float
    best: Ply
    depth: int
    how: str
    value: float


def as_value(chance: float) -> float:
    """An expected score on the search bots' scale of values, ``[LOSS, WIN]``."""
    return LOSS + (WIN - LOSS) * chance


def as_chance(value: float) -> float:
    """A value of the search back to an expected score (a proved result exactly 0, ½ or 1:
    finished games are worth exactly :data:`WIN`, :data:`DRAW` and :data:`LOSS`)."""
    return min(1.0, max(0.0, (value - LOSS) / (WIN - LOSS)))


def leaf_as_value(leaf: Leaf, state: GameState, species: Kind) -> float:
    """``leaf``'s expected score of ``state`` for ``species``, kept within
    :data:`LEAF_EDGE` of 0 and 1, on the search bots' scale (:func:`as_value`)."""
    chance = min(1.0 - LEAF_EDGE, max(LEAF_EDGE, leaf(state)))
    return as_value(chance if state.to_move == species else 1.0 - chance)


def smoothed(values: list[float]) -> float:
    """A position's expected score from the values of its deepening: the mean of the last
    two depths' (a search's value sways with the parity of its depth: which side moves
    last), or the last one's when it is a proved result."""
    last = as_chance(values[-1])
    if len(values) < 2 or last in (0.0, 1.0):
        return last
    return (last + as_chance(values[-2])) / 2


class ChanceSearch(ExpectiminimaxAgent):
    """``expectiminimax`` over expected scores, ``leaf`` at its horizon (module docstring)."""

    name = "analysis"

    def __init__(self, leaf: Leaf, rules: Rules, widths: tuple[int, ...]) -> None:
        super().__init__(rules=rules, seed=0, risk=0.0, contempt=0.0)
        self.judge = leaf
        self.widths = widths
        self.root_ply = 0

    def begin(self, state: GameState) -> None:
        super().begin(state)
        self.root_ply = state.ply
        self.iterations: list[float] = []
        """The value found at each depth of the deepening, in order."""

    def _iteration(self, root: Root, depth: int, progress: Any) -> tuple[float, Root]:
        value, ordered = super()._iteration(root, depth, progress)
        self.iterations.append(value)
        return value, ordered

    def plies(self, state: GameState) -> list[Ply]:
        """The candidates, as many as the level's width; at the root widened as the bot
        widens them (every whole-group step when they are few)."""
        level = state.ply - self.root_ply
        plies = candidate_plies(state, self.widths[min(level, len(self.widths) - 1)])
        if level == 0 and len(plies) < self.min_width:
            known = set(plies)
            plies += [(m,) for m in group_moves(state) if (m,) not in known]
        return plies

    def finished_value(self, winner: Kind | None, ply: int) -> float:
        """Exactly a win, a draw or a loss (no bonus for winning sooner): only a finished
        game, or a mean of finished games, is worth exactly 1, ½ or 0."""
        if winner is None:
            return DRAW
        return WIN if winner == self.species else LOSS

    def leaf_value(self, state: GameState, unfinished: bool = False) -> float:
        return leaf_as_value(self.judge, state, self._own_species())


def endgame_or_leaf(state: GameState, leaf: Leaf, rules: Rules, curve: Curve) -> float:
    """A one-against-one endgame's chance as the root values it (its exact solution
    through the endgame curve), any other position's by ``leaf``: a position is worth
    the same at the root and at a leaf."""
    chance = endgame_chance(state, state.to_move, rules)
    return leaf(state) if chance is None else curve.solved(chance)


class PositionSearch:
    """Expected scores of positions and of plies' outcomes, from the side to move's view."""

    def __init__(
        self,
        settings: Settings = DEFAULT_SETTINGS,
        rules: Rules = DEFAULT_RULES,
        leaf: Leaf | None = None,
        curve: Curve = CURVE,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.curve = curve
        judge = partial(endgame_or_leaf, leaf=leaf or default_leaf(rules), rules=rules, curve=curve)
        self.agent = ChanceSearch(judge, rules, settings.widths)

    def _fresh(self) -> ChanceSearch:
        self.agent.rng.seed(0)  # its fallback ply, when no candidate is found, is then fixed
        return self.agent

    def position(self, state: GameState, depth: int | None = None) -> Searched:
        """The side to move's expected score and best ply (not a finished position),
        ``depth`` plies deep (by default the settings')."""
        exact = self._endgame(state)
        if exact is not None:
            return exact
        if self.settings.seconds is None or depth is not None:
            depth = depth or self.settings.depth
            agent = self._fresh()
            _, best = agent.analyse(state, depth)
            score = smoothed(agent.iterations)
            return Searched(score, best, depth, "search", score)
        return self._timed(state, self.settings.seconds)

    def _timed(self, state: GameState, seconds: float) -> Searched:
        """Deepened until ``seconds`` are up: every root ply's value at the last depth
        finished (:meth:`agents.deepening.Deepening.root_values`), at least depth 1."""
        agent = self._fresh()
        try:
            values = agent.root_values(state, seconds=seconds)
        except OutOfTime:
            value, best = self._fresh().analyse(state, 1)
            return Searched(as_chance(value), best, 1, "search", as_chance(value))
        assert agent.last_stats is not None
        best, value = values[0]
        return Searched(as_chance(value), best, agent.last_stats.depth, "search", as_chance(value))

    def _endgame(self, state: GameState) -> Searched | None:
        chance = endgame_chance(state, state.to_move, self.rules)
        if chance is None:
            return None
        best = endgame_ply(state, self.rules)
        if best is None:
            return None
        return Searched(self.curve.solved(chance), best, 0, "endgame", chance)

    def chance_for(self, state: GameState, side: Kind, depth: int | None = None) -> float:
        """``side``'s expected score in ``state``: a finished game's result, else the
        position searched (``depth`` plies, by default the settings')."""
        ending = end_of_game(state, self.rules)
        if ending is not None:
            return 0.5 if ending.winner is None else float(ending.winner == side)
        score = self.position(state, depth).score
        return score if state.to_move == side else 1.0 - score

    def outcomes(self, state: GameState, ply: Ply) -> list[tuple[Fraction, GameState, float]]:
        """The exact outcomes of ``ply`` played in ``state``: each with its probability and
        the mover's expected score in it, searched as deep as a position when they are few
        (:data:`FULL_OUTCOMES`), less deep when many."""
        mover = state.to_move
        found = ply_outcomes(state, ply, self.rules, exact=True)
        depth = self.outcome_depth(len(found))
        return [(Fraction(p), after, self.chance_for(after, mover, depth)) for p, after in found]

    def outcome_depth(self, outcomes: int) -> int | None:
        """How deep each of so many outcomes of one ply is searched (``None``: as a position)."""
        if outcomes <= FULL_OUTCOMES:
            return None
        if outcomes <= SOME_OUTCOMES:
            return max(1, self.settings.depth - 2)
        return 1
