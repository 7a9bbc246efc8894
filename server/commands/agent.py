"""``vvw agent NAME [HOST] [PORT]``: run a built-in bot against any course-compatible server."""

import argparse

from agents.cli import add_arguments, run


def _run(args: argparse.Namespace) -> int:
    return run(args, prog="vvw agent")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "agent",
        help="run a built-in bot as a client of a server",
        description="Connect a built-in bot to a server (ours or the course's) and play.",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)
