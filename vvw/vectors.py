"""Test vectors of the rules as JSON: exact encounter distributions and plies with verdicts.

A bot written in any language checks its rules against these (docs/testing-your-rules.md
documents every field). Everything comes from the engine: the distributions from
:func:`engine.testing.oracles.encounter_distribution`, the verdicts from
:func:`engine.legality.find_violation`, the plies' outcomes from
:func:`engine.testing.oracles.ply_distribution`. Same arguments, same file.
"""

import random
from fractions import Fraction
from typing import Any

from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, Kind
from engine.legality import Rule, find_violation
from engine.rules import Rules, Variant
from engine.state import MAX_COUNT, GameState, Ply
from engine.testing.oracles import (
    Encounter,
    encounter_distribution,
    expected_survivors,
    ply_distribution,
)
from engine.testing.plies import attempt, breakable_rules

FORMAT = "vvw-rules-vectors"
VERSION = 1
MOST_OUTCOMES = 64
"""A legal ply in the vectors leads to at most this many distinct states."""


def fraction_text(p: Fraction) -> str:
    """``"3/8"``, ``"1"``, ``"0"``: exact, in lowest terms."""
    return str(p)


def cells_json(state: GameState) -> list[list[Any]]:
    """``[[x, y, "H"|"V"|"W", count], …]`` by row, then column."""
    return [[x, y, kind.letter, n] for x, y, kind, n in _cells(state)]


def _cells(state: GameState) -> list[tuple[int, int, Kind, int]]:
    cols = state.cols
    return [(pos % cols, pos // cols, Kind(kind), n) for pos, kind, n in state.cells]


def encounter_json(encounter: Encounter, variant: Variant) -> dict[str, Any]:
    """One encounter, its exact outcome distribution and its expected survivors."""
    distribution = encounter_distribution(encounter, variant)
    expected = expected_survivors(encounter, variant)
    return {
        "attacker": encounter.attacker.letter,
        "attackers": encounter.attackers,
        "defender": encounter.defender.letter,
        "defenders": encounter.defenders,
        "variant": variant.value,
        "outcomes": [
            {
                "winner": winner.letter,
                "survivors": survivors,
                "probability": fraction_text(p),
                "decimal": float(p),
            }
            for (winner, survivors), p in distribution.items()
        ],
        "expected": {kind.letter: fraction_text(value) for kind, value in expected.items()},
    }


def all_encounters(max_count: int) -> list[tuple[Encounter, Variant]]:
    """Every encounter of 1..``max_count`` on 1..``max_count``: both species attacking,
    humans or the enemy defending; the spec variant too where it can differ (monsters)."""
    found = []
    for attacker, enemy in ((VAMPIRES, WEREWOLVES), (WEREWOLVES, VAMPIRES)):
        for defender in (HUMANS, enemy):
            variants = [Variant.SERVER] if defender == HUMANS else list(Variant)
            for variant in variants:
                for a in range(1, max_count + 1):
                    for d in range(1, max_count + 1):
                        found.append((Encounter(attacker, a, defender, d), variant))
    return found


def random_state(rng: random.Random, max_side: int, max_count: int) -> GameState:
    """A running game: a board of up to ``max_side`` × ``max_side``, both species on it."""
    rows = rng.randint(1, max_side)
    cols = rng.randint(2 if rows == 1 else 1, max_side)
    size = rows * cols
    positions = rng.sample(range(size), rng.randint(2, min(size, 12)))
    kinds = [VAMPIRES, WEREWOLVES] + [
        rng.choice([HUMANS, VAMPIRES, WEREWOLVES]) for _ in positions[2:]
    ]
    cells = sorted(
        (pos, int(kind), rng.randint(1, max_count))
        for pos, kind in zip(positions, kinds, strict=True)
    )
    return GameState(rows, cols, tuple(cells), rng.randint(0, 1))


def ply_json(state: GameState, ply: Ply, rules: Rules) -> dict[str, Any]:
    """A state, a ply, the rule it breaks first, and (if legal) the exact next states."""
    violation = find_violation(state, ply)
    entry: dict[str, Any] = {
        "state": {
            "rows": state.rows,
            "cols": state.cols,
            "to_move": state.to_move.letter,
            "cells": cells_json(state),
        },
        "ply": [list(move) for move in ply],
        "broken_rule": None,
    }
    if violation is not None:
        entry["broken_rule"] = {
            "number": violation.rule.number,
            "name": violation.rule.name,
            "move": None if violation.move is None else list(ply).index(violation.move),
            "reason": str(violation),
        }
        return entry
    entry["outcomes"] = [
        {"probability": fraction_text(p), "decimal": float(p), "cells": cells_json(after)}
        for after, p in sorted(
            ply_distribution(state, ply, rules).items(), key=lambda item: item[0].cells
        )
    ]
    return entry


def ply_vectors(count: int, seed: int, rules: Rules) -> list[dict[str, Any]]:
    """``count`` plies: legal ones and ones breaking each rule in turn, on small boards.

    Boards have few creatures, so legal plies lead to at most :data:`MOST_OUTCOMES`
    states; a ply breaking rule 7 needs more than 255 around a cell, so its board has
    counts up to 255.
    """
    rng = random.Random(seed)
    wanted: list[Rule | None] = [None, *Rule]
    entries = []
    for index in range(count):
        breaks = wanted[index % len(wanted)]
        while True:
            big = breaks == Rule.TARGET_OVERFLOW
            state = random_state(rng, 5, MAX_COUNT if big else 6)
            if breaks is not None and breaks not in breakable_rules(state):
                continue
            ply = attempt(state, rng, breaks).ply
            if breaks is None and len(ply_distribution(state, ply, rules)) > MOST_OUTCOMES:
                continue
            break
        entries.append(ply_json(state, ply, rules))
    return entries


def build_vectors(max_count: int, plies: int, seed: int) -> dict[str, Any]:
    """The whole document (see docs/testing-your-rules.md, "Test vectors for any language")."""
    rules = Rules()
    return {
        "format": FORMAT,
        "version": VERSION,
        "max_count": max_count,
        "seed": seed,
        "encounters": [
            encounter_json(encounter, variant) for encounter, variant in all_encounters(max_count)
        ],
        "plies": ply_vectors(plies, seed, rules),
    }
