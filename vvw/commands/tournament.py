"""``vvw tournament``: many bots, many maps, games in pairs, Elo, SPRT, nothing lost.

What it plays is :data:`DESCRIPTION` (its ``--help``); the results file is
:mod:`vvw.records.results`. ``vvw tournament report FILE… [--csv | --json]`` prints every table
again from the file (from several files: their games counted together).
"""

import argparse
import importlib.util
import json
import shlex
import sys
from functools import partial
from pathlib import Path

import attrs

from server.events import EventSink
from vvw import signals
from vvw.argtypes import positive_float, positive_int
from vvw.command_parser import CommandParser
from vvw.documents import guide
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import (
    add_game_settings,
    add_map_arguments,
    add_view_arguments,
    settings_from,
    settings_record,
    split_maps_and_bots,
)
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.ports import Listening, check_free
from vvw.records.results import (
    GameLine,
    Header,
    ResultsWriter,
    combine_runs,
    read_results,
)
from vvw.records.standings import Standings, format_text, standings, to_csv, to_json
from vvw.records.stats import Sprt, parse_sprt
from vvw.running.botsfile import add_bots_argument, bots_named
from vvw.running.participants import Participant, check_startable, parsed
from vvw.running.playing import play_scheduled
from vvw.running.schedule import FORMATS, ScheduledGame, schedule, scheduled_numbers
from vvw.running.seeds import fresh_seed
from vvw.running.tournament import (
    ClusterRun,
    ClusterStartError,
    PlayGame,
    Tournament,
    cores,
    on_cluster,
    results_path,
)
from vvw.runs import remove_if_empty
from vvw.web.dashboard import write_report
from vvw.web.live import LiveHub
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
    for player in players:
        if args.ship is not None and player.folder is not None:
            raise UsageError(
                f"{player.name} runs in the folder {player.folder}; with --ship every bot"
                " runs in the shipped folder: put it there, without folder ="
            )
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
    if args.cluster is not None and importlib.util.find_spec("ray") is None:
        raise UsageError("--cluster needs Ray: pip install 'vvw[cluster]'")
    if args.view:
        check_free([view_place(args)])
    return maps, players, sprt


def run_tournament(args: argparse.Namespace) -> int:
    maps, players, sprt = _plan(args)
    path, previous = results_path(args.results, args.resume)
    seed = (
        args.seed
        if args.seed is not None
        else (previous.seed if previous is not None else fresh_seed())
    )
    settings = settings_from(args)
    todo = schedule(players, args.format, maps, args.rounds, seed)
    header = Header(
        participants=[(p.name, p.spec) for p in players],
        format=args.format,
        maps=[choice.label for choice in maps],
        rounds=args.rounds,
        seed=seed,
        games=len(todo),
        settings=settings_record(settings),
        sprt=None if sprt is None else attrs.asdict(sprt),
        command=shlex.join(["vvw", *sys.argv[1:]]),
    )
    writer = ResultsWriter(path, header)  # ResultsFileError: another run's file
    try:
        hub = LiveHub(tournament=True) if args.view else None
        run = Tournament(header, todo, read_results(path)[1], writer, sprt, hub)
        games_dir = path.parent / f"{path.stem}-games"
        if args.cluster is not None:
            where = ClusterRun(
                args.cluster, args.cpus_per_game, args.workers, args.ship, args.keep_transcripts
            )
            return on_cluster(where, settings, games_dir, partial(_play, args, run))

        async def play_here(game: ScheduledGame, events: EventSink | None) -> GameLine:
            return await play_scheduled(game, settings, games_dir, args.keep_transcripts, events)

        return _play(args, run, args.concurrency, play_here)
    except ClusterStartError:
        if previous is None and not read_results(path)[1]:
            path.unlink()  # the cluster could not start: no file left to --resume
        raise
    finally:
        writer.close()


def view_place(args: argparse.Namespace) -> Listening:
    return Listening(args.view_host, args.view_port, "the live view (--view-port)")


def _play(args: argparse.Namespace, run: Tournament, concurrency: int, play: PlayGame) -> int:
    """The run played, said before and after: its tables, or how to resume it."""
    header, path = run.header, run.writer.path
    print(
        f"{plural(len(header.participants), 'participant')}, {plural(len(header.maps), 'map')},"
        f" rounds {header.rounds}: {plural(len(run.todo), 'game')}, {len(run.remaining)} to"
        f" play; seed {header.seed}; results in {path}",
        flush=True,
    )
    if args.cluster is None and args.concurrency > cores():
        print(
            f"vvw tournament: warning: --concurrency {args.concurrency} is more than the"
            f" {cores()} cores here: bots may think slower and lose on time",
            file=sys.stderr,
        )
    try:
        signum = signals.run(partial(run.run, play, concurrency, view_place(args)))
    finally:
        remove_if_empty(path.parent / f"{path.stem}-games")
    print()
    print(format_text(run.table))
    if signum is not None:
        raise Stopped(
            signum,
            f"after {run.table.played} of {plural(header.games, 'game')}, kept in {path}:"
            " the same command with --resume plays the rest",
        )
    return 0


def _report_numbers(header: Header, keys: list[str], runs: int) -> dict[str, int]:
    """Each game's number in a report: its place in the schedule, as the live dashboard and
    the game folders number it, for one run's games; in turn, for several runs' (whose
    schedules overlap) or games of no schedule of this plan."""
    if runs == 1:
        names = [name for name, _ in header.participants]
        scheduled = scheduled_numbers(names, header.format, len(header.maps), header.rounds)
        if all(key in scheduled for key in keys):
            return {key: scheduled[key] for key in keys}
    return {key: number for number, key in enumerate(keys, 1)}


def report(args: argparse.Namespace) -> int:
    """``vvw tournament report FILE… [--csv | --json | --html DIR]``."""
    runs = [(path, *read_results(path)) for path in args.files]
    header, games = combine_runs(runs)
    table: Standings = standings(header, games, tuple(h for _, h, _ in runs))
    if args.html is not None:
        files = [path for path, _, lines in runs for _ in lines]  # each game's results file
        first: dict[str, tuple[GameLine, Path]] = {}  # a game given twice: its first line
        for line, path in zip(games, files, strict=True):
            first.setdefault(line.key, (line, path))
        numbers = _report_numbers(header, list(first), len(runs))
        shown = [
            (numbers[key], line, kept_transcript(line, path)) for key, (line, path) in first.items()
        ]
        replays, problems = write_report(args.html, table, shown)
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


def kept_transcript(line: GameLine, results: Path) -> Path | None:
    """The game's kept transcript, if it is still there: where the line says (from the
    folder the run was started in), or under the results file's folder."""
    if line.transcript is None:
        return None
    given = Path(line.transcript)
    if given.is_file():
        return given
    for start in range(1, len(given.parts)):
        found = results.parent.joinpath(*given.parts[start:])
        if found.is_file():
            return found
    return None


def run(args: argparse.Namespace) -> int:
    if args.cluster is not None and args.view:
        raise UsageError("--view shows the games played on this machine: not with --cluster")
    if args.workers is not None and args.cluster != "local":
        raise UsageError("--workers is for --cluster local (a cluster's size is its own)")
    if args.ship is not None and (args.cluster is None or not args.ship.is_dir()):
        raise UsageError(
            f"--ship needs --cluster and a folder; {args.ship} is not one"
            if args.cluster is not None
            else "--ship is for --cluster runs"
        )
    return run_tournament(args)


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
    _add_cluster_arguments(parser)
    _add_results_arguments(parser)
    add_map_arguments(parser, several_maps=True)
    add_game_settings(parser)
    add_view_arguments(parser, own_host=True)
    parser.set_defaults(func=run)
    later = "the run's tables are made afterwards: vvw tournament report RESULTS.jsonl --{}"
    parser.hints.update({f"--{form}": later.format(form) for form in ("csv", "json")})
    parser.hints["--html"] = later.format("html DIR")
    register_report(parser)


def _add_results_arguments(parser: argparse.ArgumentParser) -> None:
    """The results file, resumed or not, and what the run keeps and when it stops."""
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="FILE",
        help="results file (default runs/tournament-STAMP/results.jsonl)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the --results file: play only the games it lacks",
    )
    parser.add_argument(
        "--sprt",
        default=None,
        metavar="elo0=0,elo1=5,alpha=0.05,beta=0.05",
        help="stop once the SPRT of the first bot against the second decides",
    )
    parser.add_argument(
        "--keep-transcripts",
        action="store_true",
        help="keep every game's transcript (default: abnormal games only)",
    )


def _add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """``--cluster`` and what goes with it."""
    cluster = parser.add_argument_group(
        f"on a Ray cluster (pip install 'vvw[cluster]'; see {guide('tournaments.md')})"
    )
    cluster.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="play each game as a task on the Ray cluster at ADDRESS"
        " (HOST:6379, auto), or on one started here: local;"
        " --concurrency is then the cluster's",
    )
    cluster.add_argument(
        "--cpus-per-game",
        type=positive_float,
        default=2.0,
        metavar="N",
        help="CPUs each game takes on its worker (default 2: one per bot)",
    )
    cluster.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --cluster local: games at once (default cores / 2)",
    )
    cluster.add_argument(
        "--ship",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="send FOLDER (the bots) with every game; bot commands run in"
        " a copy of it on the worker",
    )


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
