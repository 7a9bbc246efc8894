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
    "racer": ("agents.racer", "no search: every group races for the biggest house it takes first"),
    "striker": ("agents.striker", "no search: one army, strikes when the battle odds favour it"),
}


def options_of(name: str) -> type:
    """The options class of a built-in bot (:mod:`agents.options`); ``ValueError`` for an
    unknown name, ``ModuleNotFoundError`` if its module cannot be imported."""
    return _module(name).OPTIONS


def _module(name: str) -> Any:
    try:
        module_name, _ = BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r}; built-in bots: {known}") from None
    return importlib.import_module(module_name)


def make_agent(name: str, **options: Any) -> Agent:
    """A new bot by its registered name; ``options`` (those of its options class, checked)
    go to its ``make()``."""
    return _module(name).make(**options)
