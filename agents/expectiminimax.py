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
deadline, a transposition table of fixed size keyed by Zobrist keys and a bounded cache of
the move's expanded nodes (:mod:`agents.search`), and move ordering from the previous
iteration;
plies come from :func:`agents.candidates.candidate_plies` (widened with every whole-group
step when they are few) and leaves are scored by
:func:`agents.evaluation.evaluate`, put on the scale of a won game
(:func:`agents.evaluation.on_win_scale`, with its own ceiling and a contempt) and through a
cautious utility (:func:`cautious`; the option ``opponent_odds`` values the opponent's long
shots by their mean instead, :meth:`ExpectiminimaxAgent._long_shot`). Once each side is
down to one group and no house is left to take, the bot plays the exactly solved pursuit
instead (:mod:`agents.endgame`).

Another judge can stand at the leaves: the option ``leaf`` (``--leaf learned``: the learned
winning chances of :mod:`agents.judge`), or any expected-score function given as ``judge``.
A tool configures a search through public parameters rather than by subclassing the bot:
``judge``, ``widths`` (candidates per level below the root, widened only at the root),
``exact_results`` (a finished game exactly a win, a draw or a loss, with no bonus for
winning sooner) and the driver's ``on_iteration`` (``vvw analyse`` sets all four).
docs/agents.md explains it all.
"""

import math
from collections.abc import Sequence
from math import prod
from typing import Any, Final

import attrs

from agents.candidates import candidate_plies
from agents.compiling import mypyc_attr
from agents.deepening import Keyed, TableOptions, TableSearch
from agents.endgame import endgame_ply
from agents.evaluation import DRAW, LOSS, WIN, on_win_scale, root_bar, scored
from agents.judge.learned import NAME as LEARNED
from agents.judge.learned import shipped
from agents.judge.leaves import Leaf, leaf_as_value, learned_leaf
from agents.options import option
from agents.search import battle_sides, bound_of, table_order
from engine import (
    GameState,
    Kind,
    Ply,
    end_of_game,
    find_violation,
    ply_outcomes,
    resolve_ply,
    win_probability,
)
from engine.movegen import group_moves, random_ply
from engine.resolution import Battle

Outcomes = list[tuple[float, GameState]]

DEFAULT_MAX_OUTCOMES: Final = 8
DEFAULT_COVERAGE: Final = 0.95
DEFAULT_WIDTH: Final = 16
"""How many candidate plies a node considers."""
DEFAULT_MIN_WIDTH: Final = 12
"""Below this many candidates, every whole-group step is searched too."""

SQUASH_CEILING: Final = 0.99
"""The ceiling of :func:`agents.evaluation.on_win_scale` for this bot: every unfinished
position stays below any finished game (a game lasts at most a few hundred plies)."""
DEFAULT_CONTEMPT: Final = 0.05
DEFAULT_RISK: Final = 2.0
"""Curvature of the bot's utility (see :func:`cautious`); 0 values a gamble by its mean."""
DEFAULT_OPPONENT_ODDS: Final = 0.0
"""The search's opponent starts any random battle it wins at least this often, and a
longer shot only when it lowers our expected score (see
:meth:`ExpectiminimaxAgent._long_shot`); 0: whenever our cautious utility dislikes it."""
EVALUATION: Final = "evaluation"
LEAVES: Final = (EVALUATION, LEARNED)
"""The judges the option ``leaf`` names: the bots' evaluation, the learned chances."""
NEUTRAL_RISK: Final = 1e-9
"""At most this curvature, the utility is the value itself (its limit; no underflow)."""

MARGIN_SHARE: Final = 0.25
"""The search stops with this share of the time left (see :func:`agents.search.stop_time`)."""


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
    if risk <= NEUTRAL_RISK:
        return value
    x = (value - LOSS) / (WIN - LOSS)
    return LOSS + (WIN - LOSS) * math.expm1(-risk * x) / math.expm1(-risk)


def uncautious(utility: float, risk: float) -> float:
    """The value whose :func:`cautious` utility is ``utility`` (its inverse); outside
    ``[LOSS, WIN]`` (a search window's open ends) the value itself."""
    if risk <= NEUTRAL_RISK or not LOSS <= utility <= WIN:
        return utility
    y = (utility - LOSS) / (WIN - LOSS)
    x = -math.log1p(y * math.expm1(-risk)) / risk
    return LOSS + (WIN - LOSS) * x


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
    per_battle = [battle_sides(battle) for battle in battles]
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


@attrs.frozen
class ExpectiminimaxOptions(TableOptions):
    """The options of ``expectiminimax`` (``make(**options)``, ``vvw agent expectiminimax
    --depth 4``)."""

    seed: int | None = option(int, None, "seed of the random ply played when no candidate is found")
    max_outcomes: int = option(int, DEFAULT_MAX_OUTCOMES, "outcomes of a chance node at most")
    coverage: float = option(float, DEFAULT_COVERAGE, "probability a bucketed chance node covers")
    width: int = option(int, DEFAULT_WIDTH, "candidate plies searched per node")
    min_width: int = option(int, DEFAULT_MIN_WIDTH, "below this many candidates, every step too")
    contempt: float = option(float, DEFAULT_CONTEMPT, "tips even positions toward playing on")
    risk: float = option(float, DEFAULT_RISK, "curvature of the cautious utility")
    opponent_odds: float = option(
        float,
        DEFAULT_OPPONENT_ODDS,
        "below this win chance the opponent gambles only to lower our expected score (0: off)",
    )
    endgame: int = option(
        int, 1, "1: play a one-against-one endgame by its exact solution, 0: search it"
    )
    leaf: str = option(
        str, EVALUATION, "the judge at the search's horizon: evaluation, or learned chances"
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class ExpectiminimaxAgent(TableSearch):
    """Iterative-deepening expectiminimax with Star1 chance-node pruning."""

    name = "expectiminimax"
    Options = ExpectiminimaxOptions
    LOW = LOSS - 1.0
    HIGH = WIN + 1.0
    MARGIN_SHARE = MARGIN_SHARE

    def __init__(self, options: ExpectiminimaxOptions | None = None, **given: Any) -> None:
        # The public parameters that are no options: ``judge``, ``widths``,
        # ``exact_results`` (the module docstring; taken out of ``given`` by hand, as
        # :class:`agents.deepening.Deepening` takes ``on_iteration``).
        judge: Leaf | None = given.pop("judge", None)
        widths: Sequence[int] | None = given.pop("widths", None)
        exact_results = bool(given.pop("exact_results", False))
        super().__init__(options, **given)
        if self.options.leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, got {self.options.leaf!r}")
        if widths is not None and (not widths or min(widths) < 1):
            raise ValueError(f"widths must be one or more widths of 1 or more, got {widths!r}")
        if judge is None and self.options.leaf == LEARNED:
            judge = learned_leaf(self.rules)
            shipped()  # the model read now, not during the first move's search
        self.judge = judge
        """The expected score (0 to 1) of a leaf for the side to move, instead of the
        evaluation; ``None``: the evaluation."""
        self.widths = None if widths is None else tuple(widths)
        """Candidates searched at the root, one ply below it, …, the last for deeper;
        ``None``: ``width`` at every node."""
        self.exact_results = exact_results
        self.root_ply = 0
        self.max_outcomes = self.options.max_outcomes
        self.coverage = self.options.coverage
        self.width = self.options.width
        self.min_width = self.options.min_width
        self.contempt = self.options.contempt
        self.risk = self.options.risk
        self.opponent_odds = self.options.opponent_odds
        self.long_shots = self.opponent_odds > 0 and self.risk > NEUTRAL_RISK
        self.endgame = bool(self.options.endgame)

    def _own_species(self) -> Kind:
        if self.species is None:
            raise RuntimeError("choose_ply before new_game: the bot does not know its species")
        return self.species

    # -- the driver's hooks -------------------------------------------------------------

    def shortcut(self, state: GameState) -> Ply | None:
        """In a one-against-one endgame, the exactly solved ply."""
        return endgame_ply(state, self.rules) if self.endgame else None

    def begin(self, state: GameState) -> None:
        super().begin(state)
        self.root_ply = state.ply

    def root_plies(self, state: GameState) -> list[Ply]:
        plies = [ply for ply in self.plies(state) if ply and not find_violation(state, ply)]
        if not plies:
            plies = [random_ply(state, self.rng)]
        return plies

    def searched(self, child: Keyed, depth: int, alpha: float, beta: float) -> float:
        return self._chance(child, depth, alpha, beta)

    def settled(self, value: float) -> bool:
        return value >= WIN - 500  # won for sure: deeper search adds nothing

    def bar(self, best: float) -> float:
        return root_bar(best)

    # -- analysis -----------------------------------------------------------------------

    def leaf_value(self, state: GameState, unfinished: bool = False) -> float:
        """A position's value at the search horizon, for the bot's species, in bounds
        (``unfinished``: the game is known not to be over under the default rules)."""
        species = self._own_species()
        if self.judge is not None:
            return cautious(leaf_as_value(self.judge, state, species), self.risk)
        score, counts = scored(state, species, unfinished)
        if abs(score) < WIN / 2:
            score = on_win_scale(score, state, species, SQUASH_CEILING, self.contempt, counts)
        return cautious(max(LOSS, min(WIN, score)), self.risk)

    def finished_value(self, winner: Kind | None, ply: int) -> float:
        """The value of a game that ended at ``ply`` (``winner`` ``None``: a draw): with
        ``exact_results`` exactly a win, a draw or a loss, else sooner wins and later
        losses better."""
        species = self._own_species()
        if self.exact_results:
            value = DRAW if winner is None else WIN if winner == species else LOSS
        else:
            value = terminal_value(winner, ply, species)
        return cautious(value, self.risk)

    def ply_value(self, state: GameState, ply: Ply, depth: int) -> float:
        """The expected value of ``ply`` for ``state.to_move``, ``depth`` plies deep, untimed
        (:meth:`root_values` of that one ply)."""
        [(_, value)] = self.root_values(state, depth, plies=[ply])
        return value

    def plies(self, state: GameState) -> list[Ply]:
        """The plies searched in ``state``: the candidates, widened when they are few.

        With few candidates (a lone group facing an enemy it cannot kill for sure), every
        whole-group step is added, so that waiting at a distance or stepping aside is
        searched too, not only walking into the enemy's first strike. With ``widths``, as
        many candidates as the level's width, widened at the root only.
        """
        if self.widths is None:
            width, widen = self.width, True
        else:
            level = state.ply - self.root_ply
            width, widen = self.widths[min(level, len(self.widths) - 1)], level == 0
        plies = candidate_plies(state, width)
        if widen and len(plies) < self.min_width:
            known = set(plies)
            plies += [(m,) for m in group_moves(state) if (m,) not in known]
        return plies

    # -- the search ---------------------------------------------------------------------

    def outcomes(self, state: GameState, ply: Ply) -> Outcomes:
        """The (possibly bucketed) distribution of states ``ply`` leads to, most probable first."""
        grid, battles = resolve_ply(state, ply, self.rules)
        if not battles:
            return [(1.0, GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid))]
        if prod(len(b.outcomes) for b in battles) <= self.max_outcomes:
            exact = ply_outcomes(state, ply, self.rules, check=False)
            return sorted(((float(p), s) for p, s in exact), key=lambda o: -o[0])
        return bucketed(state, grid, battles, self.max_outcomes, self.coverage)

    def node_plies(self, state: GameState) -> list[Ply]:
        return self.plies(state) or [random_ply(state, self.rng)]

    def _chance(
        self, outcomes: Keyed, depth: int, alpha: float, beta: float, risk: float = 0.0
    ) -> float:
        """The expected value of a ply leading to ``outcomes``; Star1 within (alpha, beta).

        With ``risk`` (an opponent's long shot, see :meth:`_long_shot`), the expectation is
        of the values under the cautious utility of that curvature (:func:`uncautious`),
        and the node is worth its utility: Star1 runs on those values.
        """
        if len(outcomes) == 1:
            _, child, key = outcomes[0]
            return self._search(child, key, depth, alpha, beta)
        alpha, beta = uncautious(alpha, risk), uncautious(beta, risk)
        total, rest = 0.0, 1.0
        for p, child, key in outcomes:
            rest -= p
            low = (alpha - total - rest * WIN) / p
            high = (beta - total - rest * LOSS) / p
            if low >= WIN:  # even a won outcome here cannot lift the node above alpha
                return cautious(total + (p + rest) * WIN, risk)
            if high <= LOSS:  # even a lost outcome here cannot pull it below beta
                return cautious(total + (p + rest) * LOSS, risk)
            floor, ceiling = cautious(max(LOSS, low), risk), cautious(min(WIN, high), risk)
            value = uncautious(self._search(child, key, depth, floor, ceiling), risk)
            total += p * value
            if value >= high:
                return cautious(total + rest * LOSS, risk)
            if value <= low:
                return cautious(total + rest * WIN, risk)
        return cautious(total, risk)

    def _long_shot(self, state: GameState, ply: Ply) -> bool:
        """Whether the opponent's ``ply`` starts only random battles it wins less often
        than ``opponent_odds``.

        Such a long shot is valued as a player who wants to win sees it: the utility of
        the outcomes' mean value, not the mean of their utilities. So the search's
        opponent takes it only when it lowers our expected score, not whenever our
        cautious utility dislikes the gamble: at ``risk`` 2 it would otherwise strike at
        43 % in a game it expects to lose, and the bot would pass a sure kill allowing it.
        """
        if not self.long_shots:
            return False
        _, battles = resolve_ply(state, ply, self.rules)
        odds = self.opponent_odds
        return all(win_probability(b.attackers, b.defenders) < odds for b in battles)

    def _search(self, state: GameState, key: int, depth: int, alpha: float, beta: float) -> float:
        known = self.visit(key, depth)
        if known is not None:
            return known
        ending = end_of_game(state, self.rules)
        if ending is not None:
            return self.finished_value(ending.winner, state.ply)
        answer, first = self.answered(state, key, depth, alpha, beta)
        if answer is not None:
            return answer
        node = self.node(state, key)
        order = table_order(first, len(node.plies))
        maximising = state.to_move == self.species
        a, b = alpha, beta
        best_value = LOSS - 1.0 if maximising else WIN + 1.0
        best = order[0]
        for index in order:
            outcomes = self.ply_outcomes(state, key, node, index)
            risk = 0.0
            if not maximising and len(outcomes) > 1 and self._long_shot(state, node.plies[index]):
                risk = self.risk
            value = self._chance(outcomes, depth - 1, a, b, risk)
            if maximising:
                if value > best_value:
                    best_value, best = value, index
                a = max(a, value)
            else:
                if value < best_value:
                    best_value, best = value, index
                b = min(b, value)
            if a >= b:
                break
        self.table.store(key, depth, best_value, bound_of(best_value, alpha, beta), best)
        return best_value


OPTIONS = ExpectiminimaxOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> ExpectiminimaxAgent:
    """A new ``expectiminimax`` bot; ``options``: those of :class:`ExpectiminimaxOptions`
    (others are refused with the list of these)."""
    return ExpectiminimaxAgent(**options)
