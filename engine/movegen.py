"""Generating plies for bots and benchmarks. Generation never decides legality.

Every ply made here is legal by construction: targets avoid every source of the ply,
counts never exceed what a cell holds, and at most 255 arrive on a cell.
"""

import random
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet

from engine.kinds import VAMPIRES, WEREWOLVES
from engine.state import MAX_COUNT, GameState, Move, Ply, neighbour_table

new_move = tuple.__new__
"""``new_move(Move, (x, y, count, tx, ty))`` builds a Move without NamedTuple's argument parsing."""


def group_moves(state: GameState) -> Iterator[Move]:
    """Every move of a whole group of ``state.to_move`` to one of its neighbours."""
    cols = state.cols
    species = state.to_move
    table = neighbour_table(state.rows, cols)
    for pos, kind, count in state.cells:
        if kind == species:
            x, y = pos % cols, pos // cols
            for target in table[pos]:
                yield Move(x, y, count, target % cols, target // cols)


def splits(count: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``count`` as ``parts`` positive counts, in non-increasing order."""
    if parts == 1:
        if count >= 1:
            yield (count,)
        return
    for first in range(count - parts + 1, 0, -1):
        if first * parts < count:
            break
        for rest in splits(count - first, parts - 1):
            if rest[0] <= first:
                yield (first, *rest)


def random_ply(state: GameState, rng: random.Random, split_chance: float = 0.3) -> Ply:
    """A random legal ply for ``state.to_move``, with splits; ``()`` if it has no creatures.

    Each group moves with probability one half (at least one group moves); a moving group
    is split in two toward two targets with probability ``split_chance``, and may keep
    some creatures back when it splits.
    """
    cols = state.cols
    species = int(WEREWOLVES if state.ply & 1 else VAMPIRES)  # a plain int compares faster
    chance = rng.random
    # Sorted (row-major), so that the ply depends on the board alone, not on how the state
    # was built (a client's board from MAP/UPD and the referee's after apply_ply are equal
    # boards whose dicts differ in order). Only the own groups are sorted: sorting the
    # whole board (``state.cells``) at every ply would cost more than the rest of this.
    own = [(pos, count) for pos, (kind, count) in state.contents.items() if kind == species]
    if not own:
        return ()
    own.sort()
    movers = [group for group in own if chance() < 0.5] or [own[int(chance() * len(own))]]
    table = neighbour_table(state.rows, cols)
    sources: AbstractSet[int] = frozenset()  # no mover may move onto a mover
    capped = False  # one group holds at most 255: only several can overflow a target
    if len(movers) > 1:
        counts = dict(movers)
        sources = counts.keys()
        capped = sum(counts.values()) > MAX_COUNT
    arriving: dict[int, int] = {}
    moves = []
    for pos, count in movers:
        targets: Sequence[int] = table[pos]
        if not sources.isdisjoint(targets):
            targets = [t for t in targets if t not in sources]
        n = len(targets)
        if not n:
            continue
        x, y = pos % cols, pos // cols
        if count >= 2 and n >= 2 and chance() < split_chance:
            i = int(chance() * n)
            j = int(chance() * (n - 1))
            a = 1 + int(chance() * (count - 1))
            shares: tuple[tuple[int, int], ...] = (
                (targets[i], a),
                (targets[j + (j >= i)], 1 + int(chance() * (count - a))),
            )
        else:
            target = targets[int(chance() * n)]
            if not capped:  # the common case, without the loop below
                moves.append(new_move(Move, (x, y, count, target % cols, target // cols)))
                continue
            shares = ((target, count),)
        for target, share in shares:
            if capped:
                share = min(share, MAX_COUNT - arriving.get(target, 0))
                if share < 1:
                    continue
                arriving[target] = arriving.get(target, 0) + share
            moves.append(new_move(Move, (x, y, share, target % cols, target // cols)))
    return tuple(moves) if moves else _lone_move(state, rng)


def _lone_move(state: GameState, rng: random.Random) -> Ply:
    """One whole-group move to an empty or non-own cell, for when every target was a source."""
    moves = list(group_moves(state))
    return (rng.choice(moves),) if moves else ()
