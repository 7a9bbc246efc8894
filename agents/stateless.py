"""The shell of a bot that keeps nothing between turns (``random``, ``greedy``, ``racer``,
``striker``): a seeded generator, its one state, and each ply from the board alone.

:class:`Stateless` gives what such bots share, once: the generator seeded by the bot's one
option, ``seed``; a ``new_game`` with nothing to forget; and :meth:`Stateless.make`, the
registry's ``make``. A bot gives its name, its options class and ``choose_ply``::

    class RacerAgent(Stateless):
        name = "racer"
        Options = RacerOptions

        def choose_ply(self, state, deadline): ...

    OPTIONS = RacerOptions
    make = RacerAgent.make
"""

import random
from typing import Any, ClassVar, Self

from agents.options import read_options
from engine import GameState, Kind, Ply


class Stateless:
    """A bot that keeps nothing between turns but its generator, :attr:`rng`."""

    name: str
    Options: ClassVar[type]
    """The bot's options class (:mod:`agents.options`): ``seed`` is its one option."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget: the bot keeps no memory between turns."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        """The bot's ply for ``state.to_move`` (each bot gives its own)."""
        raise NotImplementedError

    @classmethod
    def make(cls, **options: Any) -> Self:
        """A new bot; ``options``: those of :attr:`Options` (others are refused)."""
        return cls(read_options(cls.name, cls.Options, options).seed)
