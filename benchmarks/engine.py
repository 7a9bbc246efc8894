"""Engine throughput: random legal games, and exact battle distributions.

    python -m benchmarks.engine [--seconds S] [--seed N] [--maps FILE…]

Prints, per map: random plies per second (generate a random ply with splits, check it,
apply it with sampled battles, test for the end: the whole loop), engine plies per second
(check + apply + end only, on pre-generated plies), and calls per second of the exact
battle distribution, cached (as search sees it) and uncached, and of whole-ply
distributions. Run it the same way every time; the figures are for this machine.
"""

import argparse
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from engine import GameState, apply_ply, battle_outcomes, end_of_game, ply_outcomes
from engine.battle import BattleOutcome, outcome_table
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES, Kind
from engine.mapfile import load_map
from engine.movegen import random_ply
from engine.rules import Variant
from engine.state import Ply

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
DEFAULT_MAPS = ("thetrap.xml", "testmap2.xml")


def random_games(start: GameState, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Play random games from ``start`` for about ``seconds``: (plies, games, elapsed)."""
    plies = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = start
        games += 1
        while True:
            state = apply_ply(state, random_ply(state, rng), rng).state
            plies += 1
            if end_of_game(state) is not None:
                break
    return plies, games, time.perf_counter() - began


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measure (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument(
        "--maps", nargs="*", type=Path, help="map files (default: thetrap, testmap2)"
    )
    args = parser.parse_args()
    maps = args.maps or [MAPS_DIR / name for name in DEFAULT_MAPS]
    print(f"engine benchmark, {args.seconds:g} s per measure, seed {args.seed}")
    for path in maps:
        start = load_map(path).initial_state()
        rng = random.Random(args.seed)
        plies, games, elapsed = random_games(start, args.seconds, rng)
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
