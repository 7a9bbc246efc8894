"""A tournament on a local Ray cluster against the same tournament on one machine.

    python -m benchmarks.cluster [--rounds N] [--workers N] [--maps MAP…]

Runs ``vvw tournament random greedy random`` (instant built-in bots, round robin) once
with ``--concurrency W`` and once with ``--cluster local --workers W``, watching the
results file. Prints, for each: the time to the first game (start-up included: Ray's
own start for the cluster), games per minute once running (from the first game's line
to the last), and the cluster's overhead per game (the difference in seconds per game,
times W since W games run at once).
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POLL = 0.01


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b'"type": "game"')
    except OSError:
        return 0


def run_once(words: list[str], folder: Path) -> tuple[float, float, int]:
    """Seconds to the first game, seconds from the first game to the last, games."""
    results = folder / "results.jsonl"
    command = [sys.executable, "-m", "vvw", "tournament", *words, "--results", str(results)]
    began = time.monotonic()
    run = subprocess.Popen(
        command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    first: float | None = None
    last = began
    seen = 0
    while run.poll() is None:
        count = _lines(results)
        if count > seen:
            seen, last = count, time.monotonic()
            if first is None:
                first = last
        time.sleep(POLL)
    count = _lines(results)
    if count > seen:
        seen, last = count, time.monotonic()
        first = first or last
    if run.returncode != 0 or first is None:
        error = run.stderr.read() if run.stderr else ""
        sys.exit(f"benchmark run failed ({run.returncode}): {error}")
    return first - began, last - first, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--maps", nargs="+", default=["testmap", "thetrap"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    common = [
        "random",
        "greedy",
        "name=random2",
        "random",
        "--maps",
        *args.maps,
        "--rounds",
        str(args.rounds),
        "--seed",
        str(args.seed),
    ]
    ways = {
        f"--concurrency {args.workers}": ["--concurrency", str(args.workers)],
        f"--cluster local --workers {args.workers}": [
            "--cluster",
            "local",
            "--workers",
            str(args.workers),
        ],
    }
    per_game: dict[str, float] = {}
    print(f"{'run':<34} {'games':>5} {'first game s':>12} {'games/min':>10} {'s/game':>7}")
    for label, extra in ways.items():
        with tempfile.TemporaryDirectory(prefix="vvw-bench-") as folder:
            to_first, span, games = run_once([*common, *extra], Path(folder))
        rate = (games - 1) / span * 60 if span > 0 else float("inf")
        per_game[label] = span / (games - 1) if games > 1 else 0.0
        print(f"{label:<34} {games:>5} {to_first:>12.1f} {rate:>10.0f} {per_game[label]:>7.3f}")
    local, cluster = per_game.values()
    print(
        f"cluster overhead per game: {(cluster - local) * args.workers:+.3f} s"
        f" ({args.workers} games at once)"
    )


if __name__ == "__main__":
    main()
