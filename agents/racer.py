"""``racer``: no search; every group races for the biggest house it can take first.

The style of a public rule-based bot that beat our best bot as the werewolves (issue 58):
from the first ply it sends its groups straight to the biggest houses it can take first,
and splits to take several at once. Each turn, for every group of its species, biggest
first (row order among equals):

1. **Strike**: an enemy group next to it that it beats for sure (at least 1.5 times
   bigger: no random battle) is attacked by the whole group, the biggest such first.
2. **Race**: otherwise it goes toward the biggest house no other group of ours has
   claimed that it *takes first*: it holds at least as many creatures as the house, and
   no enemy group of at least that many is nearer the house (the racer moves now, so a
   tie in distance is its own); among equal houses the nearest. If it can take a second
   such house as well (the two together no bigger than the group, its first step another
   way), it **splits**: each part gets its house's humans and a share of the rest in
   proportion, and both houses are claimed.
3. **Hunt**: otherwise toward the nearest enemy group it beats for sure (the biggest
   among the nearest).
4. **Gather**: otherwise a group joins our biggest group; the biggest group itself stays,
   unless an enemy group that beats it for sure is within two cells (it steps away) or
   nothing else moves (a ply needs a move: it takes its safest step).

A step is one of the neighbours nearest the goal, never onto humans more numerous than
the part, onto an enemy group it does not beat for sure, or onto a cell another move of
the ply leaves (rule 5); not where another part of the same group goes, if it can; among
equal steps one not next to an enemy group that beats the part for sure, then the seeded
generator's pick. A part with no step nearer its goal
stays. The racer never starts a random battle, so its games depend only on its seed and
the opponent's.
"""

import random
from collections.abc import Callable, Iterable

import attrs

from agents.options import option
from agents.stateless import Stateless
from engine import GameState, Move, Ply, beats_for_sure, distance, opponent
from engine.kinds import HUMANS
from engine.state import MAX_COUNT, Group, neighbour_table

Cell = tuple[int, int]
THREAT_DISTANCE = 2
"""An enemy group that beats our idle biggest group for sure, this near, makes it step away."""


@attrs.frozen
class Order:
    """``count`` creatures of the group on ``source`` go toward ``goal`` (``None``: the
    safest step, away from enemy groups)."""

    source: Cell
    count: int
    goal: Cell | None


def takes_first(group: Group, house: Group, enemies: Iterable[Group]) -> bool:
    """Whether ``group``, moving now, can convert ``house`` before any enemy group big
    enough to convert it reaches it."""
    if group[2] < house[2]:
        return False
    ours = distance(group, house)
    return all(ours <= distance(e, house) for e in enemies if e[2] >= house[2])


def direction(source: Group | Cell, goal: Group | Cell) -> Cell:
    """The signs of the first step from ``source`` toward ``goal``."""
    dx, dy = goal[0] - source[0], goal[1] - source[1]
    return ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))


def split_parts(count: int, first: int, second: int) -> tuple[int, int]:
    """Parts of ``count`` for two houses of ``first`` and ``second`` humans: each its
    house's humans and a share of the rest in proportion."""
    rest = count - first - second
    part_two = second + rest * second // (first + second)
    return count - part_two, part_two


def race_orders(group: Group, houses: list[Group], enemies: list[Group]) -> list[Order]:
    """Rule 2 for ``group``: one order toward its house, or two (a split); none if no
    house in ``houses`` (those unclaimed) is its to take first. Claimed houses are
    removed from ``houses``."""
    targets = sorted(
        (h for h in houses if takes_first(group, h, enemies)),
        key=lambda h: (-h[2], distance(group, h), h[1], h[0]),
    )
    if not targets:
        return []
    source, count = (group[0], group[1]), group[2]
    best = targets[0]
    houses.remove(best)
    for other in targets[1:]:
        if best[2] + other[2] <= count and direction(group, other) != direction(group, best):
            houses.remove(other)
            one, two = split_parts(count, best[2], other[2])
            return [Order(source, one, best[:2]), Order(source, two, other[:2])]
    return [Order(source, count, best[:2])]


def plan(state: GameState) -> list[Order]:
    """Every group's orders for this turn (rules 1 to 4 of the module docstring)."""
    me = state.to_move
    groups = sorted(state.groups(me), key=lambda g: (-g[2], g[1], g[0]))
    enemies = state.groups(opponent(me))
    houses = state.groups(HUMANS)
    orders: list[Order] = []
    for group in groups:
        source, count = (group[0], group[1]), group[2]
        beaten = [e for e in enemies if beats_for_sure(count, e[2])]
        strike = [e for e in beaten if distance(group, e) == 1]
        if strike:
            orders.append(Order(source, count, max(strike, key=lambda e: e[2])[:2]))
        elif race := race_orders(group, houses, enemies):
            orders.extend(race)
        elif beaten:
            prey = min(beaten, key=lambda e: (distance(group, e), -e[2], e[1], e[0]))
            orders.append(Order(source, count, prey[:2]))
        elif group is not groups[0]:
            orders.append(Order(source, count, groups[0][:2]))
        elif _threatened(group, enemies):
            orders.append(Order(source, count, None))
    if not orders and groups:
        biggest = groups[0]
        orders.append(Order(biggest[:2], biggest[2], None))
    return orders


def _threatened(group: Group, enemies: list[Group]) -> bool:
    return any(
        distance(group, e) <= THREAT_DISTANCE and beats_for_sure(e[2], group[2]) for e in enemies
    )


@attrs.frozen
class RacerOptions:
    """The options of ``racer``."""

    seed: int | None = option(int, None, "breaks ties between equally good steps")


class RacerAgent(Stateless):
    """Races every group for the houses it takes first (see the module docstring)."""

    name = "racer"
    Options = RacerOptions

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        orders = plan(state)
        return Steps(state, {order.source for order in orders}, self.rng).ply(orders)


class Steps:
    """The cells the orders of one ply step onto, kept legal as they are chosen. ``wins``
    says when attackers take on defenders of the other species (the racer: for sure)."""

    def __init__(
        self,
        state: GameState,
        sources: set[Cell],
        rng: random.Random,
        wins: Callable[[int, int], bool] = beats_for_sure,
    ) -> None:
        self.state = state
        self.wins = wins
        self.sources = sources
        self.rng = rng
        self.enemy = opponent(state.to_move)
        self.enemies = state.groups(self.enemy)
        self.arriving: dict[Cell, int] = {}
        self.taken: dict[Cell, set[Cell]] = {}
        """The cells each source's parts step onto: a split's parts go different ways."""

    def ply(self, orders: list[Order]) -> Ply:
        """The moves of ``orders`` (those with a step toward their goal); never empty while
        the side has a group (one order is always taken, whatever its step)."""
        moves = []
        for order in orders:
            target = self.step(order)
            if target is not None:
                self.arriving[target] = self.arriving.get(target, 0) + order.count
                moves.append(Move(*order.source, order.count, *target))
        if not moves and orders:
            moves.append(self.any_move(orders[0].source))
        return tuple(moves)

    def any_move(self, source: Cell) -> Move:
        """The whole group on ``source`` alone to its safest neighbour (one move is always
        legal), for a ply that would otherwise be empty."""
        count = self.state.at(*source)[1]
        self.sources = set()
        order = Order(source, count, None)
        cells = self.neighbours(source)
        allowed = [cell for cell in cells if self.allowed(cell, count)] or cells
        target = min(allowed, key=lambda cell: self.progress(cell, order))
        return Move(*source, count, *target)

    def neighbours(self, source: Cell) -> list[Cell]:
        x, y = source
        cols = self.state.cols
        return [
            (pos % cols, pos // cols)
            for pos in neighbour_table(self.state.rows, cols)[y * cols + x]
        ]

    def step(self, order: Order) -> Cell | None:
        """Where ``order``'s part steps: nearest its goal (or, with none, farthest from the
        enemy groups it would not attack); ``None`` to stay."""
        count = order.count
        allowed = [cell for cell in self.neighbours(order.source) if self.allowed(cell, count)]
        if not allowed:
            return None
        taken = self.taken.setdefault(order.source, set())
        allowed = [cell for cell in allowed if cell not in taken] or allowed
        keys = {cell: (self.progress(cell, order), self.danger(cell, count)) for cell in allowed}
        best = min(keys.values())
        if order.goal is not None and best[0] >= distance(order.source, order.goal):
            return None
        target = self.rng.choice([cell for cell in allowed if keys[cell] == best])
        taken.add(target)
        return target

    def progress(self, cell: Cell, order: Order) -> int:
        """The distance left to the goal (less is better); with no goal, minus the distance
        to the nearest enemy group the part would not attack."""
        if order.goal is not None:
            return distance(cell, order.goal)
        dangerous = [e for e in self.enemies if not self.wins(order.count, e[2])]
        return -min((distance(cell, e) for e in dangerous), default=0)

    def danger(self, cell: Cell, count: int) -> bool:
        """Whether an enemy group that would attack ``count`` (by :attr:`wins`) is next to
        ``cell``."""
        return any(distance(cell, e) == 1 and self.wins(e[2], count) for e in self.enemies)

    def allowed(self, cell: Cell, count: int) -> bool:
        """Whether ``count`` creatures may step onto ``cell`` in this ply: not a source,
        no battle with humans, none with enemies it would not attack (:attr:`wins`), no more
        than a cell holds."""
        arriving = self.arriving.get(cell, 0) + count
        if cell in self.sources or arriving > MAX_COUNT:
            return False
        kind, held = self.state.at(*cell)
        if kind == HUMANS:
            return count >= held
        if kind == self.enemy:
            return self.wins(count, held)
        resident = held if kind == self.state.to_move else 0
        return resident + arriving <= MAX_COUNT


OPTIONS = RacerOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""
make = RacerAgent.make
