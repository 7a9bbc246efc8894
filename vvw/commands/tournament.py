"""``vvw tournament``: many bots, many maps, games in pairs, Elo, SPRT, nothing lost.

What it plays is :data:`DESCRIPTION` (its ``--help``); the results file is
:mod:`vvw.records.results`. ``vvw tournament report FILE… [--csv | --json]`` prints every table
again from the file (from several files: their games counted together).
"""

import argparse
import json
import shlex
import sys
from functools import partial
from pathlib import Path

from vvw import signals
from vvw.argtypes import positive_int
from vvw.command_parser import CommandParser
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import (
    add_game_settings,
    add_map_arguments,
    add_view_arguments,
    settings_from,
    split_maps_and_bots,
)
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.ports import Listening, check_free
from vvw.records.results import combine_runs, read_results
from vvw.records.standings import Standings, format_text, standings, to_csv, to_json
from vvw.records.stats import Sprt, parse_sprt
from vvw.running.botsfile import add_bots_argument, bots_named
from vvw.running.cluster_run import (
    ClusterStartError,
    add_cluster_arguments,
    check_cluster_arguments,
    check_ray,
    check_shipped,
    cluster_run,
    on_cluster,
)
from vvw.running.participants import Participant, check_startable, parsed
from vvw.running.playing import Here
from vvw.running.pool import cores
from vvw.running.runner import Venue
from vvw.running.schedule import FORMATS
from vvw.running.seeds import fresh_seed
from vvw.running.tournament import (
    Plan,
    Tournament,
    add_results_arguments,
    begin,
    report_games,
    results_path,
)
from vvw.web.dashboard import write_report
from vvw.wording import plural

DESCRIPTION = (
    "Play every pairing (--format round-robin) or the first bot against each other one"
    " (gauntlet): each pairing plays a pair of games on each map, sides swapped on the same"
    " map and battle seed, --rounds times, up to --concurrency games at once, each on a port"
    " of its own. Every finished game is appended at once to the results file (JSON Lines);"
    " --resume plays only the games it lacks; --sprt stops once the test is decided."
    " The tables: per participant W-D-L, score, Elo ± 95 %, LOS, abnormal losses, late"
    " turns, fallback plies (a random ply the client library sent for a bot that was late,"
    " failed or illegal: bots on vvw's client library only) and think times (mean, 95th"
    " percentile, longest); per pair W-D-L, score,"
    " Elo ± 95 %, LOS and how its pairs of games ended. Participants may come from a bots"
    " file (--bots)."
)


def players_from(args: argparse.Namespace, bot_words: list[str]) -> list[Participant]:
    """The participants, each able to start (a shipped command is looked for on the
    workers only)."""
    players = parsed(*bots_named(bot_words, args.bots_file))
    if len(players) < 2:
        raise UsageError(f"a tournament needs two participants or more, got {len(players)}")
    check_shipped(args, players)
    check_startable(players, commands_too=args.ship is None)
    return players


def _plan(args: argparse.Namespace) -> tuple[list[MapChoice], list[Participant], Sprt | None]:
    """The maps, the participants and the SPRT, checked before any game."""
    map_words, bot_words = split_maps_and_bots(args.map, args.participants)
    try:
        maps = resolve_maps(map_words)
        sprt = parse_sprt(args.sprt) if args.sprt is not None else None
    except ValueError as error:
        raise UsageError(str(error)) from None
    players = players_from(args, bot_words)
    if sprt is not None and len(players) != 2:
        raise UsageError("--sprt tests one bot against another: give exactly two participants")
    check_ray(args)
    if args.view:
        check_free([view_place(args)])
    return maps, players, sprt


def run(args: argparse.Namespace) -> int:
    check_cluster_arguments(args)
    maps, players, sprt = _plan(args)
    path, previous = results_path(args.results, args.resume)
    seed = (
        args.seed
        if args.seed is not None
        else (previous.seed if previous is not None else fresh_seed())
    )
    settings = settings_from(args)
    command = shlex.join(["vvw", *sys.argv[1:]])
    plan = Plan(players, args.format, maps, args.rounds, seed, settings, sprt, command)
    run = begin(plan, path, args.view)  # ResultsFileError: another run's file
    try:
        where = cluster_run(args)
        if where is not None:
            return on_cluster(where, settings, run.games_dir, partial(_play, args, run))
        here = Here(settings, run.games_dir, args.keep_transcripts)
        return _play(args, run, args.concurrency, here)
    except ClusterStartError:
        if previous is None and not read_results(path)[1]:
            path.unlink()  # the cluster could not start: no file left to --resume
        raise
    finally:
        run.writer.close()


def view_place(args: argparse.Namespace) -> Listening:
    return Listening(args.view_host, args.view_port, "the live view (--view-port)")


def _play(args: argparse.Namespace, run: Tournament, concurrency: int, venue: Venue) -> int:
    """The run played, said before and after: its tables, or how to resume it."""
    print(run.plan_text(), flush=True)
    if args.cluster is None and args.concurrency > cores():
        print(
            f"vvw tournament: warning: --concurrency {args.concurrency} is more than the"
            f" {cores()} cores here: bots may think slower and lose on time",
            file=sys.stderr,
        )
    signum = signals.run(partial(run.run, venue, concurrency, view_place(args)))
    print()
    print(format_text(run.table))
    if signum is not None:
        raise Stopped(
            signum,
            f"after {run.table.played} of {plural(run.header.games, 'game')}, kept in"
            f" {run.writer.path}: the same command with --resume plays the rest",
        )
    return 0


def report(args: argparse.Namespace) -> int:
    """``vvw tournament report FILE… [--csv | --json | --html DIR]``."""
    runs = [(path, *read_results(path)) for path in args.files]
    header, games = combine_runs(runs)
    table: Standings = standings(header, games, tuple(h for _, h, _ in runs))
    if args.html is not None:
        replays, problems = write_report(args.html, table, report_games(runs, header, games))
        for problem in problems:
            print(f"vvw tournament report: cannot show {problem}", file=sys.stderr)
        games_shown = plural(table.played, "game")
        print(f"{args.html / 'index.html'}: {games_shown}, {plural(replays, 'replay')}")
    elif args.csv:
        sys.stdout.write(to_csv(table))
    elif args.json:
        print(json.dumps(to_json(table), indent=1))
    else:
        print(format_text(table))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="play many bots on many maps: Elo, SPRT (or: report FILE…)",
        description=DESCRIPTION,
        epilog='example: vvw tournament alphabeta greedy name=mine cmd="python bot.py {host}'
        ' {port}" --maps thetrap testmap --rounds 2 --concurrency 2.'
        " The tables again: vvw tournament report FILE… (see its --help).",
    )
    parser.add_argument(
        "participants",
        nargs="*",
        metavar="BOT",
        help="built-in name with options ('alphabeta --depth 4'), or command"
        " ('./mybot {host} {port}'), each optionally after name=NAME (or in one word:"
        " 'name=NAME BOT')",
    )
    add_bots_argument(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="round-robin",
        help="round-robin (default) or gauntlet (the first bot against each)",
    )
    parser.add_argument(
        "--rounds",
        type=positive_int,
        default=1,
        help="times each pairing plays its pair on each map (default 1)",
    )
    parser.add_argument(
        "--concurrency", type=positive_int, default=1, help="games played at once (default 1)"
    )
    add_cluster_arguments(parser)
    add_results_arguments(parser)
    add_map_arguments(parser, several_maps=True)
    add_game_settings(parser)
    add_view_arguments(parser, own_host=True)
    parser.set_defaults(func=run)
    later = "the run's tables are made afterwards: vvw tournament report RESULTS.jsonl --{}"
    parser.hints.update({f"--{form}": later.format(form) for form in ("csv", "json")})
    parser.hints["--html"] = later.format("html DIR")
    register_report(parser)


def register_report(tournament: CommandParser) -> None:
    """``vvw tournament report``, a subcommand beside the participants."""
    parser = tournament.add_beside(
        "report",
        description="Print a run's tables again, computed from its results file alone;"
        " or the tables of several runs' games together.",
        epilog="example: vvw tournament report runs/tournament-*/results.jsonl --csv",
    )
    parser.add_argument(
        "files",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="a results file (.jsonl); several are counted as one tournament: rounds played"
        " with other seeds or maps, under the same settings",
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="the tables as CSV")
    form.add_argument("--json", action="store_true", help="the tables as JSON")
    form.add_argument(
        "--html",
        type=Path,
        default=None,
        metavar="DIR",
        help="write the dashboard to DIR: index.html (the tables, every game) and one replay"
        " page per kept transcript; a folder to put on any web server",
    )
    parser.set_defaults(func=report)
