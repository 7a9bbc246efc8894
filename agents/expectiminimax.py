"""``expectiminimax``: alpha-beta with real chance nodes and Star1 pruning.

Max and min nodes are the two species' turns; after a ply with random battles comes a
chance node whose value is the probability-weighted sum of its outcomes' values, taken
from the engine's exact distributions (:func:`engine.resolve_ply`,
:func:`engine.ply_outcomes`). Values are from the bot's own view and always lie in
``[LOSS, WIN]``; those bounds let Star1 cut a chance node before all its outcomes are
searched. To keep the tree small, a distribution with more than ``max_outcomes`` states
is bucketed: per battle, one outcome per winner holding the rounded conditional mean of
the survivors; the most probable combinations covering ``coverage`` are kept and
renormalised. Deterministic plies are plain nodes. Iterative deepening under a hard
deadline, a transposition table keyed by the state, and move ordering from the previous
iteration; plies come from :func:`agents.candidates.candidate_plies` (widened with every
whole-group step when they are few) and leaves are scored by
:func:`agents.evaluation.evaluate`, squashed onto the scale of a won game (see
:func:`squashed`). docs/agents.md explains it all.
"""

import gc
import logging
import math
import random
import time
from collections.abc import Callable
from math import prod
from typing import NamedTuple

import attrs

from agents.candidates import candidate_plies
from agents.evaluation import DRAW, LOSS, WIN, census, evaluate, root_bar, sharpened
from engine import GameState, Kind, Ply, end_of_game, find_violation, ply_outcomes, resolve_ply
from engine.movegen import group_moves, random_ply
from engine.resolution import Battle
from engine.rules import DEFAULT_RULES, Rules

log = logging.getLogger(__name__)

Outcomes = list[tuple[float, GameState]]

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored value is exact, a lower bound, an upper bound."""

DEFAULT_MAX_OUTCOMES = 8
DEFAULT_COVERAGE = 0.95
DEFAULT_WIDTH = 16
"""How many candidate plies a node considers."""
DEFAULT_MIN_WIDTH = 12
"""Below this many candidates, every whole-group step is searched too."""

SQUASH_MIN = 4.0
SQUASH_SHARE = 0.3
SQUASH_CEILING = 0.99
"""Keeps every unfinished position below any finished game."""
DEFAULT_CONTEMPT = 0.05
DEFAULT_RISK = 2.0
"""Curvature of the bot's utility (see :func:`cautious`); 0 values a gamble by its mean."""

CHECK_EVERY = 16
"""Nodes between two looks at the clock."""
STOP_SHARE = 0.75
STOP_MARGIN = 0.003
"""The search stops at ``STOP_SHARE`` of the time left, less ``STOP_MARGIN`` seconds."""
MAX_ENTRIES = 400_000

MAX_DEPTH = 64


class _OutOfTime(Exception):
    """Raised inside the search when the stop time has passed."""


class SearchStats(NamedTuple):
    """What the last search did (as :class:`agents.alphabeta.SearchStats`).

    The deepest completed depth, nodes visited, seconds, the root value from the mover's
    view, and how many candidate plies the root had.
    """

    depth: int
    nodes: int
    seconds: float
    value: float
    candidates: int


@attrs.define
class _Entry:
    depth: int
    value: float
    flag: int
    best: Ply | None


def _clamp(value: float) -> float:
    return LOSS if value < LOSS else WIN if value > WIN else value


def squashed(score: float, state: GameState, contempt: float, species: Kind) -> float:
    """An evaluation in creatures as a value on the scale of a won or lost game.

    ``0.99 · WIN · tanh(score / scale + contempt)``, where ``scale`` grows with the monsters on
    the board: a lead of a few creatures is a likely win in a small game and little in a
    large one. On this scale a chance node weighs "win the game now" against "keep a lead"
    in the same unit, so a coin flip for the whole game is worth about an even position,
    and ``contempt`` (> 0) tips the balance toward keeping the game going: the bot expects
    to outplay its opponent rather than gamble everything at even odds. Once no humans are
    left, part of the value comes from ``species``' material alone
    (:func:`agents.evaluation.sharpened`).
    """
    counts = census(state, species)
    scale = max(SQUASH_MIN, SQUASH_SHARE * (counts.own + counts.other))
    return SQUASH_CEILING * WIN * sharpened(math.tanh(score / scale + contempt), counts)


def cautious(value: float, risk: float) -> float:
    """``value`` through a concave utility on ``[LOSS, WIN]`` that keeps both ends fixed.

    With ``x`` the value's place between a loss (0) and a win (1), the utility is
    ``(1 − e^(−risk·x)) / (1 − e^(−risk))``, mapped back onto ``[LOSS, WIN]``. It is
    increasing, so max and min nodes choose as before; being concave, a chance node's
    expectation of it is below the utility of its expected value: the bot prefers a sure
    even position to a coin flip for the whole game (at ``risk`` 2, a battle for the game
    must be won about 77 % of the time to beat an even position). Bounds stay
    ``[LOSS, WIN]``, so Star1 pruning is unchanged.
    """
    if risk <= 0:
        return value
    x = (value - LOSS) / (WIN - LOSS)
    return LOSS + (WIN - LOSS) * (1.0 - math.exp(-risk * x)) / (1.0 - math.exp(-risk))


def terminal_value(winner: Kind | None, ply: int, species: Kind) -> float:
    """A finished game's value for ``species``: sooner wins and later losses are better."""
    if winner is None:
        return DRAW
    return WIN - ply if winner == species else LOSS + ply


def bucketed(
    state: GameState,
    grid: dict[int, tuple[int, int]],
    battles: tuple[Battle, ...],
    max_outcomes: int,
    coverage: float,
) -> Outcomes:
    """A small distribution standing for the battles' exact one (see the module docstring)."""
    cols = state.cols
    per_battle = []
    for battle in battles:
        buckets: dict[int, list[float]] = {}
        for probability, winner, survivors in battle.outcomes:
            mass = buckets.setdefault(int(winner), [0.0, 0.0])
            mass[0] += probability
            mass[1] += probability * survivors
        per_battle.append(
            [(p, kind, round(total / p)) for kind, (p, total) in buckets.items() if p > 0]
        )
    combos: list[tuple[float, list[tuple[int, int, int]]]] = [(1.0, [])]
    for battle, choices in zip(battles, per_battle, strict=True):
        pos = battle.y * cols + battle.x
        combos = [
            (p * q, [*cells, (pos, kind, n)]) for p, cells in combos for q, kind, n in choices
        ]
    combos.sort(key=lambda combo: -combo[0])
    kept: list[tuple[float, list[tuple[int, int, int]]]] = []
    covered = 0.0
    for p, cells in combos:
        if covered >= coverage or len(kept) >= max_outcomes:
            break
        kept.append((p, cells))
        covered += p
    result = []
    for p, cells in kept:
        after = dict(grid)
        for pos, kind, n in cells:
            if n:
                after[pos] = (kind, n)
        result.append(
            (p / covered, GameState.trusted(state.rows, cols, None, state.ply + 1, after))
        )
    return result


class ExpectiminimaxAgent:
    """Iterative-deepening expectiminimax with Star1 chance-node pruning."""

    name = "expectiminimax"

    def __init__(
        self,
        time_budget: float | None = None,
        depth: int | None = None,
        seed: int | None = None,
        rules: Rules = DEFAULT_RULES,
        max_outcomes: int = DEFAULT_MAX_OUTCOMES,
        coverage: float = DEFAULT_COVERAGE,
        width: int = DEFAULT_WIDTH,
        star1: bool = True,
        evaluation: Callable[[GameState, Kind], float] = evaluate,
        squash: bool = True,
        min_width: int = DEFAULT_MIN_WIDTH,
        contempt: float = DEFAULT_CONTEMPT,
        risk: float = DEFAULT_RISK,
    ) -> None:
        self.time_budget = time_budget
        self.max_depth = depth or MAX_DEPTH
        self.rng = random.Random(seed)
        self.rules = rules
        self.max_outcomes = max_outcomes
        self.coverage = coverage
        self.width = width
        self.star1 = star1
        self.evaluation = evaluation
        self.squash = squash
        self.min_width = min_width
        self.contempt = contempt
        self.risk = risk
        self.species: Kind | None = None
        self.table: dict[GameState, _Entry] = {}
        self.moves: dict[GameState, list[Ply]] = {}
        self.chances: dict[tuple[GameState, Ply], Outcomes] = {}
        self.last_stats: SearchStats | None = None
        self._stop = float("inf")
        self._nodes = 0

    def new_game(self, species: Kind, state: GameState) -> None:
        """Forget the previous game's tables."""
        self.species = species
        self._forget()

    def _own_species(self) -> Kind:
        if self.species is None:
            raise RuntimeError("choose_ply before new_game: the bot does not know its species")
        return self.species

    def _forget(self) -> None:
        self.table.clear()
        self.moves.clear()
        self.chances.clear()

    # -- the agent ----------------------------------------------------------------------

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        began = time.monotonic()
        if self.time_budget is not None:
            deadline = min(deadline, began + self.time_budget)
        room = max(0.0, deadline - began)
        self._stop = began + STOP_SHARE * room - STOP_MARGIN
        # The cyclic collector's passes over the search's many young objects cost hundreds
        # of milliseconds, at random moments in the search or just after the reply (in
        # the caller's time). The search makes no reference cycles: the collector is
        # paused while searching, and what the search built is then frozen (moved out of
        # the collector's sight; reference counting still frees it when the tables drop
        # it).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._iterate(state, began, self.max_depth, settle=True)
        finally:
            gc.freeze()
            if collecting:
                gc.enable()

    def analyse(self, state: GameState, depth: int) -> tuple[float, Ply]:
        """The value (from ``state.to_move``'s view) and best ply at ``depth``, untimed."""
        self._stop = float("inf")
        self._forget()
        ply = self._iterate(state, time.monotonic(), depth)
        assert self.last_stats is not None
        return self.last_stats.value, ply

    def leaf_value(self, state: GameState) -> float:
        """A position's value at the search horizon, for the bot's species, in bounds."""
        species = self._own_species()
        score = self.evaluation(state, species)
        if self.squash and abs(score) < WIN / 2:
            return cautious(squashed(score, state, self.contempt, species), self.risk)
        return cautious(_clamp(score), self.risk)

    def ply_value(self, state: GameState, ply: Ply, depth: int) -> float:
        """The expected value of ``ply`` for ``state.to_move``, ``depth`` plies deep, untimed."""
        self._stop = float("inf")
        self._forget()
        self.species = state.to_move
        return self._chance(state, ply, depth - 1, LOSS, WIN)

    def _iterate(self, state: GameState, began: float, max_depth: int, settle: bool = False) -> Ply:
        """Deepen up to ``max_depth``; with ``settle``, stop early once the game is won."""
        if self.species != state.to_move:
            self._forget()  # the table holds values from the other side's view
        self.species = state.to_move
        self._drop_the_past(state.ply)
        self._nodes = 0
        plies = self._root_plies(state)
        best = plies[0]
        completed, value = 0, 0.0
        for depth in range(1, max_depth + 1):
            try:
                value, plies = self._root(state, plies, depth)
            except _OutOfTime:
                break
            completed = depth
            best = plies[0]
            if settle and value >= WIN - 500:  # won for sure: deeper search adds nothing
                break
        stats = SearchStats(completed, self._nodes, time.monotonic() - began, value, len(plies))
        self.last_stats = stats
        log.debug("expectiminimax: %s", stats)
        return best

    def plies(self, state: GameState) -> list[Ply]:
        """The plies searched in ``state``: the candidates, widened when they are few.

        With few candidates (a lone group facing an enemy it cannot kill for sure), every
        whole-group step is added, so that waiting at a distance or stepping aside is
        searched too, not only walking into the enemy's first strike.
        """
        plies = candidate_plies(state, self.width)
        if len(plies) < self.min_width:
            known = set(plies)
            plies += [(m,) for m in group_moves(state) if (m,) not in known]
        return plies

    def _drop_the_past(self, ply: int) -> None:
        """Forget positions before ``ply``: the game can never reach them again."""
        if any(s.ply < ply for s in self.table):
            self.table = {s: e for s, e in self.table.items() if s.ply >= ply}
            self.moves = {s: m for s, m in self.moves.items() if s.ply >= ply}
            self.chances = {k: o for k, o in self.chances.items() if k[0].ply >= ply}
        if len(self.table) > MAX_ENTRIES:
            self._forget()

    def _root_plies(self, state: GameState) -> list[Ply]:
        plies = [ply for ply in self.plies(state) if ply and not find_violation(state, ply)]
        if not plies:
            plies = [random_ply(state, self.rng)]
        return plies

    def _root(self, state: GameState, plies: list[Ply], depth: int) -> tuple[float, list[Ply]]:
        """Search every root ply to ``depth``: the best value, and the plies best first (a
        ply replaces the best so far only if it beats :func:`agents.evaluation.root_bar`)."""
        alpha = best_value = LOSS - 1.0
        best = plies[0]
        scored = []
        for ply in plies:
            value = self._chance(state, ply, depth - 1, alpha, WIN + 1.0)
            scored.append((value, ply))
            if value > alpha:
                best_value, best, alpha = value, ply, root_bar(value)
        # The best goes first, ahead of any ply within ROOT_TIE above it.
        scored.sort(key=lambda item: (item[1] != best, -item[0]))
        return best_value, [ply for _, ply in scored]

    # -- the search ---------------------------------------------------------------------

    def outcomes(self, state: GameState, ply: Ply) -> Outcomes:
        """The (possibly bucketed) distribution of states ``ply`` leads to, most probable first."""
        key = (state, ply)
        known = self.chances.get(key)
        if known is not None:
            return known
        grid, battles = resolve_ply(state, ply, self.rules)
        if not battles:
            result = [(1.0, GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid))]
        elif prod(len(b.outcomes) for b in battles) <= self.max_outcomes:
            exact = ply_outcomes(state, ply, self.rules, check=False)
            result = sorted(((float(p), s) for p, s in exact), key=lambda o: -o[0])
        else:
            result = bucketed(state, grid, battles, self.max_outcomes, self.coverage)
        self.chances[key] = result
        return result

    def _chance(self, state: GameState, ply: Ply, depth: int, alpha: float, beta: float) -> float:
        """The expected value of playing ``ply`` in ``state``; Star1 within (alpha, beta)."""
        outcomes = self.outcomes(state, ply)
        if len(outcomes) == 1:
            return self._search(outcomes[0][1], depth, alpha, beta)
        if not self.star1:
            return sum(p * self._search(s, depth, LOSS, WIN) for p, s in outcomes)
        total, rest = 0.0, 1.0
        for p, child in outcomes:
            rest -= p
            low = (alpha - total - rest * WIN) / p
            high = (beta - total - rest * LOSS) / p
            if low >= WIN:  # even a won outcome here cannot lift the node above alpha
                return total + (p + rest) * WIN
            if high <= LOSS:  # even a lost outcome here cannot pull it below beta
                return total + (p + rest) * LOSS
            value = self._search(child, depth, max(LOSS, low), min(WIN, high))
            total += p * value
            if value >= high:
                return total + rest * LOSS
            if value <= low:
                return total + rest * WIN
        return total

    def _search(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        self._nodes += 1
        if self._nodes % CHECK_EVERY == 0 and time.monotonic() > self._stop:
            raise _OutOfTime
        ending = end_of_game(state, self.rules)
        if ending is not None:
            return cautious(
                terminal_value(ending.winner, state.ply, self._own_species()), self.risk
            )
        if depth <= 0:
            return self.leaf_value(state)
        entry = self.table.get(state)
        best_first = None
        if entry is not None:
            best_first = entry.best
            if entry.depth >= depth:
                if entry.flag == EXACT:
                    return entry.value
                if entry.flag == LOWER and entry.value >= beta:
                    return entry.value
                if entry.flag == UPPER and entry.value <= alpha:
                    return entry.value
        plies = self.moves.get(state)
        if plies is None:
            plies = self.plies(state) or [random_ply(state, self.rng)]
            self.moves[state] = plies
        if best_first is not None and best_first in plies and plies[0] != best_first:
            plies = [best_first, *(p for p in plies if p != best_first)]
        maximising = state.to_move == self.species
        a, b = alpha, beta
        best_value = LOSS - 1.0 if maximising else WIN + 1.0
        best_ply = plies[0]
        for ply in plies:
            value = self._chance(state, ply, depth - 1, a, b)
            if maximising:
                if value > best_value:
                    best_value, best_ply = value, ply
                a = max(a, value)
            else:
                if value < best_value:
                    best_value, best_ply = value, ply
                b = min(b, value)
            if a >= b:
                break
        flag = UPPER if best_value <= alpha else LOWER if best_value >= beta else EXACT
        self.table[state] = _Entry(depth, best_value, flag, best_ply)
        return best_value


def make(
    time_budget: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
    **options: object,
) -> ExpectiminimaxAgent:
    """An expectiminimax bot; ``options``: max_outcomes, coverage, width, star1, rules,
    min_width, squash, contempt, risk (see :class:`ExpectiminimaxAgent`); unknown options are
    ignored."""
    known = {
        "max_outcomes",
        "coverage",
        "width",
        "star1",
        "rules",
        "squash",
        "contempt",
        "min_width",
        "risk",
    }
    return ExpectiminimaxAgent(
        time_budget,
        depth,
        seed,
        **{k: v for k, v in options.items() if k in known},  # type: ignore[arg-type]
    )
