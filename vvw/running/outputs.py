"""The runner's outputs that every kind of run shares: the results file, the live view and
its dashboard, the standings kept as games end (which the terminal's footer, the dashboard
and the SPRT read). The terminal's are in :mod:`vvw.running.terminal`, a match's own in
:mod:`vvw.running.match`.
"""

from collections.abc import Callable, Sequence

from server.events import EventSink
from vvw.records.results import GameLine, Header, ResultsWriter
from vvw.records.standings import Standings, standings
from vvw.records.stats import Sprt
from vvw.running.runner import Finished, Output
from vvw.running.schedule import ScheduledGame
from vvw.web.dashboard import FinishedGame, LiveBoard
from vvw.web.live import LiveHub


class ResultsFile(Output):
    """Each finished game appended to the results file the moment it ends (a stopped one
    is not: ``--resume`` plays it again)."""

    def __init__(self, writer: ResultsWriter) -> None:
        self.writer = writer

    def game_finished(self, done: Finished) -> None:
        self.writer.add(done.line)


def numbered(game: ScheduledGame) -> str:
    """``game 3 (thetrap)``: a game as the live view lists it."""
    return f"game {game.number} ({game.map.label})"


class LiveView(Output):
    """Each game shown on the live view as it is played (its transcript's lines), with the
    participants' names; listed as ``label`` says."""

    def __init__(self, hub: LiveHub, label: Callable[[ScheduledGame], str] = numbered) -> None:
        self.hub = hub
        self.label = label

    def game_started(self, game: ScheduledGame) -> EventSink:
        names = {"vampires": game.vampires.name, "werewolves": game.werewolves.name}
        return self.hub.listener(self.label(game), names)


class Table(Output):
    """The run's standings, made again from every result each time a game ends."""

    def __init__(self, header: Header, results: Sequence[GameLine] = ()) -> None:
        self.header = header
        self.results = list(results)
        self.standings: Standings = standings(header, self.results)

    def game_finished(self, done: Finished) -> None:
        self.results.append(done.line)
        self.standings = standings(self.header, self.results)

    def decided(self, sprt: Sprt | None) -> bool:
        """Whether ``sprt`` has decided on the games so far."""
        llr = self.standings.llr
        return sprt is not None and llr is not None and sprt.decision(llr) is not None


class Dashboard(Output):
    """The live view's dashboard: the standings of ``table`` and the finished games, each
    with its replay while the live view keeps it, shown anew after each game."""

    def __init__(self, hub: LiveHub, table: Table, numbers: dict[str, int]) -> None:
        self.hub = hub
        self.table = table
        self.board = LiveBoard(hub.show_board)
        self.board.add(
            table.standings,
            *(FinishedGame(numbers.get(line.key, 0), line, None) for line in table.results),
        )

    def game_finished(self, done: Finished) -> None:
        number = done.game.number
        replay = f"replay?game={number}" if str(number) in self.hub.games else None
        self.board.add(self.table.standings, FinishedGame(number, done.line, replay))
