"""The one runner: a schedule's games played up to N at once at a venue, each game told to
the outputs.

fastchess's shape. The :class:`Schedule` is pluggable and pulled: asked for the next game
whenever a place is free, given every result so far, it answers a game, or none for now
(a match's games, a tournament's with its SPRT stop, ``vvw play``'s one game, the strength
benchmark's; a schedule that chooses each game from the results fits the same door). The
:class:`Venue` is where a game is played: here, each game on a port of its own with its
bots' processes (:mod:`vvw.running.playing`), as Ray tasks (:mod:`vvw.running.cluster`), in
the in-process arena (:mod:`vvw.running.in_process`), with a person at the page
(:mod:`vvw.running.human`). What is shown and kept of the run are :class:`Output`\\ s, driven
through one interface: the terminal's lines and live display, the results file, ``match
--json``, the live view and its dashboard.

Stopped (Ctrl-C: the run is cancelled), a game under way ends as aborted where the venue
can tell (a game played here): the outputs hear it as stopped, never as finished.
"""

from collections.abc import Callable, Sequence
from typing import Protocol

import attrs
import trio

from server.events import EventSink, fan_out
from vvw.records.results import GameLine
from vvw.running.local_game import Played
from vvw.running.schedule import ScheduledGame


@attrs.frozen
class Finished:
    """A game of the run that ended (or was stopped): what was scheduled, the game as
    played (its full result, its files), and its results line."""

    game: ScheduledGame
    played: Played
    line: GameLine


class Schedule(Protocol):
    """The games of a run, handed out one at a time."""

    def next_game(self, results: Sequence[GameLine]) -> ScheduledGame | None:
        """The game to start now, given every result so far (in the order the games
        ended); ``None``: none now. The run ends when a schedule answers ``None`` and no
        game is under way."""
        ...


class Venue(Protocol):
    """Where and how a game is played."""

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None,
        on_abort: Callable[[Finished], None],
    ) -> Finished:
        """Play ``game``; ``events`` (if any) hears the server's events, transcript lines
        included. Cancelled mid-game, a venue that can tell gives ``on_abort`` the game as
        stopped before the cancellation goes on."""
        ...


class Output:
    """What a run shows or keeps, told of each game by the runner; each hook does nothing
    unless overridden."""

    def game_started(self, game: ScheduledGame) -> EventSink | None:
        """A game begins: the sink that hears its events, or ``None`` (none needed: the
        transcript's lines are then not even made)."""
        return None

    def game_finished(self, done: Finished) -> None:
        """A game ended, by the board, the clock or a side's fault: a result to count."""

    def game_stopped(self, done: Finished) -> None:
        """A game was stopped before its end (Ctrl-C): listed, never counted."""


async def run_games(
    schedule: Schedule,
    venue: Venue,
    outputs: Sequence[Output],
    *,
    concurrency: int = 1,
    results: Sequence[GameLine] = (),
) -> list[GameLine]:
    """Play ``schedule``'s games at ``venue``, up to ``concurrency`` at once, telling
    ``outputs`` (in their order) of each; ``results`` are the run's games before this
    call (a resumed run's). Every result, those before included, in the order they ended."""
    run = _Run(schedule, venue, tuple(outputs), list(results))
    async with trio.open_nursery() as nursery:
        for _ in range(concurrency):
            nursery.start_soon(run.work)
    return run.results


@attrs.define
class _Run:
    """A run under way: the results so far and the games being played."""

    schedule: Schedule
    venue: Venue
    outputs: tuple[Output, ...]
    results: list[GameLine]
    under_way: int = 0
    ended: trio.Event = attrs.Factory(trio.Event)
    """Set when a game ends (then replaced): a place waiting for a game asks again."""

    async def work(self) -> None:
        """One place: the schedule's next game played, again and again, until the
        schedule has none and no game is under way."""
        while True:
            game = self.schedule.next_game(self.results)
            if game is None:
                if not self.under_way:
                    return
                await self.ended.wait()
                continue
            self.under_way += 1
            try:
                await self._play(game)
            finally:
                self.under_way -= 1
                self.ended.set()
                self.ended = trio.Event()

    async def _play(self, game: ScheduledGame) -> None:
        sinks = [sink for output in self.outputs if (sink := output.game_started(game))]
        events = fan_out(*sinks) if sinks else None
        done = await self.venue.play(game, events, self._stopped)
        self.results.append(done.line)
        for output in self.outputs:
            output.game_finished(done)

    def _stopped(self, done: Finished) -> None:
        for output in self.outputs:
            output.game_stopped(done)
