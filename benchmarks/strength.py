"""Strength: bots play each other in the in-process arena, scored from the first bot's view.

    python -m benchmarks.strength [--pairs alphabeta:greedy,...] [--styles BOT] [--depth N]
        [--games 100] [--move-time 0.2] [--maps thetrap,testmap2,...,gen,big] [--jobs 2]
        [--seed 1] [--json FILE] [--results FILE]

Each pairing plays ``--games`` games: sides swap every other game (a pair of games shares
its map), maps cycle through ``--maps`` (names in ``maps/``; ``gen`` is a fresh centrally
symmetric generated map per game pair, skipping those whose conversions stall;
``gen:SEED:WxH:HOMES`` one generated map, as ``vvw`` names it; ``big`` the big open maps
of :mod:`benchmarks.target_maps`, where the race for houses decides). ``--styles BOT``
adds a pairing of ``BOT`` against each opponent of another style
(:data:`STYLE_OPPONENTS`); ``--depth N`` makes the first bot of each pairing search to
that fixed depth, so that its games do not depend on the machine's load. A win scores 1,
a draw ½. A line per finished game, then the points per map and side, then the
table with the score's 95 % interval, the Elo difference ± its 95 % interval and the LOS
(:mod:`vvw.records.tally`, the count of ``vvw tournament``) and the exact command; Ctrl-C
stops early and still prints the tables of the games played. ``--results FILE`` writes
each game as it ends in the results format of ``vvw tournament``
(:mod:`vvw.records.results`), so ``vvw tournament report FILE`` prints its tables per bot
and per pair.

The games are a schedule of vvw's one runner (:mod:`vvw.running.runner`), played in the
in-process arena (:mod:`vvw.running.in_process`), ``--jobs`` at once in the worker
processes of the one pool (:mod:`vvw.running.pool`).
"""

import argparse
import json
import random
import shlex
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import attrs

from agents.arena import drive
from agents.base import Agent
from agents.registry import make_agent
from benchmarks.target_maps import big_open_maps, playable
from engine import Game, GameResult, GameState, Limits, Termination
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.mapfile import GameMap, load_map
from engine.mapgen import generate_map
from protocol.transcript import jsonable
from vvw import signals
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.records.results import Header, ResultsWriter
from vvw.records.stats import format_elo, score_of_elo
from vvw.records.tally import Tally
from vvw.running.in_process import InProcess, arena_game
from vvw.running.outputs import ResultsFile
from vvw.running.participants import Participant
from vvw.running.pool import WorkerPool
from vvw.running.runner import Finished, Output, run_games
from vvw.running.schedule import Planned, ScheduledGame

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
DEFAULT_PAIRS = (
    "alphabeta:greedy,expectiminimax:greedy,alphabeta:random,expectiminimax:random,"
    "expectiminimax:alphabeta"
)
DEFAULT_MAPS = "thetrap,testmap,testmap-5x9,testmap2,gen"
"""The official maps but ``all_in``, which the vampires win on the first ply whoever plays
(12 next to 8: a certain kill), so it measures nothing; and generated ones."""
STYLE_OPPONENTS = ("seed2019", "zcsn", "seed2025", "racer", "striker")
"""Opponents whose styles our search bots' self-play never shows: the earlier students'
bots, the racer and the striker (docs/reference-bots.md). ``--styles BOT`` plays ``BOT``
against each."""
BIG_OPEN = "big"
"""In ``--maps``: the big open maps, :data:`BIG_PER_SIZE` of each size."""
BIG_PER_SIZE = 3
GENERATED_SIZES = ((10, 10, 4), (20, 15, 6), (30, 30, 10))
"""``(width, height, homes)`` of the generated maps, cycled."""
BOARD_ENDINGS = frozenset(t for t in Termination if not t.is_abnormal)
"""The terminations of a game the board or the clock ended; any other is a forfeit."""
Job = TypeVar("Job")
"""What a worker is given: one task, or one task's part (see :func:`run_tasks`)."""
Done = TypeVar("Done")
"""What a worker returns for one task (see :func:`run_tasks`)."""


@attrs.frozen
class Task:
    """One game to play: ``first`` plays vampires unless ``swapped``."""

    first: str
    second: str
    index: int
    map_name: str
    swapped: bool
    move_time: float
    seed: int
    depth: int | None = None
    """The fixed search depth of ``first``; ``None``: its own (the clock decides)."""


@attrs.frozen
class Result:
    """One finished game, from the first bot's view."""

    first: str
    second: str
    index: int
    map_name: str
    first_species: str
    score: float
    termination: Termination = attrs.field(converter=Termination)
    plies: int
    slowest_first: float
    slowest_second: float
    reason: str


def game_map(name: str, seed: int) -> GameMap:
    """The map ``name`` from maps/, a generated map ``gen:SEED:WxH:HOMES``, or for ``gen``
    the first :func:`playable` generated map from seeds ``seed``, ``seed + 1_000_000_007``,
    … (so the same every run)."""
    if name.startswith("gen:"):
        return resolve_maps([name])[0].game_map
    if name == "gen":
        width, height, homes = GENERATED_SIZES[seed % len(GENERATED_SIZES)]
        while True:
            generated = generate_map(width, height, homes, seed)
            if playable(generated):
                return generated
            seed += 1_000_000_007
    path = MAPS_DIR / (name if name.endswith(".xml") else f"{name}.xml")
    return load_map(path)


def tasks(
    pairs: list[tuple[str, str]],
    games: int,
    maps: list[str],
    move_time: float,
    seed: int,
    depth: int | None = None,
) -> list[Task]:
    """Every game of every pairing, interleaved so an early stop leaves a fair sample."""
    result = []
    for index in range(games):
        pair_of_games = index // 2
        map_name = maps[pair_of_games % len(maps)]
        for first, second in pairs:
            result.append(
                Task(
                    first,
                    second,
                    index,
                    map_name,
                    index % 2 == 1,
                    move_time,
                    seed * 1_000_003 + pair_of_games,
                    depth,
                )
            )
    return result


def forfeit_reason(result: GameResult) -> str:
    """What went wrong, for a game a bot lost by misbehaving; empty otherwise."""
    if result.termination.is_abnormal and result.termination is not Termination.ABORTED:
        return result.detail
    return ""


def scheduled(task: Task, number: int = 1) -> ScheduledGame:
    """The task as a game of the runner's schedule, the ``number``-th: its bots, map and
    dice all follow from the task."""
    rng = random.Random(f"{task.seed}:{task.index}:{task.first}:{task.second}")
    seeds = (rng.randrange(1 << 30), rng.randrange(1 << 30))
    depth = [] if task.depth is None else ["--depth", str(task.depth)]
    first = Participant(task.first, shlex.join([task.first, *depth]))
    second = Participant(task.second, task.second)
    pairing = f"{task.first}:{task.second}"
    return ScheduledGame(
        key=f"{pairing}:{task.index}",
        pair=f"{pairing}:{task.index // 2}",
        round=1,
        number=number,
        vampires=second if task.swapped else first,
        werewolves=first if task.swapped else second,
        map=MapChoice(task.map_name, game_map(task.map_name, task.seed)),
        battle_seed=rng.randrange(1 << 30),
        seeds=seeds[::-1] if task.swapped else seeds,
    )


def task_game(task: Task) -> tuple[Game, Agent, Agent]:
    """One task's game, not yet played, and its vampires and werewolves."""
    return arena_game(scheduled(task), Limits(move_time=task.move_time))


def depth_option(depth: int | None) -> dict[str, int]:
    """The first bot's options for a fixed ``depth`` (none: its own)."""
    return {} if depth is None else {"depth": depth}


def play_task(task: Task, stop_when: Callable[[GameState], bool] | None = None) -> GameResult:
    """Play one task's game (see :func:`task_game`)."""
    game, vampires, werewolves = task_game(task)
    return drive(game, vampires, werewolves, stop_when=stop_when)


def scored(task: Task, record: GameResult) -> Result:
    """A task's game, once played, from the first bot's view."""
    first_species = WEREWOLVES if task.swapped else VAMPIRES
    second_species = VAMPIRES if task.swapped else WEREWOLVES
    score = 0.5 if record.winner is None else float(record.winner == first_species)
    return Result(
        task.first,
        task.second,
        task.index,
        task.map_name,
        first_species.name.lower(),
        score,
        record.termination,
        record.plies,
        record.player(first_species).longest_think or 0.0,
        record.player(second_species).longest_think or 0.0,
        forfeit_reason(record),
    )


def of_pairing(results: list[Result], first: str, second: str) -> list[Result]:
    """The games of the pairing ``first:second``."""
    return [r for r in results if (r.first, r.second) == (first, second)]


def table_rows(pairs: list[tuple[str, str]], results: Iterable[Result]) -> list[dict[str, Any]]:
    """One summary row per pairing."""
    results = list(results)
    rows = []
    for first, second in pairs:
        mine = of_pairing(results, first, second)
        n = len(mine)
        tally = Tally.of(r.score for r in mine)
        estimate = tally.estimate()
        rows.append(
            {
                "pairing": f"{first}:{second}",
                "games": n,
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "score": tally.score,
                "low": score_of_elo(estimate.low),
                "high": score_of_elo(estimate.high),
                "elo": estimate.elo,
                "elo_error": estimate.error,
                "los": estimate.los,
                "forfeits": sum(r.termination not in BOARD_ENDINGS for r in mine),
                "slowest_first": max((r.slowest_first for r in mine), default=0.0),
                "slowest_second": max((r.slowest_second for r in mine), default=0.0),
                "mean_plies": sum(r.plies for r in mine) / n if n else 0.0,
            }
        )
    return rows


def map_rows(pairs: list[tuple[str, str]], results: Iterable[Result]) -> list[dict[str, Any]]:
    """One row per pairing and map: the first bot's points there, in all and per side."""
    results = list(results)
    rows = []
    for first, second in pairs:
        mine = of_pairing(results, first, second)
        for map_name in dict.fromkeys(r.map_name for r in sorted(mine, key=lambda r: r.index)):
            here = [r for r in mine if r.map_name == map_name]
            row: dict[str, Any] = {
                "pairing": f"{first}:{second}",
                "map": map_name,
                "games": len(here),
                "points": Tally.of(r.score for r in here).points,
            }
            for side in ("vampires", "werewolves"):
                played = Tally.of(r.score for r in here if r.first_species == side)
                row[f"{side}_games"] = played.games
                row[f"{side}_points"] = played.points
            rows.append(row)
    return rows


def format_maps(rows: list[dict[str, Any]]) -> str:
    """The per-map rows as a table: points out of games, in all and as each side."""
    lines = [
        f"{'per map':<26} {'map':<14} {'points':>12} {'as vampires':>12} {'as werewolves':>14}"
    ]
    for row in rows:
        lines.append(
            f"{row['pairing']:<26} {row['map']:<14} "
            f"{row['points']:>6g}/{row['games']:<5} "
            f"{row['vampires_points']:>6g}/{row['vampires_games']:<5} "
            f"{row['werewolves_points']:>8g}/{row['werewolves_games']:<5}"
        )
    return "\n".join(lines)


def format_table(rows: list[dict[str, Any]], command: str) -> str:
    lines = [
        f"{'pairing':<26} {'games':>5} {'W-D-L':>11} {'score':>7} {'95% interval':>15} "
        f"{'Elo ± 95%':>15} {'LOS':>6} {'forfeits':>8} {'slowest s':>11} {'plies':>6}"
    ]
    for row in rows:
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        interval = f"{row['low']:.0%}–{row['high']:.0%}"
        slowest = f"{row['slowest_first']:.2f}/{row['slowest_second']:.2f}"
        elo = format_elo(row["elo"], row["elo_error"])
        lines.append(
            f"{row['pairing']:<26} {row['games']:>5} {wdl:>11} {row['score']:>7.1%} "
            f"{interval:>15} {elo:>15} {row['los']:>6.1%} {row['forfeits']:>8} "
            f"{slowest:>11} {row['mean_plies']:>6.1f}"
        )
    lines.append(f"command: {command}")
    return "\n".join(lines)


def available(pairs: list[tuple[str, str]], depth: int | None = None) -> list[tuple[str, str]]:
    """The pairings whose two bots exist; a message for each one skipped. ``ValueError``
    for an unknown bot, or a first bot that takes no ``depth``."""
    kept = []
    for first, second in pairs:
        try:
            make_agent(first, **depth_option(depth))
            make_agent(second)
        except ModuleNotFoundError as error:
            print(f"skipping {first}:{second}: bot not available ({error.name})", flush=True)
            continue
        kept.append((first, second))
    return kept


def map_names(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """The comma-separated map names of ``text``, ``big`` replaced by the big open maps; a
    usage error for one that names no map."""
    maps: list[str] = []
    for name in (name.strip() for name in text.split(",")):
        if name == BIG_OPEN:
            maps += big_open_maps(BIG_PER_SIZE)
        elif name:
            maps.append(name)
    for name in maps:
        if name != "gen":
            try:
                game_map(name, 0)
            except (OSError, ValueError) as error:
                parser.error(f"map {name}: {error}")
    return maps


def bot_pairs(
    parser: argparse.ArgumentParser, pairs: list[tuple[str, str]], depth: int | None = None
) -> list[tuple[str, str]]:
    """:func:`available` pairings; a usage error for a bot name that does not exist, or a
    ``depth`` its first bot does not take."""
    try:
        return available(pairs, depth)
    except ValueError as error:
        parser.error(str(error))


def one_pairing(parser: argparse.ArgumentParser, text: str) -> tuple[str, str]:
    """The one ``FIRST:SECOND`` pairing of ``text`` (``--pair``); a usage error for a
    malformed one, more than one, or one whose bot is not available."""
    try:
        pairs = parse_pairs(text)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    if len(pairs) != 1:
        parser.error("--pair takes one pairing")
    kept = bot_pairs(parser, pairs)
    if not kept:
        parser.error(f"--pair {text}: bot not available")
    return kept[0]


def run_tasks(
    work: Callable[[Job], Done], todo: list[Job], jobs: int, describe: Callable[[Done], str]
) -> list[Done]:
    """``work`` on every task, ``jobs`` at a time in worker processes of the pool, with a
    progress line per finished task (``describe``). Ctrl-C stops early: the tasks finished
    are kept."""
    done: list[Done] = []
    began = time.monotonic()
    try:
        with WorkerPool(jobs) as pool:
            for result in pool.each(work, todo):
                done.append(result)
                elapsed = time.monotonic() - began
                print(f"[{len(done)}/{len(todo)} {elapsed:6.0f}s] {describe(result)}", flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {len(done)} of {len(todo)} games", flush=True)
    return done


class Progress(Output):
    """Each finished game scored from its first bot's view and kept, with a line."""

    def __init__(self, todo: dict[str, Task]) -> None:
        self.todo = todo
        self.began = time.monotonic()
        self.results: list[Result] = []

    def game_finished(self, done: Finished) -> None:
        result = scored(self.todo[done.game.key], done.played.result)
        self.results.append(result)
        elapsed = time.monotonic() - self.began
        line = f"[{len(self.results)}/{len(self.todo)} {elapsed:6.0f}s] {_describe(result)}"
        print(line, flush=True)


def play_all(todo: list[Task], jobs: int, results: ResultsWriter | None = None) -> list[Result]:
    """Every task's game on the runner, ``jobs`` at once in worker processes, a line per
    finished game (and each written to ``results``). Ctrl-C stops early: the games
    finished are kept."""
    games = [scheduled(task, number) for number, task in enumerate(todo, 1)]
    progress = Progress({game.key: task for game, task in zip(games, todo, strict=True)})
    outputs: list[Output] = [progress, *([ResultsFile(results)] if results else [])]
    limits = Limits(move_time=todo[0].move_time) if todo else Limits()
    with WorkerPool(jobs) as pool:
        play = partial(run_games, Planned(games), InProcess(pool, limits), outputs)
        if signals.run(partial(play, concurrency=jobs)) is not None:
            print(f"\ninterrupted after {len(progress.results)} of {len(todo)} games", flush=True)
    return progress.results


def _describe(result: Result) -> str:
    return (
        f"{result.first}:{result.second} #{result.index} on {result.map_name}, "
        f"first plays {result.first_species}: score {result.score} "
        f"({result.termination.value}, {result.plies} plies)"
        + (f" {result.reason}" if result.reason else "")
    )


def games_file(
    path: Path, args: argparse.Namespace, todo: list[Task], command: str
) -> ResultsWriter:
    """A new results file at ``path`` (an old one replaced), its header written: each game
    is added as it ends."""
    games = [scheduled(task) for task in todo]
    players = (player for game in games for player in (game.vampires, game.werewolves))
    header = Header(
        participants=list(dict.fromkeys((player.name, player.spec) for player in players)),
        format="pairs",
        maps=list(dict.fromkeys(task.map_name for task in todo)),
        rounds=1,
        seed=args.seed,
        games=len(todo),
        settings={"move_time": args.move_time, "arena": "in-process"},
        command=command,
    )
    path.unlink(missing_ok=True)
    return ResultsWriter(path, header)


def pairings(given: list[tuple[str, str]] | None, styles: str | None) -> list[tuple[str, str]]:
    """The pairings of ``--pairs`` (by default :data:`DEFAULT_PAIRS`, none with
    ``--styles``), then ``styles`` against each of :data:`STYLE_OPPONENTS`."""
    pairs = list(given or ([] if styles else parse_pairs(DEFAULT_PAIRS)))
    return pairs + [(styles, opponent) for opponent in STYLE_OPPONENTS if styles]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        first, sep, second = item.strip().partition(":")
        if not sep or not first or not second:
            raise argparse.ArgumentTypeError(f"a pairing is FIRST:SECOND, got {item!r}")
        pairs.append((first, second))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.strength", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--pairs",
        type=parse_pairs,
        help=f"comma-separated FIRST:SECOND bot names, scored for FIRST (default {DEFAULT_PAIRS},"
        " none with --styles)",
    )
    parser.add_argument(
        "--styles",
        metavar="BOT",
        help=f"also play BOT against each opponent of another style: {', '.join(STYLE_OPPONENTS)}",
    )
    parser.add_argument(
        "--depth",
        type=int,
        help="the first bot of each pairing searches to this fixed depth (the move time is"
        " then a limit only)",
    )
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--move-time", type=float, default=0.2, help="seconds per move")
    parser.add_argument(
        "--maps",
        default=DEFAULT_MAPS,
        help="comma-separated names in maps/ or gen:SEED:WxH:HOMES; gen = a generated map where"
        f" conversions never stall; big = the big open maps ({BIG_PER_SIZE} of each size)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument(
        "--seed", type=int, default=1, help="the same seed gives the same maps and dice"
    )
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument(
        "--results", type=Path, help="also write the games as a vvw tournament results file"
    )
    args = parser.parse_args(argv)
    arguments = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "benchmarks.strength", *arguments])
    maps = map_names(parser, args.maps)
    if args.depth is not None and args.depth < 1:
        parser.error(f"--depth must be 1 or more, got {args.depth}")
    pairs = bot_pairs(parser, pairings(args.pairs, args.styles), args.depth)
    todo = tasks(pairs, args.games, maps, args.move_time, args.seed, args.depth)
    writer = None if args.results is None else games_file(args.results, args, todo, command)
    try:
        results = play_all(todo, args.jobs, writer)
    finally:
        if writer is not None:
            writer.close()
    rows = table_rows(pairs, results)
    per_map = map_rows(pairs, results)
    print(format_maps(per_map))
    print(format_table(rows, command))
    if args.json:
        payload = {
            "command": command,
            "settings": {
                "games": args.games,
                "move_time": args.move_time,
                "maps": maps,
                "seed": args.seed,
                "jobs": args.jobs,
                "depth": args.depth,
            },
            "table": rows,
            "maps": per_map,
            "games": [jsonable(r) for r in results],
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
        print(f"results written to {args.json}")
    if args.results:
        print(f"games written to {args.results} (vvw tournament report {args.results})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
