"""``random``: a random legal ply (groups move at random, some split), from engine.movegen."""

import random
from typing import Any

import attrs

from agents.options import option, read_options
from engine import GameState, Kind, Ply
from engine.movegen import random_ply


@attrs.frozen
class RandomOptions:
    """The options of ``random``."""

    seed: int | None = option(int, None, "seed of the random plies")


class RandomAgent:
    """Plays :func:`engine.movegen.random_ply`; seeded for reproducible games."""

    name = "random"
    Options = RandomOptions

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        return random_ply(state, self.rng)


OPTIONS = RandomOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""


def make(**options: Any) -> RandomAgent:
    """A new ``random`` bot; ``options``: those of :class:`RandomOptions` (others are refused)."""
    return RandomAgent(read_options("random", RandomOptions, options).seed)
