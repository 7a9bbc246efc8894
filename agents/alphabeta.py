"""``alphabeta``: iterative-deepening negamax with alpha-beta pruning under a hard deadline.

* **Plies searched**: :func:`agents.candidates.candidate_plies` (a few meaningful plies per
  position: conversions, kills, two-way splits, runs, merges), ``width`` of them per node.
* **Random battles** are not branched on: a ply's child is its *expected state*. The engine
  resolves the certain part (:func:`engine.resolve_ply`) and gives each battle's exact
  distribution; the cell goes to the side with the larger expected number of survivors
  (:func:`engine.expected_survivors`), with that number rounded. A battle at even odds thus
  costs the attacker its whole group in the tree, and a likely win keeps its expected losses.
* **Leaves** are valued by :func:`agents.evaluation.evaluate` (material, humans within reach,
  certain-kill threats) put on the scale of a won game (:func:`agents.evaluation.on_win_scale`),
  so a battle's expectation weighs a likely elimination against a safe lead in one unit; a
  won game is worth ``WIN`` plus the depth left, so sooner is better.
* **Transposition table**: keyed by 64-bit Zobrist keys (:mod:`agents.zobrist`), each
  child's computed from its parent's in a few XORs over the cells its ply touched; an
  entry keeps the depth, the value and its bound, and the best ply, which is tried first.
  The expanded children of a node are cached too, so each deepening iteration reuses them.
* **Time**: depth 1, 2, 3 … until the stop time (the deadline, or now + ``time_budget`` if
  sooner, minus a safety margin for sending); an iteration cut short is abandoned, except
  that a ply it proved better than the previous best (searched first) is kept.

``agent.last_stats`` (:class:`SearchStats`) tells what the last search did.
"""

import gc
import logging
import random
import threading
import time
from typing import NamedTuple

from agents.candidates import candidate_plies
from agents.evaluation import (
    DRAW,
    WIN,
    evaluate,
    is_terminal_value,
    on_win_scale,
    root_bar,
)
from agents.zobrist import Zobrist
from engine import GameState, Kind, Ply, end_of_game, expected_survivors, resolve_ply
from engine.rules import DEFAULT_RULES, Rules

log = logging.getLogger(__name__)

MARGIN = 0.05
"""Seconds kept before the deadline for sending the reply (and one last node)."""
MARGIN_SHARE = 0.05
"""The margin is this share of the time instead when that is more (0.1 s of 2 s): one
node on a crowded 30 × 30 board can take tens of milliseconds when two searches share a
core. It is never more than a quarter of the time (see :func:`stop_time`)."""
MAX_DEPTH = 64
WIDTH = 16
"""Candidate plies searched per node."""
ROOT_WIDTH = 32
BRANCHED = 2
"""Random battles of one ply branched into a win and a loss; further ones are collapsed."""
RISK = 0.25
"""How much the bot dislikes gambles, its own or the enemy's: a ply with random battles is
worth, to the bot, its expected value less ``RISK`` times the mean absolute deviation of its
outcomes' values. Against weaker bots a coin flip at even odds is worse than waiting for
their mistake, and a position that offers the enemy one is worse than one that does not."""
TABLE_LIMIT = 400_000
"""States kept in the tables before they are cleared."""

EXACT, LOWER, UPPER = 0, 1, 2


class SearchStats(NamedTuple):
    """What one search did: the deepest finished ``depth``, ``nodes`` visited, ``seconds``
    spent, the root ``value`` for the side to move, and ``candidates`` at the root."""

    depth: int
    nodes: int
    seconds: float
    value: float
    candidates: int

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def stop_time(began: float, deadline: float, time_budget: float | None = None) -> float:
    """When a search begun at ``began`` stops: the deadline, or ``began + time_budget`` if
    sooner, less the larger of ``MARGIN`` and ``MARGIN_SHARE`` of the time, but at most a
    quarter of it (all on the ``time.monotonic()`` clock)."""
    stop = deadline if time_budget is None else min(deadline, began + time_budget)
    room = max(stop - began, 0.0)
    return stop - min(max(MARGIN, MARGIN_SHARE * room), room / 4)


class _OutOfTime(Exception):
    """Raised inside the search when the stop time has passed."""


Outcomes = list[tuple[float, GameState]]
"""The states a ply leads to in the tree, with their probabilities."""
Keyed = list[tuple[float, GameState, int]]
"""The same, each state with its Zobrist key."""


def ply_children(
    state: GameState, ply: Ply, rules: Rules = DEFAULT_RULES, branched: int = BRANCHED
) -> Outcomes:
    """The states the legal ``ply`` leads to in the tree, each battle reduced to its expectation.

    The ``branched`` largest battles have two outcomes each: the attackers win (probability
    from the engine's distribution) holding their expected survivors given that they win,
    rounded, or the defenders do, likewise. Further battles are collapsed into one outcome:
    the side with more expected survivors keeps the cell with that many, rounded.
    """
    grid, battles = resolve_ply(state, ply, rules)
    rows, cols, after = state.rows, state.cols, state.ply + 1
    if not battles:
        return [(1.0, GameState.trusted(rows, cols, None, after, grid))]
    ordered = sorted(battles, key=lambda b: -(b.attackers + b.defenders))
    for battle in ordered[branched:]:
        attackers = expected_survivors(battle.outcomes, battle.attacker)
        defenders = expected_survivors(battle.outcomes, battle.defender)
        kind, count = (
            (battle.attacker, attackers) if attackers > defenders else (battle.defender, defenders)
        )
        if round(count):
            grid[battle.y * cols + battle.x] = (int(kind), round(count))
    results: list[tuple[float, dict[int, tuple[int, int]]]] = [(1.0, grid)]
    for battle in ordered[:branched]:
        pos = battle.y * cols + battle.x
        sides = []
        for kind in (battle.attacker, battle.defender):
            chance = sum(o.probability for o in battle.outcomes if o.winner == kind)
            if chance > 0:
                survivors = round(expected_survivors(battle.outcomes, kind) / chance)
                sides.append((chance, int(kind), survivors))
        branches = []
        for probability, base in results:
            for chance, code, survivors in sides:
                board = dict(base)
                if survivors:
                    board[pos] = (code, survivors)
                branches.append((probability * chance, board))
        results = branches
    return [(p, GameState.trusted(rows, cols, None, after, board)) for p, board in results]


def discard(*tables: dict) -> None:
    """Empty ``tables`` in a background thread, an entry at a time.

    Full tables hold tens of millions of objects: freeing them in one ``clear()`` is one C
    call that keeps the interpreter lock for seconds, past the reply's deadline. Popped one
    entry at a time, the freeing yields the lock every few milliseconds, so the search
    goes on (more slowly) and still stops on time.
    """

    def empty() -> None:
        for table in tables:
            while table:
                table.popitem()

    threading.Thread(target=empty, name="alphabeta-discard", daemon=True).start()


class AlphaBetaAgent:
    """The ``alphabeta`` bot (see the module docstring)."""

    name = "alphabeta"

    def __init__(
        self,
        time_budget: float | None = None,
        depth: int | None = None,
        seed: int | None = None,
        width: int = WIDTH,
        rules: Rules = DEFAULT_RULES,
        risk: float = RISK,
    ) -> None:
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be 1 or more, got {depth}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time budget must be positive, got {time_budget}")
        self.time_budget = time_budget
        self.max_depth = depth or MAX_DEPTH
        self.width = width
        self.rules = rules
        self.risk = risk
        self.species: Kind | None = None
        self.rng = random.Random(seed)
        self.shuffle = seed is not None
        self.zobrist = Zobrist()
        self.table: dict[int, tuple[int, float, int, Ply | None]] = {}
        self.children: dict[int, list[tuple[Ply, Keyed]]] = {}
        self.last_stats: SearchStats | None = None
        self._nodes = 0
        self._stop = 0.0

    def new_game(self, species: Kind, state: GameState) -> None:
        """Forget the tables of the previous game."""
        self.table.clear()
        self.children.clear()

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        """The best ply found by iterative deepening before the stop time.

        The cyclic garbage collector is paused meanwhile: a full collection over the tables
        can take a tenth of a second, and the search makes no reference cycles. What the
        search built is then frozen (out of the collector's sight), or the first collection
        after the reply would scan it all while holding the GIL (0.2 s on thetrap).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(state, deadline)
        finally:
            gc.freeze()
            if collecting:
                gc.enable()

    def _search(self, state: GameState, deadline: float) -> Ply:
        began = time.monotonic()
        self._stop = stop_time(began, deadline, self.time_budget)
        self._nodes = 0
        self.species = state.to_move
        if len(self.table) > TABLE_LIMIT or len(self.children) > TABLE_LIMIT:
            discard(self.table, self.children)
            self.table, self.children = {}, {}
        plies = candidate_plies(state, ROOT_WIDTH)
        if not plies:
            raise ValueError("the side to move has no creatures: no ply to choose")
        if self.shuffle:
            self.rng.shuffle(plies)
        key = self.zobrist.key(state)
        children = [(ply, self._keyed(state, key, ply)) for ply in plies]
        best, value, finished = plies[0], 0.0, 0
        for depth in range(1, self.max_depth + 1):
            try:
                found, value, children = self._root(children, depth)
                best, finished = found, depth
            except _OutOfTime as partial:
                if partial.args:
                    best, value = partial.args
                break
            if is_terminal_value(value) or time.monotonic() >= self._stop:
                break
        self.last_stats = SearchStats(
            finished, self._nodes, time.monotonic() - began, value, len(plies)
        )
        log.debug("alphabeta: %s", self.last_stats)
        return best

    def _keyed(self, state: GameState, key: int, ply: Ply) -> Keyed:
        """:func:`ply_children`, each child with its Zobrist key (``key`` is the parent's)."""
        child = self.zobrist.child
        return [
            (p, after, child(key, state, ply, after.contents))
            for p, after in ply_children(state, ply, self.rules)
        ]

    def _root(
        self, children: list[tuple[Ply, Keyed]], depth: int
    ) -> tuple[Ply, float, list[tuple[Ply, Keyed]]]:
        """Search every root ply to ``depth``; the best, its value, and the plies reordered."""
        alpha = best_value = -float("inf")
        best: Ply | None = None
        scores: list[float] = []
        for index, (ply, outcomes) in enumerate(children):
            try:
                value = self._ply_value(outcomes, depth - 1, alpha, float("inf"))
            except _OutOfTime:
                if best is not None and index > 0:
                    raise _OutOfTime(best, best_value) from None
                raise
            scores.append(value)
            if value > alpha:
                best_value, best, alpha = value, ply, root_bar(value)
        assert best is not None
        order = sorted(range(len(children)), key=lambda i: (children[i][0] != best, -scores[i]))
        return best, best_value, [children[i] for i in order]

    def _ply_value(
        self, outcomes: Keyed, depth: int, alpha: float, beta: float, mine: bool = True
    ) -> float:
        """The mover's value of a ply: its one child's, or the expectation over its outcomes
        shifted against the bot by the :data:`RISK` penalty: less when the mover is the bot
        itself (``mine``), more when it is the enemy (their gamble is a risk for us too)."""
        if len(outcomes) == 1:
            _, child, key = outcomes[0]
            return -self._negamax(child, key, depth, -beta, -alpha)
        inf = float("inf")
        values = [(p, -self._negamax(child, key, depth, -inf, inf)) for p, child, key in outcomes]
        mean = sum(p * v for p, v in values)
        spread = self.risk * sum(p * abs(v - mean) for p, v in values)
        return mean - spread if mine else mean + spread

    def _negamax(
        self, state: GameState, key: int, depth: int, alpha: float, beta: float
    ) -> float:
        """The value of ``state`` (Zobrist key ``key``) for its side to move, searched
        ``depth`` plies deep."""
        self._nodes += 1
        if time.monotonic() > self._stop:
            raise _OutOfTime
        species = state.to_move
        end = end_of_game(state, self.rules)
        if end is not None:
            if end.winner is None:
                return DRAW
            return WIN + depth if end.winner == species else -WIN - depth
        if depth <= 0:
            return on_win_scale(evaluate(state, species), state)
        entry = self.table.get(key)
        first: Ply | None = None
        if entry is not None:
            stored_depth, stored, bound, first = entry
            if stored_depth >= depth:
                if bound == EXACT:
                    return stored
                if bound == LOWER and stored >= beta:
                    return stored
                if bound == UPPER and stored <= alpha:
                    return stored
        children = self.children.get(key)
        if children is None:
            children = [
                (ply, self._keyed(state, key, ply)) for ply in candidate_plies(state, self.width)
            ]
            self.children[key] = children
        if first is not None and children and children[0][0] != first:
            for i, (ply, _) in enumerate(children):
                if ply == first:
                    children.insert(0, children.pop(i))
                    break
        original_alpha = alpha
        best_value = -float("inf")
        best_ply: Ply | None = None
        for ply, outcomes in children:
            value = self._ply_value(outcomes, depth - 1, alpha, beta, species == self.species)
            if value > best_value:
                best_value, best_ply = value, ply
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best_ply is None:
            return on_win_scale(evaluate(state, species), state)
        if best_value <= original_alpha:
            bound = UPPER
        elif best_value >= beta:
            bound = LOWER
        else:
            bound = EXACT
        self.table[key] = (depth, best_value, bound, best_ply)
        return best_value


def make(
    time_budget: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
    width: int = WIDTH,
    risk: float = RISK,
    **_: object,
) -> AlphaBetaAgent:
    """A new ``alphabeta`` bot; ``time_budget`` caps seconds per ply, ``depth`` the search
    depth, ``seed`` shuffles the root plies, ``width`` the plies searched per node, ``risk``
    the dislike of gambles (see :data:`RISK`)."""
    return AlphaBetaAgent(
        time_budget=time_budget, depth=depth, seed=seed, width=width, risk=float(risk)
    )
