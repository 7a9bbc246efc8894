"""``greedy``: one-step lookahead on a simple score, a baseline that plays with purpose.

Candidates, per own group: the whole group to each neighbour, and a split toward the two
nearest human houses it can convert in two different directions. The best candidate is
taken, then each other group adds its best candidate if that raises the score further.

The score of the board after our ply (our side's view, the enemy moves next):

- creatures: ours − theirs, random battles counted by their expected survivors
  (:func:`engine.battle_outcomes`; the battle rules are never re-coded here);
- humans: each house pulls toward the nearest group of either side that can convert it,
  ``HUMAN_PULL · h / (1 + distance)``, ours counted +, theirs −;
- threats: an enemy group next to one of ours that would gain by attacking it costs us
  ``THREAT ·`` its expected gain; our own profitable attacks count ``CHANCE ·`` the gain;
- hunting: an enemy group we beat for certain pulls our group toward it, one that beats
  us for certain two cells away pushes it off.
"""

import time

import attrs

from agents.options import option
from agents.stateless import Stateless
from engine import GameState, Kind, Move, Ply, battle_outcomes, expected_survivors, opponent
from engine.battle import is_certain_win
from engine.kinds import HUMANS
from engine.legality import find_violation
from engine.resolution import resolve_ply
from engine.state import Group, distance, neighbour_table

HUMAN_PULL = 0.5
THREAT = 0.9
CHANCE = 0.2
HUNT = 0.3
FLEE = 0.1
THINK_TIME = 0.08
"""Seconds at most spent combining groups' moves (the first candidate is always scored)."""
SAFETY = 0.05
"""Seconds kept before the deadline."""


def _attack_gain(attacker: Kind, attackers: int, defender: Kind, defenders: int) -> float:
    """What the attacker gains in creature difference by attacking, in expectation."""
    outcomes = battle_outcomes(attacker, attackers, defender, defenders)
    kept = expected_survivors(outcomes, attacker)
    left = expected_survivors(outcomes, defender)
    return (kept - attackers) + (defenders - left)


def score(state: GameState, ply: Ply, me: Kind) -> float:
    """The score of the board after ``ply`` for ``me`` (see the module docstring)."""
    enemy = opponent(me)
    grid, battles = resolve_ply(state, ply)
    cols = state.cols
    mine: list[Group] = []
    theirs: list[Group] = []
    humans: list[Group] = []
    material = 0.0
    for pos, (kind, count) in grid.items():
        group = (pos % cols, pos // cols, count)
        if kind == me:
            mine.append(group)
            material += count
        elif kind == enemy:
            theirs.append(group)
            material -= count
        else:
            humans.append(group)
    for battle in battles:
        material += expected_survivors(battle.outcomes, me)
        material -= expected_survivors(battle.outcomes, enemy)
    return material + _human_pull(humans, mine, theirs) + _contact(mine, theirs, me, enemy)


def _human_pull(humans: list[Group], mine: list[Group], theirs: list[Group]) -> float:
    total = 0.0
    for house in humans:
        h = house[2]
        ours = min((distance(g, house) for g in mine if g[2] >= h), default=0)
        other = min((distance(g, house) for g in theirs if g[2] >= h), default=0)
        if ours:
            total += HUMAN_PULL * h / (1 + ours)
        if other:
            total -= HUMAN_PULL * h / other
    return total


def _contact(mine: list[Group], theirs: list[Group], me: Kind, enemy: Kind) -> float:
    total = 0.0
    for g in mine:
        danger = chance = hunt = 0.0
        for e in theirs:
            d = distance(g, e)
            if d == 1:
                danger = max(danger, _attack_gain(enemy, e[2], me, g[2]))
                chance = max(chance, _attack_gain(me, g[2], enemy, e[2]))
            elif is_certain_win(g[2], e[2], enemy):
                hunt = max(hunt, e[2] / (1 + d))
            elif d == 2 and is_certain_win(e[2], g[2], me):
                total -= FLEE * g[2]
        total += HUNT * hunt + CHANCE * chance - THREAT * danger
    return total


def candidates(state: GameState, x: int, y: int, count: int) -> list[Ply]:
    """Plies moving only the group on ``(x, y)``: whole to each neighbour, and one split."""
    cols, rows = state.cols, state.rows
    pos = y * cols + x
    plies: list[Ply] = [
        (Move(x, y, count, t % cols, t // cols),) for t in neighbour_table(rows, cols)[pos]
    ]
    houses = sorted(
        (distance((hx, hy), (x, y)), hx, hy, h) for hx, hy, h in state.groups(HUMANS) if h < count
    )
    steps: list[tuple[tuple[int, int], int]] = []
    for _, hx, hy, h in houses:
        step = (x + _sign(hx - x), y + _sign(hy - y))
        if all(step != s for s, _ in steps):
            steps.append((step, h))
        if len(steps) == 2:
            (first, h1), (second, h2) = steps
            if h1 + h2 <= count:
                plies.append(
                    (Move(x, y, count - h2, *first), Move(x, y, h2, *second)),
                )
            break
    return plies


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@attrs.frozen
class GreedyOptions:
    """The options of ``greedy``."""

    seed: int | None = option(int, None, "shuffles the candidates before scoring")


class GreedyAgent(Stateless):
    """Scores each candidate ply one step ahead and plays the best (see the module docstring)."""

    name = "greedy"
    Options = GreedyOptions

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        me = state.to_move
        stop = min(deadline - SAFETY, time.monotonic() + THINK_TIME)
        groups = sorted(state.groups(me), key=lambda g: -g[2])
        options = {(x, y): candidates(state, x, y, n) for x, y, n in groups}
        first = [ply for plies in options.values() for ply in plies]
        if not first:
            return ()
        self.rng.shuffle(first)
        best_score, best = max(((score(state, p, me), p) for p in first), key=lambda sp: sp[0])
        for x, y, _ in groups:
            if time.monotonic() > stop:
                break
            if any(move.source == (x, y) for move in best):
                continue
            base = best
            for extra in options[(x, y)]:
                ply = base + extra
                if find_violation(state, ply) is not None:
                    continue
                value = score(state, ply, me)
                if value > best_score:
                    best_score, best = value, ply
        return best


OPTIONS = GreedyOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""
make = GreedyAgent.make
