"""A pursuit on the grid, solved exactly: when can a chaser force a battle on a leader?

Two groups walk the grid with king steps, one step a ply, taking turns; each must move
every turn (one group is all a side has) and may not enter a *blocked* cell (a house too
big to take). Stepping onto the other group starts a battle. The *leader* (the bigger
group) wins if the plies run out first; the *chaser* must bring a battle about, and
would rather strike itself than be struck. For every pair of cells and either side to
move this module works out, by backward induction over the plies left, the fewest plies
within which the chaser can force

* a **capture**: the chaser to move next to the leader (it strikes), the leader never
  having had the chance to strike first: a leader next to the chaser on its own turn
  escapes it (it may strike instead);
* a **battle** of either kind: the leader's strike counts too.

Both are *forced*: whatever the other side does. A leader with ``t`` plies left is
therefore struck if the capture time is at most ``t``, strikes first if only the battle
time is, and sees the end of the game otherwise; :mod:`agents.endgame` turns that into
chances of winning.

The sets are kept as bitsets, one bit per (leader cell, chaser cell) pair, in Python ints
of ``cells²`` bits: a step of either group in one direction is a shift of the whole set,
so a ply of backward induction is a few dozen operations on big ints (about a
millisecond on 30 × 30). The sets only grow with the plies left and stop changing after
a few board-lengths; each such level is kept as bytes for constant-time lookups.
"""

import functools
from collections.abc import Iterable

NEVER = 1 << 30
"""A time for something the chaser can never force."""

_DIRECTIONS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)

CAPTURE, BATTLE = 0, 1
"""What a chaser forces (see the module docstring): the index of its table."""


class PursuitTable:
    """The capture and battle times of every position on one board (see the module
    docstring); build it with :func:`pursuit_table`, which keeps the last few."""

    def __init__(self, rows: int, cols: int, blocked: Iterable[int] = ()) -> None:
        self.rows, self.cols = rows, cols
        n = self.cells = rows * cols
        free = set(range(n)) - set(blocked)
        self.blocked = frozenset(range(n)) - free
        size = n * n

        def bits(positions: Iterable[int]) -> int:
            buffer = bytearray((size + 7) // 8)
            for p in positions:
                buffer[p >> 3] |= 1 << (p & 7)
            return int.from_bytes(buffer, "little")

        def blocks(leaders: Iterable[int], chasers: int) -> int:
            """The pairs of a leader cell among ``leaders`` and a chaser cell in the
            ``chasers`` mask (one bit per cell): one copy of the mask per leader cell."""
            return bits(a * n for a in leaders) * chasers

        def diagonal(offset: int) -> int:
            """The pairs whose chaser cell is the leader cell plus ``offset``."""
            return bits(a * n + a + offset for a in range(n) if 0 <= a + offset < n)

        free_mask = sum(1 << c for c in free)
        everywhere = (1 << n) - 1
        pairs = blocks(free, free_mask) & ~diagonal(0)
        adjacent = 0
        # Per direction: the pairs where the chaser (resp. the leader) can step that way,
        # and how far that step shifts a pair's index.
        chaser_steps: list[tuple[int, int]] = []
        leader_steps: list[tuple[int, int]] = []
        for dx, dy in _DIRECTIONS:
            onto = [
                c
                for c in free
                if 0 <= c % cols + dx < cols
                and 0 <= c // cols + dy < rows
                and c + dx + dy * cols in free
            ]
            offset = dx + dy * cols
            can_step = bits(onto)
            adjacent |= blocks(onto, everywhere) & diagonal(offset)
            chaser_steps.append((offset, blocks(free, can_step) & ~diagonal(-offset) & pairs))
            leader_steps.append((offset * n, blocks(onto, everywhere) & ~diagonal(offset) & pairs))
        adjacent &= pairs
        apart = pairs & ~adjacent
        self._nbytes = (size + 7) // 8
        self.levels: tuple[list[bytes], ...] = ([], [], [], [])
        """Per plies left ``t`` (up to the fixed point): the positions whose capture and
        battle times are at most ``t``, with the chaser to move and with the leader to
        move: ``levels[2 * what + leader_moves][t]``."""
        # With no ply left, nothing can be forced.
        sets = (0, 0, 0, 0)
        while True:
            self._keep(sets)
            capture_chaser, capture_leader, battle_chaser, battle_leader = sets
            step = (
                _chaser_turn(capture_leader, adjacent, chaser_steps),
                _leader_turn(capture_chaser, apart, pairs, leader_steps),
                _chaser_turn(battle_leader, adjacent, chaser_steps),
                _leader_turn(battle_chaser, pairs, pairs, leader_steps),
            )
            if step == sets:
                break
            sets = step

    def _keep(self, sets: tuple[int, int, int, int]) -> None:
        for level, mask in zip(self.levels, sets, strict=True):
            level.append(mask.to_bytes(self._nbytes, "little"))

    @property
    def horizon(self) -> int:
        """The plies left beyond which nothing changes (every time is at most this or
        :data:`NEVER`)."""
        return len(self.levels[0]) - 1

    def time(self, what: int, leader: int, chaser: int, leader_moves: bool) -> int:
        """The fewest plies within which the chaser forces ``what`` (:data:`CAPTURE` or
        :data:`BATTLE`) from the groups on cells ``leader`` and ``chaser`` (``y·cols + x``),
        ``leader_moves`` saying whose turn it is; :data:`NEVER` if it cannot."""
        levels = self.levels[2 * what + leader_moves]
        p = leader * self.cells + chaser
        byte, bit = p >> 3, 1 << (p & 7)
        if not levels[-1][byte] & bit:
            return NEVER
        low, high = 0, len(levels) - 1  # set at high, not at low (nothing is at 0)
        while high - low > 1:
            middle = (low + high) // 2
            if levels[middle][byte] & bit:
                high = middle
            else:
                low = middle
        return high


def _shifted(mask: int, offset: int) -> int:
    """The set whose pair ``p`` is ``mask``'s pair ``p + offset``."""
    return mask >> offset if offset >= 0 else mask << -offset


def _chaser_turn(after: int, adjacent: int, steps: list[tuple[int, int]]) -> int:
    """The positions, chaser to move, from which it forces what ``after`` holds (leader to
    move, one ply fewer): it strikes now, or some step of its leads into ``after``."""
    forced = adjacent
    for offset, can_step in steps:
        forced |= _shifted(after, offset) & can_step
    return forced


def _leader_turn(after: int, eligible: int, pairs: int, steps: list[tuple[int, int]]) -> int:
    """The ``eligible`` positions, leader to move, from which every step of the leader
    leads into ``after`` (chaser to move, one ply fewer)."""
    forced = eligible
    for offset, can_step in steps:
        forced &= (_shifted(after, offset) & can_step) | (pairs ^ can_step)
    return forced


@functools.lru_cache(maxsize=4)
def pursuit_table(rows: int, cols: int, blocked: frozenset[int] = frozenset()) -> PursuitTable:
    """The :class:`PursuitTable` of a board, built once (a few of the latest are kept)."""
    return PursuitTable(rows, cols, blocked)
