"""A small set of meaningful plies for the searching bots, best guess first.

Enumerating every split of every group explodes, so each group gets a few *options*, each
one or two moves with a rough score:

* take an adjacent cell: convert humans (``count ≥ humans``), kill enemies (``2·count ≥
  3·enemies``), or fight a random battle there (scored by the expected gain, so a bad
  battle sorts last and the search judges it). A group next to an enemy that kills it for
  certain is the exception: attacking it is its one chance, ranked with running, so the
  search always weighs the gamble a hunt offers its prey;
* one step toward each human house it can convert, nearest first;
* one step toward an enemy group it can kill, one step away from an enemy group that can
  kill it (running);
* split in two toward two houses that each part can convert;
* one step toward the nearest friendly group (merging again);
* stay.

Plies combine the groups' options: every group's best option together, then variations that
change one group's option, then single-group plies; conflicting moves (a target that is
another move's source, more than 255 arriving on a cell) make that group stay. Every ply is
legal by construction, which the tests check against :func:`engine.find_violation`.

The certain-win thresholds (``count ≥ humans``, ``2·count ≥ 3·enemies``) are those of
:func:`engine.battle.is_certain_win`, written out inline because this is the search's hot
path; tests/agents/test_candidates.py checks the options against the engine.
"""

from collections.abc import Mapping
from typing import Final

from engine import GameState, Move, Ply
from engine.kinds import HUMANS
from engine.state import MAX_COUNT, neighbour_table

Grid = Mapping[int, tuple[int, int]]
"""A board as ``{pos: (kind, count)}`` (:attr:`engine.GameState.contents`)."""
Option = tuple[float, tuple[Move, ...]]
"""A group's option: a rough score and its moves (``()`` to stay)."""

HUMAN_TARGETS: Final = 4
ENEMY_TARGETS: Final = 2
SPLIT_TARGETS: Final = 3
OPTIONS_PER_GROUP: Final = 6
WIDE_OPTIONS: Final = 12
FEW_GROUPS: Final = 2
RUN_VALUE: Final = 5.0
"""Per creature, the rough score of running from an adjacent killer, or attacking it."""

_FAR: Final = 1 << 20
_HUMANS: Final = int(HUMANS)
_MAX_COUNT: Final = MAX_COUNT
"""The engine's constants as plain ints of this module: the compiled build reads them
without a lookup (an imported name is looked up at each use, ``HUMANS`` compared as an enum)."""
_new_move: Final = tuple.__new__
"""Builds a :class:`engine.Move` from a tuple of its fields, faster than its constructor."""


def _chebyshev(a: int, b: int, cols: int) -> int:
    return max(abs(a % cols - b % cols), abs(a // cols - b // cols))


def _step_toward(pos: int, goal: int, n: int, cols: int, table: tuple[int, ...], grid: Grid) -> int:
    """The neighbour of ``pos`` nearest ``goal`` (Chebyshev, then straight line), preferring
    cells that ``n`` creatures enter without a random battle."""
    gx, gy = goal % cols, goal // cols
    own = grid[pos][0]
    # The straight step (diagonal while both coordinates differ) is the one nearest the goal
    # by both measures; unless it means a battle, it is the answer.
    x, y = pos % cols, pos // cols
    direct = (y + (gy > y) - (gy < y)) * cols + x + (gx > x) - (gx < x)
    kind, held = grid.get(direct, (0, 0))
    if not kind or kind == own or (n >= held if kind == _HUMANS else 2 * n >= 3 * held):
        return direct
    best, best_key = table[0], (_FAR, 2, _FAR)
    for cell in table:
        x, y = cell % cols, cell // cols
        kind, held = grid.get(cell, (0, 0))
        risky = 0
        if kind and kind != own:
            risky = int(n < held if kind == _HUMANS else 2 * n < 3 * held)
        key = (max(abs(x - gx), abs(y - gy)), risky, (x - gx) ** 2 + (y - gy) ** 2)
        if key < best_key:
            best, best_key = cell, key
    return best


def _step_away(pos: int, threats: list[int], cols: int, table: tuple[int, ...]) -> int:
    """The neighbour of ``pos`` farthest from the nearest of ``threats``."""
    best, best_key = table[0], (-1, -1)
    for cell in table:
        x, y = cell % cols, cell // cols
        near = min(max(abs(x - t % cols), abs(y - t // cols)) for t in threats)
        spread = sum((x - t % cols) ** 2 + (y - t // cols) ** 2 for t in threats)
        key = (near, spread)
        if key > best_key:
            best, best_key = cell, key
    return best


def _arrival_value(n: int, cell: int, grid: Grid, own: int) -> float:
    """Rough gain of ``n`` creatures entering ``cell``: certain takes high, battles by odds."""
    kind, held = grid.get(cell, (0, 0))
    if not kind or kind == own:
        return 0.0
    if kind == _HUMANS:
        if n >= held:
            return 100.0 + held
        p = n / (2 * held)
        return p * p * (n + held) - n
    if 2 * n >= 3 * held:
        return 100.0 + held
    p = 0.5 if n == held else (n / (2 * held) if n < held else n / held - 0.5)
    return p * held - (1 - p) * n


class _Found:
    """The options found so far for the group of ``n`` on ``(x, y)``: each set of moves with
    its best score. (A class, not closures: mypyc's closures over one another make reference
    cycles, which the paused collector would leave in memory until the search ends.)"""

    def __init__(self, x: int, y: int, n: int, cols: int, grid: Grid, own: int) -> None:
        self.x, self.y, self.n, self.cols, self.grid, self.own = x, y, n, cols, grid, own
        self.moves: dict[tuple[Move, ...], float] = {}

    def add(self, score: float, *shares: tuple[int, int]) -> None:
        """The moves sending ``shares`` (target cell, creatures), if it scores better."""
        x, y, cols = self.x, self.y, self.cols
        moves = tuple([_new_move(Move, (x, y, c, t % cols, t // cols)) for t, c in shares])
        if score > self.moves.get(moves, -_FAR):
            self.moves[moves] = score

    def whole(self, cell: int, base: float) -> None:
        """The whole group stepping to ``cell``: ``base`` plus what it meets there."""
        self.add(base + _arrival_value(self.n, cell, self.grid, self.own), (cell, self.n))


def _group_options(
    pos: int,
    n: int,
    state: GameState,
    grid: Grid,
    own: int,
    friends: list[tuple[int, int]],
    enemies: list[tuple[int, int]],
    humans: list[tuple[int, int]],
    few_groups: bool,
) -> list[Option]:
    """A few scored options for the group of ``n`` on ``pos``, best first, ending with stay.

    With ``few_groups``, every whole-group step is an option too (last), so a lone group is
    never short of choices.
    """
    cols = state.cols
    table = neighbour_table(state.rows, cols)[pos]
    x, y = pos % cols, pos // cols
    found = _Found(x, y, n, cols, grid, own)
    adjacent = set(table)
    for cell in table:
        kind, held = grid.get(cell, (0, 0))
        if kind and kind != own:
            # Next to an enemy that kills it for certain, a group's attack on it is its one
            # chance (running only delays the hunt), and greedy always plays it: it ranks
            # with running, so the search always weighs it, for either side.
            doomed = kind != _HUMANS and 2 * held >= 3 * n
            found.whole(cell, RUN_VALUE * n if doomed else 0.0)

    # The Chebyshev distance written out: this runs for every house, group and node.
    reachable = sorted(
        [
            (max(abs(h % cols - x), abs(h // cols - y)), -c, h, c)
            for h, c in humans
            if c <= n and h not in adjacent
        ]
    )
    for d, _, h, c in reachable[:HUMAN_TARGETS]:
        found.whole(_step_toward(pos, h, n, cols, table, grid), c / d)
    for cell in table:
        kind, c = grid.get(cell, (0, 0))
        if kind == _HUMANS and c < n:
            found.add(100.0 + c - 0.5, (cell, c))
    if reachable and reachable[0][3] < n:
        d, _, h, c = reachable[0]
        found.add(c / d - 0.25, (_step_toward(pos, h, c, cols, table, grid), c))

    by_distance = sorted((_chebyshev(pos, e, cols), e, c) for e, c in enemies)
    dangers = [e for d, e, c in by_distance if 2 * c >= 3 * n and d <= 3]
    for d, e, c in by_distance[:ENEMY_TARGETS]:
        if e in adjacent:
            continue
        if 2 * n >= 3 * c:
            found.whole(_step_toward(pos, e, n, cols, table, grid), c / d)
        elif not dangers:
            found.whole(_step_toward(pos, e, n, cols, table, grid), -1.0)
    if dangers:
        found.whole(
            _step_away(pos, dangers, cols, table),
            RUN_VALUE * n / _chebyshev(pos, dangers[0], cols),
        )

    goals = sorted(
        [(d, -c, h, c) for d, _, h, c in reachable[:SPLIT_TARGETS]]
        + [
            (1, -c, cell, c)
            for cell in table
            for kind, c in [grid.get(cell, (0, 0))]
            if kind == _HUMANS and c <= n
        ]
        + [
            (1, -c, cell, (3 * c + 1) // 2)
            for cell in table
            for kind, c in [grid.get(cell, (0, 0))]
            if kind and kind != own and kind != _HUMANS and 3 * c <= 2 * n
        ]
    )[: SPLIT_TARGETS + 1]
    for i, (d1, _, h1, c1) in enumerate(goals):
        for d2, _, h2, c2 in goals[i + 1 :]:
            if c1 + c2 > n:
                continue
            t1 = h1 if d1 == 1 else _step_toward(pos, h1, n, cols, table, grid)
            t2 = h2 if d2 == 1 else _step_toward(pos, h2, n, cols, table, grid)
            if t1 == t2:
                continue
            a = c1 + (n - c1 - c2) * c1 // (c1 + c2)
            bonus = 200.0 if d1 == d2 == 1 else 0.0
            found.add(bonus + c1 / d1 + c2 / d2 - 0.5, (t1, a), (t2, n - a))

    if friends:
        d, f = min((_chebyshev(pos, f, cols), f) for f, _ in friends)
        found.whole(_step_toward(pos, f, n, cols, table, grid), 0.5 / d)

    if few_groups or not found.moves:
        if by_distance and not dangers:
            nearest = [by_distance[0][1]]
            found.whole(_step_away(pos, nearest, cols, table), -1.5)
        for cell in table:
            found.whole(cell, -2.0)
    options = sorted(((s, m) for m, s in found.moves.items()), key=lambda o: -o[0])
    stay_score = -RUN_VALUE * n if dangers and _chebyshev(pos, dangers[0], cols) == 1 else 0.0
    kept = WIDE_OPTIONS if few_groups else OPTIONS_PER_GROUP
    return [*options[:kept], (stay_score, ())]


Prepared = tuple[tuple[Move, ...], int, tuple[tuple[int, int], ...]]
"""An option ready to combine: its moves, their source cell and the creatures arriving on
each target cell (``((), -1, ())`` to stay)."""


_STAY: Prepared = ((), -1, ())


def _prepare(option: tuple[Move, ...], cols: int) -> Prepared:
    if not option:
        return _STAY
    arriving: dict[int, int] = {}
    for m in option:
        target = m.ty * cols + m.tx
        arriving[target] = arriving.get(target, 0) + m.count
    return option, option[0].y * cols + option[0].x, tuple(arriving.items())


def _combine(choices: list[Prepared], counts: dict[int, int]) -> tuple[Move, ...]:
    """The moves of ``choices`` (one per group, in order), dropping any that would conflict.

    ``counts`` are the own groups' counts by cell: a group whose cell is a target cannot move
    any more (its source would be a target), so it stays and adds to the arrivals.
    """
    sources: set[int] = set()
    arriving: dict[int, int] = {}
    moves: list[Move] = []
    for option, source, extra in choices:
        if not option or source in arriving:
            continue
        fits = True
        for t, c in extra:
            if t in sources or arriving.get(t, 0) + c + counts.get(t, 0) > _MAX_COUNT:
                fits = False
                break
        if not fits:
            continue
        sources.add(source)
        for t, c in extra:
            arriving[t] = arriving.get(t, 0) + c
        moves.extend(option)
    return tuple(moves)


def candidate_plies(state: GameState, limit: int = 32) -> list[Ply]:
    """Up to ``limit`` distinct, legal, non-empty plies for ``state.to_move``, best guess first.

    ``[]`` only when the side to move has no creatures.
    """
    cols = state.cols
    own = int(state.to_move)
    grid = state.contents
    friends: list[tuple[int, int]] = []
    enemies: list[tuple[int, int]] = []
    humans: list[tuple[int, int]] = []
    # In the board's order, whatever the order the cells were put in (the biggest group
    # first, the first in that order on a tie): a position's candidates must not depend
    # on how it was reached.
    for pos, (kind, count) in sorted(grid.items()):
        if kind == own:
            friends.append((pos, count))
        elif kind == _HUMANS:
            humans.append((pos, count))
        else:
            enemies.append((pos, count))
    if not friends:
        return []
    friends.sort(key=lambda g: -g[1])
    own_counts = {pos: count for pos, count in friends}
    per_group: list[list[tuple[float, Prepared]]] = []
    for pos, n in friends:
        others = [g for g in friends if g[0] != pos]
        options = _group_options(
            pos, n, state, grid, own, others, enemies, humans, len(friends) <= FEW_GROUPS
        )
        per_group.append([(score, _prepare(option, cols)) for score, option in options])

    # Every choice of one option per group with its rough score: every group's best option
    # together, each variation changing one group's option, each option alone.
    choices: list[tuple[float, list[Prepared]]] = []
    best = [prepared[0][1] for prepared in per_group]
    best_total = sum(prepared[0][0] for prepared in per_group)
    choices.append((best_total, best))
    for g, prepared in enumerate(per_group):
        for score, option in prepared[1:]:
            choice = list(best)
            choice[g] = option
            choices.append((best_total - prepared[0][0] + score, choice))
    if len(per_group) > 1:
        for g, prepared in enumerate(per_group):
            for score, option in prepared:
                if option[0]:
                    choice = [_STAY] * len(per_group)
                    choice[g] = option
                    choices.append((score - 1.0, choice))
    # Best first (in the order above on a tie); a ply two choices make is ranked by the
    # better one, so combining stops at ``limit`` distinct plies.
    choices.sort(key=_rough_score, reverse=True)
    found: dict[Ply, None] = {}
    for _, choice in choices:
        ply = _combine(choice, own_counts)
        if ply:
            found[ply] = None
            if len(found) == limit:
                break
    return list(found) or _fallback(state, friends, grid, own)


def _rough_score(choice: tuple[float, list[Prepared]]) -> float:
    return choice[0]


def _fallback(state: GameState, friends: list[tuple[int, int]], grid: Grid, own: int) -> list[Ply]:
    """One single move that fits when no option did (crowded boards near 255 per cell)."""
    cols = state.cols
    table = neighbour_table(state.rows, cols)
    for pos, n in friends:
        for cell in table[pos]:
            kind, held = grid.get(cell, (0, 0))
            room = _MAX_COUNT - held if kind == own else _MAX_COUNT
            if room >= 1:
                count = min(n, room)
                return [(Move(pos % cols, pos // cols, count, cell % cols, cell // cols),)]
    return []
