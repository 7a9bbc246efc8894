"""Zobrist keys: a 64-bit key per position, updated from parent to child in a few XORs.

A position's key is the XOR of one random 64-bit number per occupied cell — drawn for its
``(cell, kind, count)`` — and one for its ply number (the ply decides whose turn it is and
how close the ply limit is). A ply changes only its moves' sources and targets, so a
child's key is its parent's with those cells' old numbers XORed out and new ones in
(:meth:`Zobrist.child`): no pass over the whole board. The numbers are drawn on first use
from a seeded generator, so keys are the same in every run.

Two different positions share a key with probability about 2⁻⁶⁴ per pair: the search
bots accept that, as Zobrist tables always do; a collision can only misjudge a position,
never make a bot play an illegal ply (its root plies come from the real state).
"""

import random
from collections.abc import Mapping

from engine import GameState, Ply

Grid = Mapping[int, tuple[int, int]]


class Zobrist:
    """Random numbers for cells and plies, and the keys built from them."""

    def __init__(self, seed: int = 0x5EED) -> None:
        self._rng = random.Random(seed)
        self._cells: dict[tuple[int, int, int], int] = {}
        self._plies: dict[int, int] = {}

    def _cell(self, pos: int, content: tuple[int, int] | None) -> int:
        if content is None:
            return 0
        index = (pos, content[0], content[1])
        number = self._cells.get(index)
        if number is None:
            number = self._cells[index] = self._rng.getrandbits(64)
        return number

    def _ply(self, ply: int) -> int:
        number = self._plies.get(ply)
        if number is None:
            number = self._plies[ply] = self._rng.getrandbits(64)
        return number

    def key(self, state: GameState) -> int:
        """The key of ``state``, from scratch."""
        key = self._ply(state.ply)
        for pos, content in state.contents.items():
            key ^= self._cell(pos, content)
        return key

    def child(self, key: int, parent: GameState, ply: Ply, grid: Grid) -> int:
        """The key of the position ``ply`` leads to from ``parent`` (whose key is ``key``),
        its board being ``grid``: only the moves' sources and targets can differ."""
        cols = parent.cols
        before = parent.contents
        cells = self._cells
        key ^= self._ply(parent.ply) ^ self._ply(parent.ply + 1)
        touched = {m.y * cols + m.x for m in ply} | {m.ty * cols + m.tx for m in ply}
        for pos in touched:
            old = before.get(pos)
            new = grid.get(pos)
            if old is not None:
                number = cells.get((pos, old[0], old[1]))
                key ^= self._cell(pos, old) if number is None else number
            if new is not None:
                number = cells.get((pos, new[0], new[1]))
                key ^= self._cell(pos, new) if number is None else number
        return key
