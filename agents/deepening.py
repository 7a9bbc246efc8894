"""One iterative-deepening driver for every search bot (sunfish's habit).

``alphabeta``, ``expectiminimax`` and the reference bots (``seed2019``, ``zcsn``,
``seed2025``) each subclass :class:`Deepening` and give only what is theirs: the plies at
the root (:meth:`Deepening.root_plies`), what a root ply leads to
(:meth:`Deepening.root_child`), the value of a root ply searched some plies deep
(:meth:`Deepening.searched`), and when a value settles the game
(:meth:`Deepening.settled`). The driver does the rest, once for all of them:

* the options' checks (a depth of 1 or more, a positive time budget) and the stop time
  (:func:`agents.search.stop_time`, with the bot's share kept for sending);
* the deepening loop: depth 1, 2, 3 … until the bot's depth, the stop time, or a settled
  value; an iteration cut short by the clock (:class:`agents.search.OutOfTime`) is
  dropped, except, for a bot that keeps partial results (``KEEP_PARTIAL``), a ply it
  already proved better than the previous best, which it searched first;
* the root's order: after each iteration the best ply first, the others by their values;
  a ply replaces the best so far only if it beats :meth:`Deepening.bar` of it (the search
  bots' tie margin, :func:`agents.evaluation.root_bar`);
* the collector paused during a search (:func:`agents.search.collector_paused`), the
  statistics (``last_stats``, :class:`agents.search.SearchStats`).

Public calls, the same for every search bot:

* ``choose_ply(state, deadline)``: the bot's reply, on time;
* ``analyse(state, depth)``: ``(value, ply)``, the value and the ply the bot would play
  after a search ``depth`` deep, untimed;
* ``root_values(state, depth=None, seconds=None, plies=None)``: the value of every root
  ply, ``[(ply, value), …]`` best first, each searched with the full window (an exact value,
  not a bound) from ``state.to_move``'s view. ``plies`` are valued instead of the bot's own
  candidates when given (any legal plies, even ones its generator would never offer). At a
  fixed ``depth`` the search starts from an empty table, so the values depend only on
  the position (deterministic); with ``seconds`` it deepens until the time is up and
  returns the last finished depth's values (``last_stats.depth`` says which). The same
  deepening loop as the others, each iteration with the full window. This is what
  ``vvw analyse`` builds on.

A tool follows a search without subclassing a bot: ``on_iteration``, a public parameter
of every search bot, is called after each finished iteration with its depth, value and best
ply (``vvw analyse`` smooths a position's value over the last two depths this way).

A search raises :class:`agents.search.OutOfTime` from deep inside through the bot's clock
(``self.clock``); the root's progress is kept by the driver, never in the exception.
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, Generic, TypeVar

import attrs

from agents.compiling import mypyc_attr
from agents.options import option, read_options
from agents.search import (
    MARGIN_SHARE,
    TABLE_MB,
    Clock,
    NodeCache,
    OutOfTime,
    SearchStats,
    TranspositionTable,
    collector_paused,
    stop_time,
)
from agents.zobrist import Zobrist
from engine import GameState, Kind, Ply, find_violation
from engine.rules import DEFAULT_RULES, Rules

MAX_DEPTH: Final = 64
"""The deepest iteration when a bot has no depth of its own (the clock stops it first)."""

Child = TypeVar("Child")
"""What a root ply leads to, in a bot's own form."""
Root = list[tuple[Ply, Any]]


@attrs.frozen
class DeepeningOptions:
    """The options every search bot of this driver has (a bot's class adds its own)."""

    time_budget: float | None = option(float, None, "seconds per move at most")
    depth: int | None = option(int, None, "search depth at most")


@attrs.frozen
class TableOptions(DeepeningOptions):
    """The options of a :class:`TableSearch` bot, before its own."""

    table_mb: float = option(float, TABLE_MB, "megabytes of the transposition table")
    rules: Rules = option(Rules, DEFAULT_RULES, "the rules searched")  # noqa: RUF009


class _Progress:
    """How far an iteration has gone: plies searched, and the best so far."""

    __slots__ = ("best", "searched", "value")

    def __init__(self) -> None:
        self.searched = 0
        self.best: Ply = ()
        self.value = 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class Deepening(Generic[Child]):
    """An iterative-deepening search bot (see the module docstring).

    A subclass sets ``name``, ``Options`` (its attrs options class, with at least
    ``time_budget``, ``depth`` and ``seed``) and the hooks; it is made from an options
    object or from keyword options (checked as :func:`agents.options.read_options` does).
    """

    name: ClassVar[str] = "search"
    Options: ClassVar[type]
    LOW: ClassVar[float] = -float("inf")
    """Below any value a root ply can have: the root's window."""
    HIGH: ClassVar[float] = float("inf")
    """Above any value a root ply can have."""
    KEEP_PARTIAL: ClassVar[bool] = False
    """Whether a ply proved better by an iteration cut short is played."""
    MARGIN_SHARE: ClassVar[float] = MARGIN_SHARE
    """The share of the time kept for sending (see :func:`agents.search.stop_time`)."""
    DEFAULT_DEPTH: ClassVar[int] = MAX_DEPTH

    def __init__(self, options: Any = None, **given: Any) -> None:
        # A public parameter that is no option, taken out of ``given`` by hand: compiled
        # by mypyc, ``super().__init__(options, **given)`` would pass the whole of
        # ``given`` to a keyword-only parameter.
        on_iteration: Callable[[int, float, Ply], None] | None = given.pop("on_iteration", None)
        if options is None:
            options = read_options(self.name, self.Options, given)
        elif given:
            options = attrs.evolve(options, **given)
        if options.depth is not None and options.depth < 1:
            raise ValueError(f"depth must be 1 or more, got {options.depth}")
        if options.time_budget is not None and options.time_budget <= 0:
            raise ValueError(f"time budget must be positive, got {options.time_budget}")
        self.options = options
        self.time_budget: float | None = options.time_budget
        self.max_depth: int = options.depth or self.DEFAULT_DEPTH
        self.rng = random.Random(options.seed)
        self.clock = Clock()
        self.last_stats: SearchStats | None = None
        self.on_iteration = on_iteration
        """Called after each finished iteration of a search (:meth:`choose_ply`,
        :meth:`analyse`, :meth:`root_values`) with its depth, the best value and the best
        ply: how a tool follows the deepening without subclassing the bot."""

    # -- what a bot gives ---------------------------------------------------------------

    def root_plies(self, state: GameState) -> list[Ply]:
        """The plies searched at the root, legal and not empty; at least one."""
        raise NotImplementedError

    def root_child(self, state: GameState, ply: Ply) -> Child:
        """What the root ``ply`` leads to, made once per search (may raise OutOfTime)."""
        raise NotImplementedError

    def searched(self, child: Child, depth: int, alpha: float, beta: float) -> float:
        """The root mover's value of the ply leading to ``child``, searched ``depth`` plies
        below it within (alpha, beta)."""
        raise NotImplementedError

    def settled(self, value: float) -> bool:
        """Whether a root value says the game is decided: deeper search adds nothing."""
        return False

    def bar(self, best: float) -> float:
        """What a later root ply must beat to replace the best so far, worth ``best``."""
        return best

    def begin(self, state: GameState) -> None:
        """A search from ``state`` starts (tables, the side searched for)."""

    def forget(self) -> None:
        """Forget what earlier searches learnt (for a search that depends on nothing else)."""

    def depth_for(self, state: GameState) -> int:
        """How deep to search from ``state`` at most."""
        return self.max_depth

    def shortcut(self, state: GameState) -> Ply | None:
        """A ply to play without searching (a solved position), if the bot has one."""
        return None

    def paused(self) -> Any:
        """The context a search runs in (the collector paused)."""
        return collector_paused()

    # -- the agent ----------------------------------------------------------------------

    def new_game(self, species: Kind, state: GameState) -> None:
        """A game starts: forget the previous one."""
        self.forget()

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        """The best ply found before the stop time (or the bot's shortcut)."""
        began = time.monotonic()
        ply = self.shortcut(state)
        if ply is not None:
            self.last_stats = SearchStats(0, 0, time.monotonic() - began, 0.0, 0)
            return ply
        self.clock = Clock(stop_time(began, deadline, self.time_budget, self.MARGIN_SHARE))
        with self.paused():
            return self._deepen(state, began, self.depth_for(state), settle=True)[0]

    def analyse(self, state: GameState, depth: int) -> tuple[float, Ply]:
        """The value (from ``state.to_move``'s view) and the best ply at ``depth``, untimed,
        from an empty table."""
        self.clock = Clock()
        self.forget()
        with self.paused():
            ply, _ = self._deepen(state, time.monotonic(), depth)
        assert self.last_stats is not None
        return self.last_stats.value, ply

    def root_values(
        self,
        state: GameState,
        depth: int | None = None,
        seconds: float | None = None,
        plies: Sequence[Ply] | None = None,
    ) -> list[tuple[Ply, float]]:
        """Every root ply's value, best first (see the module docstring)."""
        if depth is None and seconds is None:
            raise ValueError("root_values needs a depth, a time, or both")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be 1 or more, got {depth}")
        chosen = None
        if plies is not None:
            for ply in plies:
                violation = find_violation(state, ply) if ply else "an empty ply"
                if violation is not None:
                    raise ValueError(f"cannot value the ply {ply}: {violation}")
            chosen = list(dict.fromkeys(plies))
            if not chosen:
                raise ValueError("no plies to value")
        began = time.monotonic()
        self.clock = Clock(float("inf") if seconds is None else began + seconds)
        self.forget()
        with self.paused():
            _, values = self._deepen(state, began, depth or MAX_DEPTH, exact=True, plies=chosen)
        if not values:
            raise OutOfTime(f"not even depth 1 was searched in {seconds} s")
        return values

    # -- the loop -----------------------------------------------------------------------

    def _deepen(
        self,
        state: GameState,
        began: float,
        max_depth: int,
        settle: bool = False,
        exact: bool = False,
        plies: list[Ply] | None = None,
    ) -> tuple[Ply, list[tuple[Ply, float]]]:
        """Deepen up to ``max_depth`` until the clock stops; with ``settle``, stop once the
        value settles the game. ``exact``: every root ply searched with the full window
        (its exact value, not a bound; :meth:`root_values`), ``plies`` instead of the bot's
        own when given. The ply to play and every root ply's value at the last finished
        depth, best first (none if none finished); :attr:`last_stats` says the rest."""
        self.begin(state)
        if plies is None:
            plies = self.root_plies(state)
        try:
            root: Root = [(ply, self.root_child(state, ply)) for ply in plies]
        except OutOfTime:
            root = []
        iteration = self._exact_iteration if exact else self._iteration
        best, value, finished = plies[0], 0.0, 0
        values: list[tuple[Ply, float]] = []
        for depth in range(1, max_depth + 1 if root else 1):
            progress = _Progress()
            try:
                value, root, scores = iteration(root, depth, progress)
            except OutOfTime:
                if self.KEEP_PARTIAL and progress.searched:
                    best, value = progress.best, progress.value
                break
            best, finished = root[0][0], depth
            values = [(ply, score) for (ply, _), score in zip(root, scores, strict=True)]
            if self.on_iteration is not None:
                self.on_iteration(depth, value, best)
            if (settle and self.settled(value)) or time.monotonic() >= self.clock.stop:
                break
        self.last_stats = SearchStats(
            finished, self.clock.nodes, time.monotonic() - began, value, len(plies)
        )
        return best, values

    def _iteration(
        self, root: Root, depth: int, progress: _Progress
    ) -> tuple[float, Root, list[float]]:
        """Every root ply searched to ``depth``: the best value, the plies best first (the
        best ahead of any other within its bar), and their values in that order (bounds but
        for the best's)."""
        alpha = best_value = self.LOW
        best = 0
        scores = []
        for index, (ply, child) in enumerate(root):
            value = self.searched(child, depth - 1, alpha, self.HIGH)
            scores.append(value)
            if value > alpha:
                best_value, best, alpha = value, index, self.bar(value)
                progress.best, progress.value = ply, value
            progress.searched += 1
        order = sorted(range(len(root)), key=lambda i: (i != best, -scores[i]))
        return best_value, [root[i] for i in order], [scores[i] for i in order]

    def _exact_iteration(
        self, root: Root, depth: int, progress: _Progress
    ) -> tuple[float, Root, list[float]]:
        """Every root ply searched to ``depth`` with the full window: the best value, the
        plies by their exact values, best first, and the values. Nothing is proved before
        all are searched, so ``progress`` keeps nothing to play from a cut-short one."""
        scores = [self.searched(child, depth - 1, self.LOW, self.HIGH) for _, child in root]
        order = sorted(range(len(root)), key=lambda i: -scores[i])
        return scores[order[0]], [root[i] for i in order], [scores[i] for i in order]


LEAF_ENTRIES: Final = 200_000
"""Leaf values a :class:`TableSearch` bot keeps at most (some 20 MB)."""

Keyed = list[tuple[float, GameState, int]]
"""The states a ply leads to in the tree with their probabilities, each with its Zobrist key."""


class Node:
    """An expanded node: its plies, and what each leads to once computed (``None``: not yet):
    a ply's outcomes are worked out only when the search comes to it, so a cutoff saves
    those of the plies after it."""

    __slots__ = ("kept", "outcomes", "plies")

    def __init__(self, plies: list[Ply], kept: bool) -> None:
        self.plies = plies
        self.outcomes: list[Keyed | None] = [None] * len(plies)
        self.kept = kept
        """Whether the node is in the cache (what it learns is worth keeping)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class TableSearch(Deepening[Keyed]):
    """What ``alphabeta`` and ``expectiminimax`` share beyond the driver: the side searched
    for, Zobrist keys, the fixed-size transposition table and the move's bounded cache of
    expanded nodes (:mod:`agents.search`), and a ply's outcomes keyed.

    A subclass gives :meth:`outcomes` (what a ply leads to in its tree) and
    :meth:`node_plies` (the plies searched below the root); its options have ``table_mb``
    and ``rules``.
    """

    def __init__(self, options: Any = None, **given: Any) -> None:
        super().__init__(options, **given)
        self.rules = self.options.rules
        self._default_rules = self.rules == DEFAULT_RULES
        """Whether a leaf the search found unfinished is so under the evaluation's rules."""
        self.species: Kind | None = None
        self.zobrist = Zobrist()
        self.table = TranspositionTable(self.options.table_mb)
        self.expanded: NodeCache[Node] = NodeCache()
        self.leaves: dict[int, float] = {}
        """Leaf values by Zobrist key (a leaf's value depends on the position alone, for
        one side): kept from move to move while the side is the same, at most
        :data:`LEAF_ENTRIES` of them (then emptied)."""
        self.leaf_entries = LEAF_ENTRIES

    def visit(self, key: int, depth: int) -> float | None:
        """A node of key ``key`` with ``depth`` plies left is visited (the clock ticks, and
        may stop the search): the value of a leaf valued before (it was no finished game),
        or ``None``."""
        self.clock.tick()
        return self.leaves.get(key) if depth <= 0 else None

    def answered(
        self, state: GameState, key: int, depth: int, alpha: float, beta: float
    ) -> tuple[float | None, int | None]:
        """For an unfinished ``state`` (key ``key``) searched ``depth`` deep within (alpha,
        beta): its value if it needs no search (a leaf, or a stored value that answers),
        and the index of the best ply the table knows."""
        if depth <= 0:
            return self.leaf(state, key), None
        entry = self.table.get(key)
        if entry is None:
            return None, None
        if entry.cutoff(depth, alpha, beta):
            return entry.value, entry.best
        return None, entry.best

    def leaf(self, state: GameState, key: int) -> float:
        """The value of the leaf ``state`` (key ``key``), from :attr:`leaves` or
        :meth:`leaf_value`."""
        value = self.leaves.get(key)
        if value is None:
            value = self.leaf_value(state, self._default_rules)
            leaves = self.leaves
            if len(leaves) >= self.leaf_entries:
                leaves.clear()
            leaves[key] = value
        return value

    def leaf_value(self, state: GameState, unfinished: bool = False) -> float:
        """A leaf's value (the search's horizon), from the side searched for's view;
        ``unfinished``: the game is known not to be over under the default rules."""
        raise NotImplementedError

    def outcomes(self, state: GameState, ply: Ply) -> list[tuple[float, GameState]]:
        """The states the legal ``ply`` leads to in the tree, with their probabilities."""
        raise NotImplementedError

    def node_plies(self, state: GameState) -> list[Ply]:
        """The plies searched in ``state``, below the root, best guess first."""
        raise NotImplementedError

    def node(self, state: GameState, key: int) -> Node:
        """The node of ``state`` (key ``key``): its plies and what is known of their
        outcomes, cached for the move if there is room."""
        node = self.expanded.get(key)
        if node is None:
            plies = self.node_plies(state)
            node = Node(plies, self.expanded.reserve(len(plies)))
            if node.kept:
                self.expanded.put(key, node)
        return node

    def ply_outcomes(self, state: GameState, key: int, node: Node, index: int) -> Keyed:
        """What the node's ``index``-th ply leads to, kept in the node if there is room."""
        outcomes = node.outcomes[index]
        if outcomes is None:
            outcomes = self.keyed(state, key, node.plies[index])
            cells = sum(len(after.contents) for _, after, _ in outcomes)
            if node.kept and self.expanded.reserve(cells):
                node.outcomes[index] = outcomes
        return outcomes

    def new_game(self, species: Kind, state: GameState) -> None:
        """Forget the previous game's table; the bot plays ``species``."""
        self.species = species
        self.table.clear()
        self.leaves = {}

    def forget(self) -> None:
        self.table.clear()
        self.leaves = {}
        self.expanded.release()

    def paused(self) -> Any:
        """The collector paused until the expanded nodes are freed, just after the reply."""
        return collector_paused(self.expanded)

    def begin(self, state: GameState) -> None:
        """The bot searches for ``state.to_move``: a table of the other side's values goes."""
        if self.species != state.to_move:
            self.table.clear()
            self.leaves = {}
        self.species = state.to_move
        self.table.new_search()
        self._root_key = self.zobrist.key(state)

    def root_child(self, state: GameState, ply: Ply) -> Keyed:
        return self.keyed(state, self._root_key, ply)

    def keyed(self, state: GameState, key: int, ply: Ply) -> Keyed:
        """:meth:`outcomes`, each state with its Zobrist key (``key`` is the parent's)."""
        child = self.zobrist.child
        return [
            (p, after, child(key, state, ply, after.contents))
            for p, after in self.outcomes(state, ply)
        ]
