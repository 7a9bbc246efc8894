"""Hypothesis strategies for the game: maps, states, plies legal or not, encounters.

Everything stays within what the protocol can carry: grids up to 255 × 255, counts 1..255,
at most 255 non-empty cells, coordinates and counts of moves in 0..255. Each strategy
shrinks toward small boards, few creatures, vampires first and humans first.

Needs hypothesis (``pip install 'vvw[testing]'``); the oracles to compare against are in
:mod:`engine.testing.oracles`, which does not.
"""

try:
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "engine.testing.strategies needs hypothesis: pip install 'vvw[testing]'"
        " (or pip install hypothesis)"
    ) from error

import random

from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, Kind, opponent
from engine.legality import Rule
from engine.mapfile import MAX_CELLS, GameMap
from engine.state import MAX_COUNT, MAX_SIDE, GameState, Ply
from engine.testing.oracles import Encounter
from engine.testing.plies import Attempt, attempt, breakable_rules, legal_ply

__all__ = [
    "Attempt",
    "arbitrary_plies",
    "encounters",
    "game_states",
    "legal_plies",
    "maps",
    "states_and_attempts",
    "states_and_plies",
]


def _randoms() -> st.SearchStrategy:
    """A ``random.Random`` whose draws hypothesis records and shrinks."""
    return st.randoms(use_true_random=False)


def encounters(
    max_attackers: int = MAX_COUNT,
    max_defenders: int = MAX_COUNT,
    attackers: tuple[Kind, ...] = (VAMPIRES, WEREWOLVES),
    defenders: tuple[str, ...] = ("humans", "enemies"),
) -> st.SearchStrategy[Encounter]:
    """Encounters of 1..``max_attackers`` arriving on 1..``max_defenders``.

    ``attackers`` are the species that may attack; ``defenders`` says whether they meet
    ``"humans"``, ``"enemies"`` (the other species) or both. Shrinks toward one vampire
    on one human.
    """
    for species in attackers:
        if species not in (VAMPIRES, WEREWOLVES):
            raise ValueError(f"attackers are VAMPIRES or WEREWOLVES, not {species!r}")
    if not attackers or not set(defenders) <= {"humans", "enemies"} or not defenders:
        raise ValueError(f"defenders are 'humans' and/or 'enemies', not {defenders!r}")
    for name, most in (("max_attackers", max_attackers), ("max_defenders", max_defenders)):
        if not 1 <= most <= MAX_COUNT:
            raise ValueError(f"{name} must be 1..{MAX_COUNT}, got {most}")

    return _encounters(max_attackers, max_defenders, attackers, defenders)


@st.composite
def _encounters(
    draw: st.DrawFn,
    max_attackers: int,
    max_defenders: int,
    attackers: tuple[Kind, ...],
    defenders: tuple[str, ...],
) -> Encounter:
    species = draw(st.sampled_from(attackers))
    against = draw(st.sampled_from(defenders))
    defender = HUMANS if against == "humans" else opponent(species)
    return Encounter(
        species, draw(st.integers(1, max_attackers)), defender, draw(st.integers(1, max_defenders))
    )


@st.composite
def maps(
    draw: st.DrawFn,
    max_side: int = 20,
    max_houses: int = 20,
    max_count: int = MAX_COUNT,
) -> GameMap:
    """A map a server can send: two starts and up to ``max_houses`` houses, all apart.

    Sides go up to ``max_side`` (at most 255), houses up to ``max_houses`` (at most 253:
    the protocol counts a map's cells in one byte).
    """
    if not 1 <= max_side <= MAX_SIDE or not 0 <= max_houses <= MAX_CELLS - 2:
        raise ValueError(f"max_side must be 1..{MAX_SIDE}, max_houses 0..{MAX_CELLS - 2}")
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(2 if rows == 1 else 1, max_side))
    houses = min(max_houses, rows * cols - 2)
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1)),
            min_size=2,
            max_size=houses + 2,
            unique=True,
        )
    )
    groups = [(x, y, draw(st.integers(1, max_count))) for x, y in cells]
    return GameMap(rows, cols, tuple(groups[2:]), groups[0], groups[1])


@st.composite
def game_states(
    draw: st.DrawFn,
    max_side: int = 8,
    max_count: int = MAX_COUNT,
    both_species: bool = True,
    crowded: bool | None = None,
    max_cells: int = MAX_CELLS,
) -> GameState:
    """A board of up to ``max_side`` × ``max_side`` with counts 1..``max_count``.

    With ``both_species`` each species holds at least one cell (a game still running).
    ``crowded`` true fills at least half the grid, false leaves at most a tenth of it
    filled, ``None`` anything in between; never more than ``max_cells`` (at most 255,
    the protocol's limit) non-empty cells. Either species may be to move.
    """
    if not 1 <= max_side <= MAX_SIDE or not 1 <= max_count <= MAX_COUNT:
        raise ValueError(f"max_side must be 1..{MAX_SIDE}, max_count 1..{MAX_COUNT}")
    if not 2 <= max_cells <= MAX_CELLS:
        raise ValueError(f"max_cells must be 2..{MAX_CELLS}, got {max_cells}")
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(2 if rows == 1 and both_species else 1, max_side))
    size = rows * cols
    most = min(size, max_cells)
    least = 2 if both_species else 0
    if crowded:
        least = max(least, min(most, (size + 1) // 2))
    elif crowded is False:
        most = max(least, min(most, size // 10))
    positions = draw(st.lists(st.integers(0, size - 1), min_size=least, max_size=most, unique=True))
    kinds = [draw(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES])) for _ in positions]
    if both_species:
        kinds[0], kinds[1] = VAMPIRES, WEREWOLVES
    cells = tuple(
        sorted(
            (pos, int(kind), draw(st.integers(1, max_count)))
            for pos, kind in zip(positions, kinds, strict=True)
        )
    )
    return GameState(rows, cols, cells, draw(st.integers(0, 199)))


def legal_plies(state: GameState) -> st.SearchStrategy[Ply]:
    """Legal plies for ``state.to_move`` (``()`` if it cannot move at all).

    Groups move whole or in part, split in up to three shares, merge on one target, and
    sometimes send two identical moves; at most 255 arrive on a cell.
    """
    return _randoms().map(lambda rng: legal_ply(state, rng))


@st.composite
def arbitrary_plies(draw: st.DrawFn, state: GameState) -> Attempt:
    """Plies for ``state``, legal or not, each with the rule it breaks first (``None``: legal).

    Even odds among a legal ply (when there is one) and each rule ``state`` leaves room to
    break: rules 1-4 and 6 on any board where the mover can move, rule 5 where two of its
    groups are neighbours, rule 7 where more than 255 of them surround a cell.
    """
    choices: list[Rule | None] = list(breakable_rules(state))
    if legal_ply(state, random.Random(0)):
        choices.insert(0, None)
    breaks = draw(st.sampled_from(choices))
    return attempt(state, draw(_randoms()), breaks)


@st.composite
def states_and_plies(
    draw: st.DrawFn, max_side: int = 6, max_count: int = MAX_COUNT
) -> tuple[GameState, Ply]:
    """A running game state and a legal ply for the side to move."""
    state = draw(game_states(max_side, max_count))
    return state, draw(legal_plies(state))


@st.composite
def states_and_attempts(
    draw: st.DrawFn, max_side: int = 6, max_count: int = MAX_COUNT
) -> tuple[GameState, Attempt]:
    """A running game state and a ply for it, legal or not, with the rule it breaks first."""
    state = draw(game_states(max_side, max_count))
    return state, draw(arbitrary_plies(state))
