"""The human phase alone: how far ahead a bot is when the last house has been converted.

    python -m benchmarks.human_phase [--pair alphabeta:greedy] [--games 100]
        [--move-time 0.2] [--maps gen] [--jobs 2] [--seed 5] [--json FILE]
        [--compare FILE]

The same games as :mod:`benchmarks.strength` with the same arguments (maps, sides, seeds),
each stopped as soon as no humans are left (or played to its end if they never run out).
A game's *margin* is then the first bot's creatures minus the second's. On the symmetric
generated maps the side ahead at that point mostly wins (see docs/agents.md), and the
margin varies less from game to game than the result does, so it tells two versions of a
bot apart in fewer games.

Prints a line per game, then the mean margin with its standard error and the games ahead,
level and behind. ``--json`` writes the games; ``--compare`` reads such a file from an
earlier run (another version of the bot, the same arguments) and prints the difference of
the margins over the games both played, compared game by game. A game lost by a forfeit
(time, illegal ply, crash) has no margin and is listed apart. Ctrl-C stops early and still
prints the summary of the games played.
"""

import argparse
import json
import math
import shlex
import sys
from pathlib import Path

import attrs

from benchmarks.strength import (
    BOARD_ENDINGS,
    Task,
    forfeit_reason,
    map_names,
    one_pairing,
    play_task,
    run_tasks,
    tasks,
)
from engine import GameState, Termination
from engine.kinds import HUMANS
from protocol.transcript import jsonable

STOPPED_OR_ENDED = BOARD_ENDINGS | {Termination.ABORTED}
"""A phase stopped when the humans ran out, or a game that ended first without a forfeit."""


@attrs.frozen
class Phase:
    """One game's human phase, from the first bot's view."""

    index: int
    map_name: str
    first_species: str
    first: int
    """The first bot's creatures when the humans ran out (or the game ended)."""
    second: int
    plies: int
    termination: Termination = attrs.field(converter=Termination)
    reason: str

    @property
    def forfeit(self) -> bool:
        return self.termination not in STOPPED_OR_ENDED

    @property
    def margin(self) -> int:
        return self.first - self.second


def no_humans_left(state: GameState) -> bool:
    return not state.groups(HUMANS)


def play_phase(task: Task) -> Phase:
    """Play one task's game up to the end of its human phase (in a worker process)."""
    record = play_task(task, stop_when=no_humans_left)
    vampires_first = not task.swapped
    first, second = (
        (record.vampires.creatures, record.werewolves.creatures)
        if vampires_first
        else (record.werewolves.creatures, record.vampires.creatures)
    )
    species = "vampires" if vampires_first else "werewolves"
    return Phase(
        task.index,
        task.map_name,
        species,
        first,
        second,
        record.plies,
        record.termination,
        forfeit_reason(record),
    )


def _describe(phase: Phase) -> str:
    return (
        f"#{phase.index} on {phase.map_name}, first plays {phase.first_species}: "
        f"{phase.first} against {phase.second} after {phase.plies} plies "
        f"({phase.termination.value})" + (f" {phase.reason}" if phase.reason else "")
    )


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (0 with fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def summary(phases: list[Phase]) -> str:
    """Mean margin, its standard error, and the games ahead, level and behind."""
    counted = [p for p in phases if not p.forfeit]
    mean, error = mean_and_error([float(p.margin) for p in counted])
    ahead = sum(p.margin > 0 for p in counted)
    level = sum(p.margin == 0 for p in counted)
    behind = len(counted) - ahead - level
    share = (ahead + level / 2) / len(counted) if counted else 0.0
    lines = [
        f"games {len(counted)}: margin {mean:+.2f} (standard error {error:.2f}); "
        f"ahead {ahead}, level {level}, behind {behind} ({share:.1%} counting level as ½)"
    ]
    forfeits = [p for p in phases if p.forfeit]
    if forfeits:
        lines.append(f"left out, lost by a forfeit: {len(forfeits)}")
        lines += [f"  #{p.index} ({p.first_species}): {p.reason}" for p in forfeits]
    return "\n".join(lines)


def compare(phases: list[Phase], earlier: list[Phase]) -> str:
    """This run's margins against an earlier run's, game by game."""
    before = {p.index: p for p in earlier if not p.forfeit}
    pairs = [(p, before[p.index]) for p in phases if not p.forfeit and p.index in before]
    if not pairs:
        return "compared: no game in common"
    mean, error = mean_and_error([float(p.margin - q.margin) for p, q in pairs])
    now = sum(p.margin for p, _ in pairs) / len(pairs)
    then = sum(q.margin for _, q in pairs) / len(pairs)
    return (
        f"compared game by game over {len(pairs)} games: margin {now:+.2f} against "
        f"{then:+.2f}, difference {mean:+.2f} (standard error {error:.2f})"
    )


def load(path: Path) -> list[Phase]:
    return [Phase(**game) for game in json.loads(path.read_text())["games"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.human_phase", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--pair", default="alphabeta:greedy", help="FIRST:SECOND bot names, measured for FIRST"
    )
    parser.add_argument("--games", type=int, default=100, help="games to play")
    parser.add_argument("--move-time", type=float, default=0.2, help="seconds per move")
    parser.add_argument(
        "--maps", default="gen", help="comma-separated names in maps/, or gen (the default)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument(
        "--seed", type=int, default=5, help="the same seed gives the same maps and dice"
    )
    parser.add_argument("--json", type=Path, help="also write the games to this file")
    parser.add_argument(
        "--compare", type=Path, help="a --json file of an earlier run to compare with"
    )
    args = parser.parse_args(argv)
    arguments = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "benchmarks.human_phase", *arguments])
    pair = one_pairing(parser, args.pair)
    earlier = None
    if args.compare:
        try:
            earlier = load(args.compare)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--compare {args.compare}: not a --json file of this benchmark ({error})")
    maps = map_names(parser, args.maps)
    todo = tasks([pair], args.games, maps, args.move_time, args.seed)
    phases = run_tasks(play_phase, todo, args.jobs, _describe)
    print(summary(phases))
    if earlier is not None:
        print(compare(phases, earlier))
    print(f"command: {command}")
    if args.json:
        payload = {"command": command, "games": [jsonable(p) for p in phases]}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
        print(f"games written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
