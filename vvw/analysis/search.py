"""Searching positions: the expected score of a position, of its best ply and of any ply.

The strongest search we have does the work: :class:`agents.expectiminimax.ExpectiminimaxAgent`
(exact chance nodes) at a fixed depth, or as deep as a time per position allows, its
values turned into expected scores by the winning-chances curve (:mod:`vvw.analysis.chances`).
It searches risk-neutral (``risk`` 0): the bot plays with a cautious utility, under which
each side finds the other's gambles good for the other (a 64 % strike it would decline
itself looks like a loss when the enemy may make it), so a ply next to an enemy group that
then does not strike would count as lost and given back ply after ply; a chance node worth
the mean of its outcomes values both sides' gambles alike. Nor has it the bot's contempt,
which puts both sides of a level position a few points ahead (:data:`CONTEMPT`). A
one-against-one endgame is valued by its exact solution (:mod:`agents.endgame`), a
finished game by its result. Every call starts afresh (the search's tables are cleared),
so a position's answer depends on nothing analysed before it: the analysis is the same in
any order, over any number of processes.
"""

from collections.abc import Callable

import attrs

from agents.endgame import endgame_chance, endgame_ply
from agents.expectiminimax import ExpectiminimaxAgent
from agents.search import OutOfTime
from engine import GameState, Kind, Ply, end_of_game, ply_outcomes
from engine.rules import DEFAULT_RULES, Rules
from vvw.analysis.chances import CONTEMPT, CURVE, Curve

DEFAULT_DEPTH = 4
"""Plies searched by default: a 200-ply game in well under two minutes on two cores."""


@attrs.frozen
class Settings:
    """How deep positions are searched: ``depth`` plies, or with ``seconds`` as deep as that
    time per position allows (the depth then varies with the machine: not deterministic)."""

    depth: int = DEFAULT_DEPTH
    seconds: float | None = None


DEFAULT_SETTINGS = Settings()


@attrs.frozen
class Searched:
    """A position searched: its expected score for the side to move, the best ply found,
    the depth searched and how (``"search"``, ``"endgame"``: exactly solved), and what the
    curve turned into the score: the search's value, or the endgame's exact chance."""

    score: float
    best: Ply
    depth: int
    how: str
    value: float


class PositionSearch:
    """Expected scores of positions and plies, from the side to move's view."""

    def __init__(
        self,
        settings: Settings = DEFAULT_SETTINGS,
        rules: Rules = DEFAULT_RULES,
        curve: Curve = CURVE,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.curve = curve
        self.agent = ExpectiminimaxAgent(rules=rules, seed=0, risk=curve.risk, contempt=CONTEMPT)

    def _fresh(self) -> ExpectiminimaxAgent:
        self.agent.rng.seed(0)  # its fallback ply, when no candidate is found, is then fixed
        return self.agent

    def position(self, state: GameState) -> Searched:
        """The side to move's expected score and best ply (not a finished position)."""
        exact = self._endgame(state)
        if exact is not None:
            return exact
        if self.settings.seconds is None:
            value, best = self._fresh().analyse(state, self.settings.depth)
            score = self.curve.searched(value)
            return Searched(score, best, self.settings.depth, "search", value)
        return self._timed(state, self.settings.seconds)

    def _timed(self, state: GameState, seconds: float) -> Searched:
        """Deepened until ``seconds`` are up: every root ply's value at the last depth
        finished (:meth:`agents.deepening.Deepening.root_values`), at least depth 1."""
        agent = self._fresh()
        try:
            values = agent.root_values(state, seconds=seconds)
        except OutOfTime:
            value, best = self._fresh().analyse(state, 1)
            return Searched(self.curve.searched(value), best, 1, "search", value)
        assert agent.last_stats is not None
        best, value = values[0]
        score = self.curve.searched(value)
        return Searched(score, best, agent.last_stats.depth, "search", value)

    def _endgame(self, state: GameState) -> Searched | None:
        chance = endgame_chance(state, state.to_move, self.rules)
        if chance is None:
            return None
        best = endgame_ply(state, self.rules)
        if best is None:
            return None
        return Searched(self.curve.solved(chance), best, 0, "endgame", chance)

    def ply_score(self, state: GameState, ply: Ply, searched: Searched) -> float:
        """The mover's expected score after ``ply``, searched as ``searched`` (the position's
        search) was: any legal ply, also one the bot's candidate generator never makes."""
        if searched.how == "endgame":
            return self.expected(state, ply, self.after_score)
        value = self._fresh().ply_value(state, ply, max(1, searched.depth))
        return self.curve.searched(value)

    def expected(
        self, state: GameState, ply: Ply, score: Callable[[GameState, Kind], float]
    ) -> float:
        """The mover's expected score after ``ply`` over its exact outcomes, each scored
        by ``score(state after, mover)``."""
        mover = state.to_move
        outcomes = ply_outcomes(state, ply, self.rules, exact=True)
        return float(sum(p * score(after, mover) for p, after in outcomes))

    def after_score(self, after: GameState, mover: Kind, depth: int | None = None) -> float:
        """``mover``'s expected score in ``after`` (the other side to move): the result of a
        finished game, an endgame's exact chance, else the other side's searched chance
        (``depth`` plies, by default the settings')."""
        ending = end_of_game(after, self.rules)
        if ending is not None:
            return 0.5 if ending.winner is None else float(ending.winner == mover)
        chance = endgame_chance(after, after.to_move, self.rules)
        if chance is not None:
            return 1.0 - self.curve.solved(chance)
        if depth is None:
            return 1.0 - self.position(after).score
        value, _ = self._fresh().analyse(after, max(1, depth))
        return 1.0 - self.curve.searched(value)
