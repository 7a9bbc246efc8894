"""A built-in bot's options: one attrs class per bot, from which everything else is made.

Each bot declares its options once, as the fields of a frozen attrs class made with
:func:`option` (the type, the default and a line of help). From that one class come:

* the bot's typed configuration (``agent.options``);
* :func:`read_options`: a mapping of names to values (a ``make(**options)`` call, a command
  line's ``--depth 4``) checked and converted: an unknown name (``widht=8``) or a value of
  the wrong type is refused with one clear line naming the valid options, never ignored;
* :func:`help_lines`: what ``vvw agent --help`` says of the bot's options.

An option whose type cannot be written on a command line (``rules``) is taken by
``make()`` only.
"""

from collections.abc import Collection, Mapping
from typing import Any, TypeVar

import attrs

COMMAND_LINE_KINDS = (int, float, str)
"""The types an option may have to be given on a command line."""

T = TypeVar("T")


def option(kind: type, default: Any, help: str) -> Any:
    """A field of a bot's options class: its ``kind`` (a number given as text, from a command
    line, is converted), its default, and what it does (one line, for ``--help``)."""
    return attrs.field(default=default, metadata={"kind": kind, "help": help})


def kinds(options: type) -> dict[str, type]:
    """``{name: kind}`` of an options class, in declaration order."""
    return {field.name: field.metadata["kind"] for field in attrs.fields(options)}


def describe(options: type) -> str:
    """``"depth (int), seed (int)"``: the options' names and types, for messages."""
    return ", ".join(f"{name} ({kind.__name__})" for name, kind in kinds(options).items())


def read_options(bot: str, options: type[T], given: Mapping[str, Any]) -> T:
    """An ``options`` instance from ``given``, each value of its option's type (``None``
    keeps the default); ``ValueError`` (one line, naming the valid options) for an unknown
    name or a value that is not of its type."""
    declared = kinds(options)
    unknown = sorted(set(given) - set(declared))
    if unknown:
        names = ", ".join(unknown)
        valid = describe(options) or "none"
        raise ValueError(f"bot {bot!r} has no option {names}; its options: {valid}")
    values = {
        name: _typed(bot, name, value, declared[name])
        for name, value in given.items()
        if value is not None
    }
    return options(**values)


def _typed(bot: str, name: str, value: Any, kind: type) -> Any:
    """``value`` as a ``kind``."""
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    if kind in (int, float) and isinstance(value, int | float | str):
        try:
            number = kind(value)
            if number == float(value):
                return number
        except ValueError:
            pass
    raise ValueError(f"option {name} of bot {bot!r} must be {kind.__name__}, got {value!r}")


def help_lines(options: type, skip: Collection[str] = ()) -> list[str]:
    """One line per option a command line can give (but those in ``skip``): ``--name TYPE
    what it does (default)``."""
    lines = []
    for field in attrs.fields(options):
        kind = field.metadata["kind"]
        if kind not in COMMAND_LINE_KINDS or field.name in skip:
            continue
        default = "" if field.default is None else f" (default {field.default})"
        flag = f"--{field.name.replace('_', '-')} {kind.__name__.upper()}"
        lines.append(f"{flag:<26} {field.metadata['help']}{default}")
    return lines
