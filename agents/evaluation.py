"""The search bots' evaluation: how good a position is for one species, as one float.

A finished game (:func:`engine.end_of_game`) is worth :data:`WIN`, :data:`LOSS` or
:data:`DRAW`. Otherwise the value is, in creatures:

* **material**: own creatures minus the enemy's (what decides the game at the ply limit);
* **humans within reach**: each human house goes to the species whose nearest group able to
  convert it (``count ≥ humans``) is strictly closer (Chebyshev distance; a tie goes to the
  side to move), and to that group. Each group then plans a *tour* of its houses: up to
  ``TOUR_LENGTH`` of them, each time the one worth most next from where it then is. A
  house reached ``t`` plies from now is worth ``HUMAN_SHARE × humans × HUMAN_DISCOUNT^(t-1)``.
  A tour only shortens when the group moves along it, so the bot commits to a route
  instead of hovering between two houses;
* **threats**: a group at least 1.5 times an enemy group (a certain kill) threatens it;
  the side to move strikes first, so its threats at distance 1 count almost in full
  (``STRIKE_SHARE × enemy``), while a threat it cannot carry out now is worth little
  (``THREAT_SHARE × enemy / distance``): the prey runs. Once no humans are left, hunting
  is all there is to do and that pull is ``HUNT_SHARE``. Running only saves a group for a
  while (on a grid of king moves a hunter always corners its prey) unless a friend can
  merge with it, into a group the hunter cannot kill, before the hunter strikes; a prey
  group no friend can reach in time counts ``DOOM_SHARE × DOOM_DISCOUNT^(distance−1)`` of
  itself as lost. So split-off groups stay within reach of their friends.

Everything is linear in creatures, so expectations of battles (see :mod:`agents.alphabeta`)
and the heuristic terms share one unit.
"""

import math

from engine import GameState, Kind, end_of_game
from engine.kinds import HUMANS

WIN = 1_000_000.0
"""A won game, from the winner's point of view; search adds a bonus for winning sooner."""
LOSS = -WIN
DRAW = 0.0

HUMAN_SHARE = 0.8
HUMAN_DISCOUNT = 0.85
TOUR_LENGTH = 3
THREAT_SHARE = 0.1
HUNT_SHARE = 0.4
SCALE_MIN = 4.0
SCALE_SHARE = 0.3
SCALE_CEILING = 0.95
STRIKE_SHARE = 0.9
DOOM_SHARE = 0.5
DOOM_DISCOUNT = 0.9

Group = tuple[int, int, int]
"""``(x, y, count)``."""

_FAR = 1 << 20


def on_win_scale(score: float, state: GameState) -> float:
    """A score in creatures as a value on the scale of a won game, below it in size.

    ``0.95 · WIN · tanh(score / scale)`` with ``scale`` growing with the monsters on the
    board: a lead of a few creatures is a likely win in a small game, little in a large one.
    On this scale expectations over battles weigh "win the game now" and "keep a lead" in
    one unit, so a bot does not gamble a sure lead for a likely elimination.
    """
    monsters = sum(n for kind, n in state._grid.values() if kind != HUMANS)
    scale = max(SCALE_MIN, SCALE_SHARE * monsters)
    return SCALE_CEILING * WIN * math.tanh(score / scale)


def is_terminal_value(value: float) -> bool:
    """Whether a search value says the game was decided for sure (bonus included)."""
    return abs(value) >= WIN


def evaluate(state: GameState, species: Kind) -> float:
    """The value of ``state`` for ``species`` (see the module docstring); higher is better."""
    end = end_of_game(state)
    if end is not None:
        if end.winner is None:
            return DRAW
        return WIN if end.winner == species else LOSS
    cols = state.cols
    own = int(species)
    mine: list[Group] = []
    theirs: list[Group] = []
    humans: list[Group] = []
    for pos, (kind, count) in state._grid.items():
        group = (pos % cols, pos // cols, count)
        if kind == own:
            mine.append(group)
        elif kind == HUMANS:
            humans.append(group)
        else:
            theirs.append(group)
    score = float(sum(g[2] for g in mine) - sum(g[2] for g in theirs))
    my_move = state.to_move == species
    score += _human_term(humans, mine, theirs, my_move)
    pull = THREAT_SHARE if humans else HUNT_SHARE
    score += _threat_term(mine, theirs, my_move, pull)
    score -= _threat_term(theirs, mine, not my_move, pull)
    return score


def _nearest_converter(hx: int, hy: int, h: int, groups: list[Group]) -> tuple[int, int]:
    """Distance from the house to the nearest group that can convert it, and that group's
    index; ``(_FAR, -1)`` when none can."""
    best, who = _FAR, -1
    for index, (x, y, n) in enumerate(groups):
        if n >= h:
            d = max(abs(x - hx), abs(y - hy))
            if d < best:
                best, who = d, index
    return best, who


def _human_term(
    humans: list[Group], mine: list[Group], theirs: list[Group], my_move: bool
) -> float:
    """What the houses each side reaches first are worth to it, ours + and theirs −."""
    houses: dict[tuple[int, int], list[Group]] = {}
    for hx, hy, h in humans:
        dm, gm = _nearest_converter(hx, hy, h, mine)
        de, ge = _nearest_converter(hx, hy, h, theirs)
        if dm < de or (dm == de and my_move and dm < _FAR):
            houses.setdefault((1, gm), []).append((hx, hy, h))
        elif de < _FAR:
            houses.setdefault((-1, ge), []).append((hx, hy, h))
    score = 0.0
    for (side, index), owned in houses.items():
        group = (mine if side == 1 else theirs)[index]
        score += side * _tour_value(group, owned)
    return score


def _tour_value(group: Group, houses: list[Group]) -> float:
    """The worth of the best next houses ``group`` can convert one after another."""
    x, y, n = group
    elapsed, value = 0, 0.0
    left = list(houses)
    for _ in range(TOUR_LENGTH):
        best, pick = 0.0, -1
        for index, (hx, hy, h) in enumerate(left):
            if h <= n:
                worth = h * HUMAN_DISCOUNT ** (elapsed + max(abs(x - hx), abs(y - hy)) - 1)
                if worth > best:
                    best, pick = worth, index
        if pick < 0:
            break
        hx, hy, h = left.pop(pick)
        elapsed += max(abs(x - hx), abs(y - hy))
        x, y, n = hx, hy, n + h
        value += HUMAN_SHARE * best
    return value


def _threat_term(
    hunters: list[Group], prey: list[Group], hunters_move: bool, pull: float
) -> float:
    """What ``hunters`` stand to gain by certain kills of ``prey`` groups (each counted once),
    ``pull × prey / distance`` for a kill they cannot make now, or more for a prey group
    that no friend can reach in time (see :func:`_rescued`)."""
    score = 0.0
    for index, (px, py, p) in enumerate(prey):
        best = 0.0
        for x, y, n in hunters:
            if 2 * n >= 3 * p:
                d = max(abs(x - px), abs(y - py))
                if d == 1 and hunters_move:
                    share = STRIKE_SHARE
                else:
                    share = pull / d
                    if not _rescued(prey, index, n, d, hunters_move):
                        share = max(share, DOOM_SHARE * DOOM_DISCOUNT ** (d - 1))
                if share > best:
                    best = share
        score += best * p
    return score


def _rescued(prey: list[Group], index: int, hunter: int, distance: int, hunters_move: bool) -> bool:
    """Whether a friend of ``prey[index]`` can merge with it, into a group the hunter cannot
    kill for certain, before the hunter (``distance`` away) strikes.

    A hunter ``d`` away strikes on its ``d``-th ply; the prey's side has ``d − 1`` plies
    before that if the hunter moves first, else ``d``. Two groups ``D`` apart merge in
    ``⌈D / 2⌉`` plies (both walk).
    """
    px, py, p = prey[index]
    plies = distance - 1 if hunters_move else distance
    for other, (fx, fy, f) in enumerate(prey):
        meet = (max(abs(fx - px), abs(fy - py)) + 1) // 2
        if other != index and 2 * hunter < 3 * (p + f) and meet <= plies:
            return True
    return False
