"""The rules engine of Vampires vs Werewolves: pure, no I/O, randomness injected.

The public API is re-exported here; each submodule holds one idea:
``kinds`` (what may stand on a cell), ``state`` (moves and the board),
``rules`` (rule set as a value), ``legality`` (the seven checks of a ply),
``battle`` (exact battle distributions), ``resolution`` (applying a ply),
``ending`` (end of game), ``game`` (the flow of a match: turns, limits, the end),
``result`` (how a game ended), ``movegen`` (plies for bots), ``mapfile`` and
``mapgen`` (map files). ``engine.testing`` (not re-exported) holds the oracles and
hypothesis strategies for testing a reimplementation of the rules.
"""

from engine.battle import (
    BattleOutcome,
    battle_outcomes,
    beats_for_sure,
    expected_survivors,
    sample_battle,
    win_probability,
)
from engine.ending import EndReason, GameEnd, end_of_game, totals, winner_by_count
from engine.game import MAX_UPDATE_CELLS, Game, Limits, OnTimeout, Turn
from engine.kinds import EMPTY, HUMANS, VAMPIRES, WEREWOLVES, Kind, opponent
from engine.legality import IllegalPly, MalformedPly, Rule, as_ply, check_ply, find_violation
from engine.resolution import Battle, PlyResult, apply_ply, ply_outcomes, resolve_ply
from engine.result import GameResult, PlayerRecord, Termination
from engine.rules import Rules, Variant
from engine.state import GameState, Group, Move, Ply, distance, ply_text

__all__ = [
    "EMPTY",
    "HUMANS",
    "MAX_UPDATE_CELLS",
    "VAMPIRES",
    "WEREWOLVES",
    "Battle",
    "BattleOutcome",
    "EndReason",
    "Game",
    "GameEnd",
    "GameResult",
    "GameState",
    "Group",
    "IllegalPly",
    "Kind",
    "Limits",
    "MalformedPly",
    "Move",
    "OnTimeout",
    "PlayerRecord",
    "Ply",
    "PlyResult",
    "Rule",
    "Rules",
    "Termination",
    "Turn",
    "Variant",
    "apply_ply",
    "as_ply",
    "battle_outcomes",
    "beats_for_sure",
    "check_ply",
    "distance",
    "end_of_game",
    "expected_survivors",
    "find_violation",
    "opponent",
    "ply_outcomes",
    "ply_text",
    "resolve_ply",
    "sample_battle",
    "totals",
    "win_probability",
    "winner_by_count",
]
