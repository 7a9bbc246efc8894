"""The one runner: a schedule pulled one game at a time, given the results so far; each game
told to the outputs in their order; a stopped game listed, never counted; no new game once
the stop rule says so."""

from collections.abc import Callable, Sequence

import attrs
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from server.events import EventSink, GameBegun
from vvw.mapchoice import resolve_maps
from vvw.records.results import GameLine
from vvw.running.local_game import Played
from vvw.running.participants import Participant
from vvw.running.playing import results_line
from vvw.running.runner import Finished, Output, run_games
from vvw.running.schedule import Planned, ScheduledGame

MAP = resolve_maps(["thetrap"])[0]
GREEDY, RANDOM = Participant("greedy", "greedy"), Participant("random", "random")
NEWCOMER = Participant("newcomer", "random")


def game(number: int, first: Participant = GREEDY, second: Participant = RANDOM) -> ScheduledGame:
    return ScheduledGame(f"g{number}", f"p{number}", 1, number, first, second, MAP, 1, (1, 2))


def _played(scheduled: ScheduledGame, termination: Termination) -> Finished:
    """``scheduled`` as played: the vampires win, unless it was stopped."""
    winner = None if termination is Termination.ABORTED else Kind.VAMPIRES
    result = GameResult(
        winner,
        termination,
        "",
        3,
        PlayerRecord(Kind.VAMPIRES, scheduled.vampires.name, 5),
        PlayerRecord(Kind.WEREWOLVES, scheduled.werewolves.name, 0),
    )
    played = Played(result, outputs={})
    return Finished(scheduled, played, results_line(scheduled, played, 1.0, None))


@attrs.define
class Timed:
    """A venue whose game ``N`` lasts ``N`` seconds (on trio's clock); the vampires win.
    Cancelled, it tells ``on_abort`` the game as stopped. It keeps what it was given."""

    events: list[EventSink | None] = attrs.Factory(list)
    started: list[int] = attrs.Factory(list)

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None,
        on_abort: Callable[[Finished], None],
    ) -> Finished:
        self.started.append(game.number)
        self.events.append(events)
        if events is not None:
            events(GameBegun(game.number, ("v", "w")))
        try:
            await trio.sleep(game.number)
        except trio.Cancelled:
            on_abort(_played(game, Termination.ABORTED))
            raise
        return _played(game, Termination.ELIMINATION)


class Heard(Output):
    """An output that writes down what it hears, as ``name: what``."""

    def __init__(self, name: str, log: list[str], listens: bool = False) -> None:
        self.name = name
        self.log = log
        self.listens = listens

    def game_started(self, game: ScheduledGame) -> EventSink | None:
        self.log.append(f"{self.name}: started {game.number}")
        if not self.listens:
            return None
        return lambda event: self.log.append(f"{self.name}: {type(event).__name__}")

    def game_finished(self, done: Finished) -> None:
        self.log.append(f"{self.name}: finished {done.game.number}")

    def game_stopped(self, done: Finished) -> None:
        self.log.append(f"{self.name}: stopped {done.game.number}")


@attrs.define
class Rematch:
    """A schedule that hands out game 1, then nothing until it has a result, then a game
    chosen from it (the winner against a newcomer), then nothing. How many results it was
    shown each time it was asked."""

    shown: list[int] = attrs.Factory(list)
    handed: int = 0

    def next_game(self, results: Sequence[GameLine]) -> ScheduledGame | None:
        self.shown.append(len(results))
        if self.handed == 0:
            self.handed = 1
            return game(1)
        if self.handed == 1 and results:
            self.handed = 2
            winner = results[0].vampires
            return game(2, Participant(winner.name, winner.command), NEWCOMER)
        return None


async def test_a_schedule_is_asked_again_when_a_game_ends_and_given_every_result(autojump_clock):
    schedule, venue = Rematch(), Timed()
    results = await run_games(schedule, venue, [], concurrency=3)
    assert venue.started == [1, 2]
    assert [(line.vampires.name, line.werewolves.name) for line in results] == [
        ("greedy", "random"),
        ("greedy", "newcomer"),
    ]
    # three places ask at the start, again each time a game ends, and stop once none is
    # under way and the schedule has none
    assert schedule.shown == [0, 0, 0, 1, 1, 1, 2, 2, 2]


async def test_outputs_hear_each_game_in_their_order_and_the_events_of_those_that_listen(
    autojump_clock,
):
    log: list[str] = []
    venue = Timed()
    outputs = [Heard("a", log), Heard("b", log, listens=True)]
    await run_games(Planned([game(1), game(2)]), venue, outputs)
    assert log == [
        "a: started 1",
        "b: started 1",
        "b: GameBegun",
        "a: finished 1",
        "b: finished 1",
        "a: started 2",
        "b: started 2",
        "b: GameBegun",
        "a: finished 2",
        "b: finished 2",
    ]
    await run_games(Planned([game(1)]), venue, [Heard("a", log)])
    assert venue.events[-1] is None  # nobody listens: no events are made


async def test_a_game_stopped_is_told_as_stopped_and_not_counted(autojump_clock):
    log: list[str] = []
    results: list[GameLine] = [_played(game(9), Termination.ELIMINATION).line]
    with trio.move_on_after(2.5):
        await run_games(Planned([game(1), game(2)]), Timed(), [Heard("a", log)], results=results)
    assert log == ["a: started 1", "a: finished 1", "a: started 2", "a: stopped 2"]
    assert len(results) == 1  # the caller's list is not the run's


async def test_no_game_starts_once_the_stop_rule_says_so(autojump_clock):
    venue = Timed()
    schedule = Planned([game(n) for n in (1, 2, 3, 4)], stop=lambda results: len(results) >= 2)
    results = await run_games(schedule, venue, [], concurrency=1)
    assert venue.started == [1, 2] and len(results) == 2
