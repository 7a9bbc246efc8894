"""The endgame of one group against one, played exactly from :mod:`agents.pursuit`.

Once each side has one group, the bigger less than 1.5 times the smaller (else it is a
hunt: the bigger kills on contact), and no house is left that either could convert for
sure, a game is a pursuit (see :mod:`agents.pursuit`): the bigger group wins at the ply limit,
so the smaller must bring a battle about. With ``t`` plies left the bigger group (the
*leader*) wins

* with the chance of being struck (``1 −`` the chaser's chance as attacker) if the chaser
  can force a capture within ``t`` plies,
* else with its chance as attacker if the chaser can force a battle within ``t`` plies
  (the leader strikes first, which is better for it),
* else for sure.

:func:`endgame_ply` plays the ply that is best by that value for the side to move, and
on a tie the one that makes the chaser wait longest (the leader: the chaser may go
wrong, and the plies may run out) or strikes soonest (the chaser). Splitting is left
out: a split-off part is a certain kill for the bigger enemy group, or too weak to matter.
A house too big for either side to convert for sure is a wall, as nobody gains by
gambling on it.
"""

from typing import NamedTuple

from agents.pursuit import BATTLE, CAPTURE, PursuitTable, pursuit_table
from engine import GameState, Kind, battle_outcomes
from engine.battle import beats_for_sure, is_certain_win
from engine.kinds import HUMANS, WEREWOLVES, opponent
from engine.rules import DEFAULT_RULES, Rules, Variant
from engine.state import Move, Ply, neighbour_table

MAX_CELLS = 900
"""Boards bigger than 30 × 30 are left to the search: their tables would take longer than
a move to build (0.3 s on 30 × 30) and tens of megabytes."""


class Endgame(NamedTuple):
    """A one-against-one endgame, seen from the side to move."""

    table: PursuitTable
    own: int
    """The cell of the side to move's group (``y·cols + x``)."""
    own_count: int
    other: int
    other_count: int
    plies_left: int
    leads: bool
    """Whether the side to move has the bigger group."""
    struck: float
    """The leader's chance of winning when the chaser strikes."""
    strikes: float
    """The leader's chance of winning when it strikes."""


def attack_chance(attacker: Kind, attackers: int, defenders: int) -> float:
    """The chance that ``attackers`` of ``attacker`` win the game by attacking the
    enemy's last group of ``defenders`` (both groups gone: the werewolves win)."""
    if is_certain_win(attackers, defenders, WEREWOLVES):
        return 1.0
    defender = opponent(attacker)
    chance = 0.0
    for outcome in battle_outcomes(attacker, attackers, defender, defenders):
        won = outcome.winner == attacker if outcome.survivors else attacker == WEREWOLVES
        if won:
            chance += outcome.probability
    return float(chance)


def find_endgame(state: GameState, rules: Rules = DEFAULT_RULES) -> Endgame | None:
    """``state`` as a one-against-one endgame, or ``None`` if it is not one: each side one
    group, of different sizes but neither a certain kill for the other (that is a hunt,
    which the search plays), and no house that either could convert. Only under the
    course server's battle rules, which the chances here are worked out for, and on
    boards of at most :data:`MAX_CELLS` cells."""
    if rules.variant != Variant.SERVER or state.rows * state.cols > MAX_CELLS:
        return None
    me = state.to_move
    mine: list[tuple[int, int]] = []
    theirs: list[tuple[int, int]] = []
    houses: list[tuple[int, int]] = []
    for pos, (kind, count) in state.contents.items():
        (mine if kind == me else houses if kind == HUMANS else theirs).append((pos, count))
    if len(mine) != 1 or len(theirs) != 1:
        return None
    (own, n), (other, m) = mine[0], theirs[0]
    if n == m or beats_for_sure(max(n, m), min(n, m)) or any(h <= max(n, m) for _, h in houses):
        return None
    blocked = frozenset(pos for pos, _ in houses)
    leads = n > m
    leader_kind = me if leads else opponent(me)
    big, small = max(n, m), min(n, m)
    return Endgame(
        table=pursuit_table(state.rows, state.cols, blocked),
        own=own,
        own_count=n,
        other=other,
        other_count=m,
        plies_left=rules.max_plies - state.ply,
        leads=leads,
        struck=1.0 - attack_chance(opponent(leader_kind), small, big),
        strikes=attack_chance(leader_kind, big, small),
    )


def _leader_chance(
    game: Endgame, leader: int, chaser: int, leader_moves: bool, left: int
) -> tuple[float, int, int]:
    """The leader's chance of winning and the chaser's capture and battle times, from
    the groups on ``leader`` and ``chaser`` with ``left`` plies left."""
    capture = game.table.time(CAPTURE, leader, chaser, leader_moves)
    battle = game.table.time(BATTLE, leader, chaser, leader_moves)
    if capture <= left:
        chance = game.struck
    elif battle <= left:
        chance = game.strikes
    else:
        chance = 1.0
    return chance, capture, battle


def endgame_chance(state: GameState, species: Kind, rules: Rules = DEFAULT_RULES) -> float | None:
    """``species``' chance of winning ``state`` with both sides playing the endgame
    exactly, or ``None`` if ``state`` is not a one-against-one endgame."""
    game = find_endgame(state, rules)
    if game is None:
        return None
    if game.leads:
        chance, _, _ = _leader_chance(game, game.own, game.other, True, game.plies_left)
    else:
        chance, _, _ = _leader_chance(game, game.other, game.own, False, game.plies_left)
    return chance if (species == state.to_move) == game.leads else 1.0 - chance


def endgame_ply(state: GameState, rules: Rules = DEFAULT_RULES) -> Ply | None:
    """The side to move's best ply if ``state`` is a one-against-one endgame (see the
    module docstring), else ``None`` (also when its group can only step into a house)."""
    game = find_endgame(state, rules)
    if game is None:
        return None
    cols = state.cols
    left = game.plies_left - 1
    best: tuple[float, ...] | None = None
    chosen: Ply | None = None
    for target in neighbour_table(state.rows, cols)[game.own]:
        if target == game.other:
            leader_chance = game.strikes if game.leads else game.struck
            capture = battle = 0
        elif target in game.table.blocked:
            continue
        elif game.leads:
            leader_chance, capture, battle = _leader_chance(game, target, game.other, False, left)
        else:
            leader_chance, capture, battle = _leader_chance(game, game.other, target, True, left)
        if game.leads:
            key = (leader_chance, capture, battle)
        else:
            key = (1.0 - leader_chance, -capture, -battle)
        if best is None or key > best:
            best = key
            x, y = game.own % cols, game.own // cols
            chosen = (Move(x, y, game.own_count, target % cols, target // cols),)
    return chosen
