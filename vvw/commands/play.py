"""``vvw play BOT --map MAP``: a person plays a bot from a web page, over our server.

The page is the game's live view with a side to play (``vvw/web/play.html``): click a
group, a target cell, a count; as many moves as the ply takes; send. The person's side is
a protocol client like a bot's (:mod:`vvw.running.human`); the game is played by our server, and
kept and recorded as any other: its transcript, and a results file that ``vvw tournament
report`` reads.
"""

import argparse
import logging
from functools import partial
from pathlib import Path

from engine import Kind, OnTimeout, Rules
from engine.rules import Variant
from server.settings import Settings
from vvw import signals
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import add_battle_arguments, split_maps_and_bots
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.ports import Listening, check_free
from vvw.running.bots import time_budget
from vvw.running.participants import Participant, check_startable, parsed, understood
from vvw.running.person_game import PERSON, PersonGame, places, results_file
from vvw.running.schedule import play_schedule
from vvw.running.seeds import derive, fresh_seed


def _bot(words: list[str], person: str) -> Participant:
    """The one bot of ``words``, able to start, not named as the person is."""
    players = parsed(words)
    if len(players) != 1:
        raise UsageError(f"one bot plays you, got {len(players)}: {understood(players)}")
    check_startable(players)
    [bot] = players
    if bot.name == person:
        raise UsageError(f"you and the bot are both called {person!r}: give --name another")
    return bot


def _map(words: list[str]) -> MapChoice:
    try:
        choices = resolve_maps(words)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if len(choices) != 1:
        raise UsageError(f"one map only, got {len(choices)}: {' '.join(words)}")
    return choices[0]


def _settings(args: argparse.Namespace, seed: int) -> Settings:
    """The game's settings: the person's clock is the server's move clock."""
    return Settings(
        rules=Rules(variant=Variant(args.variant), max_plies=args.ply_limit),
        move_time=args.move_time,
        on_timeout=OnTimeout.SKIP,
        game_time=args.game_time,
        seed=derive(seed, "battle", 1),
    )


def run(args: argparse.Namespace) -> int:
    # A ply played for the person when the clock runs out is said on the page and at the
    # end, not as the bots' client's warning.
    logging.getLogger("agents.client").setLevel(logging.ERROR)
    map_words, bot_words = split_maps_and_bots(args.map, args.bot)  # --map thetrap greedy
    if not bot_words:
        raise UsageError("no bot to play against: vvw play BOT --map MAP")
    choice = _map(map_words)
    bot = _bot(bot_words, args.name)
    place = Listening(args.host, args.port, "the page (--port)")
    check_free([place])
    seed = args.seed if args.seed is not None else fresh_seed()
    side = Kind[args.side.upper()]
    person = Participant(args.name, PERSON)
    pair = (person, bot) if side == Kind.VAMPIRES else (bot, person)
    [game] = play_schedule(*pair, choice, seed)
    settings = _settings(args, seed)
    path, game_dir = places(args.results)
    writer = results_file(path, game, settings, seed)
    board = PersonGame.make(
        game,
        side,
        settings,
        game_dir,
        name=args.name,
        open_page=args.open,
        person_time=time_budget(args.move_time),
        bot_time=args.bot_time,
    )
    try:
        signum = signals.run(partial(board.play, place, writer))
    finally:
        writer.close()
    if signum is not None:
        raise Stopped(signum, board.stopped())
    print(board.end(writer.path), flush=True)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a bot yourself, in the browser",
        description="Play against a bot (built-in or your own command) on a web page: click"
        " one of your groups, then a cell next to it (the count box says how many go), as"
        " many moves as you like, then send. Each move is checked by the rules engine as you"
        " add it. The game is played by our server over the real protocol; its transcript"
        " and result are kept like any other game's.",
        epilog="example: vvw play greedy --map thetrap --as werewolves",
    )
    parser.add_argument(
        "bot",
        nargs="*",
        metavar="BOT",
        help="a built-in name with options ('alphabeta --depth 4') or a command"
        " ('./mybot {host} {port}'), optionally after name=NAME",
    )
    parser.add_argument(
        "--map", nargs="+", required=True, metavar="MAP", help="map file or bundled name"
    )
    parser.add_argument(
        "--as",
        dest="side",
        choices=["vampires", "werewolves"],
        default="vampires",
        help="your side (default vampires: you move first)",
    )
    parser.add_argument("--name", default="you", help="your name in the results (default you)")
    parser.add_argument(
        "--move-time",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds per ply, yours and the server's limit (default 60); late, a legal ply"
        " is played for you",
    )
    parser.add_argument(
        "--bot-time",
        type=positive_float,
        default=2.0,
        metavar="S",
        help="seconds a built-in bot thinks per ply (default 2, as on the course's server)",
    )
    parser.add_argument(
        "--ply-limit", type=positive_int, default=200, help="plies per game (default 200)"
    )
    parser.add_argument(
        "--game-time",
        type=positive_float,
        default=3600.0,
        metavar="S",
        help="seconds per game (default 3600)",
    )
    add_battle_arguments(parser)
    _add_place_arguments(parser)
    parser.set_defaults(func=run)


def _add_place_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the game is kept and where its page is served."""
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="FILE",
        help="results file (default runs/play-STAMP/results.jsonl); the game's transcript"
        " goes in a folder beside it (me.jsonl: me-game/)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address of the page (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=5580,
        help="port of the page (default 5580; 0: any free one)",
    )
    parser.add_argument(
        "--no-open",
        dest="open",
        action="store_false",
        help="do not open the page in the web browser",
    )
