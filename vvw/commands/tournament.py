"""``vvw tournament``: many bots, many maps, games in pairs, Elo, SPRT, nothing lost.

``vvw tournament BOT BOT… --maps MAP…`` plays every pairing (``--format round-robin``) or
the first bot against each other one (``gauntlet``), each pairing on each map a pair of
games with sides swapped on the same map and battle seed, ``--rounds`` times, up to
``--concurrency`` games at once, each on a port of its own. Every finished game is
appended at once to the results file (JSON Lines, see :mod:`vvw.results`); ``--resume``
plays only the games it lacks; ``--sprt`` stops once the test is decided.
``vvw tournament report FILE… [--csv | --json]`` prints every table again from the file
(from several files: their games counted together).
"""

import argparse
import json
import os
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from server.events import EventSink
from server.settings import Settings
from vvw.argtypes import positive_float, positive_int
from vvw.commands.match import new_run_dir, remove_if_empty, split_maps_and_bots
from vvw.commands.serve import (
    add_game_settings,
    add_map_arguments,
    add_view_arguments,
    os_error_in,
    settings_from,
)
from vvw.mapchoice import resolve_maps
from vvw.participants import parse_participants
from vvw.playing import play_scheduled
from vvw.progress import RunProgress
from vvw.results import (
    GameLine,
    Header,
    ResultsFileError,
    ResultsWriter,
    combine_runs,
    read_results,
)
from vvw.schedule import FORMATS, ScheduledGame, schedule
from vvw.seeds import fresh_seed
from vvw.signals import exit_code, run_until_signal
from vvw.standings import Standings, format_text, standings, to_csv, to_json
from vvw.stats import Sprt, parse_sprt
from vvw.view.live import LiveHub, serve_view


def cores() -> int:
    """The processor cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


async def play_all(
    todo: list[ScheduledGame],
    concurrency: int,
    play: Callable[[ScheduledGame], Awaitable[None]],
    stopped: Callable[[], bool],
) -> None:
    """``play`` every game of ``todo`` in order, ``concurrency`` at a time, starting no new
    one once ``stopped()`` is true."""
    send, receive = trio.open_memory_channel[ScheduledGame](0)

    async def feed() -> None:
        async with send:
            for game in todo:
                if stopped():
                    return
                await send.send(game)

    async def work(games: trio.MemoryReceiveChannel[ScheduledGame]) -> None:
        async with games:
            async for game in games:
                await play(game)

    async with trio.open_nursery() as nursery, receive:
        nursery.start_soon(feed)
        for _ in range(concurrency):
            nursery.start_soon(work, receive.clone())


def settings_record(settings: Settings) -> dict[str, object]:
    """The settings that decide the games, as the results file's header keeps them."""
    return {
        "move_time": settings.move_time,
        "on_timeout": settings.on_timeout.value,
        "ply_limit": settings.rules.max_plies,
        "game_time": settings.game_time,
        "variant": settings.rules.variant.value,
        "connect_time": settings.connect_time,
    }


def _fail(message: str) -> int:
    print(f"vvw tournament: {message}", file=sys.stderr)
    return 2


def run_tournament(args: argparse.Namespace) -> int:
    map_words, bot_words = split_maps_and_bots(args.map, args.participants)
    try:
        maps = resolve_maps(map_words)
        players = parse_participants(bot_words)
        sprt = parse_sprt(args.sprt) if args.sprt is not None else None
    except ValueError as error:
        return _fail(str(error))
    if len(players) < 2:
        return _fail(f"a tournament needs two participants or more, got {len(players)}")
    if sprt is not None and len(players) != 2:
        return _fail("--sprt tests one bot against another: give exactly two participants")
    for player in players if args.ship is None else []:  # shipped: found on the workers
        missing = player.program()
        if missing is not None:
            return _fail(f"cannot start {player.name}: {missing} not found")
    path: Path = args.results or new_run_dir("tournament") / "results.jsonl"
    previous: Header | None = None
    if path.exists():
        if not args.resume:
            return _fail(
                f"{path} exists: add --resume to play the games it lacks, or give another --results"
            )
        try:
            previous, _ = read_results(path)
        except ResultsFileError as error:
            return _fail(str(error))
    elif not path.parent.is_dir():
        return _fail(f"folder {path.parent} does not exist")
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
    try:
        writer = ResultsWriter(path, header)
        _, done = read_results(path)
    except (ResultsFileError, OSError) as error:
        return _fail(str(error))
    games_dir = path.parent / f"{path.stem}-games"
    try:
        if args.cluster is not None:
            code = _on_cluster(args, header, todo, done, writer, sprt, settings, games_dir)
            if code == 2 and previous is None and not read_results(path)[1]:
                path.unlink()  # the cluster could not start: no file left to --resume
            return code

        async def play_here(game: ScheduledGame, events: EventSink | None) -> GameLine:
            return await play_scheduled(game, settings, games_dir, args.keep_transcripts, events)

        return _play(args, header, todo, done, writer, sprt, args.concurrency, play_here)
    finally:
        writer.close()


LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch that, at ``0``, puts every process of a cluster on 127.0.0.1."""


def _on_cluster(
    args: argparse.Namespace,
    header: Header,
    todo: list[ScheduledGame],
    done: list[GameLine],
    writer: ResultsWriter,
    sprt: Sprt | None,
    settings: Settings,
    games_dir: Path,
) -> int:
    """The run with each game a task on a Ray cluster (see :mod:`vvw.cluster`)."""
    if args.cluster == "local":
        # A cluster of this machine alone stays on the loopback interface: Ray reads this
        # when it is imported (and its processes inherit it). Not for a real cluster, whose
        # machines must reach this one.
        os.environ[LOOPBACK_ONLY] = "0"
    try:
        from vvw import cluster  # the optional extra: only a --cluster run needs Ray
    except ImportError:
        return _fail("--cluster needs Ray: pip install 'vvw[cluster]'")
    ship = None if args.ship is None else args.ship.resolve()
    options = cluster.ClusterOptions(args.cluster, args.cpus_per_game, args.workers, ship)
    try:
        with cluster.connected(options, cores()) as slots:
            games = cluster.ClusterGames(options, slots, settings, games_dir, args.keep_transcripts)
            print(
                f"cluster {args.cluster}: {slots} games at once, {args.cpus_per_game:g} CPUs each",
                flush=True,
            )

            async def play_there(game: ScheduledGame, _: EventSink | None) -> GameLine:
                return await games.play(game)  # no --view: the game is on another machine

            return _play(args, header, todo, done, writer, sprt, slots, play_there)
    except BaseException as error:  # a ClusterError, possibly in an exception group
        failure = cluster.cluster_error_in(error)
        if failure is None:
            raise
        return _fail(str(failure))


def _play(
    args: argparse.Namespace,
    header: Header,
    todo: list[ScheduledGame],
    done: list[GameLine],
    writer: ResultsWriter,
    sprt: Sprt | None,
    concurrency: int,
    play_game: Callable[[ScheduledGame, EventSink | None], Awaitable[GameLine]],
) -> int:
    path = writer.path
    games_dir = path.parent / f"{path.stem}-games"
    finished = {game.key for game in done}
    remaining = [game for game in todo if game.key not in finished]
    print(
        f"{len(header.participants)} participants, {len(header.maps)} maps,"
        f" rounds {header.rounds}: {len(todo)} games, {len(remaining)} to play;"
        f" seed {header.seed}; results in {path}",
        flush=True,
    )
    if args.cluster is None and args.concurrency > cores():
        print(
            f"vvw tournament: warning: --concurrency {args.concurrency} is more than the"
            f" {cores()} cores here: bots may think slower and lose on time",
            file=sys.stderr,
        )
    played = list(done)
    table = standings(header, played)
    decided = sprt is not None and table.llr is not None and sprt.decision(table.llr) is not None

    hub = LiveHub(tournament=True) if args.view else None

    def watcher(game: ScheduledGame) -> EventSink | None:
        if hub is None:
            return None
        return hub.listener(lambda number: f"game {number} ({game.map.label})")

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            if hub is not None:
                port = await nursery.start(serve_view, hub, args.view_port, args.view_host)
                print(f"live view on http://{args.view_host}:{port}/", flush=True)
            await play_everything()
            nursery.cancel_scope.cancel()

    async def play_everything() -> None:
        nonlocal table, decided
        with RunProgress(len(todo), len(todo) - len(remaining)) as progress:

            async def play(game: ScheduledGame) -> None:
                nonlocal table, decided
                line = await play_game(game, watcher(game))
                writer.add(line)
                played.append(line)
                table = standings(header, played)
                progress.finished(line, table)
                if sprt is not None and table.llr is not None:
                    decided = sprt.decision(table.llr) is not None

            await play_all(remaining, concurrency, play, lambda: decided)

    try:
        signum = trio.run(run_until_signal, main)
    except (OSError, BaseExceptionGroup) as error:
        failure = os_error_in(error)
        if failure is None:
            raise
        return _fail(str(failure))
    finally:
        remove_if_empty(games_dir)
    print()
    print(format_text(table))
    if signum is not None:
        print(
            f"\nstopped by signal {signum}: {table.played} of {header.games} games in {path};"
            " the same command with --resume plays the rest",
            file=sys.stderr,
        )
        return exit_code(signum)
    return 0


def report(words: list[str]) -> int:
    """``vvw tournament report FILE… [--csv | --json]``."""
    parser = argparse.ArgumentParser(
        prog="vvw tournament report",
        description="Print a run's tables again, computed from its results file alone;"
        " or the tables of several runs' games together.",
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
    args = parser.parse_args(words)
    try:
        runs = [(path, *read_results(path)) for path in args.files]
        header, games = combine_runs(runs)
    except ResultsFileError as error:
        print(f"vvw tournament report: {error}", file=sys.stderr)
        return 1
    table: Standings = standings(header, games, tuple(h for _, h, _ in runs))
    if args.csv:
        sys.stdout.write(to_csv(table))
    elif args.json:
        print(json.dumps(to_json(table), indent=1))
    else:
        print(format_text(table))
    return 0


def run(args: argparse.Namespace, extra: list[str]) -> int:
    if args.participants[:1] == ["report"]:
        return report(args.participants[1:] + extra)
    if extra:
        return _fail(f"unrecognized arguments: {' '.join(extra)}")
    if not args.map:
        return _fail("the following arguments are required: --maps")
    if args.cluster is not None and args.view:
        return _fail("--view shows the games played on this machine: not with --cluster")
    if args.workers is not None and args.cluster != "local":
        return _fail("--workers is for --cluster local (a cluster's size is its own)")
    if args.ship is not None and (args.cluster is None or not args.ship.is_dir()):
        return _fail(
            f"--ship needs --cluster and a folder; {args.ship} is not one"
            if args.cluster is not None
            else "--ship is for --cluster runs"
        )
    return run_tournament(args)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="play many bots on many maps; Elo, SPRT; or `report FILE…`",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
        epilog='example: vvw tournament alphabeta greedy name=mine cmd="python bot.py {host}'
        ' {port}" --maps thetrap testmap --rounds 2 --concurrency 2',
    )
    parser.add_argument(
        "participants",
        nargs="+",
        metavar="BOT",
        help="built-in name with options ('alphabeta --depth 4'), or command"
        " ('./mybot {host} {port}'), each optionally after name=NAME; or: report FILE…",
    )
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
    cluster = parser.add_argument_group(
        "on a Ray cluster (pip install 'vvw[cluster]'; see docs/tournaments.md)"
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
    add_map_arguments(parser, several_maps=True)
    add_game_settings(parser)
    add_view_arguments(parser, own_host=True)
    for action in parser._actions:
        if action.dest == "map":
            action.required = False  # not for `report`; checked in run()
    parser.set_defaults(func=run, takes_extra=True)
