"""The search bots' evaluation: how good a position is for one species, as one float.

A finished game (:func:`engine.end_of_game`) is worth :data:`WIN`, :data:`LOSS` or
:data:`DRAW`. Otherwise the value is, in creatures:

* **material**: own creatures minus the enemy's (what decides the game at the ply limit);
* **humans within reach**: every group of both sides plans a *tour* of up to
  ``TOUR_LENGTH`` houses, each time heading for the house worth most from where it then is
  (``humans × HUMAN_DISCOUNT^distance``, the bigger on a tie, among those it can convert:
  ``count ≥ humans``), and grows by what it converts. The tours *race*: the group arriving
  first (Chebyshev distance, plus the tour so far; a tie goes to the side to move) takes
  the house, and a group that arrives too late aims again from where it was. So does a
  group that an enemy group would kill for certain on the house right after it converts
  (one ``d`` away strikes on its ``d``-th ply): the house stays in the race. A house
  taken ``t`` plies from now is worth ``HUMAN_SHARE × humans × HUMAN_DISCOUNT^(t-1)`` to
  the side that takes it. So a small enemy group that grows on a near house and then
  reaches a bigger one first counts as taking both, and a tour only shortens when the
  group moves along it, so the bot commits to a route instead of hovering between two
  houses;
* **threats**: a group at least 1.5 times an enemy group (a certain kill) threatens the
  whole of it; a group merely bigger threatens what it expects to gain by starting a
  random battle (:func:`attack_gain`: 4.8 creatures for a 14 against an 11, nothing for
  a 14 against a 14). The side to move strikes first, so its threats at distance 1 count
  almost in full (``STRIKE_SHARE ×`` the threat), while a threat it cannot carry out now
  is worth little (``THREAT_SHARE × threat / distance``): the prey runs. Once no humans
  are left, hunting is all there is to do and that pull is ``HUNT_SHARE``. Running only
  saves a group for a while (on a grid of king moves a hunter always corners its prey)
  unless it grows, before the hunter strikes, into a group the hunter cannot kill or
  gain on: by merging with the friends that can reach it in time, then converting the
  houses it reaches in time (nearest first); a prey group that cannot counts
  ``DOOM_SHARE × DOOM_DISCOUNT^(distance−1)`` of the threat as lost. So split-off groups
  stay within reach of their friends, scattered groups merge again when a bigger enemy
  comes, and a group runs from a hunter toward houses that make it safe.

Everything is linear in creatures, so expectations of battles (see :mod:`agents.alphabeta`)
and the heuristic terms share one unit. The search puts a leaf's value on the scale of a won
game (:func:`on_win_scale`); once no humans are left, half of that comes from the material
alone, on a sharp scale (:func:`sharpened`), since only battles can change the count then.
Here and for the hunting pull, a house bigger than each side's whole army (nobody can ever
convert it for sure) counts as no house.
"""

import functools
import heapq
import math
from typing import Final, NamedTuple

from engine import GameState, Kind, battle_outcomes, end_of_game, expected_survivors
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.state import Group

WIN: Final = 1_000_000.0
"""A won game, from the winner's point of view; search adds a bonus for winning sooner."""
LOSS: Final = -WIN
DRAW: Final = 0.0
ROOT_TIE = 50.0
"""A root ply replaces the best one so far (first, the previous iteration's best) only if
its value is higher by more than this (5e-5 of a win: a small fraction of a creature);
see :func:`root_bar`. Not ``Final``, unlike the other constants: a test sets it to 0."""

HUMAN_SHARE: Final = 0.8
HUMAN_DISCOUNT: Final = 0.85
TOUR_LENGTH: Final = 3
THREAT_SHARE: Final = 0.1
HUNT_SHARE: Final = 0.4
SCALE_MIN: Final = 4.0
SCALE_SHARE: Final = 0.3
SCALE_CEILING: Final = 0.95
STRIKE_SHARE: Final = 0.9
DOOM_SHARE: Final = 0.5
DOOM_DISCOUNT: Final = 0.9
ENDGAME_SHARE: Final = 0.5
"""Once no humans are left, the share of a leaf's value that comes from material alone."""
ENDGAME_SCALE: Final = 2.0
"""A lead of this many creatures makes that share three quarters of a win (tanh 1 ≈ 0.76)."""


_FAR: Final = 1 << 20
_HUMANS: Final = int(HUMANS)
"""``HUMANS`` as a plain int: the compiled build compares it without a lookup."""
_FAR_DOOM: Final = 512
"""Distances at which the doom share is tabled (farther ones take the last)."""


def on_win_scale(
    score: float,
    state: GameState,
    species: Kind | None = None,
    ceiling: float = SCALE_CEILING,
    contempt: float = 0.0,
    counts: "Census | None" = None,
) -> float:
    """A score in creatures, for ``species`` (by default ``state.to_move``), as a value on
    the scale of a won game, below it in size.

    ``ceiling · WIN · tanh(score / scale + contempt)`` with ``scale`` growing with the
    monsters on the board: a lead of a few creatures is a likely win in a small game, little
    in a large one. ``contempt`` (> 0) tips an even position toward keeping the game going.
    On this scale expectations over battles weigh "win the game now" and "keep a lead" in
    one unit, so a bot does not gamble a sure lead for a likely elimination.

    Once no humans are left, battles are the only way the count can change, and any lead
    wins at the ply limit unless its side accepts one. :data:`ENDGAME_SHARE` of the value
    then comes from the material alone on a sharp scale, ``tanh(material /
    ENDGAME_SCALE)``: a level bot gains by a hunt that is likely to give it a lead, and a
    leading one loses by a gamble, whatever the size of the armies. ``counts``: the board's
    :func:`census` for ``species``, if the caller has it (:func:`scored` gives it).
    """
    if counts is None:
        counts = census(state, state.to_move if species is None else species)
    scale = max(SCALE_MIN, SCALE_SHARE * (counts.own + counts.other))
    return ceiling * WIN * sharpened(math.tanh(score / scale + contempt), counts)


class Census(NamedTuple):
    """What the leaf scales need of a board, from one side's view, in one pass."""

    own: int
    other: int
    smallest_house: int
    """Humans in the smallest house (``_FAR``: none left)."""


def census(state: GameState, species: Kind) -> Census:
    """``species``' creatures, the enemy's and the smallest house on ``state``."""
    own = other = 0
    smallest_house = _FAR
    for kind, n in state.contents.values():
        if kind == _HUMANS:
            if n < smallest_house:
                smallest_house = n
        elif kind == species:
            own += n
        else:
            other += n
    return Census(own, other, smallest_house)


def sharpened(value: float, counts: Census) -> float:
    """A leaf's ``value`` in ``[-1, 1]`` for the side ``counts`` is from; once no humans are
    left (or only houses bigger than each side's whole army), :data:`ENDGAME_SHARE` of it
    comes from the material alone, ``tanh(material / ENDGAME_SCALE)`` (see
    :func:`on_win_scale`)."""
    own, other, smallest_house = counts
    if _houses_left(smallest_house, own, other):
        return value
    sharp = math.tanh((own - other) / ENDGAME_SCALE)
    return (1 - ENDGAME_SHARE) * value + ENDGAME_SHARE * sharp


def _houses_left(smallest_house: int, own: int, other: int) -> bool:
    """Whether a house of ``smallest_house`` humans (``_FAR``: none) can ever be converted
    for sure: one side has as many creatures in all."""
    if smallest_house == _FAR:
        return False
    return smallest_house <= max(own, other)


def root_bar(best: float) -> float:
    """What a later root ply must beat to replace the best so far, worth ``best``.

    ``best + ROOT_TIE``: values that close mean the same gain, which the shallower search
    saw sooner (it ordered the best first); waiting a ply and taking the gain later differs
    only by where the leaves fall, and that must not make a bot put a kill off ply after
    ply. A game decided within the horizon (``|best|`` within 1000 of ``WIN``) keeps the
    plain comparison: sooner wins and later losses still count.
    """
    return best + ROOT_TIE if abs(best) < WIN - 1000 else best


def is_terminal_value(value: float) -> bool:
    """Whether a search value says the game was decided for sure (bonus included)."""
    return abs(value) >= WIN


def evaluate(state: GameState, species: Kind) -> float:
    """The value of ``state`` for ``species`` (see the module docstring); higher is better."""
    return scored(state, species)[0]


def scored(
    state: GameState, species: Kind, unfinished: bool = False
) -> tuple[float, Census | None]:
    """:func:`evaluate`'s value and the board's :func:`census` for ``species`` (``None`` for
    a finished game), in one pass over the board. ``unfinished``: the caller has found the
    game not over under the default rules (a search's leaf), so that is not asked again."""
    if not unfinished:
        end = end_of_game(state)
        if end is not None:
            if end.winner is None:
                return DRAW, None
            return (WIN if end.winner == species else LOSS), None
    cols = state.cols
    own = int(species)
    mine: list[Group] = []
    theirs: list[Group] = []
    humans: list[Group] = []
    own_total = other_total = 0
    smallest_house = _FAR
    # In the board's order, whatever the order the cells were put in: the terms break
    # ties by list order, and a position's value must not depend on how it was reached.
    for pos, (kind, count) in sorted(state.contents.items()):
        group = (pos % cols, pos // cols, count)
        if kind == own:
            mine.append(group)
            own_total += count
        elif kind == _HUMANS:
            humans.append(group)
            if count < smallest_house:
                smallest_house = count
        else:
            theirs.append(group)
            other_total += count
    score = float(own_total - other_total)
    my_move = state.to_move == species
    score += _human_term(humans, mine, theirs, my_move, max(state.rows, state.cols))
    live = _houses_left(smallest_house, own_total, other_total)
    pull = THREAT_SHARE if live else HUNT_SHARE
    score += _threat_term(mine, theirs, humans, my_move, pull)
    score -= _threat_term(theirs, mine, humans, not my_move, pull)
    return score, Census(own_total, other_total, smallest_house)


def _human_term(
    humans: list[Group], mine: list[Group], theirs: list[Group], my_move: bool, size: int
) -> float:
    """The houses each side's groups convert when both sides' tours race (see the module
    docstring), ours + and theirs −, on a board at most ``size`` cells wide or high."""
    if not humans:
        return 0.0
    houses = _houses_of(humans, size)
    free = [True] * len(houses.sizes)
    # The side to move's groups come first, so they win a race that ends in a tie.
    movers, waiters = (mine, theirs) if my_move else (theirs, mine)
    sign = 1.0 if my_move else -1.0
    racers = [_Racer(x, y, n, sign) for x, y, n in movers]
    racers += [_Racer(x, y, n, -sign) for x, y, n in waiters]
    # The next to arrive: the least (arrival, place in the list), so the earlier one on a tie.
    queue = [(racer.arrival, i) for i, racer in enumerate(racers) if racer.aim(houses, free)]
    heapq.heapify(queue)
    # Per side: the enemy groups, how many plies later they move, and the biggest of them.
    contest = {
        sign: (waiters, 0, max((n for _, _, n in waiters), default=0)),
        -sign: (movers, 1, max((n for _, _, n in movers), default=0)),
    }
    sizes = houses.sizes
    score = 0.0
    while queue:
        index = heapq.heappop(queue)[1]
        first = racers[index]
        target = first.target
        if free[target]:
            enemies, slack, biggest = contest[first.side]
            grown = first.n + sizes[target]
            if 2 * biggest < 3 * grown or _held(first, houses, grown, enemies, slack):
                free[target] = False
                score += first.side * first.convert(houses)
            else:
                first.barred += (target,)
        if first.aim(houses, free):
            heapq.heappush(queue, (first.arrival, index))
    return score


class _Houses:
    """A board's houses, biggest first (in the board's order on a tie), and for any cell
    the order a group standing there prefers them in: worth most first
    (``humans × HUMAN_DISCOUNT^distance``), then the earlier in that list, which is the
    bigger on a tie of worth. Made once per set of houses, each cell's order once (see
    :func:`_houses_of`): a racer aims by going down its cell's order."""

    __slots__ = ("_orders", "_weights", "sizes", "xs", "ys")

    def __init__(self, humans: list[Group], size: int) -> None:
        ordered = sorted(humans, key=_size, reverse=True)
        self.xs = [x for x, _, _ in ordered]
        self.ys = [y for _, y, _ in ordered]
        self.sizes = [h for _, _, h in ordered]
        self._weights = _discounts(size, HUMAN_DISCOUNT)
        self._orders: dict[tuple[int, int], list[int]] = {}

    def order(self, x: int, y: int) -> list[int]:
        """The houses' indices as a group on ``(x, y)`` prefers them (see the class)."""
        found = self._orders.get((x, y))
        if found is None:
            weights, sizes, xs, ys = self._weights, self.sizes, self.xs, self.ys
            worth = [
                -sizes[i] * weights[max(abs(xs[i] - x), abs(ys[i] - y))] for i in range(len(sizes))
            ]
            found = sorted(range(len(sizes)), key=worth.__getitem__)  # stable: earlier on a tie
            if len(self._orders) >= _ORDERS_PER_HOUSES:
                self._orders.clear()
            self._orders[(x, y)] = found
        return found


_ORDERS_PER_HOUSES: Final = 2048
"""Cells whose order of the houses a :class:`_Houses` keeps at most (then forgets them)."""
_HOUSES_KEPT: Final = 16
"""Sets of houses whose :class:`_Houses` are kept at most (then all are forgotten)."""
_houses: dict[tuple[tuple[Group, ...], int], _Houses] = {}


def _houses_of(humans: list[Group], size: int) -> _Houses:
    """The :class:`_Houses` of ``humans`` (in the board's order), made on first use: a
    search meets the same houses at most of its leaves, only the groups move."""
    key = (tuple(humans), size)
    houses = _houses.get(key)
    if houses is None:
        if len(_houses) >= _HOUSES_KEPT:
            _houses.clear()
        houses = _houses[key] = _Houses(humans, size)
    return houses


class _Racer:
    """A group on its tour: where it is, how many, when it got there, where it goes next."""

    __slots__ = ("arrival", "barred", "n", "side", "taken", "target", "time", "x", "y")

    def __init__(self, x: int, y: int, n: int, side: float) -> None:
        self.x, self.y, self.n, self.side = x, y, n, side
        self.time = self.taken = 0
        self.target = -1
        """The index of the house it heads for (:class:`_Houses`), ``-1``: none."""
        self.arrival = _FAR
        self.barred: tuple[int, ...] = ()
        """Houses it would lose at once to an enemy group (see :func:`_held`)."""

    def aim(self, houses: _Houses, free: list[bool]) -> bool:
        """Head for the house worth most from here (``humans × HUMAN_DISCOUNT^distance``,
        the bigger on a tie) among the ``free`` ones it can convert, or for none once its
        tour is ``TOUR_LENGTH`` long; whether it has a house to head for."""
        target = -1
        if self.taken < TOUR_LENGTH:
            n, barred, sizes = self.n, self.barred, houses.sizes
            for i in houses.order(self.x, self.y):
                if free[i] and sizes[i] <= n and not (barred and i in barred):
                    target = i
                    break
        self.target = target
        if target < 0:
            self.arrival = _FAR
            return False
        dx, dy = abs(houses.xs[target] - self.x), abs(houses.ys[target] - self.y)
        self.arrival = self.time + (dx if dx > dy else dy)
        return True

    def convert(self, houses: _Houses) -> float:
        """Take the target house; what it is worth, reached ``arrival`` plies from now."""
        target = self.target
        h = houses.sizes[target]
        self.x, self.y, self.n = houses.xs[target], houses.ys[target], self.n + h
        self.time = self.arrival
        self.taken += 1
        return HUMAN_SHARE * h * HUMAN_DISCOUNT ** (self.arrival - 1)


def _held(racer: _Racer, houses: _Houses, grown: int, enemies: list[Group], slack: int) -> bool:
    """Whether ``racer`` keeps the house it is about to convert: no enemy group kills the
    ``grown`` group (the racer and the house's humans) for certain on its next ply. An
    enemy ``d`` away strikes on its ``d``-th ply; it moves right after the racer's
    ``arrival``-th ply if the racer's side moves first (``slack`` 0), one ply later
    otherwise (``slack`` 1)."""
    hx, hy = houses.xs[racer.target], houses.ys[racer.target]
    reach = racer.arrival + slack
    for x, y, m in enemies:
        if 2 * m >= 3 * grown and abs(x - hx) <= reach and abs(y - hy) <= reach:
            return False
    return True


def _size(group: Group) -> int:
    return group[2]


@functools.cache
def _discounts(size: int, discount: float) -> list[float]:
    """``discount ** d`` for every distance ``d`` on a board ``size`` cells wide or high."""
    return [discount**d for d in range(size)]


def _threat_term(
    hunters: list[Group],
    prey: list[Group],
    humans: list[Group],
    hunters_move: bool,
    pull: float,
) -> float:
    """What ``hunters`` stand to gain from ``prey`` groups (each prey counted once, by its
    most dangerous hunter): a certain kill (``2·n ≥ 3·p``) is worth the prey, a random
    battle a bigger hunter would start is worth its expected gain (:func:`attack_gain`).
    That worth counts almost in full (``STRIKE_SHARE``) for a hunter next to its prey on
    its turn, ``pull / distance`` of it for one that cannot strike now, or more for a prey
    group that can neither merge with friends nor convert houses into safety in time (see
    :func:`_grown`)."""
    score = 0.0
    dooms = _discounts(_FAR_DOOM, DOOM_DISCOUNT)
    for index, (px, py, p) in enumerate(prey):
        # Each hunter's threat, at most: the worth times the largest share it can have.
        # The prey counts its most dangerous hunter only, so the hunters are weighed
        # most dangerous first and those that cannot beat the best so far are skipped.
        threats = []
        for x, y, n in hunters:
            if n <= p:
                continue
            certain = 2 * n >= 3 * p
            worth = float(p) if certain else attack_gain(n, p)
            if worth <= 0:
                continue
            d = max(abs(x - px), abs(y - py))
            if d == 1 and hunters_move:
                threats.append((STRIKE_SHARE * worth, 0.0, d, n, certain))
            else:
                doom = DOOM_SHARE * dooms[min(d - 1, _FAR_DOOM - 1)] * worth
                value = pull / d * worth
                threats.append((max(value, doom), value, d, n, certain))
        if not threats:
            continue
        threats.sort(reverse=True)
        best = 0.0
        sizes: dict[int, int] = {}
        done: set[int] = set()
        for bound, value, d, n, certain in threats:
            if bound <= best:
                break
            if value < bound:  # the doom share, if the prey cannot grow out of reach
                # The hunter strikes on its d-th ply: the prey's side moves d − 1
                # times before that if the hunter moves first, else d times. The prey is
                # out of its reach at 2n // 3 + 1 creatures if it kills for certain (it
                # needs 2n ≥ 3p), at n if it gains by a random battle (it needs n > p).
                plies = d - 1 if hunters_move else d
                safe = 2 * n // 3 + 1 if certain else n
                grown = sizes.get(plies, -1)
                if grown < safe and plies not in done:
                    grown = sizes[plies] = _grown(prey, humans, index, plies, safe)
                    if grown < safe:
                        done.add(plies)  # it grew all it could
                if grown < safe:
                    value = bound
            if value > best:
                best = value
        score += best
    return score


@functools.cache
def attack_gain(hunters: int, prey: int) -> float:
    """The creatures ``hunters`` expect to gain over ``prey`` (theirs won minus ours lost) by
    attacking them in a random battle (:func:`engine.battle_outcomes`; which species is
    which does not matter between monsters). A bigger group gains by it, and whoever
    strikes first the bigger side is favoured, so while a bigger group can hunt the prey
    that gain hangs over it, until it merges or grows to the hunter's size."""
    outcomes = battle_outcomes(VAMPIRES, hunters, WEREWOLVES, prey)
    kept = expected_survivors(outcomes, VAMPIRES)
    left = expected_survivors(outcomes, WEREWOLVES)
    return float((kept - hunters) - (left - prey))


def _grown(prey: list[Group], humans: list[Group], index: int, plies: int, safe_from: int) -> int:
    """How big ``prey[index]`` can grow in ``plies`` of its side's: merged with every friend
    it can meet in time (two groups ``D`` apart meet in ``⌈D / 2⌉`` plies, both walking),
    then converting, nearest first, the houses it has the numbers for, while it reaches
    them in time.

    Optimistic (the friends may be on opposite sides), as a hunter's prey is counted lost
    only when nothing can save it. The tour stops once the prey has ``safe_from``
    creatures, out of the hunter's reach: a tour goes nearest first, so stopping there
    changes none of its earlier steps, and the hunter's verdict is the same as after the
    whole tour."""
    px, py, grown = prey[index]
    for other, (fx, fy, f) in enumerate(prey):
        if other != index and (max(abs(fx - px), abs(fy - py)) + 1) // 2 <= plies:
            grown += f
    if grown >= safe_from:
        return grown
    # A tour of at most `plies` steps never leaves that distance of the start.
    left = [g for g in humans if abs(g[0] - px) <= plies and abs(g[1] - py) <= plies]
    x, y, time = px, py, 0
    while left and grown < safe_from:
        reach = [(max(abs(hx - x), abs(hy - y)), hx, hy, h) for hx, hy, h in left if h <= grown]
        if not reach:
            break
        d, x, y, h = min(reach)
        if time + d > plies:
            break
        time += d
        grown += h
        left.remove((x, y, h))
    return grown
