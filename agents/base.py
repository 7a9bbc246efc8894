"""What a bot is: one object that, given the board and a deadline, returns a ply.

The client library (:mod:`agents.client`) does the protocol; the in-process arena
(:mod:`agents.arena`) calls the same objects directly. A bot sees only what a real bot
sees: a board it keeps from MAP/UPD, its species, and the clock.
"""

from typing import Protocol

from engine import GameState, Kind, Ply


class Agent(Protocol):
    """A bot. ``state.to_move`` is always the bot's own species when it is asked to move."""

    name: str
    """A short name, sent in NME."""

    def new_game(self, species: Kind, state: GameState) -> None:
        """A game starts: forget what belongs to the previous one (tables, history)."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        """A legal, non-empty ply for ``state.to_move``, returned before ``deadline``.

        ``deadline`` is a ``time.monotonic()`` value: the reply must be on its way by then,
        so a bot keeps a safety margin for sending. The client library calls this in a
        worker thread and sends a fallback ply if it is late (the late result is dropped).
        """
        ...
