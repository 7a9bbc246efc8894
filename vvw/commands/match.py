"""``vvw match``: two bots (built-in names or commands) play games in pairs on local ports.

Games go in pairs with sides swapped, on the same map and the same battle seed; maps are
played in turn, one pair each. ``--seed`` decides the battles and the built-in bots' own
seeds, so the same command plays the same games. Results are per bot, whatever side it
played; ``--json`` is rewritten after every game, so an interrupted match loses nothing.
Each game's transcript is kept (in ``runs/transcripts/``, bounded in size, unless
``--transcript DIR`` or ``--no-transcript``), named with its result; the end says how to
watch the last game again.
"""

import argparse
import os
from functools import partial
from pathlib import Path

from vvw import signals
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import (
    add_settings_arguments,
    add_view_arguments,
    settings_from,
    split_maps_and_bots,
    transcript_folder,
)
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.paths import PathError, make_folder
from vvw.ports import Listening, check_free
from vvw.records.scores import Scores
from vvw.running.botsfile import add_bots_argument, bots_named
from vvw.running.match import Match, Pair
from vvw.running.match_report import end_report
from vvw.running.participants import check_startable, parsed, understood
from vvw.running.schedule import match_schedule
from vvw.running.seeds import fresh_seed
from vvw.running.terminal import GameProgress
from vvw.runs import new_run_dir, remove_if_empty
from vvw.web.live import LiveHub
from vvw.wording import plural


def writable_file(path: Path, force: bool) -> str | None:
    """Why ``path`` cannot take the results (``None`` if it can), checked before playing."""
    if path.exists() and not force:
        return f"{path} exists (use --force to overwrite it)"
    if path.is_dir():
        return f"{path} is a folder"
    try:
        make_folder(path.parent)  # a folder named for the results is made
    except PathError as error:
        return str(error)
    if not os.access(path.parent, os.W_OK):
        return f"folder {path.parent} is not writable"
    return None


def players_from(words: list[str], bots: Path | None = None) -> Pair:
    """The two participants named by ``words`` (or the bots file ``bots``), each able to start."""
    players = parsed(*bots_named(words, bots))
    if len(players) != 2:
        raise UsageError(
            f"two bots play a match, got {len(players)}: {understood(players) or 'none'}"
        )
    check_startable(players)
    return players[0], players[1]


def _maps_and_players(
    args: argparse.Namespace,
) -> tuple[list[MapChoice], Pair]:
    """The maps and the two players, checked before any game (and the --json file)."""
    map_words, bot_words = split_maps_and_bots(args.map, args.bots)
    try:
        maps = resolve_maps(map_words)
    except ValueError as error:
        raise UsageError(str(error)) from None
    players = players_from(bot_words, args.bots_file)
    if args.json is not None:
        why = writable_file(args.json, args.force)
        if why is not None:
            raise UsageError(f"cannot write results: {why}")
    return maps, players


def run(args: argparse.Namespace) -> int:
    maps, players = _maps_and_players(args)
    view = Listening(args.view_host, args.view_port, "the live view (--view-port)")
    if args.view:
        check_free([view])
    seed = args.seed if args.seed is not None else fresh_seed()
    print(f"seed {seed}", flush=True)
    games = match_schedule(players, maps, args.games, seed)
    hub = LiveHub() if args.view else None
    run_dir = new_run_dir("match")
    match = Match(
        players, games, settings_from(args), run_dir, transcript_folder(args), args.json, hub
    )
    try:
        with GameProgress(args.ply_limit) as progress:
            signum = signals.run(partial(match.play, view, progress))
    finally:
        remove_if_empty(run_dir)
        remove_if_empty(run_dir.parent)
    print(end_report(players, match.played), flush=True)
    if signum is not None:
        finished = Scores.of(game.result for game in match.played).finished
        raise Stopped(signum, f"after {finished} of {plural(args.games, 'game')}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play two bots against each other",
        description="Two bots play --games games, each on a local port of its own, in pairs"
        " with sides swapped on the same map and battle seed. After each game: its result,"
        " each bot's think times, skipped turns and fallback plies (a random ply its client"
        " library sent for it: bots on vvw's client library), where its transcript is kept, the"
        " running score (W-D-L, score, Elo ± 95 %, games left). At the end: the wins per bot,"
        " a table of each bot's score and think times (mean, 95th percentile, longest), the"
        " abnormal games with their files, and the commands that show the last game again."
        " Ctrl-C ends the game being played as aborted: listed, not counted.",
        epilog='example: vvw match --map thetrap greedy "python mybot.py {host} {port}" --games 10;'
        " vvw match --bots bots.toml mine deep --map thetrap",
    )
    parser.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        help="two bots: a built-in name with options ('alphabeta --depth 4'), a command"
        " ('./mybot {host} {port}'), each optionally after name=NAME (or in one word:"
        " 'name=NAME BOT')",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="FILE",
        help="write all results here (rewritten after every game)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing --json file")
    add_bots_argument(parser)
    add_settings_arguments(parser, several_maps=True)
    add_view_arguments(parser, own_host=True)
    parser.set_defaults(func=run)
