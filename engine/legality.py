"""Legality of a ply: the seven checks of the rule book, each with its exact reason.

Checking is separate from applying. :func:`find_violation` returns the first broken
rule (or ``None``); :func:`check_ply` raises it. A ply that breaks a rule loses the game.
"""

import operator
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any

from engine.kinds import VAMPIRES, WEREWOLVES
from engine.state import MAX_COUNT, GameState, Move, Ply


class Rule(Enum):
    """A rule a ply can break, numbered as in the rule book."""

    EMPTY_PLY = (1, "a ply must contain at least one move")
    ZERO_COUNT = (2, "every move must move at least one creature")
    NOT_OWN_CELL = (3, "the source cell must hold the mover's species")
    TOO_FEW = (3, "the source cell holds fewer creatures than the move sends")
    OFF_GRID = (4, "the target must lie inside the grid")
    NOT_ADJACENT = (4, "the target must be one of the 8 neighbours of the source")
    SOURCE_IS_TARGET = (5, "no cell may be both a source and a target in one ply")
    OVERCOMMITTED = (6, "the moves leaving a cell send more creatures than it holds")
    TARGET_OVERFLOW = (7, "more than 255 creatures arrive on one cell")

    @property
    def number(self) -> int:
        """The rule's number in the rule book (1..7)."""
        return self.value[0]

    @property
    def text(self) -> str:
        return self.value[1]


class IllegalPly(Exception):
    """A well-formed ply that breaks a rule: which rule, which move, and the details."""

    def __init__(self, rule: Rule, move: Move | None, detail: str) -> None:
        self.rule = rule
        self.move = move
        self.detail = detail
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"rule {self.rule.number} ({self.rule.text}): {self.detail}"

    def __repr__(self) -> str:
        return f"IllegalPly({self.rule}, {self.move!r}, {self.detail!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IllegalPly):
            return NotImplemented
        return (self.rule, self.move, self.detail) == (other.rule, other.move, other.detail)

    def __hash__(self) -> int:
        return hash((self.rule, self.move, self.detail))


class MalformedPly(TypeError):
    """A reply that is no ply at all (not moves of five integers), so no rule can judge it."""


def as_ply(value: object) -> Ply:
    """``value`` read as a ply: the one reading of a bot's reply, for the engine, the bots'
    client and the arena alike.

    A ply is any iterable of moves but text; a move is any iterable of exactly five
    integers (a :class:`Move`, a tuple, a list; integers of numpy too). A float is refused,
    never truncated, and so is a bool: :class:`MalformedPly` says what is wrong.
    """
    if isinstance(value, tuple | list) and all(
        type(move) is Move and all(type(number) is int for number in move) for move in value
    ):
        return tuple(value)
    if isinstance(value, str | bytes | bytearray) or not isinstance(value, Iterable):
        raise MalformedPly(f"a ply is a sequence of moves, got {_shown(value)}")
    return tuple(_as_move(move) for move in value)


def _as_move(value: Any) -> Move:
    try:
        if isinstance(value, str | bytes | bytearray):
            raise TypeError
        numbers = tuple(value)
        if len(numbers) != 5:
            raise TypeError
        return Move(*(_integer(number) for number in numbers))
    except TypeError:
        message = f"a move is five integers (x, y, count, tx, ty), got {_shown(value)}"
        raise MalformedPly(message) from None


def _integer(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError("a bool is not a count or a coordinate")
    return operator.index(value)


def _shown(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def find_violation(
    state: GameState,
    ply: Sequence[Move],
) -> IllegalPly | None:
    """The first rule ``ply`` breaks when ``state.to_move`` plays it, or ``None`` if legal.

    Checks run in rule-book order: rule 1, then rules 2–4 move by move, then 5, 6, 7.
    Raises ``TypeError`` if ``state`` is not a :class:`GameState`, :class:`MalformedPly` (a
    ``TypeError``) if ``ply`` is no ply (:func:`as_ply`: plain 5-tuples are read as moves).
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    violation = _broken_rule(state, ply if type(ply) is tuple else as_ply(ply))
    if violation is not None:
        as_ply(ply)  # a later move that is no move at all is refused first, as always
    return violation


def _broken_rule(state: GameState, ply: tuple[Any, ...]) -> IllegalPly | None:
    """:func:`find_violation` of a tuple, whose moves are read here as :func:`as_ply` reads
    them, in the one pass over the moves that checks the rules: this is the check of every
    ply of every game. A Move of plain ints goes on; any other move sends the whole ply
    through :func:`as_ply` (which reads it, or refuses it) and back here."""
    if not ply:
        return IllegalPly(Rule.EMPTY_PLY, None, "the ply has no moves")
    rows, cols = state.rows, state.cols
    grid = state.contents
    species = WEREWOLVES if state.ply & 1 else VAMPIRES
    own = int(species)
    sent: dict[int, int] = {}
    arriving: dict[int, int] = {}
    several = len(ply) > 1
    for move in ply:
        if type(move) is not Move:
            return _broken_rule(state, as_ply(ply))
        x, y, count, tx, ty = move
        if not (
            type(x) is int
            and type(y) is int
            and type(count) is int
            and type(tx) is int
            and type(ty) is int
        ):
            return _broken_rule(state, as_ply(ply))
        if count < 1:
            return IllegalPly(Rule.ZERO_COUNT, move, f"move {move!r} sends {count} creatures")
        if not (0 <= x < cols and 0 <= y < rows):
            return IllegalPly(
                Rule.NOT_OWN_CELL,
                move,
                f"source ({x},{y}) is outside the {rows} × {cols} grid, so it holds no"
                f" {species.name.lower()}",
            )
        source = y * cols + x
        kind, held = grid.get(source, (0, 0))
        if kind != own:
            return IllegalPly(
                Rule.NOT_OWN_CELL,
                move,
                f"({x},{y}) holds no {species.name.lower()} for move {move!r}",
            )
        if count > held:
            return IllegalPly(
                Rule.TOO_FEW, move, f"({x},{y}) holds {held}, move {move!r} sends {count}"
            )
        if not (0 <= tx < cols and 0 <= ty < rows):
            return IllegalPly(
                Rule.OFF_GRID, move, f"target ({tx},{ty}) is outside the {rows} × {cols} grid"
            )
        dx, dy = tx - x, ty - y
        if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:
            return IllegalPly(
                Rule.NOT_ADJACENT, move, f"({tx},{ty}) is not a neighbour of ({x},{y})"
            )
        if several:
            sent[source] = sent.get(source, 0) + count
            target = ty * cols + tx
            arriving[target] = arriving.get(target, 0) + count
    if not several:
        # One move (most plies): rule 4 keeps its target off its source, rule 3 its count
        # within what its cell holds (at most 255), so rules 5, 6 and 7 hold.
        return None
    if not sent.keys().isdisjoint(arriving):
        for move in ply:
            if move.ty * cols + move.tx in sent:
                return IllegalPly(
                    Rule.SOURCE_IS_TARGET,
                    move,
                    f"({move.tx},{move.ty}) is the target of {move!r} and a source of this ply",
                )
    # Each move sends at most what its cell holds (rule 3): only a cell several moves
    # leave can be overcommitted.
    for source, total in sent.items() if len(sent) < len(ply) else ():
        held = grid[source][1]
        if total > held:
            move = next(m for m in ply if m.y * cols + m.x == source)
            return IllegalPly(
                Rule.OVERCOMMITTED,
                move,
                f"moves from ({move.x},{move.y}) send {total} creatures, the cell holds {held}",
            )
    if max(arriving.values()) > MAX_COUNT:
        for move in ply:
            total = arriving[move.ty * cols + move.tx]
            if total > MAX_COUNT:
                return IllegalPly(
                    Rule.TARGET_OVERFLOW,
                    move,
                    f"{total} creatures arrive on ({move.tx},{move.ty}); at most {MAX_COUNT} may",
                )
    return None


def check_ply(state: GameState, ply: Sequence[Move]) -> None:
    """Raise :class:`IllegalPly` naming the first rule ``ply`` breaks; return if it is legal."""
    violation = find_violation(state, ply)
    if violation is not None:
        raise violation
