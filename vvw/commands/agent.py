"""``vvw agent NAME [HOST] [PORT]``: run a built-in bot against any course-compatible server.

``NAME [HOST] [PORT] [--name X] [--time-budget S] [--games N] [--seed N]``: the argv contract
``vvw match`` uses for built-in names (see :func:`vvw.running.bots.bot_command`). Options of the
bot's ``make()`` are given as ``-o KEY=VALUE`` or as plain ``--key value``
(``alphabeta --depth 4`` → ``depth=4``).

Each game ends with a line (``--quiet``: none), then the run with its summary. The
protocol's END does not say who won, nor does a board reach the bots after the last ply:
the line says what the bot knows (its side, its replies, the last board it was told).
"""

import argparse
import logging
from pathlib import Path

from agents.base import Agent
from agents.client import Summary, play
from agents.registry import make_agent
from engine import GameState, Kind
from protocol.codec import ProtocolError
from protocol.printable import printable
from protocol.session import SessionError
from vvw import signals
from vvw.errors import CommandError, Stopped, UsageError
from vvw.running.bots import add_agent_arguments, bot_options
from vvw.watching import recording
from vvw.wording import plural

log = logging.getLogger(__name__)


class GameLines:
    """The line of each game the bot played, printed as its END arrives."""

    def __init__(self, name: str) -> None:
        self.name = printable(name)
        self.replies = self.fallbacks = 0

    def __call__(self, last: GameState, summary: Summary) -> None:
        print(self.line(last, summary), flush=True)
        self.replies, self.fallbacks = summary.replies, summary.fallbacks

    def line(self, last: GameState, summary: Summary) -> str:
        """``game 2: greedy played the werewolves: 31 replies, 0 fallbacks; the last board
        it was told: vampires 3, werewolves 9`` (the counts of this game). The server sends
        no board after the last ply, and END does not say who won: the server's result does."""
        replies = plural(summary.replies - self.replies, "reply", "replies")
        fallbacks = plural(summary.fallbacks - self.fallbacks, "fallback")
        board = f"vampires {last.total(Kind.VAMPIRES)}, werewolves {last.total(Kind.WEREWOLVES)}"
        return (
            f"game {summary.games}: {self.name} played the {last.to_move.name.lower()}:"
            f" {replies}, {fallbacks}; the last board it was told: {board}"
        )


def ending(name: str, summary: Summary) -> str:
    """``greedy: 2 games, 62 replies, 0 fallbacks, slowest reply 0.412 s``."""
    replies = plural(summary.replies, "reply", "replies")
    return (
        f"{printable(name)}: {plural(summary.games, 'game')}, {replies},"
        f" {plural(summary.fallbacks, 'fallback')}, slowest reply {summary.slowest:.3f} s"
    )


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
    return play_agent(agent, args)


def play_agent(agent: Agent, args: argparse.Namespace) -> int:
    """Play ``agent`` as ``vvw agent``'s arguments ``args`` say (the server's address, the
    time budget, games, seed…) until the server is done with it (or a signal)."""
    where = f"{args.host}:{args.port}"
    name = args.name if args.name is not None else agent.name
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
                on_game_over=None if args.quiet else GameLines(name),
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
    if summary is not None and not args.quiet:
        print(ending(name, summary), flush=True)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "agent",
        help="run a built-in bot as a client of a server",
        description="Connect a built-in bot to a server (ours or the course's) and play. Each"
        " game ends with a line: the side played, the replies and fallbacks, the last board"
        " the bot was told (the protocol's END does not say who won); the run with a"
        " summary (--quiet: neither).",
    )
    add_agent_arguments(parser)
    parser.set_defaults(func=run, takes_extra=True)
