"""The search bots' evaluation: how good a position is for one species, as one float.

A finished game (:func:`engine.end_of_game`) is worth :data:`WIN`, :data:`LOSS` or
:data:`DRAW`. Otherwise the value is, in creatures:

* **material**: own creatures minus the enemy's (what decides the game at the ply limit);
* **humans within reach**: each human house counts for the species whose nearest group able
  to convert it (``count ≥ humans``) is strictly closer (Chebyshev distance; a tie goes to
  the side to move), worth ``HUMAN_SHARE × humans / distance``: a sure conversion next ply
  is worth half the house, a far one little;
* **threats**: a group at least 1.5 times an enemy group (a certain kill) threatens it,
  worth ``THREAT_SHARE × enemy / distance``; the side to move strikes first, so its threats
  at distance 1 count almost in full (``STRIKE_SHARE``) while the other side's count little.

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

HUMAN_SHARE = 0.5
THREAT_SHARE = 0.3
SCALE_MIN = 4.0
SCALE_SHARE = 0.3
SCALE_CEILING = 0.95
STRIKE_SHARE = 0.9

Group = tuple[int, int, int]
"""``(x, y, count)``."""


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
    score += _threat_term(mine, theirs, my_move)
    score -= _threat_term(theirs, mine, not my_move)
    return score


def _nearest_converter(hx: int, hy: int, h: int, groups: list[Group]) -> int:
    """Chebyshev distance from the house to the nearest group that can convert it, or a lot."""
    best = 1 << 20
    for x, y, n in groups:
        if n >= h:
            d = max(abs(x - hx), abs(y - hy))
            if d < best:
                best = d
    return best


def _human_term(
    humans: list[Group], mine: list[Group], theirs: list[Group], my_move: bool
) -> float:
    score = 0.0
    for hx, hy, h in humans:
        dm = _nearest_converter(hx, hy, h, mine)
        de = _nearest_converter(hx, hy, h, theirs)
        if dm < de or (dm == de and my_move and dm < 1 << 20):
            score += HUMAN_SHARE * h / dm
        elif de < dm or (de == dm and de < 1 << 20):
            score -= HUMAN_SHARE * h / de
    return score


def _threat_term(hunters: list[Group], prey: list[Group], hunters_move: bool) -> float:
    """What ``hunters`` stand to gain by certain kills of ``prey`` groups (each counted once)."""
    score = 0.0
    for px, py, p in prey:
        best = 0.0
        for x, y, n in hunters:
            if 2 * n >= 3 * p:
                d = max(abs(x - px), abs(y - py))
                share = STRIKE_SHARE if d == 1 and hunters_move else THREAT_SHARE / d
                if share > best:
                    best = share
        score += best * p
    return score
