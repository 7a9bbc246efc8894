"""Search bots' speed: nodes per second and depth reached in a fixed time per position.

    python -m benchmarks.agents [--seconds 1.8] [--bots alphabeta,expectiminimax]
                                [--maps thetrap.xml,testmap2.xml,gen-30x30.xml]

For each map, two positions: the opening, and a mid-game one reached by 20 plies of
``alphabeta --depth 2`` against itself with battles drawn by a fixed seed (the same position
every run). Each bot searches each position once with a fresh table, deadline ``--seconds``
away, and must expose ``last_stats`` with ``depth``, ``nodes`` and ``seconds`` (as
:class:`agents.alphabeta.SearchStats` does). A bot that is not installed is skipped.
"""

import argparse
import importlib
import random
import time
from pathlib import Path

from agents.registry import BOTS, make_agent
from engine import GameState, apply_ply, end_of_game
from engine.mapfile import load_map

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
DEFAULT_MAPS = "thetrap.xml,testmap2.xml,gen-30x30.xml"
MIDGAME_PLIES = 20


def midgame(start: GameState, plies: int = MIDGAME_PLIES, seed: int = 0) -> GameState:
    """The position after ``plies`` plies of shallow alphabeta self-play (or the last one)."""
    rng = random.Random(seed)
    player = make_agent("alphabeta", depth=2)
    state = start
    for _ in range(plies):
        ply = player.choose_ply(state, time.monotonic() + 60)
        after = apply_ply(state, ply, rng).state
        if end_of_game(after) is not None:
            break
        state = after
    return state


def available(names: list[str]) -> list[str]:
    """The bots of ``names`` whose module can be imported."""
    found = []
    for name in names:
        try:
            importlib.import_module(BOTS[name][0])
        except (KeyError, ImportError):
            print(f"{name}: not available, skipped")
            continue
        found.append(name)
    return found


def measure(bot: str, state: GameState, seconds: float) -> tuple[int, int, float]:
    """One search by a fresh ``bot``: (depth, nodes, seconds) from its ``last_stats``."""
    agent = make_agent(bot)
    agent.new_game(state.to_move, state)
    agent.choose_ply(state, time.monotonic() + seconds)
    stats = agent.last_stats  # type: ignore[attr-defined]
    return stats.depth, stats.nodes, stats.seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.agents", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.8, help="time per search")
    parser.add_argument("--bots", default="alphabeta,expectiminimax", help="comma-separated")
    parser.add_argument("--maps", default=DEFAULT_MAPS, help="comma-separated files in maps/")
    args = parser.parse_args(argv)
    bots = available(args.bots.split(","))
    print(f"{'bot':<15} {'position':<22} {'depth':>5} {'nodes':>8} {'nodes/s':>9} {'s':>6}")
    for map_name in args.maps.split(","):
        start = load_map(MAPS_DIR / map_name).initial_state()
        positions = {"opening": start, f"mid (ply {MIDGAME_PLIES})": midgame(start)}
        for label, state in positions.items():
            for bot in bots:
                depth, nodes, spent = measure(bot, state, args.seconds)
                rate = nodes / spent if spent > 0 else 0.0
                where = f"{Path(map_name).stem} {label}"
                print(f"{bot:<15} {where:<22} {depth:>5} {nodes:>8} {rate:>9.0f} {spent:>6.2f}")


if __name__ == "__main__":
    main()
