"""One finished game's record: the results file's :class:`~vvw.records.results.GameLine`.

``vvw tournament`` appends it to the results file; ``vvw match --json`` writes each game as
:func:`match_entry` of the same record, so the two files say the same thing of a game
under the names each has always used::

    match --json           results file
    winner, termination    winner, termination
    detail                 reason
    plies                  plies
    map_name, seed         map, battle_seed
    vampires.name …        vampires.name …  (creatures, longest_think, skipped_turns, thinks)
    outputs                vampires.outputs + werewolves.outputs
    fallbacks.vampires …   vampires.fallbacks …
"""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine import GameResult, Kind
from vvw.records.results import GameLine, Side

_SPECIES = (Kind.VAMPIRES, Kind.WEREWOLVES)


def finished_game(
    result: GameResult,
    key: str,
    outputs: Mapping[Kind, Sequence[Path]],
    fallbacks: Mapping[Kind, int],
    transcript: Path | None = None,
) -> GameLine:
    """The record of a game played outside a tournament's schedule (its own pair, round
    1): ``key`` names it; ``outputs`` are each side's non-empty output files and
    ``fallbacks`` its plies that were its client library's."""

    def side(species: Kind) -> Side:
        record = result.player(species)
        return Side(
            name=record.name,
            command="",
            creatures=record.creatures,
            longest_think=record.longest_think,
            skipped_turns=record.skipped_turns,
            outputs=tuple(str(path) for path in outputs.get(species, ())),
            thinks=record.thinks,
            fallbacks=fallbacks.get(species, 0),
        )

    return GameLine(
        key=key,
        pair=key,
        round=1,
        map=result.map_name,
        battle_seed=result.seed,
        vampires=side(Kind.VAMPIRES),
        werewolves=side(Kind.WEREWOLVES),
        winner=result.winner,
        termination=result.termination,
        reason=result.detail,
        plies=result.plies,
        transcript=None if transcript is None else str(transcript),
    )


def match_entry(game: GameLine) -> dict[str, Any]:
    """The game as ``vvw match --json`` writes it (see the table above)."""

    def side(species: Kind) -> dict[str, Any]:
        played = game.side(species)
        return {
            "species": species.wire_name,
            "name": played.name,
            "creatures": played.creatures,
            "longest_think": played.longest_think,
            "skipped_turns": played.skipped_turns,
            "thinks": list(played.thinks),
        }

    return {
        "winner": None if game.winner is None else game.winner.wire_name,
        "termination": game.termination.value,
        "detail": game.reason,
        "plies": game.plies,
        "vampires": side(Kind.VAMPIRES),
        "werewolves": side(Kind.WEREWOLVES),
        "map_name": game.map,
        "seed": game.battle_seed,
        "outputs": [path for species in _SPECIES for path in game.side(species).outputs],
        "fallbacks": {species.wire_name: game.side(species).fallbacks for species in _SPECIES},
    }
