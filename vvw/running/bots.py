"""Bot specs on the command line: a built-in bot's name (with options) or a command template.

A built-in bot runs as ``vvw agent NAME HOST PORT [options]``: :func:`bot_command` writes
that command line, :func:`add_agent_arguments` and :func:`bot_options` read it, and
:func:`check_builtin` refuses a spec whose options the bot would refuse, before any game.
"""

import argparse
import shlex
import sys
from typing import Any, NoReturn

from agents.client import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIME_BUDGET
from agents.options import help_lines, read_options
from agents.registry import BOTS, options_of
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.paths import folder_to_write

BUILTIN = frozenset(BOTS)
"""Bot names run as ``vvw agent NAME`` (the registry imports bots lazily)."""
DEFAULT_MOVE_TIME = 2.0
"""The course server's seconds per reply: a ``{time_budget}`` fits it when no move time is
known."""
MARGIN_SHARE = 0.1
"""The share of the server's time per move a built-in bot leaves unused (0.2 s of 2 s)…"""
MARGIN = 0.1
"""…and at least this many seconds, for a busy machine to schedule it and send the MOV."""


def time_budget(move_time: float) -> float:
    """Seconds a built-in bot thinks when the server allows ``move_time`` per move: 1.8 of
    2 s, 0.4 of 0.5 s, never less than half of it.

    A bot that thought longer than the server waits would have its turns skipped and its
    late replies judged against a board that has moved on (illegal plies).
    """
    margin = max(move_time * MARGIN_SHARE, MARGIN)
    return round(max(move_time - margin, move_time / 2), 3)


def bot_command(
    spec: str,
    host: str,
    port: int,
    builtin: frozenset[str] = BUILTIN,
    *,
    seed: int | None = None,
    name: str | None = None,
    move_time: float | None = None,
) -> list[str]:
    """The argv for a bot given as a built-in name or a command template.

    A built-in bot's name (``alphabeta``, optionally with options: ``"alphabeta --depth 4"``)
    runs ``python -P -m vvw agent NAME HOST PORT …``: ``-P`` keeps the current folder off
    ``sys.path``, so a user's own ``engine.py`` there cannot shadow ours. Anything else is a
    command line in which ``{host}`` and ``{port}`` are replaced; without them, host and port
    are appended, as students' bots take them (``./mybot`` → ``./mybot 127.0.0.1 5555``).

    A built-in bot is given ``--quiet`` (its runner says the results: no line per game
    in its log), ``--quiet-stop`` (its runner ends it: no line in its log either),
    ``--seed seed``, ``--name name`` and the ``--time-budget`` that fits ``move_time``
    (before its own options, which win); a command's ``{seed}`` is replaced by ``seed``
    and ``{time_budget}`` by the same budget (seconds to think per reply).
    """
    words = shlex.split(spec)
    if not words:
        raise ValueError("empty bot command")
    if words[0] in builtin:
        ours = [
            "--quiet",
            "--quiet-stop",
            *(["--seed", str(seed)] if seed is not None else []),
            *(["--name", name] if name is not None else []),
            *(["--time-budget", str(time_budget(move_time))] if move_time is not None else []),
        ]
        agent = [sys.executable, "-P", "-m", "vvw", "agent"]
        return [*agent, words[0], host, str(port), *ours, *words[1:]]
    budget = time_budget(move_time if move_time is not None else DEFAULT_MOVE_TIME)
    fields = {
        "{host}": host,
        "{port}": str(port),
        "{seed}": str(seed or 0),
        "{time_budget}": f"{budget:g}",
    }
    filled = [_fill(word, fields) for word in words]
    if "{host}" in spec or "{port}" in spec:
        return filled
    return [*filled, host, str(port)]


def _fill(word: str, fields: dict[str, str]) -> str:
    """``word`` with each of ``fields`` (``{host}``…) replaced by its value."""
    for field, value in fields.items():
        word = word.replace(field, value)
    return word


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``vvw agent``; the bot's own options are the words left over (see
    :func:`bot_options`)."""
    parser.add_argument("bot", metavar="NAME", help=f"built-in bot: {', '.join(BOTS)}")
    # No argparse defaults: host and port may also come after the options (see
    # fill_address), which fills them in.
    parser.add_argument("host", nargs="?", help=f"server (default {DEFAULT_HOST})")
    parser.add_argument("port", nargs="?", type=port_number, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--name", default=None, help="name sent in NME (default: the bot's)")
    parser.add_argument(
        "--time-budget",
        type=positive_float,
        default=DEFAULT_TIME_BUDGET,
        metavar="S",
        help="seconds per reply (default %(default)s; the course server allows 2)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=None,
        metavar="N",
        help="play N games, reconnecting between them (default: what one connection offers)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's randomness")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print no line per game nor the summary at the end (vvw match, tournament and"
        " check-bot start it so: they say the results)",
    )
    parser.add_argument(
        "--quiet-stop",
        action="store_true",
        help="end at once and without a word on a stop signal, as most programs do (vvw"
        " match, tournament and check-bot start it so: they end their bots after each game)",
    )
    parser.add_argument(
        "--transcript",
        type=folder_to_write,
        default=None,
        metavar="DIR",
        help="write each game's traffic as this bot saw it to DIR (the server's format)",
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the bot's make(), e.g. -o depth=4 (repeatable)",
    )
    parser.epilog = bots_options_help() + (
        f"\n\nexample: {parser.prog} expectiminimax 127.0.0.1 5555 --time-budget 1.5 --depth 6"
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def bots_options_help() -> str:
    """What ``vvw agent --help`` says of each built-in bot's own options (from its options
    class), given as ``--name value`` or ``-o name=value`` after the bot's name."""
    parts = [
        "options of each bot (--name VALUE or -o name=VALUE, after the bot's name; its"
        " time budget and seed are --time-budget and --seed above):"
    ]
    for name, (_, summary) in BOTS.items():
        try:
            lines = help_lines(options_of(name), skip={"time_budget", "seed"})
        except ModuleNotFoundError:
            lines = ["(not available)"]
        parts.append(f"  {name}: {summary}")
        parts.extend(f"    {line}" for line in lines)
    return "\n".join(parts)


def read_extra(words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The bot's options among ``words`` and the other words, in one pass:
    ``["--depth", "4", "HOST", "--mode=x"]`` → ``({"depth": 4, "mode": "x"}, ["HOST"])``;
    ``ValueError`` for an option without its value."""
    options: dict[str, Any] = {}
    positional: list[str] = []
    index = 0
    while index < len(words):
        key = words[index]
        if not key.startswith("--"):
            positional.append(key)
            index += 1
            continue
        if len(key) < 3:
            raise ValueError(f"unexpected argument {key!r}")
        name, equals, value = key[2:].partition("=")
        if not equals:
            if index + 1 >= len(words):
                raise ValueError(f"option {key} needs a value")
            value = words[index + 1]
            index += 1
        options[name.replace("-", "_")] = _number_or_text(value)
        index += 1
    return options, positional


def extra_options(words: list[str]) -> dict[str, Any]:
    """``["--depth", "4", "--mode=x"]`` → ``{"depth": 4, "mode": "x"}``; else ``ValueError``."""
    options, positional = read_extra(words)
    if positional:
        raise ValueError(f"unexpected argument {positional[0]!r}")
    return options


def fill_address(args: argparse.Namespace, positional: list[str]) -> None:
    """Put a host and port written after the options into ``args``.

    argparse fills ``NAME [host] [port]`` from the words before the first option only, so
    in ``vvw agent alphabeta --time-budget 1 HOST PORT`` (as students' bots are started)
    host and port arrive among the unknown words (``positional``, from :func:`read_extra`).
    They fill the place of those not given before the options, and the defaults what is
    left; ``ValueError`` for a bad port or a word too many.
    """
    slots = [slot for slot in ("host", "port") if getattr(args, slot) is None]
    if len(positional) > len(slots):
        raise ValueError(f"unexpected argument {positional[len(slots)]!r}")
    for slot, word in zip(slots, positional, strict=False):
        try:
            setattr(args, slot, port_number(word) if slot == "port" else word)
        except argparse.ArgumentTypeError as error:
            raise ValueError(str(error)) from None
    if args.host is None:
        args.host = DEFAULT_HOST
    if args.port is None:
        args.port = DEFAULT_PORT


def _number_or_text(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def bot_options(args: argparse.Namespace, extra: list[str]) -> dict[str, Any]:
    """The options of the bot's ``make()`` in ``vvw agent``'s arguments (``-o KEY=VALUE``,
    ``--key value`` among the words argparse left, ``--seed``); fills in host and port.
    ``ValueError`` with a one-line reason for words that do not fit."""
    options, positional = read_extra([f"--{option}" for option in args.option] + extra)
    fill_address(args, positional)
    if args.seed is not None:
        options["seed"] = args.seed
    return options


def check_options(bot: str, options: dict[str, Any]) -> None:
    """``ValueError`` (one line, naming the valid ones) if built-in ``bot`` would refuse
    ``options``: the check its ``make()`` makes, without making it."""
    try:
        declared = options_of(bot)
    except ModuleNotFoundError as error:
        raise ValueError(f"bot {bot!r} is not available ({error})") from None
    read_options(bot, declared, options)


class _Refusing(argparse.ArgumentParser):
    """A parser whose errors are ``ValueError`` instead of a usage message and an exit."""

    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def check_builtin(spec: str) -> None:
    """``ValueError`` (one line) if ``vvw agent`` would refuse the built-in bot ``spec``
    (``"alphabeta --dept 3"``) started as :func:`bot_command` starts it; checked before a
    match or a tournament plays its first game."""
    name, *words = shlex.split(spec)
    parser = _Refusing(prog=f"vvw agent {name}", add_help=False)
    add_agent_arguments(parser)
    args, extra = parser.parse_known_args([name, DEFAULT_HOST, str(DEFAULT_PORT), *words])
    check_options(name, bot_options(args, extra))
