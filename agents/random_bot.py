"""``random``: a random legal ply (groups move at random, some split), from engine.movegen."""

import attrs

from agents.options import option
from agents.stateless import Stateless
from engine import GameState, Ply
from engine.movegen import random_ply


@attrs.frozen
class RandomOptions:
    """The options of ``random``."""

    seed: int | None = option(int, None, "seed of the random plies")


class RandomAgent(Stateless):
    """Plays :func:`engine.movegen.random_ply`; seeded for reproducible games."""

    name = "random"
    Options = RandomOptions

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        return random_ply(state, self.rng)


OPTIONS = RandomOptions
"""The bot's options, for the registry (:func:`agents.registry.options_of`)."""
make = RandomAgent.make
