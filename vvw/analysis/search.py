"""The search over chances: a position's expected score, its best ply, a ply's outcomes.

The analysis searches with ``expectiminimax``'s tree (:mod:`agents.expectiminimax`: the
same candidate plies, Star1-pruned chance nodes, transposition table and deepening),
configured through its public parameters with other values (:func:`chance_search`): at its
horizon the judge (:mod:`agents.judge.leaves`) gives the side to move's expected score (0
to 1), and every node holds an expected score, so a max node is its best child and a
chance node (a ply with random battles) exactly the probability-weighted mean of its
outcomes (no cautious utility, no contempt). A position's expected score is the mean of
the last two depths' (:func:`smoothed`). A finished game is its result (1, ½ or 0) and a
leaf never quite reaches 0 or 1 (:data:`agents.judge.leaves.LEAF_EDGE`): nothing is
certain but a finished game or a result the search proved. It searches wider near the root
than deep down (:attr:`Settings.widths`), so it reaches deeper than the bots play. A
one-against-one endgame is valued by its exact solution (:mod:`agents.endgame`) through
the endgame curve (:data:`agents.judge.curve.CURVE`). The tree's own sizes
(:data:`MAX_OUTCOMES`, :data:`COVERAGE`, :data:`MIN_WIDTH`) are the analysis's, set here:
retuning the bot changes no analysis. Every search starts from empty tables, so a
position's answer depends on nothing searched before it: the analysis is the same in any
order, over any number of processes.
"""

from fractions import Fraction
from functools import partial

import attrs

from agents.endgame import endgame_chance, endgame_ply
from agents.expectiminimax import ExpectiminimaxAgent, ExpectiminimaxOptions
from agents.judge.curve import CURVE
from agents.judge.leaves import Leaf, as_chance, endgame_or_leaf, learned_leaf
from agents.search import OutOfTime
from engine import GameState, Kind, Ply, end_of_game, ply_outcomes
from engine.rules import DEFAULT_RULES, Rules

DEFAULT_DEPTH = 6
"""Plies searched below each position by default. A ply is judged by the search of the
position it leads to, so it is looked at 7 plies deep: one more than ``expectiminimax``
typically reaches at its default time budget (docs/agents.md), and a 200-ply game on
30 × 30 is analysed in two minutes on two cores."""
DEFAULT_WIDTHS = (16, 6, 4, 3, 3, 2)
"""Candidate plies searched at the root, one ply below it, two…; the last for all deeper."""
MAX_OUTCOMES = 8
"""Outcomes of a chance node inside the search at most (more are bucketed, as the bot
buckets them)."""
COVERAGE = 0.95
"""The probability a bucketed chance node covers."""
MIN_WIDTH = 12
"""Below this many candidates at the root, every whole-group step is searched too."""
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


def smoothed(values: list[float]) -> float:
    """A position's expected score from the values of its deepening: the mean of the last
    two depths' (a search's value sways with the parity of its depth: which side moves
    last), or the last one's when it is a proved result."""
    last = as_chance(values[-1])
    if len(values) < 2 or last in (0.0, 1.0):
        return last
    return (last + as_chance(values[-2])) / 2


def chance_search(
    judge: Leaf, rules: Rules, widths: tuple[int, ...], iterations: list[float]
) -> ExpectiminimaxAgent:
    """``expectiminimax``'s tree over expected scores (the module docstring), ``judge`` at
    its horizon; each finished iteration's value appended to ``iterations``."""
    options = ExpectiminimaxOptions(
        rules=rules,
        seed=0,
        risk=0.0,
        contempt=0.0,
        max_outcomes=MAX_OUTCOMES,
        coverage=COVERAGE,
        min_width=MIN_WIDTH,
        endgame=0,
    )
    return ExpectiminimaxAgent(
        options,
        judge=judge,
        widths=widths,
        exact_results=True,
        on_iteration=lambda depth, value, best: iterations.append(value),
    )


class PositionSearch:
    """Expected scores of positions and of plies' outcomes, from the side to move's view."""

    def __init__(self, settings: Settings = DEFAULT_SETTINGS, rules: Rules = DEFAULT_RULES) -> None:
        self.settings = settings
        self.rules = rules
        self.curve = CURVE
        judge = partial(endgame_or_leaf, leaf=learned_leaf(rules), rules=rules, curve=CURVE)
        self.iterations: list[float] = []
        """The value found at each depth of the last search, in order."""
        self.agent = chance_search(judge, rules, settings.widths, self.iterations)

    def _fresh(self) -> ExpectiminimaxAgent:
        self.agent.rng.seed(0)  # its fallback ply, when no candidate is found, is then fixed
        self.iterations.clear()
        return self.agent

    def position(self, state: GameState, depth: int | None = None) -> Searched:
        """The side to move's expected score and best ply (not a finished position),
        ``depth`` plies deep (by default the settings')."""
        exact = self._endgame(state)
        if exact is not None:
            return exact
        if self.settings.seconds is None or depth is not None:
            depth = depth or self.settings.depth
            _, best = self._fresh().analyse(state, depth)
            score = smoothed(self.iterations)
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
