"""A tournament played: its schedule ``concurrency`` games at once, here or on a cluster.

:class:`Tournament` is a run under way on the one runner (:mod:`vvw.running.runner`): the
games its results file lacks (``--resume`` plays only those), handed out in order until
the SPRT decides; its outputs: each finished game appended to the file at once, the
standings kept as games end, the terminal's lines and footer, the live view and its
dashboard (:func:`begin` makes it, its results file opened). ``vvw tournament`` parses,
calls and prints (:mod:`vvw.commands.tournament`); a cluster's venue is
:mod:`vvw.running.cluster_run`'s. :func:`report_games` finds again the numbers and the
kept transcripts of the games of results files, for ``vvw tournament report --html``.
"""

import argparse
from collections.abc import Sequence
from pathlib import Path

import attrs

from server.settings import Settings
from vvw.errors import UsageError
from vvw.game_arguments import settings_record
from vvw.mapchoice import MapChoice
from vvw.paths import make_folder
from vvw.ports import Listening
from vvw.records.results import GameLine, Header, ResultsWriter, read_results
from vvw.records.standings import Standings
from vvw.records.stats import Sprt
from vvw.running.outputs import Dashboard, LiveView, ResultsFile, Table
from vvw.running.participants import Participant
from vvw.running.runner import Output, Venue, run_games
from vvw.running.schedule import Planned, ScheduledGame, schedule, scheduled_numbers
from vvw.running.terminal import RunProgress
from vvw.runs import new_run_dir, remove_if_empty
from vvw.web.live import LiveHub, showing
from vvw.wording import plural


@attrs.frozen
class Plan:
    """What a tournament plays: who, how paired, where, how often, from which seed, how."""

    players: list[Participant]
    form: str
    maps: list[MapChoice]
    rounds: int
    seed: int
    settings: Settings
    sprt: Sprt | None
    command: str
    """The command line that started the run, as the results file keeps it."""


@attrs.define
class Tournament:
    """A run under way: what it plays, what it has played, how the tables stand."""

    header: Header
    todo: list[ScheduledGame]
    """Every game of the schedule."""
    done: list[GameLine]
    """The games the results file held when the run (re)started."""
    writer: ResultsWriter
    sprt: Sprt | None
    hub: LiveHub | None
    tally: Table = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.tally = Table(self.header, self.done)

    @property
    def table(self) -> Standings:
        """The standings of every game played so far (those of the file included)."""
        return self.tally.standings

    @property
    def games_dir(self) -> Path:
        """The folder of the games' files: ``RESULTS-games`` beside the results file."""
        path = self.writer.path
        return path.parent / f"{path.stem}-games"

    @property
    def remaining(self) -> list[ScheduledGame]:
        """The games of the schedule the results file lacks (``--resume``)."""
        finished = {line.key for line in self.done}
        return [game for game in self.todo if game.key not in finished]

    def plan_text(self) -> str:
        """``2 participants, 1 map, rounds 1: 2 games, 2 to play; seed 3; results in F``."""
        header = self.header
        return (
            f"{plural(len(header.participants), 'participant')},"
            f" {plural(len(header.maps), 'map')}, rounds {header.rounds}:"
            f" {plural(len(self.todo), 'game')}, {len(self.remaining)} to play;"
            f" seed {header.seed}; results in {self.writer.path}"
        )

    async def run(self, venue: Venue, concurrency: int, view: Listening) -> None:
        """Play the remaining games at ``venue``, ``concurrency`` at once, until all are
        played or the SPRT decides; the live view (if any) on ``view``. The games' folder
        is removed if they left nothing in it."""
        try:
            await self._run(venue, concurrency, view)
        finally:
            remove_if_empty(self.games_dir)

    async def _run(self, venue: Venue, concurrency: int, view: Listening) -> None:
        remaining = self.remaining
        schedule = Planned(remaining, stop=lambda _: self.tally.decided(self.sprt))
        shown: list[Output] = []
        if self.hub is not None:  # the dashboard is there before the page can be asked for
            numbers = {game.key: game.number for game in self.todo}
            shown = [Dashboard(self.hub, self.tally, numbers), LiveView(self.hub)]
        async with showing(self.hub, view, lambda at: print(f"live view on {at}", flush=True)):
            played = len(self.todo) - len(remaining)
            with RunProgress(len(self.todo), played, standings=lambda: self.table) as progress:
                outputs = [ResultsFile(self.writer), self.tally, progress, *shown]
                await run_games(
                    schedule, venue, outputs, concurrency=concurrency, results=self.done
                )


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


def add_results_arguments(parser: argparse.ArgumentParser) -> None:
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


def begin(plan: Plan, path: Path, view: bool) -> Tournament:
    """The tournament of ``plan`` with its results at ``path`` (those it holds already
    count: ``--resume``), shown on a live view if ``view``; the file's header written.
    :class:`~vvw.records.results.ResultsFileError` if the file holds another run."""
    todo = schedule(plan.players, plan.form, plan.maps, plan.rounds, plan.seed)
    header = Header(
        participants=[(p.name, p.spec) for p in plan.players],
        format=plan.form,
        maps=[choice.label for choice in plan.maps],
        rounds=plan.rounds,
        seed=plan.seed,
        games=len(todo),
        settings=settings_record(plan.settings),
        sprt=None if plan.sprt is None else attrs.asdict(plan.sprt),
        command=plan.command,
    )
    writer = ResultsWriter(path, header)
    hub = LiveHub(tournament=True) if view else None
    return Tournament(header, todo, read_results(path)[1], writer, plan.sprt, hub)


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


def report_games(
    runs: Sequence[tuple[Path, Header, Sequence[GameLine]]],
    header: Header,
    games: Sequence[GameLine],
) -> list[tuple[int, GameLine, Path | None]]:
    """The games of ``runs`` (each results file, its header and its games) counted
    together (:func:`~vvw.records.results.combine_runs`: ``header`` and ``games``), each
    once (its first line): its number, its line, its kept transcript."""
    files = [path for path, _, lines in runs for _ in lines]  # each game's results file
    first: dict[str, tuple[GameLine, Path]] = {}
    for line, path in zip(games, files, strict=True):
        first.setdefault(line.key, (line, path))
    numbers = _report_numbers(header, list(first), len(runs))
    return [
        (numbers[key], line, kept_transcript(line, path)) for key, (line, path) in first.items()
    ]


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
