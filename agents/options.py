"""The options a built-in bot's ``make()`` takes: each one's type and meaning, checked.

Every bot's module lists its options (a dict of :class:`Option` by name) and its ``make()``
passes what it was given through :func:`checked_options`: an unknown name (``widht=8``) or
a value of the wrong type is refused with one clear line naming the valid options, never
ignored.
"""

from collections.abc import Mapping
from typing import Any, NamedTuple


class Option(NamedTuple):
    """An option's type (a number given as text, from a command line, is converted) and
    what it does."""

    kind: type
    help: str


def describe(options: Mapping[str, Option]) -> str:
    """``"depth (int), seed (int)"``: the options' names and types, for messages."""
    return ", ".join(f"{name} ({option.kind.__name__})" for name, option in options.items())


def checked_options(
    bot: str, given: Mapping[str, Any], options: Mapping[str, Option]
) -> dict[str, Any]:
    """``given`` with each value of the type its option declares; ``ValueError`` (one line,
    naming the valid options) for an unknown name or a value that is not of its type."""
    unknown = sorted(set(given) - set(options))
    if unknown:
        names = ", ".join(unknown)
        valid = describe(options) or "none"
        raise ValueError(f"bot {bot!r} has no option {names}; its options: {valid}")
    return {name: _typed(bot, name, value, options[name].kind) for name, value in given.items()}


def _typed(bot: str, name: str, value: Any, kind: type) -> Any:
    """``value`` as a ``kind`` (``None`` stays: the bot's default)."""
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    if kind in (int, float) and isinstance(value, int | float | str):
        try:
            number = kind(value)
            if number == float(value):
                return number
        except ValueError:
            pass
    raise ValueError(f"option {name} of bot {bot!r} must be {kind.__name__}, got {value!r}")
