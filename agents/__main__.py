"""``python -m agents NAME [HOST] [PORT] [--name X] [--time-budget S]``: run a built-in bot."""

import argparse
import logging
import sys

from agents.cli import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents", description=__doc__)
    add_arguments(parser)
    args, extra = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return run(args, extra, "agents")


if __name__ == "__main__":
    sys.exit(main())
