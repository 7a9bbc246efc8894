"""What the search bots' trees share: the clock, the statistics, a transposition table of fixed
size, a bounded cache of expanded nodes, the collector's pause and the battles' sides.

Memory is bounded whatever the map and the time per move: the table is a few preallocated
arrays of numbers (:class:`TranspositionTable`, :data:`TABLE_MB` megabytes by default);
the cache of expanded nodes (:class:`NodeCache`) holds states of at most
:data:`CACHE_CELLS` occupied cells in all and lives for one move; the collector is paused
during a search and until that cache is freed, just after the reply
(:func:`collector_paused`), with nothing frozen.
"""

import gc
import threading
import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, Generic, NamedTuple, TypeVar

from agents.compiling import let_others_run
from engine.resolution import Battle

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
"""Transposition-table bounds: the stored value is exact, a lower bound, an upper bound."""

TABLE_MB: Final = 32.0
"""Megabytes of a transposition table by default (1.5 million entries)."""
ENTRY_BYTES: Final = 21
"""Bytes per entry: key 8, value 8, best-ply index 2, depth 1, bound 1, generation 1."""
NO_BEST: Final = 0xFFFF
"""The best-ply index stored when there is none."""

CACHE_CELLS: Final = 1_000_000
"""Occupied cells, over all its states, that a node cache holds at most (some 100 MB)."""

MARGIN: Final = 0.05
"""Seconds kept before the deadline for sending the reply (and one last node)."""
MARGIN_SHARE: Final = 0.05
"""The margin is this share of the time instead when that is more (0.1 s of 2 s): one
node on a crowded 30 × 30 board can take tens of milliseconds when two searches share a
core. It is never more than a quarter of the time (see :func:`stop_time`)."""
REPLY_TIME: Final = 0.05
"""Seconds a search's expanded nodes wait before they are freed: the reply goes first."""
YIELD_EVERY: Final = 64
"""Nodes searched (or freed) between two calls of
:func:`agents.compiling.let_others_run`."""


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


class OutOfTime(Exception):
    """Raised inside a search when the stop time has passed."""


def stop_time(
    began: float,
    deadline: float,
    time_budget: float | None = None,
    margin_share: float = MARGIN_SHARE,
) -> float:
    """When a search begun at ``began`` stops: the deadline, or ``began + time_budget`` if
    sooner, less the larger of ``MARGIN`` and ``margin_share`` of the time, but at most a
    quarter of it (all on the ``time.monotonic()`` clock)."""
    stop = deadline if time_budget is None else min(deadline, began + time_budget)
    room = max(stop - began, 0.0)
    return stop - min(max(MARGIN, margin_share * room), room / 4)


class Clock:
    """Counts a search's nodes and raises :class:`OutOfTime` once ``stop`` has passed (a
    look at the clock costs far less than a node)."""

    __slots__ = ("nodes", "stop")

    def __init__(self, stop: float = float("inf")) -> None:
        self.stop = stop
        self.nodes = 0

    def tick(self) -> None:
        """One more node; :class:`OutOfTime` if the stop time has passed."""
        self.nodes += 1
        if not self.nodes % YIELD_EVERY:
            let_others_run()
        if time.monotonic() > self.stop:
            raise OutOfTime


class Entry(NamedTuple):
    """What the table knows of a position: searched ``depth`` plies deep, its ``value``
    is exact or a bound (``bound``), and the index of the best ply among the node's plies
    (``None``: not known)."""

    depth: int
    value: float
    bound: int
    best: int | None

    def cutoff(self, depth: int, alpha: float, beta: float) -> bool:
        """Whether the stored value answers a search ``depth`` deep within (alpha, beta)."""
        if self.depth < depth:
            return False
        if self.bound == EXACT:
            return True
        if self.bound == LOWER:
            return self.value >= beta
        return self.value <= alpha


def bound_of(value: float, alpha: float, beta: float) -> int:
    """The bound a node's ``value``, searched within (alpha, beta), is."""
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT


def table_order(first: int | None, count: int) -> range | list[int]:
    """The order a node's ``count`` plies are searched in: the table's best ply ``first``
    (its index, if the table knows one) ahead of the others, which keep their order."""
    if first is None or not 0 < first < count:
        return range(count)
    return [first, *range(first), *range(first + 1, count)]


class TranspositionTable:
    """A transposition table of fixed size, keyed by 64-bit Zobrist keys.

    The entries live in preallocated arrays of numbers (:data:`ENTRY_BYTES` bytes each, no
    Python object per entry), so the table's memory is fixed when it is made: ``megabytes``
    of it. A key has a bucket of two slots (the chess engines' habit): the first keeps the
    deepest search of the bucket's positions, the second the latest one. A store goes to
    the first slot if it is for the same position, at least as deep, or if the first
    slot's entry is from an earlier search (:meth:`new_search`: a position of an earlier
    move gives way even if deeper); otherwise to the second slot, whatever it held.
    """

    def __init__(self, megabytes: float = TABLE_MB) -> None:
        buckets = int(megabytes * 1e6) // (2 * ENTRY_BYTES)
        if buckets < 1:
            raise ValueError(f"a transposition table needs some room, got {megabytes} MB")
        self.buckets = buckets
        self.size = 2 * buckets
        self._keys = array("Q", bytes(8 * self.size))
        self._values = array("d", bytes(8 * self.size))
        self._best = array("H", bytes(2 * self.size))
        self._depths = array("b", bytes(self.size))
        self._bounds = array("b", bytes(self.size))
        self._ages = array("B", bytes(self.size))
        self._age = 0
        self.clear()

    @property
    def nbytes(self) -> int:
        """The bytes the entries take."""
        return self.size * ENTRY_BYTES

    def clear(self) -> None:
        """Forget every entry."""
        self._depths[:] = array("b", [-1]) * self.size
        self._age = 0

    def new_search(self) -> None:
        """A new search begins: entries stored so far give way first."""
        self._age = (self._age + 1) & 0xFF

    def __len__(self) -> int:
        """Entries held."""
        return self.size - self._depths.count(-1)

    def get(self, key: int) -> Entry | None:
        """The entry of ``key``, if the table holds one."""
        slot = 2 * (key % self.buckets)
        if self._keys[slot] != key or self._depths[slot] < 0:
            slot += 1
            if self._keys[slot] != key or self._depths[slot] < 0:
                return None
        best = self._best[slot]
        return Entry(
            self._depths[slot],
            self._values[slot],
            self._bounds[slot],
            None if best == NO_BEST else best,
        )

    def store(self, key: int, depth: int, value: float, bound: int, best: int | None) -> None:
        """Keep what a search ``depth`` deep found of ``key`` (see the class docstring)."""
        slot = 2 * (key % self.buckets)
        if not (
            depth >= self._depths[slot] or self._keys[slot] == key or self._ages[slot] != self._age
        ):
            slot += 1
        self._keys[slot] = key
        self._values[slot] = value
        self._best[slot] = NO_BEST if best is None else best
        self._depths[slot] = depth
        self._bounds[slot] = bound
        self._ages[slot] = self._age


Node = TypeVar("Node")


class NodeCache(Generic[Node]):
    """Expanded nodes (a node's plies and the states they lead to) by Zobrist key, for one
    move, holding states of at most ``limit`` occupied cells in all: once full, it keeps
    what it has (the nodes expanded first, nearest the root, which every deeper iteration
    visits again) and takes no more.

    Expanding a node (its candidate plies, what each leads to, the keys) is most of a
    search's time, and each deepening iteration expands again the nodes of the previous
    one: kept, they cost nothing the second time. Freeing the states costs over a
    microsecond each (tens of milliseconds for a full cache), so it is done after the
    reply, in a thread, a node at a time so that the thread lets others run
    (:meth:`release`); the next search waits for it first (:meth:`wait`).

    The thread first lets ``pause`` seconds pass, for the reply to be sent: a thread
    freeing nodes takes the interpreter's lock in turns with the one sending, which then
    waits some 5 ms each time it lets the lock go (30 ms more for a MOV of the client
    library at 0.3 s a move). A search that needs the room sooner cuts the pause short.
    """

    def __init__(self, limit: int = CACHE_CELLS, pause: float = REPLY_TIME) -> None:
        self.limit = limit
        self.pause = pause
        self.cells = 0
        self._nodes: dict[int, Node] = {}
        self._releasing: threading.Thread | None = None
        self._hurry = threading.Event()

    def get(self, key: int) -> Node | None:
        return self._nodes.get(key)

    def reserve(self, cells: int) -> bool:
        """Whether there is room for states of ``cells`` more occupied cells (then taken)."""
        if self.cells + cells > self.limit:
            return False
        self.cells += cells
        return True

    def put(self, key: int, node: Node) -> None:
        """Keep ``node`` (once :meth:`reserve` said there is room for its states)."""
        self._nodes[key] = node

    def release(self, then: Callable[[], None] = lambda: None) -> None:
        """Empty the cache: its nodes are freed in a thread, which calls ``then`` after."""
        self.wait()
        nodes, self._nodes, self.cells = self._nodes, {}, 0
        if not nodes:
            then()
            return
        self._hurry.clear()  # the last release's thread has ended (``wait`` above)

        def free() -> None:
            self._hurry.wait(self.pause)
            while nodes:
                nodes.popitem()
                if not len(nodes) % YIELD_EVERY:
                    let_others_run()
            then()

        self._releasing = threading.Thread(target=free, name="search-release", daemon=True)
        self._releasing.start()

    def wait(self) -> None:
        """Return once the nodes of the last :meth:`release` are freed (at once: no pause)."""
        if self._releasing is not None:
            self._hurry.set()
            self._releasing.join()
            self._releasing = None

    def __len__(self) -> int:
        return len(self._nodes)


@contextmanager
def collector_paused(cache: NodeCache[Any] | None = None) -> Iterator[None]:
    """Pause the cyclic garbage collector for a search, then restore it as it was.

    A collection over a search's many young objects costs up to a tenth of a second at a
    random moment; a search makes no reference cycles, so reference counting frees all it
    drops. Nothing is frozen. With a ``cache``, the search first waits for the previous
    release, and afterwards the cache is released (:meth:`NodeCache.release`) and the
    collector restored once its nodes are freed: a collection would otherwise walk them.
    """
    if cache is not None:
        cache.wait()
    collecting = gc.isenabled()
    gc.disable()

    def restore() -> None:
        if collecting:
            gc.enable()

    try:
        yield
    finally:
        if cache is None:
            restore()
        else:
            cache.release(then=restore)


def battle_sides(battle: Battle) -> list[tuple[float, int, int]]:
    """A battle as at most two outcomes, one per winner: its probability, the winner, and
    the winner's survivors given that it wins (the conditional mean, rounded)."""
    sides: dict[int, list[float]] = {}
    for probability, winner, survivors in battle.outcomes:
        mass = sides.setdefault(int(winner), [0.0, 0.0])
        mass[0] += probability
        mass[1] += probability * survivors
    return [(p, kind, round(total / p)) for kind, (p, total) in sides.items() if p > 0]
