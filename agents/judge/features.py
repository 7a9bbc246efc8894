"""What a strong player looks at in a position, as numbers: the inputs of the learned chances.

:func:`features` reads a :class:`engine.GameState` from the view of the side to move
("own"; the other side is "other") and returns one number per name of :data:`NAMES`:
the creatures of each side and the humans, the groups and their sizes, the race for the
human houses (who reaches each house first with a group big enough to take it, in the
plies left), the strikes each side can make or suffer on the next plies (sure ones, at
1.5 times the enemy or more, and random battles), how far the sides are apart, the plies
left and the board's size, and a pursuit endgame's exact chance. Pure Python, no I/O:
the analysis calls it at the leaves of its search, the training (``training.learn``) on
every position of the corpus.

Distances are in plies of one group (:func:`engine.distance`); the sure strikes and the
random battles' chances are the engine's rules (:func:`engine.beats_for_sure`,
:func:`engine.battle.win_chance`).
"""

import math
from collections.abc import Sequence

from agents.endgame import endgame_chance
from engine.battle import beats_for_sure, win_chance
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.rules import DEFAULT_RULES, Rules
from engine.state import GameState, Group, distance

NAMES: tuple[str, ...] = (
    "lead",
    "log_ratio",
    "own_share",
    "humans_share",
    "race_lead",
    "own_houses_first",
    "other_houses_first",
    "take_now",
    "plies_left",
    "own_turns_left",
    "own_groups",
    "other_groups",
    "own_biggest_share",
    "other_biggest_share",
    "biggest_ratio",
    "biggest_vs_other_total",
    "own_sure_strike",
    "own_in_danger",
    "other_in_reach",
    "own_best_gamble",
    "other_best_gamble",
    "nearest_enemy",
    "biggest_distance",
    "board_cells",
    "houses",
    "one_on_one",
    "endgame",
)
"""The features, in the order :func:`features` gives them (the shipped weights name them)."""


def race(
    own: Sequence[Group],
    other: Sequence[Group],
    humans: Sequence[Group],
    turns: int,
    other_turns: int,
) -> tuple[int, int, int]:
    """The humans of the houses each side reaches first with a group that can take them
    (as many creatures as the humans, within its turns left; the side to move first on a
    tie), and the humans own groups can take this very ply."""
    own_first = other_first = now = 0
    for house in humans:
        n = house[2]
        mine = min((distance(g, house) for g in own if g[2] >= n), default=None)
        theirs = min((distance(g, house) for g in other if g[2] >= n), default=None)
        mine = mine if mine is not None and mine <= turns else None
        theirs = theirs if theirs is not None and theirs <= other_turns else None
        if mine is not None and (theirs is None or mine <= theirs):
            own_first += n
            now += n if mine == 1 else 0
        elif theirs is not None:
            other_first += n
    return own_first, other_first, now


def strikes(attack: Sequence[Group], defence: Sequence[Group], reach: int) -> tuple[int, float]:
    """What ``attack`` can do to ``defence`` within ``reach`` plies of one group: the
    creatures of the defending groups it can kill for sure, and its best chance to win a
    random battle it could start (0 if none)."""
    killed = 0
    gamble = 0.0
    for d in defence:
        near = [a for a in attack if distance(a, d) <= reach]
        if any(beats_for_sure(a[2], d[2]) for a in near):
            killed += d[2]
        elif near:
            gamble = max(gamble, max(win_chance(a[2], d[2]) for a in near))
    return killed, gamble


def features(state: GameState, rules: Rules = DEFAULT_RULES) -> list[float]:
    """The features of ``state`` (:data:`NAMES`) for the side to move."""
    mover = state.to_move
    other_kind = WEREWOLVES if mover == VAMPIRES else VAMPIRES
    own: list[Group] = []
    other: list[Group] = []
    humans: list[Group] = []
    cols = state.cols
    sorts: dict[int, list[Group]] = {mover: own, other_kind: other, HUMANS: humans}
    for pos, (kind, count) in state.contents.items():
        sorts[kind].append((pos % cols, pos // cols, count))
    o = sum(g[2] for g in own)
    e = sum(g[2] for g in other)
    h = sum(g[2] for g in humans)
    everyone = max(1, o + e + h)
    fighters = max(1, o + e)
    left = max(0, rules.max_plies - state.ply)
    turns, other_turns = (left + 1) // 2, left // 2
    own_first, other_first, now = race(own, other, humans, turns, other_turns)
    own_max = max((g[2] for g in own), default=0)
    other_max = max((g[2] for g in other), default=0)
    killed_now, own_gamble = strikes(own, other, 1)
    endangered, other_gamble = strikes(other, own, 2)
    in_reach, _ = strikes(own, other, 2)
    diagonal = max(state.rows, state.cols)
    nearest = min((distance(a, b) for a in own for b in other), default=diagonal)
    big_own = max(own, key=lambda g: g[2], default=None)
    big_other = max(other, key=lambda g: g[2], default=None)
    apart = distance(big_own, big_other) if big_own and big_other else diagonal
    return [
        (o - e) / fighters,
        math.log((o + 1) / (e + 1)),
        o / everyone,
        h / everyone,
        (o + own_first - e - other_first) / everyone,
        own_first / everyone,
        other_first / everyone,
        now / everyone,
        left / rules.max_plies,
        float(turns),
        float(len(own)),
        float(len(other)),
        own_max / max(1, o),
        other_max / max(1, e),
        math.log((own_max + 1) / (other_max + 1)),
        math.log((own_max + 1) / (e + 1)),
        killed_now / fighters,
        endangered / fighters,
        in_reach / fighters,
        own_gamble,
        other_gamble,
        nearest / diagonal,
        apart / diagonal,
        math.log(state.rows * state.cols),
        float(len(humans)),
        float(len(own) == 1 and len(other) == 1 and not humans),
        _endgame(state, rules),
    ]


def _endgame(state: GameState, rules: Rules) -> float:
    """The side to move's chance under perfect play of a one-against-one pursuit endgame
    (:func:`agents.endgame.endgame_chance`), −1 for any other position."""
    chance = endgame_chance(state, state.to_move, rules)
    return -1.0 if chance is None else chance
