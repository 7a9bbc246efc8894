"""The built-in bots by name, imported only when asked for."""

import importlib
from typing import Any

from agents.base import Agent

BOTS: dict[str, tuple[str, str]] = {
    "random": ("agents.random_bot", "random legal plies"),
    "greedy": ("agents.greedy", "one-step lookahead on a simple score"),
    "alphabeta": ("agents.alphabeta", "iterative-deepening alpha-beta, battles by expectation"),
    "expectiminimax": ("agents.expectiminimax", "alpha-beta with exact chance nodes"),
    "seed2019": ("agents.seed2019", "the 2019 report's bot: alpha-beta depth 4, no splits"),
    "zcsn": ("agents.zcsn", "report 001's bot: grow then attack, two groups at most, depth 7"),
    "seed2025": ("agents.seed2025", "the 2024-25 report's bot: alpha-beta depth 3, weighted score"),
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
