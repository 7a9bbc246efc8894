"""Tournament throughput and time forfeits: ``vvw tournament`` as users run it.

    python -m benchmarks.tournament [--games 40] [--busy-games 20] [--think 0.1]
        [--move-time 0.2] [--ply-limit 40]
    python -m benchmarks.tournament bot THINK HOST PORT    # the busy bot on its own

First two built-in ``random`` bots (they reply at once) play ``--games`` games on testmap
at ``--concurrency`` 1 and then 2: games per minute, harness included (starting the bots,
seating them, the game, ending them). Then two busy bots, each spending ``--think``
seconds of processor time per reply out of a ``--move-time`` of 0.2 s, play
``--busy-games`` at concurrency 2 with ``--on-timeout forfeit``: how many games were lost
on time, and the slowest reply. Each run is a real ``vvw tournament`` in a subprocess,
its figures read back from its results file.
"""

import argparse
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agents.client import play_blocking
from engine import GameState, Kind, Ply, Termination
from engine.movegen import random_ply
from vvw.records.results import read_results


class BusyAgent:
    """Spins the processor for ``think`` seconds, then plays a random legal ply."""

    name = "busy"

    def __init__(self, think: float) -> None:
        self.think = think
        self.rng = random.Random(1)

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        until = time.monotonic() + self.think
        while time.monotonic() < until:
            pass
        return random_ply(state, self.rng)


def run_busy_bot(think: float, host: str, port: int, move_time: float) -> int:
    play_blocking(BusyAgent(think), host, port, time_budget=move_time)
    return 0


def tournament(
    folder: Path, label: str, bots: list[str], games: int, concurrency: int, extra: list[str]
) -> dict[str, Any]:
    """Run one ``vvw tournament`` of ``games`` games (two bots, one map); its figures."""
    results = folder / f"{label}.jsonl"
    command = [
        sys.executable,
        "-m",
        "vvw",
        "tournament",
        *bots,
        "--maps",
        "testmap",
        "--rounds",
        str(max(1, games // 2)),
        "--concurrency",
        str(concurrency),
        "--seed",
        "1",
        "--results",
        str(results),
        *extra,
    ]
    began = time.monotonic()
    subprocess.run(command, cwd=folder, check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - began
    _, lines = read_results(results)
    thinks = [
        side.longest_think or 0.0 for line in lines for side in (line.vampires, line.werewolves)
    ]
    return {
        "run": label,
        "concurrency": concurrency,
        "games": len(lines),
        "seconds": seconds,
        "per_minute": 60 * len(lines) / seconds,
        "forfeits": sum(line.termination is Termination.TIME_FORFEIT for line in lines),
        "skipped": sum(
            line.vampires.skipped_turns + line.werewolves.skipped_turns for line in lines
        ),
        "slowest": max(thinks, default=0.0),
        "plies": sum(line.plies for line in lines) / max(1, len(lines)),
        "command": shlex.join(["vvw", *command[3:]]),
        "reasons": [f"{line.key}: {line.reason}" for line in lines if line.abnormal],
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bot"]:
        think, host, port, move_time = argv[1:5]
        return run_busy_bot(float(think), host, int(port), float(move_time))
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tournament", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=40, help="games with instant bots")
    parser.add_argument("--busy-games", type=int, default=20, help="games with busy bots")
    parser.add_argument("--think", type=float, default=0.1, help="busy bots' seconds per reply")
    parser.add_argument("--move-time", type=float, default=0.2, help="the server's per reply")
    parser.add_argument("--ply-limit", type=int, default=40, help="plies of a busy game")
    args = parser.parse_args(argv)
    busy = f"{sys.executable} -m benchmarks.tournament bot {args.think} {{host}} {{port}}"
    busy += f" {args.move_time}"
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        instant = ["name=a", "random", "name=b", "random"]
        for concurrency in (1, 2):
            rows.append(
                tournament(folder, f"instant-c{concurrency}", instant, args.games, concurrency, [])
            )
        rows.append(
            tournament(
                folder,
                "busy-c2",
                ["name=a", busy, "name=b", busy],
                args.busy_games,
                2,
                [
                    "--move-time",
                    str(args.move_time),
                    "--on-timeout",
                    "forfeit",
                    "--ply-limit",
                    str(args.ply_limit),
                ],
            )
        )
    print(
        f"{'run':<12} {'conc.':>5} {'games':>5} {'seconds':>8} {'games/min':>9} "
        f"{'plies/game':>10} {'forfeits':>8} {'skipped':>7} {'slowest s':>9}"
    )
    for row in rows:
        print(
            f"{row['run']:<12} {row['concurrency']:>5} {row['games']:>5} "
            f"{row['seconds']:>8.1f} {row['per_minute']:>9.1f} {row['plies']:>10.1f} "
            f"{row['forfeits']:>8} {row['skipped']:>7} {row['slowest']:>9.3f}"
        )
    for row in rows:
        print(f"{row['run']}: {row['command']}")
        for reason in row["reasons"]:
            print(f"  abnormal: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
