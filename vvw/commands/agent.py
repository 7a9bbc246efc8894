"""``vvw agent NAME [HOST] [PORT]``: run a built-in bot against any course-compatible server.

``NAME [HOST] [PORT] [--name X] [--time-budget S] [--games N] [--seed N]``: the argv contract
``vvw match`` uses for built-in names (see :func:`vvw.bots.bot_command`). Options of the
bot's ``make()`` are given as ``-o KEY=VALUE`` or as plain ``--key value``
(``alphabeta --depth 4`` → ``depth=4``).
"""

import argparse
import logging
from pathlib import Path

from agents.client import Summary, play
from agents.registry import make_agent
from protocol.codec import ProtocolError
from protocol.session import SessionError
from vvw import signals
from vvw.bots import add_agent_arguments, bot_options
from vvw.errors import CommandError, Stopped, UsageError
from vvw.watching import recording

log = logging.getLogger(__name__)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Make the bot and play until the server is done with it (or a signal)."""
    try:
        options = bot_options(args, extra)
        agent = make_agent(args.bot, **options)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except ModuleNotFoundError as error:
        raise UsageError(f"bot {args.bot!r} is not available ({error})") from None
    except TypeError as error:
        raise UsageError(f"bot {args.bot!r} does not take these options: {error}") from None
    where = f"{args.host}:{args.port}"
    summary: Summary | None = None

    async def playing() -> None:
        nonlocal summary
        try:
            summary = await play(
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
            raise CommandError(error.strerror or str(error)) from None
        except ProtocolError as error:
            raise CommandError(f"the server on {where} sent bad data: {error}") from None
        except SessionError as error:
            raise CommandError(f"the server on {where} contradicted the game: {error}") from None

    if args.quiet_stop:
        signals.end_at_once()
    signum = signals.run(playing)
    if signum is not None:
        raise Stopped(signum)
    log.info("%s on %s: %s", agent.name, where, summary)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "agent",
        help="run a built-in bot as a client of a server",
        description="Connect a built-in bot to a server (ours or the course's) and play.",
    )
    add_agent_arguments(parser)
    parser.set_defaults(func=run, takes_extra=True)
