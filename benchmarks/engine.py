"""Engine throughput: random legal games, and exact battle distributions.

    python -m benchmarks.engine [--seconds S] [--seed N] [--maps FILE…]
    python -m benchmarks.engine --against REF [--repeats N] [--seconds S] [--maps FILE…]

Prints, per map: random plies per second (generate a random ply with splits, check it,
apply it with sampled battles, test for the end: the whole loop), engine plies per second
(check + apply + end only, on pre-generated plies), and calls per second of the exact
battle distribution, cached (as search sees it) and uncached, and of whole-ply
distributions. Run it the same way every time; the figures are for this machine.

With --against REF (a commit, a branch, a tag: --against main, --against b65a12a) it
measures random plies/s only, this working tree's engine against REF's, side by side: REF
is checked out in a temporary git worktree (removed afterwards, also on Ctrl-C), and each
of --repeats rounds runs one measure per map and side, each in a fresh process, the two
sides back to back and the one that goes first alternating, so that a shared machine's
load falls on both alike. It prints each round with the load average, then per map the
median of each side, their ratio (this tree / REF: above 1, this tree is faster) with its
range over the rounds, and the ratio by CPU time (plies per CPU second of each process,
less sensitive to the load). Ctrl-C prints the table of the rounds done.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from benchmarks import playouts
from benchmarks.versions import ROOT, checkout
from engine import GameState, apply_ply, battle_outcomes, end_of_game, ply_outcomes
from engine.battle import BattleOutcome, outcome_table
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, Kind
from engine.mapfile import load_map
from engine.movegen import random_ply
from engine.rules import Variant
from engine.state import Ply

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
DEFAULT_MAPS = ("thetrap.xml", "testmap2.xml")


def recorded_plies(start: GameState, count: int, rng: random.Random) -> list[tuple[GameState, Ply]]:
    """``count`` (state, ply) pairs from random games, to replay through the engine alone."""
    pairs: list[tuple[GameState, Ply]] = []
    state = start
    while len(pairs) < count:
        ply = random_ply(state, rng)
        pairs.append((state, ply))
        state = apply_ply(state, ply, rng).state
        if end_of_game(state) is not None:
            state = start
    return pairs


def engine_only(pairs: list[tuple[GameState, Ply]], rng: random.Random) -> float:
    """Check + apply + end test of every recorded ply: plies per second."""
    began = time.perf_counter()
    for state, ply in pairs:
        end_of_game(apply_ply(state, ply, rng).state)
    return len(pairs) / (time.perf_counter() - began)


BATTLES = [
    (attacker, a, defender, d)
    for attacker, defender in ((VAMPIRES, HUMANS), (VAMPIRES, WEREWOLVES), (WEREWOLVES, VAMPIRES))
    for a in range(1, 31)
    for d in range(1, 31)
]


def calls_per_second(call: Callable[[], object], seconds: float) -> float:
    """How many times ``call()`` runs in about ``seconds``."""
    calls = 0
    began = time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(100):
            call()
        calls += 100
    return calls / elapsed


def battle_rates(seconds: float) -> tuple[float, float]:
    """Exact battle distributions per second over 1..30 against 1..30: cached, uncached."""
    uncached: Callable[..., tuple[BattleOutcome, ...]] = outcome_table.__wrapped__
    cases: Iterator[tuple[Kind, int, Kind, int]] = iter(())

    def next_case() -> tuple[Kind, int, Kind, int]:
        nonlocal cases
        case = next(cases, None)
        if case is None:
            cases = iter(BATTLES)
            case = next(cases)
        return case

    def cached() -> None:
        attacker, a, defender, d = next_case()
        battle_outcomes(attacker, a, defender, d, Variant.SERVER)

    def fresh() -> None:
        attacker, a, defender, d = next_case()
        uncached(attacker, a, defender, d, Variant.SERVER, False)

    return calls_per_second(cached, seconds), calls_per_second(fresh, seconds)


def ply_distribution_rate(pairs: list[tuple[GameState, Ply]], seconds: float) -> float:
    """Whole-ply exact distributions per second, on recorded plies that start a battle."""
    with_battles = [pair for pair in pairs if len(ply_outcomes(*pair)) > 1][:500]
    if not with_battles:
        return float("nan")
    cycle: Iterator[tuple[GameState, Ply]] = iter(())

    def one() -> None:
        nonlocal cycle
        pair = next(cycle, None)
        if pair is None:
            cycle = iter(with_battles)
            pair = next(cycle)
        ply_outcomes(*pair, check=False)

    return calls_per_second(one, seconds)


PLAYOUTS = Path(playouts.__file__)


class ComparisonError(Exception):
    """The comparison cannot go on: git failed, or the playouts over a checkout failed or
    ran over another engine than the checkout's."""


def git(*args: str) -> str:
    """What ``git ARGS`` prints in this tree."""
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ComparisonError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


def this_tree() -> str:
    """This tree's commit, ``+ changes`` when tracked files differ from it."""
    changed = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + (" + changes" if changed else "")


@attrs.frozen
class Playouts:
    """One measure of random playouts: plies and games played in ``wall`` (``cpu``) seconds."""

    plies: int
    games: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        """Random plies per second."""
        return self.plies / self.wall

    @property
    def cpu_rate(self) -> float:
        """Random plies per CPU second of the process (what the load steals is left out)."""
        return self.plies / self.cpu


def measure_playouts(tree: Path, path: Path, seconds: float, seed: int) -> Playouts:
    """Random playouts of the map ``path`` for ``seconds``, in a fresh process over the
    engine of the checkout ``tree`` (:mod:`benchmarks.playouts`, run as a script)."""
    done = subprocess.run(
        [sys.executable, "-P", str(PLAYOUTS), str(path), repr(seconds), str(seed)],
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ComparisonError(f"random playouts over the engine in {tree} failed: {last}")
    figures = json.loads(done.stdout)
    if not Path(figures["engine"]).resolve().is_relative_to(tree.resolve()):
        raise ComparisonError(f"the playouts over {tree} imported {figures['engine']}")
    return Playouts(figures["plies"], figures["games"], figures["wall"], figures["cpu"])


@attrs.frozen
class Side:
    """What one side of a comparison runs: the engine of the checkout at ``tree``."""

    label: str
    tree: Path


Round = dict[tuple[str, str], Playouts]
"""One round of a comparison: a measure per (map name, side label)."""


def compare(ref: str, maps: list[Path], seconds: float, seed: int, repeats: int) -> bool:
    """Random plies/s of this tree against ``ref``, interleaved, ``repeats`` rounds, a line
    per round, then the table. On Ctrl-C the table of the rounds done, and True."""
    here = this_tree()
    rounds: list[Round] = []
    loads: list[float] = []
    interrupted = False
    with checkout(ref) as tree:
        commit = git("rev-parse", "--short", f"{ref}^{{commit}}")
        subject = git("log", "-1", "--format=%s", commit)
        theirs = commit if commit.startswith(ref) else f"{ref} ({commit})"
        sides = [Side("this tree", ROOT), Side(theirs, tree)]
        print(f"random plies/s, this tree ({here}) against {theirs}: {subject}")
        print(
            f"{repeats} rounds of {seconds:g} s per map and side, each in a fresh process,"
            f" interleaved (who goes first alternates); seed {seed}; {os.cpu_count()} cores",
            flush=True,
        )
        try:
            for number in range(repeats):
                loads.append(os.getloadavg()[0])
                order = sides if number % 2 == 0 else sides[::-1]
                done = {
                    (path.name, side.label): measure_playouts(side.tree, path, seconds, seed)
                    for path in maps
                    for side in order
                }
                rounds.append(done)
                shown = "   ".join(
                    f"{path.name} {done[path.name, sides[0].label].rate:8,.0f}"
                    f" vs {done[path.name, sides[1].label].rate:8,.0f}"
                    for path in maps
                )
                print(f"round {number + 1}/{repeats}  load {loads[-1]:4.1f}   {shown}", flush=True)
        except KeyboardInterrupt:
            interrupted = True
            print(f"interrupted after {len(rounds)} of {repeats} rounds")
    if rounds:
        print_comparison(sides, maps, rounds, loads)
    return interrupted


def print_comparison(
    sides: list[Side], maps: list[Path], rounds: list[Round], loads: list[float]
) -> None:
    """Per map, each side's median, their ratio with its range, the ratio by CPU time."""
    mine, theirs = (side.label for side in sides)
    width = max(len(path.name) for path in maps) + 2
    column = max(len(theirs), len(mine)) + 2
    print(
        f"\n{'map':{width}}{mine:>{column}}{theirs:>{column}}"
        "   ratio  (range over rounds)   ratio by CPU time"
    )
    for path in maps:
        pairs = [(done[path.name, mine], done[path.name, theirs]) for done in rounds]
        ratios = [a.rate / b.rate for a, b in pairs]
        cpu_ratios = [a.cpu_rate / b.cpu_rate for a, b in pairs]
        print(
            f"{path.name:{width}}{statistics.median(a.rate for a, _ in pairs):>{column},.0f}"
            f"{statistics.median(b.rate for _, b in pairs):>{column},.0f}"
            f"   {statistics.median(ratios):5.2f}  ({min(ratios):.2f} to {max(ratios):.2f})"
            f"   {statistics.median(cpu_ratios):17.2f}"
        )
    rounds_done = f"{len(rounds)} round{'s' if len(rounds) > 1 else ''}"
    print(
        f"medians of {rounds_done}; ratio = this tree / the other, above 1 this tree is"
        f" faster; load average (1 min) {min(loads):.1f} to {max(loads):.1f}"
        f" on {os.cpu_count()} cores"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measure (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument(
        "--maps", nargs="*", type=Path, help="map files (default: thetrap, testmap2)"
    )
    parser.add_argument(
        "--against",
        metavar="REF",
        help="compare random plies/s with this commit, branch or tag, side by side",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        metavar="N",
        help="rounds of the comparison with --against (default 5)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be above 0 and --repeats at least 1")
    maps = args.maps or [MAPS_DIR / name for name in DEFAULT_MAPS]
    for path in maps:
        if not path.is_file():
            parser.error(f"no map file {path}")
    if args.against is not None:
        try:
            interrupted = compare(args.against, maps, args.seconds, args.seed, args.repeats)
        except (ValueError, ComparisonError) as error:
            parser.exit(1, f"python -m benchmarks.engine: {error}\n")
        if interrupted:
            parser.exit(130)
        return
    print(f"engine benchmark, {args.seconds:g} s per measure, seed {args.seed}")
    for path in maps:
        start = load_map(path).initial_state()
        rng = random.Random(args.seed)
        plies, games, elapsed, _ = playouts.random_games(start, args.seconds, rng)
        pairs = recorded_plies(start, 20_000, random.Random(args.seed))
        engine_rate = max(engine_only(pairs, rng) for _ in range(3))
        ply_rate = ply_distribution_rate(pairs, args.seconds / 3)
        print(
            f"{path.name:16} random plies/s {plies / elapsed:9,.0f}  ({games} games,"
            f" {plies / games:.0f} plies each)   engine plies/s {engine_rate:9,.0f}"
            f"   ply distributions/s {ply_rate:8,.0f}"
        )
    cached, fresh = battle_rates(args.seconds / 2)
    print(f"battle distributions/s (1-30 vs 1-30): cached {cached:,.0f}, uncached {fresh:,.0f}")


if __name__ == "__main__":
    main()
