"""What a user sees while a run goes, as outputs of the runner (:mod:`vvw.running.runner`):
a line per finished game and, in a terminal, a live footer with the games done, the time
left and the running standings (drawn by ``rich``); for a match, in a terminal, a live
line with the game's ply and each side's creatures.

Our output closed (``vvw … | head``) is a ``BrokenPipeError``, which ``vvw.cli`` ends
quietly: not ``rich``'s own ``SystemExit``.
"""

import time
from collections.abc import Callable
from types import TracebackType
from typing import NoReturn, Self

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from engine import Kind
from protocol.records import Ply, Record, Skip
from server.events import EventSink, GameBegun, ServerEvent, TranscriptLine
from vvw.records.results import GameLine
from vvw.records.standings import Standings
from vvw.running.runner import Finished, Output
from vvw.running.schedule import ScheduledGame
from vvw.wording import plies

SHOWN = 12
"""Participants shown in the live standings (the best ones)."""


def describe_game(game: GameLine) -> str:
    """``r1:m0:a:b:1 on thetrap: a (vampires) beats b by elimination after 23 plies``."""
    names = f"{game.vampires.name} vs {game.werewolves.name}"
    if game.winner is None:
        outcome = f"draw by {game.termination.value}"
    else:
        winner = game.side(game.winner)
        side = game.winner.wire_name
        outcome = f"{winner.name} ({side}) wins by {game.termination.value}"
    line = f"{game.key} on {game.map}: {names}: {outcome} after {plies(game.plies)}"
    if game.abnormal:
        line += f": {game.reason}"
    return line


class _Console(Console):
    """A ``rich`` console whose closed output raises ``BrokenPipeError``, as ``print`` does."""

    def on_broken_pipe(self) -> NoReturn:
        raise BrokenPipeError


def plain_console() -> Console:
    """The console progress is shown on: standard output, names printed as they are."""
    return _Console(highlight=False, emoji=False, markup=False)


class _LiveFooter:
    """A display kept at the bottom of a terminal while a run goes (none elsewhere), redrawn
    a few times a second by ``rich`` and gone when the run ends."""

    refreshes = 4
    """Redraws per second."""

    def __init__(self, console: Console | None) -> None:
        self.console = console or plain_console()
        self.live: Live | None = None

    def _render(self) -> RenderableType:
        raise NotImplementedError

    def __enter__(self) -> Self:
        if self.console.is_terminal:
            self.live = Live(
                self._render(),
                console=self.console,
                refresh_per_second=self.refreshes,
                transient=True,
            )
            self.live.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.live is not None:
            self.live.stop()


class RunProgress(_LiveFooter, Output):
    """Reports each finished game; in a terminal, also the live footer with the standings
    that ``standings()`` gives."""

    def __init__(
        self,
        total: int,
        done: int,
        console: Console | None = None,
        standings: Callable[[], Standings] | None = None,
    ) -> None:
        super().__init__(console)
        self.total = total
        self.done = done
        self.standings = standings
        self.started = time.monotonic()
        self.bar = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=self.console,
            auto_refresh=False,
        )
        self.task = self.bar.add_task("games", total=total, completed=done)
        self.table: Table | None = None

    def _render(self) -> Group:
        return Group(self.bar, *([self.table] if self.table is not None else []))

    def game_finished(self, done: Finished) -> None:
        self.finished(done.line, None if self.standings is None else self.standings())

    def finished(self, game: GameLine, table: Standings | None) -> None:
        """A game ended: print its line, move the bar, show the new standings (if any)."""
        self.done += 1
        self.console.print(
            Text(f"[{self.done}/{self.total}] {describe_game(game)}"), soft_wrap=True
        )
        self.bar.update(self.task, completed=self.done)
        if self.live is not None and table is not None:
            self.table = _standings_table(table)
            self.live.update(self._render(), refresh=True)


def _standings_table(table: Standings) -> Table:
    shown = Table(box=None, pad_edge=False)
    for column in ("participant", "games", "W-D-L", "score", "Elo ± 95 %", "LOS"):
        shown.add_column(column, justify="left" if column == "participant" else "right")
    for row in table.participants[:SHOWN]:
        shown.add_row(
            Text(row.name),
            str(row.tally.games),
            row.tally.wdl,
            f"{row.estimate.score:.1%}" if row.tally.games else "-",
            row.estimate.format(),
            f"{row.estimate.los:.1%}" if row.tally.games else "-",
        )
    if table.sprt is not None and table.llr is not None:
        shown.caption = (
            f"SPRT LLR {table.llr:.2f} in [{table.sprt.lower:.2f}, {table.sprt.upper:.2f}]"
        )
    return shown


class GameProgress(_LiveFooter, Output):
    """In a terminal, one live line while a game is played (``game 2 on thetrap: alphabeta
    vs greedy: ply 57 of 200, vampires 12, werewolves 9, humans 4``), gone when it ends;
    elsewhere nothing."""

    refreshes = 8

    def __init__(self, ply_limit: int, console: Console | None = None) -> None:
        super().__init__(console)
        self.ply_limit = ply_limit
        self.text = ""

    def _render(self) -> Text:
        return Text(self.text)

    def game_started(self, game: ScheduledGame) -> EventSink | None:
        """The events sink of ``game``: its transcript's lines move the line on; ``None``
        outside a terminal (no transcript lines need reading then)."""
        if self.live is None:
            return None
        vampires, werewolves = game.vampires.name, game.werewolves.name
        title = f"game {game.number} on {game.map.label}: {vampires} vs {werewolves}"

        def hear(event: ServerEvent) -> None:
            if isinstance(event, GameBegun):
                self._show(f"{title}: starting")
            elif isinstance(event, TranscriptLine):
                self._follow(title, event.record)

        return hear

    def _follow(self, title: str, record: Record) -> None:
        """The game's transcript's next record: after a ply or a skipped turn, the line
        shows it (and the creatures on the board)."""
        if isinstance(record, Skip):
            self._show(f"{title}: ply {record.ply_number} of {self.ply_limit}")
        elif isinstance(record, Ply) and record.board is not None:
            counts = {kind: 0 for kind in (Kind.VAMPIRES, Kind.WEREWOLVES, Kind.HUMANS)}
            for _, _, kind, count in record.board:
                counts[kind] += count
            sides = ", ".join(f"{kind.wire_name} {n}" for kind, n in counts.items())
            self._show(f"{title}: ply {record.ply_number} of {self.ply_limit}, {sides}")

    def _show(self, text: str) -> None:
        """The line to draw next (``rich`` redraws it a few times a second)."""
        self.text = text
        if self.live is not None:
            self.live.update(self._render())
