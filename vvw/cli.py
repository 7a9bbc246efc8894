"""The ``vvw`` command line: one subcommand per module in ``vvw/commands/``.

Each command module has ``register(subparsers)``, which adds its parser and sets ``func``
(called with the parsed arguments, returning an exit code). What a command cannot do it
raises as an error of :mod:`vvw.errors`; :func:`main` is the one place that turns it into
one line (``vvw COMMAND: why``) and an exit status: 2 for a command that cannot run as
typed, 1 for a run that failed, 130, 143 or 129 for SIGINT, SIGTERM or SIGHUP, the same
for every command. A closed pipe (``vvw … | head``) ends a command quietly.
"""

import importlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata

from vvw import signals
from vvw.command_parser import CommandParser
from vvw.errors import BROKEN_PIPE, ending

COMMAND_MODULES = (
    "map",
    "serve",
    "match",
    "agent",
    "log",
    "rules",
    "replay",
    "analyse",
    "proxy",
    "tournament",
    "check_bot",
    "play",
    "ladder",
)


def _version() -> str:
    """The installed vvw's version (``unknown`` if it is run without being installed)."""
    try:
        return metadata.version("vvw")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> CommandParser:
    parser = CommandParser(
        prog="vvw",
        description="Vampires vs Werewolves: rules engine, match server and bots.",
        epilog="Exit status: 0 done, 1 the run failed, 2 the command cannot run as typed,"
        " 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP.",
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)"
    )
    parser.add_argument("--version", action="version", version=f"vvw {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"vvw.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``vvw`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "takes_extra", False):
        parser.named(args.command_name).unrecognized(extra)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    if getattr(args, "takes_extra", False):
        return run_handled(args.command_name, lambda: args.func(args, extra))
    return run_handled(args.command_name, lambda: args.func(args))


def run_handled(name: str, command: Callable[[], int | None]) -> int:
    """Run ``command`` as vvw runs its commands: signals handled, and an expected error
    (bad input, a signal, a closed pipe…) a line ``name: …`` on stderr and its exit code
    rather than a traceback (which only a bug gets)."""
    with signals.handled():
        try:
            return int(command() or 0)
        except BaseException as error:
            ended = ending(error, signals.interrupted_by())
            if ended is None:
                raise  # a bug: its traceback is wanted
            line, code = ended
            if code == BROKEN_PIPE:  # nobody reads our output: no more of it, no complaint
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            if line is not None:
                print(f"{name}: {line}", file=sys.stderr, flush=True)
            return code


if __name__ == "__main__":
    sys.exit(main())
