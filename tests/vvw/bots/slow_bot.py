"""A student's bot on vvw's client library that thinks too long: ``python slow_bot.py HOST
PORT [SECONDS]``. Each move takes SECONDS (default 0.6) while the client allows 0.2 s, so
every ply it sends is the client's fallback. Logging is left as a student leaves it (not
configured): the count must not depend on it."""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from agents.client import play_blocking
from engine import GameState, Kind, Ply
from engine.movegen import random_ply


class Slow:
    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def new_game(self, species: Kind, state: GameState) -> None:
        pass

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        time.sleep(self.seconds)
        return random_ply(state, random.Random(0))


if __name__ == "__main__":
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 0.6
    print(play_blocking(Slow(seconds), sys.argv[1], int(sys.argv[2]), time_budget=0.2))
