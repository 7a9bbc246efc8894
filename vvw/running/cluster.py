"""A tournament's games on a Ray cluster: each game is one Ray task on some worker.

The task plays the game on the worker at the venue of games played here
(:class:`vvw.running.playing.Here`): our server and both bot processes there, on a free
local port, exactly as ``--concurrency`` runs a game here. The
task declares ``cpus_per_game`` CPUs (one per bot by default), so Ray never starts more
games on a machine than it has cores for. Results come back to this process, which
appends each to the results file as the game ends.

Faults: a worker process or a machine lost in the middle of a game (Ray's
``WorkerCrashedError``, ``NodeDiedError``…) costs that game only: it is submitted again,
up to ``max_retries`` times, and its results line says how often (``retries``). A bot
that crashes is not a fault of the cluster: the game ends with the bot's loss, a normal
result, and is not played again.

External bots reach the workers either in the folder shipped with every task (Ray's
runtime environment ``working_dir``: the task runs in a copy of it) or on a filesystem
every machine shares (the task runs in the folder the run was started from, when the
worker has it).
"""

import logging
import math
import os
import socket
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import ray
import ray.exceptions
import trio

from server.events import EventSink
from server.settings import Settings
from vvw.documents import guide
from vvw.running.playing import Here
from vvw.running.runner import Finished
from vvw.running.schedule import ScheduledGame

log = logging.getLogger(__name__)

LOCAL = "local"
"""The ``--cluster`` address that starts a one-machine Ray cluster for the run."""
CPUS_PER_GAME = 2.0
"""CPUs a game declares by default: one for each bot (the server's share is small)."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a cluster's head to accept a connection."""
AUTH_HINT = (
    "a cluster with token authentication also needs RAY_AUTH_MODE=token and its"
    f" token here: see {guide('tournaments.md')}"
)
MAX_RETRIES = 3
"""Times a game is played again after losing its worker, before the run gives up."""
LOST_WORKER = (
    ray.exceptions.WorkerCrashedError,
    ray.exceptions.NodeDiedError,
    ray.exceptions.LocalRayletDiedError,
    ray.exceptions.ObjectLostError,
    ray.exceptions.RaySystemError,
)
"""What Ray raises when a game's worker process or machine is gone (not a game result)."""


class ClusterError(Exception):
    """The cluster cannot play the run: a one-line reason for the user."""


@attrs.frozen
class ClusterOptions:
    """How to reach the cluster and what each game asks of it."""

    address: str
    """A Ray address (``HOST:6379``, ``ray://HOST:10001``, ``auto``) or ``local``."""
    cpus_per_game: float = CPUS_PER_GAME
    workers: int | None = None
    """With ``local``: games at once on this machine (default: its cores / cpus_per_game)."""
    ship: Path | None = None
    """A folder sent with every task (the bots' programs); the tasks run inside a copy."""
    max_retries: int = MAX_RETRIES


def play_on_worker(
    game: ScheduledGame,
    settings: Settings,
    games_dir: str,
    keep_transcript: bool,
    folder: str | None,
) -> Finished:
    """The Ray task: play ``game`` on this worker and return it, played.

    ``folder``: the run's folder on a shared filesystem, entered when this machine has it
    (without a shipped folder). The game's files go to ``games_dir`` when this machine can
    write there (a shared filesystem, or the machine the run was started on), else to the
    worker's temporary folder; the line names the machine either way (``node``).
    """
    if folder is not None and os.path.isdir(folder):
        os.chdir(folder)
    where = Path(games_dir)
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError:
        where = Path(tempfile.gettempdir()) / "vvw-games" / where.parent.name / where.name
    try:
        done = trio.run(Here(settings, where, keep_transcript).play, game)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is None:
            raise
        raise KeyboardInterrupt from None  # ray.cancel's, as Ray expects it back
    return attrs.evolve(done, line=attrs.evolve(done.line, node=socket.gethostname()))


@contextmanager
def connected(options: ClusterOptions, local_cores: int) -> Iterator[int]:
    """Connect to the cluster (or start a local one) for the block; yields the games it
    can play at once. :class:`ClusterError` if it cannot be reached or is too small."""
    runtime_env: dict[str, Any] = {}
    if options.ship is not None:
        runtime_env["working_dir"] = str(options.ship)
    try:
        if options.address == LOCAL:
            workers = options.workers or max(1, int(local_cores // options.cpus_per_game))
            ray.init(
                address="local",
                num_cpus=math.ceil(workers * options.cpus_per_game),
                include_dashboard=False,
                runtime_env=runtime_env or None,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        else:
            _check_reachable(options.address)
            ray.init(
                address=options.address,
                runtime_env=runtime_env or None,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
    except (ConnectionError, ValueError, RuntimeError, OSError) as error:
        if options.address == LOCAL:
            raise ClusterError(f"cannot start a local Ray cluster: {_first_line(error)}") from None
        raise ClusterError(
            f"cannot reach the Ray cluster at {options.address}: {_first_line(error)} ({AUTH_HINT})"
        ) from None
    try:
        cpus = ray.cluster_resources().get("CPU", 0.0)
        slots = int(cpus // options.cpus_per_game)
        if slots < 1:
            raise ClusterError(
                f"the cluster has {cpus:g} CPUs, fewer than the"
                f" {options.cpus_per_game:g} a game asks for (--cpus-per-game)"
            )
        yield slots
    finally:
        ray.shutdown()


def _check_reachable(address: str) -> None:
    """A ``HOST:PORT`` address must accept a connection (Ray itself would retry for
    minutes); ``auto`` and ``ray://`` addresses are left to Ray."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        raise ConnectionError(error.strerror or str(error)) from None


class ClusterGames:
    """The venue of games played as Ray tasks, the counterpart of games played here."""

    def __init__(
        self,
        options: ClusterOptions,
        slots: int,
        settings: Settings,
        games_dir: Path,
        keep_transcripts: bool,
    ) -> None:
        self.options = options
        self.settings = settings
        self.games_dir = str(games_dir.resolve())
        self.keep_transcripts = keep_transcripts
        self.folder = None if options.ship is not None else os.getcwd()
        self.task = ray.remote(play_on_worker).options(
            num_cpus=options.cpus_per_game, max_retries=0, name="vvw-game"
        )
        self.waiting = trio.CapacityLimiter(max(1, slots))

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None = None,
        on_abort: Callable[[Finished], None] | None = None,
    ) -> Finished:
        """Play ``game`` on some worker; again (counted in ``retries``) if its worker is
        lost. Nothing here hears its events (it is played on another machine), and a game
        stopped there is not told (its task is cancelled)."""
        retries = 0
        while True:
            ref = self.task.remote(
                game, self.settings, self.games_dir, self.keep_transcripts, self.folder
            )
            try:
                done = await self._result(ref)
            except LOST_WORKER as error:
                retries += 1
                reason = _first_line(error)
                if retries > self.options.max_retries:
                    raise ClusterError(
                        f"game {game.key} lost its worker {retries} times; last: {reason}"
                    ) from None
                log.warning("game %s lost its worker (%s): playing it again", game.key, reason)
                continue
            except ray.exceptions.RayTaskError as error:
                raise ClusterError(
                    f"game {game.key} failed on its worker: {_first_line(error.cause)}"
                ) from None
            return attrs.evolve(done, line=attrs.evolve(done.line, retries=retries))

    async def _result(self, ref: ray.ObjectRef) -> Finished:
        """The task's game, waited for in a thread; cancelled, it cancels the task (a game
        that had already ended is returned all the same, so that it is kept)."""
        try:
            return await trio.to_thread.run_sync(
                ray.get, ref, abandon_on_cancel=True, limiter=self.waiting
            )
        except trio.Cancelled:
            done = _if_finished(ref)
            if done is not None:
                return done
            ray.cancel(ref)
            raise


def _if_finished(ref: ray.ObjectRef) -> Finished | None:
    """The task's game if it has already ended well, without waiting."""
    ready, _ = ray.wait([ref], timeout=0)
    if not ready:
        return None
    try:
        done: Finished = ray.get(ref)
    except ray.exceptions.RayError:
        return None
    return done


def _first_line(error: BaseException | None) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def cluster_error_in(error: BaseException) -> ClusterError | None:
    """The :class:`ClusterError` inside ``error`` (possibly in exception groups), if any."""
    if isinstance(error, ClusterError):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = cluster_error_in(inner)
            if found is not None:
                return found
    return None
