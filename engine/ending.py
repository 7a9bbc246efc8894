"""End of the game: elimination first, then the ply limit with the winner by count."""

from enum import Enum
from operator import itemgetter
from typing import NamedTuple

from engine.kinds import VAMPIRES, WEREWOLVES, Kind
from engine.rules import DEFAULT_RULES, Rules
from engine.state import GameState

_kind_of = itemgetter(0)
"""A cell's kind, from its ``(kind, count)``."""


class EndReason(Enum):
    """Why the board says the game is over."""

    ELIMINATION = "elimination"
    PLY_LIMIT = "ply limit"


class GameEnd(NamedTuple):
    """The game is over: ``winner`` is a species, or ``None`` for a draw."""

    winner: Kind | None
    reason: EndReason


def totals(state: GameState) -> tuple[int, int]:
    """``(vampires, werewolves)`` on the board; humans do not count."""
    vampires = werewolves = 0
    for kind, count in state.contents.values():
        if kind == VAMPIRES:
            vampires += count
        elif kind == WEREWOLVES:
            werewolves += count
    return vampires, werewolves


def winner_by_count(state: GameState) -> Kind | None:
    """The species with more creatures, ``None`` when the totals are equal."""
    vampires, werewolves = totals(state)
    if vampires == werewolves:
        return None
    return VAMPIRES if vampires > werewolves else WEREWOLVES


def end_of_game(state: GameState, rules: Rules = DEFAULT_RULES) -> GameEnd | None:
    """Whether the game is over after the ply that led to ``state``, checked in rule-book order.

    1. no vampires: werewolves win; 2. no werewolves: vampires win; 3. ``rules.max_plies``
    plies played: the larger species wins, equal totals draw. The game-time limit is the
    server's: it calls :func:`winner_by_count` itself.
    """
    # Which kinds stand on the board, in one pass in C: a species is gone when no cell
    # holds it (cells are never empty), and the counts matter only at the ply limit.
    present = set(map(_kind_of, state.contents.values()))
    if VAMPIRES not in present:
        return GameEnd(WEREWOLVES, EndReason.ELIMINATION)
    if WEREWOLVES not in present:
        return GameEnd(VAMPIRES, EndReason.ELIMINATION)
    if state.ply >= rules.max_plies:
        return GameEnd(winner_by_count(state), EndReason.PLY_LIMIT)
    return None
