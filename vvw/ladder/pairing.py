"""Who plays whom next: a pure function of the bots waiting, their ratings and past games.

The server calls :func:`pair` at each pairing round (every few seconds, say, so that the
bots that arrived meanwhile are paired together) and starts the games it returns, most
urgent first, as far as it has room:

1. **return games.** A pairing plays two games on one map and battle seed, sides swapped.
   Once its first game is over it owes the return game, played as soon as both players are
   waiting (a built-in bot always is).
2. **new pairings between teams.** As many games as the bots waiting allow (two connections
   of one team never play each other), the cheapest pairs first: the cost of a pair is the
   gap between the ratings plus a penalty when they met lately (:data:`REMATCH_COST` for
   the latest opponent, half of it for the one before, …). A pair is never taken if it
   would leave fewer games possible among the others.
3. **built-in bots.** A bot still alone after waiting ``patience`` seconds plays the
   built-in bot nearest its rating.

Nothing depends on the order of the lists given: ties are broken by who waited longer,
then by seat number.
"""

from collections import Counter
from collections.abc import Mapping, Sequence

import attrs

REMATCH_COST = 400.0
"""The penalty, in rating points, of pairing a bot with its latest opponent again."""


@attrs.frozen
class Waiting:
    """A team's connection waiting for a game."""

    seat: int
    """The connection's number, unique among those waiting."""
    player: str
    """The team's name."""
    rating: float
    since: float
    """When it began to wait."""


@attrs.frozen
class Builtin:
    """A built-in bot: always available, as many games at once as needed."""

    player: str
    rating: float


@attrs.frozen
class ReturnLeg:
    """A pairing that owes its return game: who has the vampires and the werewolves in it."""

    pairing: int
    vampires: str
    werewolves: str


@attrs.frozen
class Match:
    """A game to start: a new pairing's first game, or the return game of ``return_of``."""

    vampires: Waiting | Builtin
    werewolves: Waiting | Builtin
    return_of: int | None = None


def _most_games(counts: Counter[str], leaving: tuple[str, ...] = ()) -> int:
    """How many games bots of the teams counted in ``counts`` (bots per team) can play among
    themselves, once one bot of each team in ``leaving`` has gone: every one but those of
    the largest team left over, in pairs."""
    size = counts.total() - len(leaving)
    largest = max(
        (count - leaving.count(team) for team, count in counts.most_common(len(leaving) + 1)),
        default=0,
    )
    return min(size // 2, size - largest)


def _rematch_cost(a: str, b: str, recent: Mapping[str, Sequence[str]]) -> float:
    places = [
        opponents.index(other)
        for name, other in ((a, b), (b, a))
        if other in (opponents := list(recent.get(name, ())))
    ]
    return REMATCH_COST / (1 + min(places)) if places else 0.0


def _order(w: Waiting) -> tuple[float, int]:
    return (w.since, w.seat)


def _return_games(
    waiting: list[Waiting], owed: Sequence[ReturnLeg], builtins: Mapping[str, Builtin]
) -> list[Match]:
    """The return games whose players are both waiting; their seats leave ``waiting``."""
    matches = []
    for leg in sorted(owed, key=lambda leg: leg.pairing):
        sides: list[Waiting | Builtin] = []
        for name in (leg.vampires, leg.werewolves):
            seat = builtins.get(name) or next(
                (w for w in sorted(waiting, key=_order) if w.player == name), None
            )
            if seat is None:
                break
            sides.append(seat)
        else:
            for side in sides:
                if isinstance(side, Waiting):
                    waiting.remove(side)
            matches.append(Match(sides[0], sides[1], leg.pairing))
    return matches


def _team_games(waiting: list[Waiting], recent: Mapping[str, Sequence[str]]) -> list[Match]:
    """New pairings among ``waiting`` (see the module's docstring); their seats leave it."""

    def preference(pair: tuple[Waiting, Waiting]) -> tuple[float, float, list[tuple[float, int]]]:
        a, b = pair
        cost = abs(a.rating - b.rating) + _rematch_cost(a.player, b.player, recent)
        return (cost, min(a.since, b.since), sorted((_order(a), _order(b))))

    candidates = sorted(
        ((a, b) for i, a in enumerate(waiting) for b in waiting[i + 1 :] if a.player != b.player),
        key=preference,
    )
    matches = []
    taken: set[int] = set()
    counts = Counter(w.player for w in waiting)
    while possible := _most_games(counts):  # a largest pairing's pairs qualify: one is found
        a, b = next(
            (a, b)
            for a, b in candidates
            if a.seat not in taken
            and b.seat not in taken
            and _most_games(counts, (a.player, b.player)) == possible - 1
        )
        first, second = sorted((a, b), key=_order)
        matches.append(Match(first, second))
        taken |= {a.seat, b.seat}
        counts -= Counter((a.player, b.player))
    waiting[:] = [w for w in waiting if w.seat not in taken]
    return matches


def _builtin_games(
    waiting: list[Waiting], builtins: Sequence[Builtin], now: float, patience: float
) -> list[Match]:
    """Games against the nearest built-in bot for those who waited ``patience``."""
    if not builtins:
        return []
    matches = []
    for w in sorted(waiting, key=_order):
        if now - w.since >= patience:
            nearest = min(builtins, key=lambda b: (abs(b.rating - w.rating), b.player))
            matches.append(Match(w, nearest))
            waiting.remove(w)
    return matches


def pair(
    waiting: Sequence[Waiting],
    *,
    now: float,
    patience: float,
    builtins: Sequence[Builtin] = (),
    owed: Sequence[ReturnLeg] = (),
    recent: Mapping[str, Sequence[str]] | None = None,
) -> list[Match]:
    """The games to start now (see the module's docstring), return games first.

    ``recent`` gives each team's latest opponents, the latest first; ``owed`` the pairings
    that owe a return game; ``patience`` is how long a bot waits before a built-in bot."""
    if len({w.seat for w in waiting}) != len(waiting):
        raise ValueError("two waiting bots have the same seat")
    left = list(waiting)
    by_name = {b.player: b for b in builtins}
    return [
        *_return_games(left, owed, by_name),
        *_team_games(left, recent or {}),
        *_builtin_games(left, builtins, now, patience),
    ]
