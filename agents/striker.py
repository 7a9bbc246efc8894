"""``striker``: no search; one army that trades space for a decisive battle.

A style our bots had not met (issue 58): where the racer takes every house it can,
splitting, the striker keeps everything in one group and lets the enemy spread over the
houses, then strikes a group of it whenever the rule book's exact odds favour the strike.
Each turn:

1. **Strike**: any group of ours next to an enemy group it attacks with *favourable odds*
   attacks it (the biggest such): it wins for sure (1.5 times bigger) or with probability
   at least :data:`STRIKE_ODDS` by the rule book (``A / E − ½`` for ``A ≥ E``: at least
   1.1 times bigger). Unlike the racer it accepts random battles.
2. **Gather**: every other group but the biggest (the *army*) walks to the army; groups
   never split.
3. The army **grows** toward the biggest house it takes first (at least as many
   creatures, no enemy group of at least the house's humans nearer; the nearest among
   equal ones), as the racer's groups do but whole; else it seeks **the decisive battle**:
   toward an enemy group within two cells that it would strike, else toward the enemy's
   biggest group if it would strike that; else it waits, stepping away from an enemy
   group within two cells that would strike it (or when nothing else moves).

Steps are chosen as the racer's (:class:`agents.racer.Steps`), with the striker's odds:
never onto humans more numerous than the group, nor onto an enemy group it would not
strike; among equal steps one not next to an enemy group that would strike it.
"""

import attrs

from agents.options import option
from agents.racer import THREAT_DISTANCE, Order, Steps, takes_first
from agents.stateless import Stateless
from engine import GameState, Ply, beats_for_sure, distance, opponent, win_probability
from engine.kinds import HUMANS
from engine.state import Group

STRIKE_ODDS = 0.6
"""The least chance of winning a random battle for which the striker attacks."""


def favours(attackers: int, defenders: int) -> bool:
    """Whether ``attackers`` attacking ``defenders`` of the other species win for sure or
    with probability at least :data:`STRIKE_ODDS`."""
    return (
        beats_for_sure(attackers, defenders) or win_probability(attackers, defenders) >= STRIKE_ODDS
    )


def army_order(army: Group, enemies: list[Group], houses: list[Group]) -> Order | None:
    """Rule 3 for the army: grow, seek the battle, step away, or ``None`` (wait)."""
    source, count = (army[0], army[1]), army[2]
    ours = [h for h in houses if takes_first(army, h, enemies)]
    if ours:
        house = min(ours, key=lambda h: (-h[2], distance(army, h), h[1], h[0]))
        return Order(source, count, house[:2])
    near = [e for e in enemies if distance(army, e) <= THREAT_DISTANCE]
    prey = [e for e in near if favours(count, e[2])]
    if not prey and enemies:
        biggest = max(enemies, key=lambda e: (e[2], -e[1], -e[0]))
        prey = [biggest] if favours(count, biggest[2]) else []
    if prey:
        target = min(prey, key=lambda e: (distance(army, e), -e[2], e[1], e[0]))
        return Order(source, count, target[:2])
    if any(favours(e[2], count) for e in near):
        return Order(source, count, None)
    return None


def plan(state: GameState) -> list[Order]:
    """Every group's order for this turn (rules 1 to 3 of the module docstring)."""
    me = state.to_move
    groups = sorted(state.groups(me), key=lambda g: (-g[2], g[1], g[0]))
    if not groups:
        return []
    enemies = state.groups(opponent(me))
    army = groups[0]
    orders = []
    for group in groups:
        source, count = (group[0], group[1]), group[2]
        strike = [e for e in enemies if distance(group, e) == 1 and favours(count, e[2])]
        if strike:
            orders.append(Order(source, count, max(strike, key=lambda e: e[2])[:2]))
        elif group is not army:
            orders.append(Order(source, count, army[:2]))
        elif (order := army_order(army, enemies, state.groups(HUMANS))) is not None:
            orders.append(order)
    return orders or [Order(army[:2], army[2], None)]


@attrs.frozen
class StrikerOptions:
    """The options of ``striker``."""

    seed: int | None = option(int, None, "breaks ties between equally good steps")


class StrikerAgent(Stateless):
    """Gathers one army and strikes at favourable odds (see the module docstring)."""

    name = "striker"
    Options = StrikerOptions

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        orders = plan(state)
        sources = {order.source for order in orders}
        return Steps(state, sources, self.rng, favours).ply(orders)


OPTIONS = StrikerOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""
make = StrikerAgent.make
