"""A run's games on a Ray cluster, as ``vvw tournament --cluster`` plays them: the
arguments (``--cluster``, ``--cpus-per-game``, ``--workers``, ``--ship``) and their checks,
and the run given the cluster's venue (:class:`vvw.running.cluster.ClusterGames`), its
failure turned into one line. Ray itself is imported only when a run asks for a cluster
(the optional extra ``vvw[cluster]``).
"""

import argparse
import importlib.util
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from server.settings import Settings
from vvw.argtypes import positive_float, positive_int
from vvw.documents import guide
from vvw.errors import CommandError, UsageError
from vvw.running.participants import Participant
from vvw.running.pool import cores
from vvw.running.runner import Venue

LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch that, at ``0``, puts every process of a cluster on 127.0.0.1."""


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


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
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


def check_cluster_arguments(args: argparse.Namespace) -> None:
    """:class:`UsageError` for cluster arguments that do not go together."""
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


def check_shipped(args: argparse.Namespace, players: Sequence[Participant]) -> None:
    """:class:`UsageError` for a participant with a folder of its own in a ``--ship`` run."""
    for player in players:
        if args.ship is not None and player.folder is not None:
            raise UsageError(
                f"{player.name} runs in the folder {player.folder}; with --ship every bot"
                " runs in the shipped folder: put it there, without folder ="
            )


def check_ray(args: argparse.Namespace) -> None:
    """:class:`UsageError` for ``--cluster`` where Ray is not installed."""
    if args.cluster is not None and importlib.util.find_spec("ray") is None:
        raise UsageError("--cluster needs Ray: pip install 'vvw[cluster]'")


def cluster_run(args: argparse.Namespace) -> ClusterRun | None:
    """Where the run's games go, from the arguments: ``None`` for here."""
    if args.cluster is None:
        return None
    return ClusterRun(
        args.cluster, args.cpus_per_game, args.workers, args.ship, args.keep_transcripts
    )


def on_cluster(
    where: ClusterRun,
    settings: Settings,
    games_dir: Path,
    play: Callable[[int, Venue], int],
) -> int:
    """``play(slots, venue)`` with each game a task on a Ray cluster (see
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
            return play(slots, games)
    except BaseException as error:  # a ClusterError, possibly in an exception group
        failure = cluster.cluster_error_in(error)
        if failure is None:
            raise
        raise ClusterStartError(str(failure)) from None
