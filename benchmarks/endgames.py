"""Endgames alone: the same positions, where the humans have just run out, played out again.

    python -m benchmarks.endgames [--positions FILE] [--pair alphabeta:greedy]
        [--games 100] [--seed 7] [--repeats 2] [--move-time 0.2] [--jobs 2]
        [--json FILE] [--compare FILE]

First the positions: the games of :mod:`benchmarks.strength` with the same arguments
(generated maps, sides, seeds), each stopped when no humans are left; a game that ends
first, or whose houses never run out, gives none. They are written to ``--positions`` (by
default ``endgames-SEED.json`` in the current folder) and read back from it on later runs,
so two versions of a bot play out the *same* endgames, whatever the version that played
the human phases. Then each position is played to the end ``--repeats`` times, each time
with other dice (the same for every version), and scored as in :mod:`benchmarks.strength`
for the first bot. The summary sorts the playouts by the count when they began: the first
bot ahead, level or behind.

A whole game's result varies with its human phase as much as with its endgame; holding the
human phase fixed leaves only the endgame's variance, and ``--compare`` (a ``--json`` file
of an earlier run on the same positions) pairs the playouts one by one. The dice still
weigh heavily: one playout per position gave a standard error of about 5 points over 79
positions, two about 2–4, so use two repeats or more, and more to see a few points.
Ctrl-C stops early and still prints the summary.
"""

import argparse
import json
import math
import random
import shlex
import sys
from collections import defaultdict
from pathlib import Path

import attrs

from agents.arena import drive, play_game
from agents.registry import make_agent
from benchmarks.human_phase import no_humans_left
from benchmarks.strength import (
    BOARD_ENDINGS,
    Task,
    forfeit_reason,
    one_pairing,
    run_tasks,
    task_game,
    tasks,
)
from engine import GameState, Termination
from engine.ending import totals
from engine.kinds import VAMPIRES, WEREWOLVES
from protocol.transcript import jsonable


@attrs.frozen
class Position:
    """Where one game's humans ran out, and who plays which side from there."""

    task: Task
    state: GameState

    @property
    def margin(self) -> int:
        """The first bot's creatures minus the second's."""
        vampires, werewolves = totals(self.state)
        return werewolves - vampires if self.task.swapped else vampires - werewolves


@attrs.frozen
class Playout:
    """One position played to the end once, from the first bot's view."""

    index: int
    repeat: int
    start_margin: int
    start_ply: int
    score: float
    end_margin: int
    termination: Termination = attrs.field(converter=Termination)
    plies: int
    reason: str


def position_to_json(position: Position) -> dict:
    """A position as the positions file holds it."""
    state = position.state
    return {
        "task": attrs.asdict(position.task),
        "rows": state.rows,
        "cols": state.cols,
        "ply": state.ply,
        "cells": [list(cell) for cell in state.cells],
    }


def position_from_json(data: dict) -> Position:
    """A position from the positions file; ``ValueError`` for a board the engine refuses."""
    state = GameState(
        data["rows"], data["cols"], tuple(tuple(cell) for cell in data["cells"]), data["ply"]
    )
    return Position(Task(**data["task"]), state)


def find_position(task: Task) -> Position | None:
    """Play one task's game until the humans run out (in a worker process); ``None`` if the
    game ends first or they never do."""
    game, vampires, werewolves = task_game(task)
    result = drive(game, vampires, werewolves, stop_when=no_humans_left)
    if result.termination is not Termination.ABORTED:
        return None
    return Position(task, game.state)


def play_out(job: tuple[Position, int]) -> Playout:
    """Play one position to the end with the dice of ``repeat`` (in a worker process)."""
    position, repeat = job
    task = position.task
    rng = random.Random(f"endgame:{task.seed}:{task.index}:{repeat}")
    first = make_agent(task.first, seed=rng.randrange(1 << 30))
    second = make_agent(task.second, seed=rng.randrange(1 << 30))
    vampires, werewolves = (second, first) if task.swapped else (first, second)
    record = play_game(
        vampires, werewolves, position.state, move_time=task.move_time, seed=rng.randrange(1 << 30)
    )
    first_species = WEREWOLVES if task.swapped else VAMPIRES
    score = 0.5 if record.winner is None else float(record.winner == first_species)
    end = record.vampires.creatures - record.werewolves.creatures
    return Playout(
        task.index,
        repeat,
        position.margin,
        position.state.ply,
        score,
        -end if task.swapped else end,
        record.termination,
        record.plies,
        forfeit_reason(record),
    )


def _describe_position(position: Position | None) -> str:
    if position is None:
        return "no position: the game ended first, or its houses never ran out"
    return f"#{position.task.index}: {position.margin:+d} on ply {position.state.ply}"


def _describe(playout: Playout) -> str:
    return (
        f"#{playout.index} repeat {playout.repeat}: from {playout.start_margin:+d} on ply "
        f"{playout.start_ply} to {playout.end_margin:+d}, score {playout.score} "
        f"({playout.termination.value}, {playout.plies} plies)"
        + (f" {playout.reason}" if playout.reason else "")
    )


def standing(margin: int) -> str:
    return "ahead" if margin > 0 else "level" if margin == 0 else "behind"


def summary(playouts: list[Playout]) -> str:
    """The score over all playouts, then sorted by the count when they began."""
    if not playouts:
        return "no playout finished"
    total = sum(p.score for p in playouts)
    lines = [f"playouts {len(playouts)}: score {total / len(playouts):.1%}"]
    groups: dict[str, list[float]] = defaultdict(list)
    for p in playouts:
        groups[standing(p.start_margin)].append(p.score)
    for name in ("ahead", "level", "behind"):
        scores = groups.get(name)
        if scores:
            lines.append(f"  {name:6} {len(scores):4} playouts, {sum(scores) / len(scores):.1%}")
    forfeits = [p for p in playouts if p.termination not in BOARD_ENDINGS]
    if forfeits:
        lines.append(f"forfeits: {len(forfeits)}")
        lines += [
            f"  #{p.index} repeat {p.repeat}: {p.termination.value} {p.reason}" for p in forfeits
        ]
    return "\n".join(lines)


def compare(playouts: list[Playout], earlier: list[Playout]) -> str:
    """This run's scores against an earlier run's, playout by playout; the standard error
    treats the playouts of one position as one sample."""
    before = {(p.index, p.repeat): p for p in earlier}
    pairs = [(p, before[p.index, p.repeat]) for p in playouts if (p.index, p.repeat) in before]
    if not pairs:
        return "compared: no playout in common"
    n = len(pairs)
    mean = sum(p.score - q.score for p, q in pairs) / n
    by_position: dict[int, list[float]] = defaultdict(list)
    for p, q in pairs:
        by_position[p.index].append(p.score - q.score)
    deviations = [sum(d) - mean * len(d) for d in by_position.values()]
    k = len(deviations)
    error = math.sqrt(sum(d * d for d in deviations) * k / max(k - 1, 1)) / n
    now = sum(p.score for p, _ in pairs) / n
    then = sum(q.score for _, q in pairs) / n
    changed = sum(p.score != q.score for p, q in pairs)
    return (
        f"compared playout by playout over {n}: {now:.1%} against {then:.1%}, difference "
        f"{100 * mean:+.1f} points (standard error {100 * error:.1f}); {changed} changed result"
    )


def load_playouts(path: Path) -> list[Playout]:
    return [Playout(**p) for p in json.loads(path.read_text())["playouts"]]


def positions_for(
    path: Path, pair: tuple[str, str], games: int, seed: int, move_time: float, jobs: int
) -> list[Position]:
    """The positions saved in ``path``, or found and saved there when it does not exist."""
    if path.exists():
        saved = [position_from_json(p) for p in json.loads(path.read_text())["positions"]]
        print(f"{len(saved)} positions read from {path}")
        return saved
    print(f"finding the positions: {games} games played until the humans run out")
    todo = tasks([pair], games, ["gen"], move_time, seed)
    found = run_tasks(find_position, todo, jobs, _describe_position)
    positions = sorted((p for p in found if p is not None), key=lambda p: p.task.index)
    if len(found) == len(todo):
        payload = {"positions": [position_to_json(p) for p in positions]}
        path.write_text(json.dumps(payload) + "\n")
        print(f"{len(positions)} positions written to {path}")
    else:
        print(f"interrupted: the {len(positions)} positions found are played, not saved")
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.endgames", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--positions", type=Path, help="positions file, read or made (default endgames-SEED.json)"
    )
    parser.add_argument(
        "--pair", default="alphabeta:greedy", help="FIRST:SECOND bot names, measured for FIRST"
    )
    parser.add_argument("--games", type=int, default=100, help="games played to find positions")
    parser.add_argument("--seed", type=int, default=7, help="the maps and dice of those games")
    parser.add_argument("--repeats", type=int, default=2, help="playouts of each position")
    parser.add_argument("--move-time", type=float, default=0.2, help="seconds per move")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--json", type=Path, help="also write the playouts to this file")
    parser.add_argument("--compare", type=Path, help="a --json file of an earlier run")
    args = parser.parse_args(argv)
    arguments = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "benchmarks.endgames", *arguments])
    pair = one_pairing(parser, args.pair)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    earlier = None
    if args.compare:
        try:
            earlier = load_playouts(args.compare)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--compare {args.compare}: not a --json file of this benchmark ({error})")
    path = args.positions or Path(f"endgames-{args.seed}.json")
    try:
        positions = positions_for(path, pair, args.games, args.seed, args.move_time, args.jobs)
    except (OSError, ValueError, KeyError, TypeError) as error:
        parser.error(f"--positions {path}: not a positions file of this benchmark ({error})")
    # The pairing on the command line plays the endgames, whoever played the human phases.
    positions = [
        Position(
            attrs.evolve(p.task, first=pair[0], second=pair[1], move_time=args.move_time), p.state
        )
        for p in positions
    ]
    jobs = [(p, repeat) for repeat in range(args.repeats) for p in positions]
    playouts = run_tasks(play_out, jobs, args.jobs, _describe)
    print(summary(playouts))
    if earlier is not None:
        print(compare(playouts, earlier))
    print(f"command: {command}")
    if args.json:
        payload = {"command": command, "playouts": [jsonable(p) for p in playouts]}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
        print(f"playouts written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
