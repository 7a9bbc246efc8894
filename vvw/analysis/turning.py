"""Turning points: where a side's chances fell a long way with no single ply to blame.

A *turning point* is a stretch of at most :data:`SPAN` plies over which a side's chances
fell by :data:`FALL` (25 points) or more while none of its plies in it was labelled: many
small losses, or the other side's good plies, or the dice. The curve alone does not say
why, so each is told in the game's own terms, from the boards: which human houses were
taken in it, by whom and when; for each house the other side took, which of the losing
side's groups could have got there first (nearer at the stretch's start, and big enough to
convert it); and which battles it walked into (random ones with their odds, and groups
killed outright). Events of the :data:`AFTERMATH` plies after it count too: the search
sees a house lost some plies before it is taken.
"""

from collections.abc import Sequence

import attrs

from engine import GameState, Kind
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.state import Group, distance
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import BattleLuck
from vvw.wording import plies, plural

FALL = 0.25
"""How far a side's chances must fall (a share of a game) to make a turning point."""
SPAN = 30
"""The longest stretch, in plies."""
AFTERMATH = 10
"""Plies after a stretch whose events explain it too: the search sees a house lost or a
battle coming some plies before it happens, and the chances fall then."""


@attrs.frozen
class HouseTaken:
    """A human house converted: where, how many humans, by whom, at which ply."""

    ply: int
    cell: tuple[int, int]
    humans: int
    taker: Kind
    rival: str = ""
    """For a house the losing side did not take: which of its groups could have got
    there first, or that none could (empty for the losing side's own houses)."""


@attrs.frozen
class TurningPoint:
    """A stretch where ``side``'s chances fell from ``high`` to ``low`` (0 to 1)."""

    side: Kind
    first: int
    """The first ply of the stretch (the chances before it were ``high``)."""
    last: int
    """The last ply (the chances after it were ``low``)."""
    high: float
    low: float
    houses: tuple[HouseTaken, ...]
    fights: tuple[str, ...]
    """The battles of the stretch that the side fought, in words."""

    @property
    def text(self) -> str:
        """The stretch told in one paragraph."""
        who = self.side.name.lower()
        when = (
            f"at ply {self.first}"
            if self.first == self.last
            else f"between plies {self.first} and {self.last}"
        )
        parts = [
            f"the game turned against the {who} {when} (their chances"
            f" {round(100 * self.high)} → {round(100 * self.low)}), with no ply of theirs"
            " labelled"
        ]
        for house in self.houses:
            taker = "they" if house.taker == self.side else f"the {house.taker.name.lower()}"
            line = (
                f"ply {house.ply}: {taker} took the {plural(house.humans, 'human')} at"
                f" ({house.cell[0]},{house.cell[1]})"
            )
            parts.append(line + (f"; {house.rival}" if house.rival else ""))
        parts += list(self.fights)
        if len(parts) == 1:
            parts.append("no house taken and no battle: the position slipped, ply by ply")
        return parts[0] + ": " + "; ".join(parts[1:]) + "."


def _groups(state: GameState, kind: Kind) -> list[Group]:
    return [(x, y, n) for x, y, k, n in state.board_cells() if k == kind]


def rival_words(start: GameState, side: Kind, house: HouseTaken) -> str:
    """Which of ``side``'s groups on ``start`` could have taken ``house`` first: nearer
    than the taker's nearest group big enough, and big enough itself."""
    cell, humans = house.cell, house.humans
    takers = [distance((x, y), cell) for x, y, n in _groups(start, house.taker) if n >= humans]
    theirs = min(takers, default=None)
    able = sorted(
        (distance((x, y), cell), -n, x, y)
        for x, y, n in _groups(start, side)
        if n >= humans and (theirs is None or distance((x, y), cell) <= theirs)
    )
    who = side.name.lower()
    if not able:
        return f"none of the {who}' groups was as near with {humans} or more"
    ours, size, x, y = able[0]
    other = "" if theirs is None else f" against {plies(theirs)} for theirs"
    if ours == theirs and start.to_move == side:
        other += ", moving first"
    return (
        f"the {who}' {-size} at ({x},{y}) could have got there first:"
        f" {plies(ours)} away{other}, and {-size} ≥ {humans}"
    )


def houses_taken(turn: TurnAnalysis, after: GameState | None) -> list[HouseTaken]:
    """The human houses ``turn`` converted (``after``: the board after it, if known)."""
    if after is None:
        return []
    found = []
    for x, y, kind, count in turn.before.board_cells():
        if kind != HUMANS:
            continue
        holder = after.contents.get(y * after.cols + x)
        if holder is not None and holder[0] != HUMANS:
            found.append(HouseTaken(turn.number, (x, y), count, Kind(holder[0])))
    return found


def fights(turn: TurnAnalysis, after: GameState | None, side: Kind) -> list[str]:
    """``side``'s battles in ``turn``, in words: random ones, and groups killed outright."""
    words = [_battle_words(b, side) for b in turn.battles if side in (b.side, b.defender)]
    random_cells = {b.cell for b in turn.battles}
    if after is None:
        return words
    for x, y, kind, count in turn.before.board_cells():
        holder = after.contents.get(y * after.cols + x)
        if (x, y) in random_cells or kind == HUMANS or holder is None:
            continue
        if holder[0] not in (kind, HUMANS) and side in (kind, holder[0]):  # killed there
            killer = Kind(holder[0]).name.lower()
            words.append(
                f"ply {turn.number}: the {killer} killed the {kind_name(kind)}' {count}"
                f" at ({x},{y}) for certain"
            )
    return words + _lost_strikes(turn, after)


def kind_name(kind: int) -> str:
    return Kind(kind).name.lower()


def _lost_strikes(turn: TurnAnalysis, after: GameState) -> list[str]:
    """Groups of the mover that moved onto an enemy and were killed there for certain."""
    words = []
    random_cells = {b.cell for b in turn.battles}
    before = turn.before
    for move in turn.played or ():
        target = (move.tx, move.ty)
        held = before.contents.get(move.ty * before.cols + move.tx)
        holder = after.contents.get(move.ty * after.cols + move.tx)
        if target in random_cells or held is None or held[0] in (HUMANS, turn.side):
            continue
        if holder is not None and holder[0] == held[0]:
            words.append(
                f"ply {turn.number}: the {kind_name(turn.side)}' {move.count} struck the"
                f" {kind_name(held[0])}' {held[1]} at ({target[0]},{target[1]}) and were killed"
            )
    return words


def _battle_words(b: BattleLuck, side: Kind) -> str:
    struck = "they struck" if b.side == side else f"the {b.side.name.lower()} struck them"
    outcome = "won" if b.won else "lost"
    return (
        f"ply {b.ply}: {struck} at ({b.cell[0]},{b.cell[1]}), {b.attackers} against"
        f" {b.defenders} at {round(100 * b.win_probability)} %, and {outcome}"
    )


def find_stretches(chances: Sequence[float], labelled: Sequence[bool]) -> list[tuple[int, int]]:
    """Stretches ``(i, j)`` of curve points (``chances[i]`` before turn ``i``, the last
    point after the last turn) where the chances fell by :data:`FALL` or more within
    :data:`SPAN` plies and no turn of ``labelled`` in ``i … j−1`` is labelled; the
    largest falls first, none overlapping, in the game's order."""
    found = []
    for i in range(len(chances)):
        for j in range(i + 1, min(len(chances), i + SPAN + 1)):
            if labelled[j - 1]:
                break
            fall = chances[i] - chances[j]
            if fall >= FALL:
                found.append((fall, j - i, i, j))
    chosen: list[tuple[int, int]] = []
    for _, _, i, j in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        if all(j <= a or i >= b for a, b in chosen):
            chosen.append((i, j))
    return sorted(chosen)


def turning_points(
    turns: Sequence[TurnAnalysis],
    boards_after: Sequence[GameState | None],
    chances: Sequence[float | None],
    labelled: Sequence[bool],
) -> list[TurningPoint]:
    """The game's turning points for both sides. ``boards_after[k]``: the board after turn
    ``k``; ``chances``: the vampires' curve (before each turn, then the end); ``labelled``:
    whether turn ``k`` is labelled."""
    if not turns or any(c is None for c in chances):
        return []
    curve = [float(c) for c in chances if c is not None]
    points = []
    for side in (VAMPIRES, WEREWOLVES):
        own = curve if side == VAMPIRES else [1.0 - c for c in curve]
        blamed = [label and t.side == side for t, label in zip(turns, labelled, strict=True)]
        for i, j in find_stretches(own, blamed):
            told = slice(i, j + AFTERMATH)
            point = _told(side, turns[told], boards_after[told], own[i], own[j])
            points.append(attrs.evolve(point, last=turns[j - 1].number))
    return sorted(points, key=lambda p: p.first)


def _told(
    side: Kind,
    turns: Sequence[TurnAnalysis],
    after: Sequence[GameState | None],
    high: float,
    low: float,
) -> TurningPoint:
    start = turns[0].before
    houses: list[HouseTaken] = []
    words: list[str] = []
    for turn, board in zip(turns, after, strict=True):
        for house in houses_taken(turn, board):
            rival = "" if house.taker == side else rival_words(start, side, house)
            houses.append(attrs.evolve(house, rival=rival))
        words += fights(turn, board, side)
    return TurningPoint(
        side, turns[0].number, turns[-1].number, high, low, tuple(houses), tuple(words)
    )
