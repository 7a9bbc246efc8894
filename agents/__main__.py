"""``python -m agents NAME [HOST] [PORT] [--name X] [--time-budget S]``: run a built-in bot."""

import argparse
import sys

from agents.client import play
from agents.registry import BOTS, make_agent
from server.protocol import ProtocolError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents", description=__doc__)
    parser.add_argument("bot", help=f"built-in bot: {', '.join(sorted(BOTS))}")
    parser.add_argument("host", nargs="?", default="127.0.0.1")
    parser.add_argument("port", nargs="?", type=int, default=5555)
    parser.add_argument("--name", default=None, help="name sent in NME (default: the bot's)")
    parser.add_argument("--time-budget", type=float, default=1.8, help="seconds per ply")
    parser.add_argument("--seed", type=int, default=None, help="seed of a random bot")
    args = parser.parse_args(argv)
    options = {"seed": args.seed} if args.seed is not None else {}
    try:
        agent = make_agent(args.bot, **options)
    except (ValueError, ModuleNotFoundError) as error:
        print(f"agents: {error}", file=sys.stderr)
        return 2
    try:
        play(agent, args.host, args.port, args.name, args.time_budget)
    except OSError as error:
        print(f"agents: cannot play on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    except ProtocolError as error:
        print(f"agents: the server sent bad bytes: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
