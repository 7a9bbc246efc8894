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
  The table has a fixed size (``table_mb``). A node's plies, and each ply's children once
  the search comes to it (a cutoff saves the rest), are cached for the move
  (:class:`agents.deepening.Node`), so each deepening iteration reuses them, up to a fixed
  number of cells,
  and freed just after the reply (:class:`agents.search.NodeCache`): the bot's memory is
  bounded whatever the map and the time.
* **Time**: depth 1, 2, 3 … until the stop time (the deadline, or now + ``time_budget`` if
  sooner, minus a safety margin for sending); an iteration cut short is abandoned, except
  that a ply it proved better than the previous best (searched first) is kept.

``agent.last_stats`` (:class:`SearchStats`) tells what the last search did.
"""

from typing import Any

import attrs

from agents.candidates import candidate_plies
from agents.deepening import Keyed, TableOptions, TableSearch
from agents.evaluation import (
    DRAW,
    WIN,
    evaluate,
    is_terminal_value,
    on_win_scale,
    root_bar,
    scored,
)
from agents.options import option
from agents.search import battle_sides, bound_of, table_order
from engine import GameState, Ply, end_of_game, expected_survivors, resolve_ply
from engine.rules import DEFAULT_RULES, Rules

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

Outcomes = list[tuple[float, GameState]]
"""The states a ply leads to in the tree, with their probabilities."""


def ply_children(
    state: GameState, ply: Ply, rules: Rules = DEFAULT_RULES, branched: int = BRANCHED
) -> Outcomes:
    """The states the legal ``ply`` leads to in the tree, each battle reduced to its expectation.

    The ``branched`` largest battles have two outcomes each: the attackers win (probability
    from the engine's distribution) holding their expected survivors given that they win,
    rounded, or the defenders do, likewise (:func:`agents.search.battle_sides`). Further
    battles are collapsed into one outcome: the side with more expected survivors keeps the
    cell with that many, rounded.
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
        sides = battle_sides(battle)
        branches = []
        for probability, base in results:
            for chance, code, survivors in sides:
                board = dict(base)
                if survivors:
                    board[pos] = (code, survivors)
                branches.append((probability * chance, board))
        results = branches
    return [(p, GameState.trusted(rows, cols, None, after, board)) for p, board in results]


@attrs.frozen
class AlphaBetaOptions(TableOptions):
    """The options of ``alphabeta`` (``make(**options)``, ``vvw agent alphabeta --depth 4``)."""

    seed: int | None = option(int, None, "shuffles the root plies")
    width: int = option(int, WIDTH, "candidate plies searched per node")
    risk: float = option(float, RISK, "dislike of gambles")


class AlphaBetaAgent(TableSearch):
    """The ``alphabeta`` bot (see the module docstring)."""

    name = "alphabeta"
    Options = AlphaBetaOptions
    KEEP_PARTIAL = True

    def __init__(self, options: AlphaBetaOptions | None = None, **given: Any) -> None:
        super().__init__(options, **given)
        self.width = self.options.width
        self.risk = self.options.risk
        self.shuffle = self.options.seed is not None

    def root_plies(self, state: GameState) -> list[Ply]:
        plies = candidate_plies(state, ROOT_WIDTH)
        if not plies:
            raise ValueError("the side to move has no creatures: no ply to choose")
        if self.shuffle:
            self.rng.shuffle(plies)
        return plies

    def outcomes(self, state: GameState, ply: Ply) -> Outcomes:
        return ply_children(state, ply, self.rules)

    def settled(self, value: float) -> bool:
        return is_terminal_value(value)

    def bar(self, best: float) -> float:
        return root_bar(best)

    def searched(self, child: Keyed, depth: int, alpha: float, beta: float) -> float:
        return self._ply_value(child, depth, alpha, beta)

    def leaf_value(self, state: GameState, unfinished: bool = False) -> float:
        """A leaf's value for its side to move, on the scale of a won game."""
        score, counts = scored(state, state.to_move, unfinished)
        return on_win_scale(score, state, counts=counts)

    def node_plies(self, state: GameState) -> list[Ply]:
        return candidate_plies(state, self.width)

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

    def _negamax(self, state: GameState, key: int, depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` (Zobrist key ``key``) for its side to move, searched
        ``depth`` plies deep."""
        known = self.visit(key, depth)
        if known is not None:
            return known
        species = state.to_move
        end = end_of_game(state, self.rules)
        if end is not None:
            if end.winner is None:
                return DRAW
            return WIN + depth if end.winner == species else -WIN - depth
        answer, first = self.answered(state, key, depth, alpha, beta)
        if answer is not None:
            return answer
        node = self.node(state, key)
        original_alpha = alpha
        best_value = -float("inf")
        best: int | None = None
        for index in table_order(first, len(node.plies)):
            outcomes = self.ply_outcomes(state, key, node, index)
            value = self._ply_value(outcomes, depth - 1, alpha, beta, species == self.species)
            if value > best_value:
                best_value, best = value, index
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best is None:
            return on_win_scale(evaluate(state, species), state)
        self.table.store(key, depth, best_value, bound_of(best_value, original_alpha, beta), best)
        return best_value


OPTIONS = AlphaBetaOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> AlphaBetaAgent:
    """A new ``alphabeta`` bot; ``options``: those of :class:`AlphaBetaOptions` (others are
    refused with the list of these)."""
    return AlphaBetaAgent(**options)
