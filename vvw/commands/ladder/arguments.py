"""What the ``vvw ladder`` commands' parsers share: options given as rows, the ladder's file."""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

Option = tuple[str, Callable[[str], Any], Any, str, str]
"""An option of a command: its flag, type, default, metavar and help."""


def add_options(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """Add ``options`` (rows of :data:`Option`) to ``parser``."""
    for flag, kind, default, metavar, what in options:
        parser.add_argument(flag, type=kind, default=default, metavar=metavar, help=what)


def add_file(parser: argparse.ArgumentParser) -> None:
    """The ladder's file, the first argument of most ``vvw ladder`` commands."""
    parser.add_argument("file", type=Path, metavar="FILE", help="the ladder (ladder.db)")
