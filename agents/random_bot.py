"""``random``: a random legal ply (groups move at random, some split), from engine.movegen."""

import random

from agents.options import Option, checked_options
from engine import GameState, Kind, Ply
from engine.movegen import random_ply


class RandomAgent:
    """Plays :func:`engine.movegen.random_ply`; seeded for reproducible games."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        return random_ply(state, self.rng)


OPTIONS = {"seed": Option(int, "seed of the random plies")}


def make(**options: object) -> RandomAgent:
    """A new ``random`` bot; ``options``: those of :data:`OPTIONS` (others are refused)."""
    return RandomAgent(**checked_options("random", options, OPTIONS))
