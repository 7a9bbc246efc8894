"""``vvw agent NAME [HOST] [PORT]``: run a built-in bot against any course-compatible server.

``NAME [HOST] [PORT] [--name X] [--time-budget S] [--games N] [--seed N]``: the argv contract
``vvw match`` uses for built-in names (see :func:`vvw.bots.bot_command`). Options of the
bot's ``make()`` are given as ``-o KEY=VALUE`` or as plain ``--key value``
(``alphabeta --depth 4`` → ``depth=4``).
"""

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from agents.client import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIME_BUDGET, play_blocking
from agents.registry import BOTS, make_agent
from protocol.codec import ProtocolError
from protocol.session import SessionError
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.paths import folder_to_write
from vvw.watching import recording

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a bot command line."""
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
    parser.epilog = f"example: {parser.prog} greedy 127.0.0.1 5555 --time-budget 1.5"


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


def run(args: argparse.Namespace, extra: list[str] | None = None, prog: str = "vvw agent") -> int:
    """Make the bot and play; one error line and exit code 1 (2 for bad usage) on failure."""
    try:
        options, positional = read_extra([f"--{o}" for o in args.option] + (extra or []))
        fill_address(args, positional)
    except ValueError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    if args.seed is not None:
        options["seed"] = args.seed
    try:
        agent = make_agent(args.bot, **options)
    except ValueError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        print(f"{prog}: bot {args.bot!r} is not available ({error})", file=sys.stderr)
        return 2
    except TypeError as error:
        print(f"{prog}: bot {args.bot!r} does not take these options: {error}", file=sys.stderr)
        return 2
    where = f"{args.host}:{args.port}"
    try:
        summary = play_blocking(
            agent,
            args.host,
            args.port,
            name=args.name,
            time_budget=args.time_budget,
            games=args.games,
            seed=args.seed,
            wrap_stream=recording(Path(args.transcript), where) if args.transcript else None,
        )
    except OSError as error:
        print(f"{prog}: {error.strerror or error}", file=sys.stderr)
        return 1
    except ProtocolError as error:
        print(f"{prog}: the server on {where} sent bad data: {error}", file=sys.stderr)
        return 1
    except SessionError as error:
        print(f"{prog}: the server on {where} contradicted the game: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    log.info("%s on %s: %s", agent.name, where, summary)
    return 0


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    return run(args, extra, prog="vvw agent")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "agent",
        help="run a built-in bot as a client of a server",
        description="Connect a built-in bot to a server (ours or the course's) and play.",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run, takes_extra=True)
