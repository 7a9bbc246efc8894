"""Plies for tests, drawn with a ``random.Random``: legal ones, and ones that break one rule.

:func:`legal_ply` makes the plies a bot may send, richer than a bot's own generator:
groups split in up to three parts, keep some back, merge on one target, repeat a move.
:func:`breaking_ply` makes a ply whose first broken rule (the verdict of
:func:`engine.legality.find_violation`) is the one asked for. Every number stays in the
protocol's range (a byte: 0..255), so each ply can be sent to a real server.
"""

import random
from collections.abc import Callable
from typing import NamedTuple

from engine.kinds import VAMPIRES, WEREWOLVES
from engine.legality import Rule
from engine.state import MAX_COUNT, GameState, Move, Ply, distance, neighbour_table

BYTE = 255
"""The largest coordinate or count the protocol can send."""


class Attempt(NamedTuple):
    """A ply and the rule it was built to break first (``None``: it is legal)."""

    ply: Ply
    breaks: Rule | None


def _own(state: GameState) -> list[tuple[int, int]]:
    """``(pos, count)`` of each cell of the species to move, by position."""
    species = int(WEREWOLVES if state.ply & 1 else VAMPIRES)
    return [(pos, n) for pos, kind, n in state.cells if kind == species]


def _move(state: GameState, source: int, count: int, target: int) -> Move:
    cols = state.cols
    return Move(source % cols, source // cols, count, target % cols, target // cols)


def _shares(total: int, parts: int, rng: random.Random) -> list[int]:
    """``total`` cut into ``parts`` positive shares at random points."""
    cuts = sorted(rng.sample(range(1, total), parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def legal_ply(state: GameState, rng: random.Random) -> Ply:
    """A random legal ply for ``state.to_move``; ``()`` when it has none (no creature can move).

    Each group moves with probability one half (at least one moves), sends all or part
    of itself in one to three shares to neighbours that are not sources of the ply; the
    arrivals on a cell are trimmed to 255.
    """
    own = _own(state)
    table = neighbour_table(state.rows, state.cols)
    own = [(pos, n) for pos, n in own if table[pos]]
    if not own:
        return ()
    movers = [group for group in own if rng.random() < 0.5] or [rng.choice(own)]
    sources = {pos for pos, _ in movers}
    arriving: dict[int, int] = {}
    moves: list[Move] = []
    for pos, count in movers:
        targets = [t for t in table[pos] if t not in sources]
        if not targets:
            continue
        budget = count if rng.random() < 0.6 else rng.randint(1, count)
        if budget >= 2 and rng.random() < 0.1:  # two identical moves
            shares = [budget // 2] * 2
            chosen = [rng.choice(targets)] * 2
        else:
            shares = _shares(budget, rng.randint(1, min(budget, 3)), rng)
            chosen = [rng.choice(targets) for _ in shares]
        for share, target in zip(shares, chosen, strict=True):
            share = min(share, MAX_COUNT - arriving.get(target, 0))
            if share >= 1:
                arriving[target] = arriving.get(target, 0) + share
                moves.append(_move(state, pos, share, target))
    if not moves:  # every mover's neighbours were sources: one group moves alone
        pos, count = rng.choice(movers)
        moves.append(_move(state, pos, rng.randint(1, count), rng.choice(table[pos])))
    rng.shuffle(moves)
    return tuple(moves)


def _with_bad_move(base: Ply, bad: Move, rng: random.Random) -> Ply:
    """``base`` with ``bad`` inserted anywhere: rules 2-4 are checked before rules 5-7."""
    moves = list(base)
    moves.insert(rng.randint(0, len(moves)), bad)
    return tuple(moves)


def _off_grid(state: GameState, rng: random.Random) -> tuple[int, int] | None:
    """A cell outside the grid that the protocol can still name, if there is one."""
    choices = []
    if state.cols <= BYTE:
        choices.append((rng.randint(state.cols, BYTE), rng.randint(0, BYTE)))
    if state.rows <= BYTE:
        choices.append((rng.randint(0, BYTE), rng.randint(state.rows, BYTE)))
    return rng.choice(choices) if choices else None


def _zero_count(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    x, y = rng.randrange(state.cols), rng.randrange(state.rows)
    if base and rng.random() < 0.7:
        x, y, _, tx, ty = rng.choice(base)
    else:
        tx, ty = min(x + 1, BYTE), y
    return _with_bad_move(base, Move(x, y, 0, tx, ty), rng)


def _not_own_cell(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    own = {pos for pos, _ in _own(state)}
    size = state.rows * state.cols
    inside = [p for p in (rng.randrange(size) for _ in range(8)) if p not in own]
    if inside and rng.random() < 0.8:
        x, y = inside[0] % state.cols, inside[0] // state.cols
    else:
        cell = _off_grid(state, rng)
        if cell is None:
            return None
        x, y = cell
    tx, ty = rng.choice([(x + 1, y), (x, y + 1), (max(x - 1, 0), y)])
    bad = Move(x, y, rng.randint(1, BYTE), min(tx, BYTE), min(ty, BYTE))
    return _with_bad_move(base, bad, rng)


def _too_few(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    candidates = [(pos, n) for pos, n in _own(state) if n < BYTE]
    if not candidates:
        return None
    pos, held = rng.choice(candidates)
    table = neighbour_table(state.rows, state.cols)
    target = rng.choice(table[pos]) if table[pos] else pos
    return _with_bad_move(base, _move(state, pos, rng.randint(held + 1, BYTE), target), rng)


def _off_grid_target(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    own = _own(state)
    if not own:
        return None
    pos, held = rng.choice(own)
    x, y = pos % state.cols, pos // state.cols
    near = [
        (x + dx, y + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if 0 <= x + dx <= BYTE
        and 0 <= y + dy <= BYTE
        and not (0 <= x + dx < state.cols and 0 <= y + dy < state.rows)
    ]
    far = _off_grid(state, rng)
    options = near + ([far] if far else [])
    if not options:
        return None
    tx, ty = rng.choice(near) if near and rng.random() < 0.7 else rng.choice(options)
    return _with_bad_move(base, Move(x, y, rng.randint(1, held), tx, ty), rng)


def _not_adjacent(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    own = _own(state)
    if not own:
        return None
    pos, held = rng.choice(own)
    x, y = pos % state.cols, pos // state.cols
    tx, ty = x, y
    if rng.random() < 0.6:
        far = [
            (px, py)
            for px in range(max(0, x - 3), min(state.cols, x + 4))
            for py in range(max(0, y - 3), min(state.rows, y + 4))
            if distance((px, py), (x, y)) >= 2
        ]
        if far:
            tx, ty = rng.choice(far)
    return _with_bad_move(base, Move(x, y, rng.randint(1, held), tx, ty), rng)


def _source_is_target(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    held = dict(_own(state))
    table = neighbour_table(state.rows, state.cols)
    pairs = [(a, b) for a in held for b in table[a] if b in held]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    into_b = _move(state, a, rng.randint(1, held[a]), b)
    from_b = _move(state, b, rng.randint(1, held[b]), rng.choice(table[b]))
    moves = [*base, into_b, from_b]
    rng.shuffle(moves)
    return tuple(moves)


def _overcommitted(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    if not base:
        return None
    cols = state.cols
    held = dict(_own(state))
    sent: dict[int, int] = {}
    for move in base:
        sent[move.y * cols + move.x] = sent.get(move.y * cols + move.x, 0) + move.count
    source = rng.choice(list(sent))
    targets = [m.ty * cols + m.tx for m in base if m.y * cols + m.x == source]
    extra = rng.randint(held[source] - sent[source] + 1, held[source])
    moves = [*base, _move(state, source, extra, rng.choice(targets))]
    rng.shuffle(moves)
    return tuple(moves)


def _target_overflow(state: GameState, base: Ply, rng: random.Random) -> Ply | None:
    held = dict(_own(state))
    table = neighbour_table(state.rows, state.cols)
    near_own = {t for pos in held for t in table[pos]}
    crowded = [t for t in sorted(near_own) if sum(held.get(n, 0) for n in table[t]) > MAX_COUNT]
    if not crowded:
        return None
    target = rng.choice(crowded)
    sources = [n for n in table[target] if n in held]
    rng.shuffle(sources)
    moves = []
    arriving = 0
    for source in sources:
        if arriving > MAX_COUNT:
            break
        count = held[source] if rng.random() < 0.7 else rng.randint(1, held[source])
        moves.append(_move(state, source, count, target))
        arriving += count
    if arriving <= MAX_COUNT:  # the partial shares fell short: send whole groups
        moves = [_move(state, s, held[s], target) for s in sources]
    rng.shuffle(moves)
    return tuple(moves)


_BREAKERS: dict[Rule, Callable[[GameState, Ply, random.Random], Ply | None]] = {
    Rule.EMPTY_PLY: lambda state, base, rng: (),
    Rule.ZERO_COUNT: _zero_count,
    Rule.NOT_OWN_CELL: _not_own_cell,
    Rule.TOO_FEW: _too_few,
    Rule.OFF_GRID: _off_grid_target,
    Rule.NOT_ADJACENT: _not_adjacent,
    Rule.SOURCE_IS_TARGET: _source_is_target,
    Rule.OVERCOMMITTED: _overcommitted,
    Rule.TARGET_OVERFLOW: _target_overflow,
}


def breaking_ply(state: GameState, rule: Rule, rng: random.Random) -> Ply | None:
    """A ply whose first broken rule is ``rule``, or ``None`` if this state cannot give one.

    Rules 5-7 need room: two neighbouring groups of the mover (rule 5), a legal ply to
    overload (rule 6), more than 255 of the mover around one cell (rule 7).
    """
    return _BREAKERS[rule](state, legal_ply(state, rng), rng)


def breakable_rules(state: GameState) -> list[Rule]:
    """The rules a ply can break first in ``state`` (rule 1 and 2 always can)."""
    probe = random.Random(0)
    return [rule for rule in Rule if breaking_ply(state, rule, probe) is not None]


def attempt(state: GameState, rng: random.Random, breaks: Rule | str | None = "any") -> Attempt:
    """A ply for ``state`` that breaks ``breaks`` first (``None``: a legal ply).

    With ``"any"``, the choice is even among a legal ply (when ``state`` has one) and each
    rule this state leaves room to break. ``ValueError`` if the asked rule has no room.
    """
    if breaks == "any":
        choices: list[Rule | None] = list(breakable_rules(state))
        if legal_ply(state, random.Random(0)):
            choices.append(None)
        breaks = rng.choice(choices)
    if breaks is None:
        ply = legal_ply(state, rng)
        if not ply:
            raise ValueError("the side to move has no legal ply in this state")
        return Attempt(ply, None)
    if not isinstance(breaks, Rule):
        raise TypeError(f"breaks must be a Rule, None or 'any', got {breaks!r}")
    broken = breaking_ply(state, breaks, rng)
    if broken is None:
        raise ValueError(f"this state leaves no room to break {breaks.name} first")
    return Attempt(broken, breaks)
