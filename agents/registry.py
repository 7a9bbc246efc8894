"""The built-in bots by name, imported only when asked for."""

import importlib
from typing import Any

from agents.base import Agent

BOTS: dict[str, tuple[str, str]] = {
    "random": ("agents.random_bot", "random legal plies"),
    "greedy": ("agents.greedy", "one-step lookahead on a simple score"),
    "alphabeta": ("agents.alphabeta", "iterative-deepening alpha-beta, battles by expectation"),
    "expectiminimax": ("agents.expectiminimax", "alpha-beta with exact chance nodes"),
}


def make_agent(name: str, **options: Any) -> Agent:
    """A new bot by its registered name; ``options`` go to its constructor."""
    try:
        module_name, _ = BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r}; built-in bots: {known}") from None
    module = importlib.import_module(module_name)
    return module.make(**options)
