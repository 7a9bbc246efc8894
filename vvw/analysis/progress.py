"""A game analysed in a terminal: a progress bar on standard error while its plies are
searched, and a line saying how far it got if a Ctrl-C stops it."""

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from vvw.analysis.game import PlayedGame
from vvw.analysis.game_analysis import GameAnalysis, analyse_game
from vvw.analysis.judging import Thresholds
from vvw.analysis.search import Settings


def analyse_showing_progress(
    game: PlayedGame, settings: Settings, thresholds: Thresholds, jobs: int
) -> GameAnalysis:
    """:func:`~vvw.analysis.game_analysis.analyse_game` with a bar of the plies searched."""
    columns = (
        TextColumn("analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("plies"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("plies", total=len(game.turns))
        done = 0

        def advance(_: object) -> None:
            nonlocal done
            done += 1
            progress.update(task, completed=done)

        try:
            return analyse_game(game, settings, thresholds=thresholds, jobs=jobs, progress=advance)
        except KeyboardInterrupt:
            progress.stop()
            print(
                f"stopped after {done} of {len(game.turns)} plies: no analysis written",
                file=sys.stderr,
            )
            raise
