"""Turning points: where a side's chances fell a long way with no single ply to blame.

A *turning point* is a stretch of at most :data:`SPAN` plies over which a side's chances
fell by :data:`FALL` (25 points) or more while none of its plies in it was labelled: many
small losses, or the other side's good plies, or the dice. The curve alone does not say
why, so each is told in the game's own terms, from the boards: which human houses were
taken in it, by whom and when, the biggest first (the taking that moved the most
creatures); for each house the other side took, the race for it on the board at the
stretch's start (:class:`Race`: each side's nearest group big enough to convert it, how
many moves away, and whether the losing side's could have got there first); and which
battles it walked into (random ones with their odds, and groups killed outright). Events
of the :data:`AFTERMATH` plies after it count too: the search sees a house lost some plies
before it is taken.
"""

from collections.abc import Sequence

import attrs

from engine import GameState, Kind, distance
from engine.battle import is_certain_win
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, opponent
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import BattleLuck
from vvw.wording import plural

FALL = 0.25
"""How far a side's chances must fall (a share of a game) to make a turning point."""
SPAN = 30
"""The longest stretch, in plies."""
AFTERMATH = 10
"""Plies after a stretch whose events explain it too: the search sees a house lost or a
battle coming some plies before it happens, and the chances fall then."""


@attrs.frozen
class Reach:
    """A group big enough to convert a house, and when it could have been there."""

    cell: tuple[int, int]
    count: int
    moves: int
    """King moves from its cell to the house's: each of its side's plies moves it one."""
    arrival: int
    """The ply it would have arrived at, going straight there from the stretch's start."""


@attrs.frozen
class Race:
    """The race for a house the other side took, on the board at the stretch's start.

    The losing side could have got there first when its nearest group big enough to
    convert the humans would have arrived before the taker's nearest one (nearer, or as
    near and moving first) and before the ply the house was taken."""

    side: Kind
    """The side whose chances fell."""
    taker: Kind
    humans: int
    start: int
    """The stretch's first ply: the race is read on the board before it."""
    taken: int
    """The ply the house was taken."""
    ours: Reach | None
    """``side``'s nearest group of ``humans`` or more (``None``: it had none)."""
    theirs: Reach | None
    """The taker's."""

    @property
    def first(self) -> bool:
        """Whether ``side`` could have got there first."""
        ours, theirs = self.ours, self.theirs
        return (
            ours is not None
            and ours.arrival < self.taken
            and (theirs is None or ours.arrival < theirs.arrival)
        )

    @property
    def text(self) -> str:
        """The race in words, with both sides' distances."""
        who, taker = kind_name(self.side), kind_name(self.taker)
        enough = f"group of {self.humans} or more"
        when = f"before ply {self.start}"
        ours, theirs = self.ours, self.theirs
        if ours is None:
            text = f"the {who} had no {enough} {when}"
            if theirs is None:
                return text + f", nor had the {taker}"
            return (
                text
                + f", and the {taker}' nearest one, {_group(theirs)}, was {_moves(theirs)} away"
            )
        if theirs is None:
            rival = f"and the {taker} had no {enough}"
        elif theirs.moves == ours.moves:
            mover = "and moving first" if ours.arrival < theirs.arrival else "which moved first"
            rival = f"as near as the {taker}' nearest {enough}, {_group(theirs)}, {mover}"
        else:
            rival = f"against {_moves(theirs)} for the {taker}' nearest {enough}, {_group(theirs)}"
        if self.first:
            return (
                f"the {who}' {_group(ours)} could have got there first: {when} they were"
                f" {_moves(ours)} away (there by ply {ours.arrival}), {rival}"
            )
        late = ", after the house was taken" if ours.arrival > self.taken else ""
        return (
            f"none of the {who}' groups could have got there first: {when} their nearest"
            f" {enough}, {_group(ours)}, was {_moves(ours)} away (there by ply {ours.arrival}"
            f" at the earliest{late}), {rival}"
        )


@attrs.frozen
class HouseTaken:
    """A human house converted: where, how many humans, by whom, at which ply."""

    ply: int
    cell: tuple[int, int]
    humans: int
    taker: Kind
    race: Race | None = None
    """For a house the losing side did not take: the race for it (``None`` for the losing
    side's own houses)."""


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
    """The houses taken in the stretch and its aftermath, in the game's order."""
    fights: tuple[str, ...]
    """The battles of the stretch that the side fought, in words."""
    told: int
    """The last ply whose events are told (the aftermath's)."""

    @property
    def biggest(self) -> HouseTaken | None:
        """The house whose taking moved the most creatures (of equal ones, the first the
        other side took)."""
        return min(
            self.houses,
            key=lambda h: (-h.humans, h.taker == self.side, h.ply),
            default=None,
        )

    @property
    def text(self) -> str:
        """The stretch told in one paragraph: the biggest house first."""
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
        parts += self._houses_words() + list(self.fights)
        if len(parts) == 1:
            parts.append("no house taken and no battle: the position slipped, ply by ply")
        return parts[0] + ": " + "; ".join(parts[1:]) + "."

    def _houses_words(self) -> list[str]:
        """The biggest house first, with its race; then each house the other side took
        that the side could have got to first, with its race; then the others, told
        alone when one, counted when more."""
        biggest = self.biggest
        if biggest is None:
            return []
        words = [self._house_words(biggest, self._biggest_words(biggest))]
        rest = [h for h in self.houses if h is not biggest]
        reachable = [h for h in rest if h.race is not None and h.race.first]
        words += [self._house_words(h) for h in reachable]
        other = opponent(self.side)
        words += self._counted(
            [h for h in rest if h.race is not None and not h.race.first],
            f"the {kind_name(other)}",
            biggest.taker == other or bool(reachable),
            f", none of which the {kind_name(self.side)} could have got to first",
        )
        own = [h for h in rest if h.race is None]
        return words + self._counted(own, "they", biggest.taker == self.side)

    def _counted(
        self, houses: list[HouseTaken], taker: str, more: bool, tail: str = ""
    ) -> list[str]:
        """``houses`` in words: one told alone (with its race), more counted."""
        if len(houses) <= 1:
            return [self._house_words(h) for h in houses]
        first, last = houses[0].ply, houses[-1].ply
        when = f"at ply {first}" if first == last else f"in plies {first} to {last}"
        humans = sum(h.humans for h in houses)
        return [
            f"{taker} took {len(houses)} {'more ' if more else ''}houses {when}"
            f" ({humans} humans){tail}"
        ]

    def _biggest_words(self, biggest: HouseTaken) -> str:
        plies = f"in plies {self.first} to {self.told}"
        if len(self.houses) == 1:
            return f"the only house taken {plies}"
        if sum(h.humans == biggest.humans for h in self.houses) == 1:
            return f"the biggest house taken {plies}"
        return f"as big as any taken {plies}"

    def _house_words(self, house: HouseTaken, rank: str = "") -> str:
        taker = "they" if house.taker == self.side else f"the {kind_name(house.taker)}"
        words = (
            f"ply {house.ply}: {taker} took the {plural(house.humans, 'human')} at"
            f" {_cell(house.cell)}"
        )
        words += f", {rank}" if rank else ""
        return words + (f"; {house.race.text}" if house.race is not None else "")


def kind_name(kind: int) -> str:
    return Kind(kind).name.lower()


def _cell(cell: tuple[int, int]) -> str:
    return f"({cell[0]},{cell[1]})"


def _group(reach: Reach) -> str:
    return f"{reach.count} at {_cell(reach.cell)}"


def _moves(reach: Reach) -> str:
    return plural(reach.moves, "move")


def arrival(start: GameState, kind: Kind, moves: int) -> int:
    """The ply at which ``kind`` makes its ``moves``-th move after ``start``: plies
    alternate, ``start.to_move``'s first, and the first is ply ``start.ply + 1`` (plies
    numbered as the report numbers them)."""
    return start.ply + 2 * moves - (1 if start.to_move == kind else 0)


def nearest_reach(start: GameState, kind: Kind, cell: tuple[int, int], humans: int) -> Reach | None:
    """``kind``'s nearest group on ``start`` that converts ``humans`` at ``cell`` for
    certain (of equally near ones, the biggest); ``None`` if it has none."""
    able = sorted(
        (distance((x, y), cell), -count, y, x)
        for x, y, count in start.groups(kind)
        if is_certain_win(count, humans, HUMANS)
    )
    if not able:
        return None
    moves, count, y, x = able[0]
    return Reach((x, y), -count, moves, arrival(start, kind, moves))


def race(start: GameState, side: Kind, house: HouseTaken) -> Race:
    """The race for ``house`` (taken by the other side) on ``start``, the board at the
    stretch's start, for ``side``."""
    return Race(
        side,
        house.taker,
        house.humans,
        start.ply + 1,
        house.ply,
        nearest_reach(start, side, house.cell, house.humans),
        nearest_reach(start, house.taker, house.cell, house.humans),
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


def _lost_strikes(turn: TurnAnalysis, after: GameState) -> list[str]:
    """The mover's strikes on an enemy that were killed there for certain (the moves onto
    one cell strike together)."""
    random_cells = {b.cell for b in turn.battles}
    struck: dict[tuple[int, int], int] = {}
    for move in turn.played or ():
        struck[move.target] = struck.get(move.target, 0) + move.count
    words = []
    before = turn.before
    for (x, y), count in struck.items():
        held = before.contents.get(y * before.cols + x)
        holder = after.contents.get(y * after.cols + x)
        if (x, y) in random_cells or held is None or held[0] in (HUMANS, turn.side):
            continue
        if holder is not None and holder[0] == held[0]:
            words.append(
                f"ply {turn.number}: the {kind_name(turn.side)}' {count} struck the"
                f" {kind_name(held[0])}' {held[1]} at ({x},{y}) and were killed"
            )
    return words


def _battle_words(b: BattleLuck, side: Kind) -> str:
    struck = "they struck" if b.side == side else f"the {b.side.name.lower()} struck them"
    outcome = "won" if b.won else "lost" if b.winner is not None else "nobody survived"
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
            taken = None if house.taker == side else race(start, side, house)
            houses.append(attrs.evolve(house, race=taken))
        words += fights(turn, board, side)
    return TurningPoint(
        side,
        turns[0].number,
        turns[-1].number,
        high,
        low,
        tuple(houses),
        tuple(words),
        turns[-1].number,
    )
