"""Random playouts of one map, timed: the figure ``benchmarks.engine`` compares across commits.

    PYTHONPATH=CHECKOUT python -P benchmarks/playouts.py MAP SECONDS SEED

Imports only what the engine has offered since the engine benchmark was written
(``apply_ply``, ``end_of_game``, ``random_ply``, ``load_map``), so that
``python -m benchmarks.engine --against REF`` can run this same file, as a script, over
another checkout's engine (``-P`` keeps this folder, which holds a module named
``engine``, off the path). It prints one JSON line: plies, games, wall and CPU seconds, and
the engine it imported.
"""

import json
import random
import sys
import time

import engine
from engine import GameState, apply_ply, end_of_game
from engine.mapfile import load_map
from engine.movegen import random_ply


def random_games(
    start: GameState, seconds: float, rng: random.Random
) -> tuple[int, int, float, float]:
    """Play random games from ``start`` for about ``seconds``: generate a random ply with
    splits, check it, apply it with sampled battles, test for the end; again until the
    game ends, then a new game. Returns (plies, games, wall seconds, CPU seconds)."""
    plies = games = 0
    cpu = time.process_time()
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = start
        games += 1
        while True:
            state = apply_ply(state, random_ply(state, rng), rng).state
            plies += 1
            if end_of_game(state) is not None:
                break
    return plies, games, time.perf_counter() - began, time.process_time() - cpu


def main() -> None:
    path, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    start = load_map(path).initial_state()
    plies, games, wall, cpu = random_games(start, seconds, random.Random(seed))
    figures = {"plies": plies, "games": games, "wall": wall, "cpu": cpu}
    print(json.dumps({**figures, "engine": engine.__file__}))


if __name__ == "__main__":
    main()
