"""The ``vvw`` command line: one subcommand per module in :mod:`vvw.commands`.

Each command module has ``register(subparsers)``, which adds its parser and sets
``func`` (called with the parsed arguments, returning an exit code). Errors the user
can fix (a bad map file, a port in use…) are printed as one line, never a traceback.
"""

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "map",
    "serve",
    "match",
    "agent",
    "log",
    "rules",
    "replay",
    "proxy",
    "tournament",
    "check_bot",
    "ladder",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vvw",
        description="Vampires vs Werewolves: rules engine, match server and bots.",
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"vvw.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``vvw`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "takes_extra", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        if getattr(args, "takes_extra", False):
            return int(args.func(args, extra) or 0)
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("vvw: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`vvw log show … | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
