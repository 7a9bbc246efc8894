"""Turning points (vvw.analysis.turning): a stretch told in the game's terms, the biggest
house taken first, the race for each house the other side took, and every distance, size
and "who was first" a sentence states checked against the board it speaks of."""

import re
from collections import deque
from collections.abc import Sequence
from fractions import Fraction

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine import (
    EMPTY,
    HUMANS,
    VAMPIRES,
    WEREWOLVES,
    GameState,
    Kind,
    Move,
    Rules,
    Turn,
    Variant,
    battle_outcomes,
    opponent,
    ply_outcomes,
    resolve_ply,
    win_probability,
)
from engine.testing.strategies import game_states, legal_plies
from tests.helpers.boards import board
from vvw.analysis.files import analysis_json
from vvw.analysis.game import PlayedGame, game_from_turns
from vvw.analysis.game_analysis import GameAnalysis, analyse_game
from vvw.analysis.judging import Thresholds
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import battle_luck
from vvw.analysis.search import Settings
from vvw.analysis.turning import HouseTaken, TurningPoint, race, turning_points

Step = tuple[tuple[int, int], tuple[int, int]]
"""A whole group moved from a cell to a neighbour."""


def played_game(start: GameState, plies: Sequence[Sequence[Step]]) -> PlayedGame:
    """The unfinished game of ``plies`` from ``start``, each a list of whole groups moved
    (no random battle in them)."""
    turns = []
    state = start
    for steps in plies:
        ply = tuple(Move(*source, state.at(*source)[1], *target) for source, target in steps)
        grid = resolve_ply(state, ply).grid
        after = GameState.trusted(state.rows, state.cols, None, state.ply + 1, grid)
        turns.append(Turn(state.to_move, state.ply, ply, after))
        state = after
    return game_from_turns(start, turns, names=("a", "b"), finished=False)


def told(game: PlayedGame, side: Kind) -> tuple[TurningPoint, GameAnalysis]:
    """``side``'s one turning point in ``game``, analysed 3 plies deep with thresholds so
    high that no ply is labelled: a fall there is a stretch only the turning point tells."""
    analysis = analyse_game(game, Settings(depth=3), thresholds=Thresholds(97, 98, 99))
    assert not any(analysis.label(turn) for turn in analysis.turns)
    (point,) = [p for p in analysis.turning_points() if p.side == side]
    assert point.high - point.low >= 0.25 and point.last - point.first < 30
    return point, analysis


def json_text(analysis: GameAnalysis) -> str:
    return " ".join(p["text"] for p in analysis_json(analysis)["turning_points"])


WALKED_AWAY = board(
    """
    .  .  .  .  .  .  .  .
    .  .  .  H6 .  .  .  .
    V8 .  .  .  .  .  .  W8
    .  .  .  .  .  .  .  .
    .  H1 .  .  .  .  .  .
    """
)
"""The vampires' 8 is 3 moves from the 6 humans, the werewolves' 8 is 4: the house is the
vampires' to take, and with it the game (14 kill an 8 or a 9 for certain)."""


def test_a_group_that_walks_away_from_the_biggest_house_is_told_it_could_have_got_there_first():
    game = played_game(
        WALKED_AWAY,
        [
            [((0, 2), (0, 3))],
            [((7, 2), (6, 1))],
            [((0, 3), (0, 4))],
            [((6, 1), (5, 1))],
            [((0, 4), (1, 4))],  # the vampires take the 1 human instead
            [((5, 1), (4, 1))],
            [((1, 4), (0, 4))],
            [((4, 1), (3, 1))],  # the werewolves take the house: 14
            [((0, 4), (1, 4))],
        ],
    )
    point, analysis = told(game, VAMPIRES)
    text = point.text
    assert text.startswith("the game turned against the vampires")
    start = point.first  # the race is read on the board before the stretch's first ply
    before = game.turns[start - 1].before
    ours, theirs = before.groups(VAMPIRES), before.groups(WEREWOLVES)
    moves = max(abs(ours[0][0] - 3), abs(ours[0][1] - 1))
    assert moves < max(abs(theirs[0][0] - 3), abs(theirs[0][1] - 1))
    # The biggest house comes first, named so, whoever took it; the vampires' own after it.
    assert text.index("ply 8: the werewolves took the 6 humans at (3,1), the biggest house") < (
        text.index("ply 5: they took the 1 human at (1,4)")
    )
    assert (
        f"the vampires' 8 at ({ours[0][0]},{ours[0][1]}) could have got there first:"
        f" before ply {start} they were {moves} moves away" in text
    )
    assert "for the werewolves' nearest group of 6 or more, 8 at" in text
    assert text in json_text(analysis)


FAR = board(
    """
    V12 .  .  .  .  .  .  .  .  .  .  .
    .   .  .  .  .  .  .  .  .  .  .  .
    .   H3 .  .  .  .  .  .  W5 .  H8 .
    .   .  .  .  .  .  .  .  .  .  W5 .
    """
)
"""The vampires' 12 is big enough for the 8 humans but 10 moves away; the werewolves' two
5s are each too small, and 2 moves away together."""


def test_a_far_group_is_not_told_it_could_have_got_there_first():
    game = played_game(
        FAR,
        [
            [((0, 0), (0, 1))],  # the vampires walk away from the 3 humans
            [((8, 2), (9, 2)), ((10, 3), (9, 2))],  # the werewolves' 5s merge: 10
            [((0, 1), (0, 0))],
            [((9, 2), (10, 2))],  # and take the 8 humans: 18
            [((0, 0), (0, 1))],
            [((10, 2), (9, 2))],
        ],
    )
    point, _ = told(game, VAMPIRES)
    text = point.text
    assert "ply 4: the werewolves took the 8 humans at (10,2), the only house taken" in text
    denied = "none of the vampires' groups could have got there first"
    assert text.count("could have got there first") == text.count(denied) == 1
    assert (
        f"none of the vampires' groups could have got there first: before ply {point.first}"
        " their nearest group of 8 or more, 12 at (0,0), was 10 moves away" in text
    )
    assert "after the house was taken), and the werewolves had no group of 8 or more" in text


# Every sentence, checked against the engine on the boards it speaks of.

GROUP = r"(?P<{0}count>\d+) at \((?P<{0}x>\d+),(?P<{0}y>\d+)\)"
RIVAL = (
    r"(, and the (?P<none_taker>\w+) had no group of (?P<none_humans>\d+) or more"
    r"|, as near as the (?P<tie_taker>\w+)' nearest group of (?P<tie_humans>\d+) or more, "
    + GROUP.format("tie_")
    + r", (?P<order>and moving first|which moved first)"
    r"|, against (?P<far_moves>\d+) moves? for the (?P<far_taker>\w+)' nearest group of"
    r" (?P<far_humans>\d+) or more, " + GROUP.format("far_") + r")"
)
RACES = {
    "neither had one": re.compile(
        r"the (?P<side>\w+) had no group of (?P<humans>\d+) or more before ply (?P<start>\d+),"
        r" nor had the (?P<none_taker>\w+)$"
    ),
    "only the taker had one": re.compile(
        r"the (?P<side>\w+) had no group of (?P<humans>\d+) or more before ply (?P<start>\d+),"
        r" and the (?P<far_taker>\w+)' nearest one, " + GROUP.format("far_") + r", was"
        r" (?P<far_moves>\d+) moves? away$"
    ),
    "first": re.compile(
        r"the (?P<side>\w+)' " + GROUP.format("") + r" could have got there first:"
        r" before ply (?P<start>\d+) they were (?P<moves>\d+) moves? away"
        r" \(there by ply (?P<arrival>\d+)\)" + RIVAL + "$"
    ),
    "not first": re.compile(
        r"none of the (?P<side>\w+)' groups could have got there first: before ply"
        r" (?P<start>\d+) their nearest group of (?P<humans>\d+) or more, "
        + GROUP.format("")
        + r","
        r" was (?P<moves>\d+) moves? away \(there by ply (?P<arrival>\d+) at the earliest"
        r"(?P<late>, after the house was taken)?\)" + RIVAL + "$"
    ),
}


def king_moves(state: GameState, source: tuple[int, int], target: tuple[int, int]) -> int:
    """The fewest steps to any of the eight neighbours from ``source`` to ``target`` on
    ``state``'s grid: a breadth-first walk, not the distance formula."""
    seen = {source: 0}
    queue = deque([source])
    while queue:
        x, y = queue.popleft()
        if (x, y) == target:
            return seen[(x, y)]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                cell = (x + dx, y + dy)
                if 0 <= cell[0] < state.cols and 0 <= cell[1] < state.rows and cell not in seen:
                    seen[cell] = seen[(x, y)] + 1
                    queue.append(cell)
    raise AssertionError(f"{target} is not on the board")


def arrival(state: GameState, kind: Kind, moves: int) -> int:
    """The ply (as the report numbers them: 1 for the first) of ``kind``'s ``moves``-th
    ply from ``state``, counted ply by ply as the engine says whose turn it is."""
    ply, made = state.ply, 0
    while True:
        mover = state.with_ply(ply).to_move
        ply += 1
        made += mover == kind
        if made == moves:
            return ply


def converts(kind: Kind, count: int, humans: int) -> bool:
    """Whether ``count`` of ``kind`` take ``humans`` for certain, as the engine's battle
    rules say."""
    outcomes = battle_outcomes(kind, count, HUMANS, humans)
    return len(outcomes) == 1 and outcomes[0].winner == kind


def nearest(state: GameState, kind: Kind, cell: tuple[int, int], humans: int) -> int | None:
    """How many moves ``kind``'s nearest group that converts ``humans`` is from ``cell``."""
    able = [
        king_moves(state, (x, y), cell)
        for x, y, n in state.groups(kind)
        if converts(kind, n, humans)
    ]
    return min(able, default=None)


def check_group(
    state: GameState,
    kind: Kind,
    found: dict[str, str],
    prefix: str,
    cell: tuple[int, int],
    humans: int,
) -> int:
    """The group a sentence names is ``kind``'s on ``state``, converts ``humans``, and is
    the nearest (the biggest of the equally near); its distance."""
    x, y, count = (int(found[prefix + key]) for key in ("x", "y", "count"))
    assert state.at(x, y) == (kind, count)
    assert converts(kind, count, humans)
    moves = king_moves(state, (x, y), cell)
    assert moves == nearest(state, kind, cell, humans)
    assert all(
        n <= count
        for gx, gy, n in state.groups(kind)
        if converts(kind, n, humans) and king_moves(state, (gx, gy), cell) == moves
    )
    return moves


def could_be_first(start: GameState, side: Kind, house: HouseTaken) -> bool:
    """Whether ``side``'s nearest group that converts the house's humans would have
    arrived, going straight there from ``start``, before the taker's and before the ply
    the house was taken."""
    ours = nearest(start, side, house.cell, house.humans)
    theirs = nearest(start, house.taker, house.cell, house.humans)
    if ours is None:
        return False
    ours_at = arrival(start, side, ours)
    return ours_at < house.ply and (theirs is None or ours_at < arrival(start, house.taker, theirs))


def check_race(text: str, start: GameState, side: Kind, house: HouseTaken) -> str:
    """Every figure of ``text``, the race for ``house`` told for ``side``, is the board's;
    the template it follows (and how it tells the taker's group)."""
    matches = [(name, p.match(text)) for name, p in RACES.items()]
    ((template, match),) = [(name, m) for name, m in matches if m is not None]
    found = {key: value for key, value in match.groupdict().items() if value is not None}
    taker, cell, humans = house.taker, house.cell, house.humans
    assert found["side"] == side.name.lower()
    assert int(found["start"]) == start.ply + 1
    for key in ("humans", "none_humans", "tie_humans", "far_humans"):
        assert int(found.get(key, humans)) == humans
    for key in ("none_taker", "tie_taker", "far_taker"):
        assert found.get(key, taker.name.lower()) == taker.name.lower()
    ours = nearest(start, side, cell, humans)
    theirs = nearest(start, taker, cell, humans)
    assert ("none_taker" in found) == (theirs is None)
    if "far_moves" in found:
        assert check_group(start, taker, found, "far_", cell, humans) == int(found["far_moves"])
        assert theirs != ours
    if "tie_count" in found:
        assert check_group(start, taker, found, "tie_", cell, humans) == ours
    if template in ("neither had one", "only the taker had one"):
        assert ours is None
        return template
    assert check_group(start, side, found, "", cell, humans) == int(found["moves"]) == ours
    ours_at = arrival(start, side, ours)
    assert int(found["arrival"]) == ours_at
    theirs_at = None if theirs is None else arrival(start, taker, theirs)
    if "order" in found:
        assert (found["order"] == "and moving first") == (start.to_move == side)
        assert (found["order"] == "and moving first") == (
            theirs_at is not None and ours_at < theirs_at
        )
    assert ("late" in found) == (ours_at > house.ply)
    assert (template == "first") == could_be_first(start, side, house)
    rival = "tie" if "tie_count" in found else "far" if "far_count" in found else "none"
    return f"{template} ({rival})"


@st.composite
def races(draw: st.DrawFn) -> tuple[GameState, Kind, HouseTaken]:
    """A board, a house on it the other side took at a later ply, and the losing side."""
    state = draw(game_states(max_side=8, max_count=30))
    free = [(x, y) for y in range(state.rows) for x in range(state.cols) if not state.at(x, y)[1]]
    houses = [*state.groups(HUMANS), *((x, y, 0) for x, y in free)]
    assume(houses)  # not a board full of monsters
    x, y, humans = draw(st.sampled_from(houses))
    if not humans:  # a house where there was none
        humans = draw(st.integers(1, 30))
        cells = {(cx, cy): (kind, n) for cx, cy, kind, n in state.board_cells()}
        state = GameState.from_cells(
            state.rows, state.cols, {**cells, (x, y): (HUMANS, humans)}, state.ply
        )
    taker = draw(st.sampled_from([VAMPIRES, WEREWOLVES]))
    first = arrival(state, taker, 1)
    taken = first + 2 * draw(st.integers(0, 8))
    return state, opponent(taker), HouseTaken(taken, (x, y), humans, taker)


@settings(max_examples=400)
@given(races())
def test_every_race_sentence_states_the_board_s_distances_sizes_and_who_was_first(
    told_race: tuple[GameState, Kind, HouseTaken],
) -> None:
    start, side, house = told_race
    event(check_race(race(start, side, house).text, start, side, house))


HEADER = re.compile(
    r"the game turned against the (?P<side>\w+) at ply (?P<first>\d+) \(their chances 100 → 0\),"
    r" with no ply of theirs labelled: (?P<body>.*)\.$"
)
HOUSE = re.compile(
    r"ply (?P<ply>\d+): (they|the (?P<taker>\w+)) took the (?P<humans>\d+) humans? at"
    r" \((?P<x>\d+),(?P<y>\d+)\)(, (?P<rank>the only house|the biggest house|as big as any)"
    r" taken in plies (?P<from>\d+) to (?P<to>\d+))?$"
)
RANDOM_BATTLE = re.compile(
    r"ply (?P<ply>\d+): (they|the (?P<striker>\w+)) struck( them)? at \((?P<x>\d+),(?P<y>\d+)\),"
    r" (?P<attackers>\d+) against (?P<defenders>\d+) at (?P<percent>\d+) %,"
    r" and (?P<outcome>won|lost|nobody survived)$"
)
KILLED = re.compile(
    r"ply (?P<ply>\d+): the (?P<killer>\w+) killed the (?P<victim>\w+)' (?P<count>\d+) at"
    r" \((?P<x>\d+),(?P<y>\d+)\) for certain$"
)
STRUCK_AND_KILLED = re.compile(
    r"ply (?P<ply>\d+): the (?P<striker>\w+)' (?P<count>\d+) struck the (?P<holder>\w+)'"
    r" (?P<held>\d+) at \((?P<x>\d+),(?P<y>\d+)\) and were killed$"
)
COUNTED = re.compile(
    r"(they|the (?P<taker>\w+)) took (?P<count>\d+) (?P<more>more )?houses"
    r" (at ply (?P<at>\d+)|in plies (?P<from>\d+) to (?P<to>\d+)) \((?P<humans>\d+) humans\)"
    r"(, none of which the (?P<side>\w+) could have got to first)?$"
)
KINDS = {kind.name.lower(): kind for kind in (HUMANS, VAMPIRES, WEREWOLVES)}


@st.composite
def short_games(draw: st.DrawFn) -> tuple[list[TurnAnalysis], list[GameState], Rules]:
    """Up to 11 legal plies from a random board (up to two random battles each), their
    outcomes drawn from the exact distribution, each turn with its battles' luck: every
    turn a one-ply stretch tells (itself and its aftermath)."""
    rules = Rules(variant=draw(st.sampled_from(Variant)))
    state = draw(game_states(max_side=6, max_count=8))
    turns: list[TurnAnalysis] = []
    boards: list[GameState] = []
    for _ in range(draw(st.integers(1, 11))):
        ply = draw(legal_plies(state))
        if not ply or len(resolve_ply(state, ply, rules).battles) > 2:
            break  # (more battles at once: too many outcomes to list quickly)
        outcomes = ply_outcomes(state, ply, rules, exact=True)
        _, after = draw(st.sampled_from(outcomes))
        scored = [(Fraction(p), board, 0.5) for p, board in outcomes]
        battles = battle_luck(state.ply + 1, state, ply, after, scored, rules)
        turns.append(
            TurnAnalysis(
                state.ply + 1, state.to_move, state, 0.5, (), 0, "", ply, battles=tuple(battles)
            )
        )
        boards.append(after)
        state = after
    assume(turns)
    return turns, boards, rules


def expected_houses(turns: Sequence[TurnAnalysis], boards: Sequence[GameState]) -> list[HouseTaken]:
    """Every human house a species holds after a turn, read off the boards."""
    return [
        HouseTaken(turn.number, (x, y), count, Kind(after.contents[y * after.cols + x][0]))
        for turn, after in zip(turns, boards, strict=True)
        for x, y, kind, count in turn.before.board_cells()
        if kind == HUMANS and after.at(x, y)[0] not in (HUMANS, EMPTY)
    ]


def check_fight(
    part: str, side: Kind, turns: Sequence[TurnAnalysis], boards: Sequence[GameState], rules: Rules
) -> tuple[str, int, tuple[int, int]]:
    """A battle's sentence is true of the ply it names: sizes, odds, outcome, who struck."""
    match = RANDOM_BATTLE.match(part) or KILLED.match(part) or STRUCK_AND_KILLED.match(part)
    assert match is not None, part
    found = match.groupdict()
    ply, cell = int(found["ply"]), (int(found["x"]), int(found["y"]))
    index = ply - turns[0].number
    turn, after = turns[index], boards[index]
    assert turn.played is not None
    battles = {(b.x, b.y): b for b in resolve_ply(turn.before, turn.played, rules).battles}
    mover = turn.side
    if match.re is RANDOM_BATTLE:
        battle = battles[cell]
        assert (found["striker"] is None) == (mover == side)
        assert side in (battle.attacker, battle.defender)
        assert found["striker"] in (None, mover.name.lower())
        assert (int(found["attackers"]), int(found["defenders"])) == (
            battle.attackers,
            battle.defenders,
        )
        assert int(found["percent"]) == round(
            100 * win_probability(battle.attackers, battle.defenders)
        )
        holder = after.at(*cell)
        outcome = "won" if holder[0] == mover else "nobody survived" if not holder[1] else "lost"
        assert found["outcome"] == outcome
        return "random", ply, cell
    assert cell not in battles
    if match.re is KILLED:
        assert KINDS[found["killer"]] == mover == after.at(*cell)[0]
        assert turn.before.at(*cell) == (KINDS[found["victim"]], int(found["count"]))
        return "killed", ply, cell
    assert KINDS[found["striker"]] == mover
    assert int(found["count"]) == sum(move.count for move in turn.played if move.target == cell)
    holder = (KINDS[found["holder"]], int(found["held"]))
    assert turn.before.at(*cell) == holder and after.at(*cell)[0] == holder[0] == opponent(mover)
    return "struck", ply, cell


def expected_fights(
    side: Kind, turns: Sequence[TurnAnalysis], boards: Sequence[GameState], rules: Rules
) -> set[tuple[str, int, tuple[int, int]]]:
    """Every battle of ``side`` in the turns: its random ones (either side's against the
    other, its own against humans), and every kill and strike lost for certain (between the
    two species, so always its)."""
    found = set()
    for turn, after in zip(turns, boards, strict=True):
        assert turn.played is not None
        mover = turn.side
        battles = resolve_ply(turn.before, turn.played, rules).battles
        found |= {
            ("random", turn.number, (b.x, b.y)) for b in battles if side in (b.attacker, b.defender)
        }
        random_cells = {(b.x, b.y) for b in battles}
        for x, y, kind, _ in turn.before.board_cells():
            now = after.at(x, y)[0]
            if (
                (x, y) not in random_cells
                and HUMANS not in (kind, now)
                and now not in (kind, EMPTY)
            ):
                found.add(("killed", turn.number, (x, y)))  # both species: always the side's
        for move in turn.played:
            held = turn.before.at(*move.target)[0]
            if (
                move.target not in random_cells
                and held == opponent(mover) == after.at(*move.target)[0]
            ):
                found.add(("struck", turn.number, move.target))
    return found


def check_biggest(
    house: re.Match[str],
    taken: HouseTaken,
    side: Kind,
    houses: Sequence[HouseTaken],
    turns: Sequence[TurnAnalysis],
) -> None:
    """The house told first is the biggest (of equal ones, the other side's), said so in
    true words, over the plies told."""
    assert (int(house["from"]), int(house["to"])) == (turns[0].number, turns[-1].number)
    biggest = max(h.humans for h in houses)
    assert taken.humans == biggest
    ties = [h for h in houses if h.humans == biggest]
    assert taken.taker != side or all(h.taker == side for h in ties)
    rank = (
        "the only house"
        if len(houses) == 1
        else "the biggest house"
        if len(ties) == 1
        else "as big as any"
    )
    assert house["rank"] == rank


def check_counted(
    summary: re.Match[str],
    houses: Sequence[HouseTaken],
    start: GameState,
    side: Kind,
    told: Sequence[HouseTaken],
) -> None:
    """A count of houses is the houses not told one by one: how many, their humans, their
    plies; for the other side's, none the side could have got to first."""
    assert len(houses) == int(summary["count"]) >= 2
    assert sum(h.humans for h in houses) == int(summary["humans"])
    plies = [h.ply for h in houses]
    if summary["at"] is not None:
        assert min(plies) == max(plies) == int(summary["at"])
    else:
        assert (min(plies), max(plies)) == (int(summary["from"]), int(summary["to"]))
    taker = houses[0].taker
    assert (summary["side"] is not None) == (taker != side)
    assert summary["side"] in (None, side.name.lower())
    named = [h for h in told if h.taker == taker]
    assert (summary["more"] is not None) == bool(named)
    if taker != side:
        assert not any(could_be_first(start, side, h) for h in houses)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(short_games(), st.sampled_from([VAMPIRES, WEREWOLVES]))
def test_every_turning_point_sentence_is_true_of_the_boards_it_speaks_of(
    game: tuple[list[TurnAnalysis], list[GameState], Rules], side: Kind
) -> None:
    turns, boards, rules = game
    # The side's chances fall from certain win to certain loss at the first ply: a
    # stretch of one ply, told with the plies after it.
    chances = [1.0] + [0.0] * len(turns) if side == VAMPIRES else [0.0] + [1.0] * len(turns)
    (point,) = turning_points(turns, boards, chances, [False] * len(turns))
    match = HEADER.match(point.text)
    assert match is not None, point.text
    assert match["side"] == side.name.lower() and int(match["first"]) == turns[0].number
    parts = match["body"].split("; ")
    if parts == ["no house taken and no battle: the position slipped, ply by ply"]:
        parts = []
    houses = expected_houses(turns, boards)
    start = turns[0].before
    told_houses: list[HouseTaken] = []
    counted: dict[Kind, re.Match[str]] = {}
    told_fights = set()
    while parts:
        part = parts.pop(0)
        house, summary = HOUSE.match(part), COUNTED.match(part)
        if summary is not None:
            counted[side if summary["taker"] is None else KINDS[summary["taker"]]] = summary
            continue
        if house is None:
            fight = check_fight(part, side, turns, boards, rules)
            event(fight[0])
            told_fights.add(fight)
            continue
        event(str(house["rank"]))
        taker = side if house["taker"] is None else KINDS[house["taker"]]
        taken = HouseTaken(
            int(house["ply"]), (int(house["x"]), int(house["y"])), int(house["humans"]), taker
        )
        assert (house["rank"] is not None) == (not told_houses)  # the first, and only it
        if house["rank"] is not None:
            check_biggest(house, taken, side, houses, turns)
        told_houses.append(taken)
        if taker != side:
            event(check_race(parts.pop(0), start, side, taken))
    # Told one by one after the biggest: the houses the side could have got to first, and
    # of the others, a side's one house; the rest counted.
    for taken in told_houses[1:]:
        reachable = taken.taker != side and could_be_first(start, side, taken)
        assert reachable or taken.taker not in counted
    rest = [h for h in houses if (h.ply, h.cell) not in {(t.ply, t.cell) for t in told_houses}]
    assert len(rest) + len(told_houses) == len(houses)
    assert {h.taker for h in rest} == set(counted)
    for taker, summary in counted.items():
        event("counted")
        check_counted(summary, [h for h in rest if h.taker == taker], start, side, told_houses)
    assert told_fights == expected_fights(side, turns, boards, rules)
