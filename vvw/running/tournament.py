"""A tournament played: its schedule ``concurrency`` games at once, here or on a cluster.

:class:`Tournament` is a run under way: the games its results file lacks (``--resume``
plays only those), each finished game appended to the file at once, the standings and
the SPRT's decision kept as games end (no new game starts once it is decided), the live
view's dashboard shown. :func:`on_cluster` plays it with each game a task on a Ray
cluster, and turns the cluster's failure into one line. ``vvw tournament`` parses,
calls and prints (:mod:`vvw.commands.tournament`).
"""

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from server.events import EventSink
from server.settings import Settings
from vvw.errors import CommandError, UsageError
from vvw.paths import make_folder
from vvw.ports import Listening
from vvw.records.results import GameLine, Header, ResultsWriter, read_results
from vvw.records.standings import Standings, standings
from vvw.records.stats import Sprt
from vvw.running.progress import RunProgress
from vvw.running.schedule import ScheduledGame
from vvw.runs import new_run_dir
from vvw.web.dashboard import FinishedGame, dashboard_body
from vvw.web.live import LiveHub, showing

PlayGame = Callable[[ScheduledGame, EventSink | None], Awaitable[GameLine]]
"""How one game is played (here, or on a cluster): its results line; the sink hears it."""

LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch that, at ``0``, puts every process of a cluster on 127.0.0.1."""


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


@attrs.define
class Tournament:
    """A run under way: what it plays, what it has played, how the tables stand."""

    header: Header
    todo: list[ScheduledGame]
    done: list[GameLine]
    """The games the results file held when the run (re)started."""
    writer: ResultsWriter
    sprt: Sprt | None
    hub: LiveHub | None
    played: list[GameLine] = attrs.field(init=False)
    table: Standings = attrs.field(init=False)
    board: list[FinishedGame] = attrs.field(init=False)
    """The dashboard's finished games."""

    def __attrs_post_init__(self) -> None:
        self.played = list(self.done)
        self.table = standings(self.header, self.played)
        numbers = {game.key: game.number for game in self.todo}
        self.board = [FinishedGame(numbers.get(line.key, 0), line, None) for line in self.done]

    @property
    def remaining(self) -> list[ScheduledGame]:
        """The games of the schedule the results file lacks (``--resume``)."""
        finished = {line.key for line in self.done}
        return [game for game in self.todo if game.key not in finished]

    @property
    def decided(self) -> bool:
        """Whether the SPRT has decided (then no new game starts)."""
        llr = self.table.llr
        return self.sprt is not None and llr is not None and self.sprt.decision(llr) is not None

    def show_board(self) -> None:
        """The dashboard of the live view, as the games stand."""
        if self.hub is not None:
            self.hub.show_board(dashboard_body(self.table, self.board, live=True))

    def watcher(self, game: ScheduledGame) -> EventSink | None:
        """The live view's listener of ``game``, if there is a live view."""
        if self.hub is None:
            return None
        names = {"vampires": game.vampires.name, "werewolves": game.werewolves.name}
        return self.hub.listener(f"game {game.number} ({game.map.label})", names)

    async def run(self, play_game: PlayGame, concurrency: int, view: Listening) -> None:
        """Play the remaining games, ``concurrency`` at once, until all are played or the
        SPRT decides; the live view (if any) on ``view``."""
        self.show_board()
        remaining = self.remaining
        async with showing(self.hub, view, lambda at: print(f"live view on {at}", flush=True)):
            with RunProgress(len(self.todo), len(self.todo) - len(remaining)) as progress:

                async def play(game: ScheduledGame) -> None:
                    line = await play_game(game, self.watcher(game))
                    self.finished(game, line, progress)

                await play_all(remaining, concurrency, play, lambda: self.decided)

    def finished(self, game: ScheduledGame, line: GameLine, progress: RunProgress) -> None:
        """A game ended: appended to the file, counted, shown."""
        self.writer.add(line)
        self.played.append(line)
        self.table = standings(self.header, self.played)
        progress.finished(line, self.table)
        kept = self.hub is not None and str(game.number) in self.hub.games
        replay = f"replay?game={game.number}" if kept else None
        self.board.append(FinishedGame(game.number, line, replay))
        self.show_board()


def results_path(path: Path | None, resume: bool) -> tuple[Path, Header | None]:
    """The results file (``--results``), and the header of the run it holds when resumed
    (``--resume``); a new ``runs/tournament-STAMP/results.jsonl`` by default."""
    if path is None:
        return new_run_dir("tournament") / "results.jsonl", None
    if path.is_dir():
        raise UsageError(f"--results {path} is a folder: name a file, e.g. {path / 'r.jsonl'}")
    if not path.exists():
        make_folder(path.parent)  # a folder named for the results is made
        return path, None
    if not resume:
        raise UsageError(
            f"{path} exists: add --resume to play the games it lacks, or give another --results"
        )
    previous, _ = read_results(path)  # ResultsFileError: one line, exit 2
    return path, previous


class ClusterStartError(CommandError):
    """The cluster could not play the run (see :class:`vvw.running.cluster.ClusterError`)."""


@attrs.frozen
class ClusterRun:
    """Where and how a run's games go to a Ray cluster (``--cluster``, ``--ship``…)."""

    address: str
    cpus_per_game: float
    workers: int | None
    ship: Path | None
    keep_transcripts: bool


def on_cluster(
    where: ClusterRun,
    settings: Settings,
    games_dir: Path,
    play: Callable[[int, PlayGame], int],
) -> int:
    """``play(slots, play_game)`` with each game a task on a Ray cluster (see
    :mod:`vvw.running.cluster`); :class:`ClusterStartError` if the cluster cannot play."""
    if where.address == "local":
        # A cluster of this machine alone stays on the loopback interface: Ray reads this
        # when it is imported (and its processes inherit it). Not for a real cluster, whose
        # machines must reach this one.
        os.environ[LOOPBACK_ONLY] = "0"
    from vvw.running import cluster  # the optional extra: only a --cluster run needs Ray

    ship = None if where.ship is None else where.ship.resolve()
    options = cluster.ClusterOptions(where.address, where.cpus_per_game, where.workers, ship)
    try:
        with cluster.connected(options, cores()) as slots:
            games = cluster.ClusterGames(
                options, slots, settings, games_dir, where.keep_transcripts
            )
            print(
                f"cluster {where.address}: {slots} games at once,"
                f" {where.cpus_per_game:g} CPUs each",
                flush=True,
            )

            async def play_there(game: ScheduledGame, _: EventSink | None) -> GameLine:
                return await games.play(game)  # no --view: the game is on another machine

            return play(slots, play_there)
    except BaseException as error:  # a ClusterError, possibly in an exception group
        failure = cluster.cluster_error_in(error)
        if failure is None:
            raise
        raise ClusterStartError(str(failure)) from None
