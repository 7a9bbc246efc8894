"""What the ladder's tests share: a clock in the test's hands, settings, results to record,
a ladder served in the test's own trio run and fake bots presenting a team's credentials."""

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from server.events import GameEnded
from tests.helpers.maps import load
from tests.server.fakes import FakeBot, random_policy
from vvw.ladder.credentials import Credentials, format_credentials
from vvw.ladder.serving import LadderServer
from vvw.ladder.settings import LadderMap, LadderSettings
from vvw.ladder.store import LadderStore


class ManualClock:
    """A wall clock that moves only when the test says so."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def ladder_settings(**changes) -> LadderSettings:
    maps = (LadderMap.of("thetrap", load("thetrap")), LadderMap.of("testmap", load("testmap")))
    return LadderSettings(maps=maps, **changes)


def result(
    winner: Kind | None,
    termination: Termination = Termination.ELIMINATION,
    detail: str = "",
    plies: int = 30,
) -> GameResult:
    counts = {None: (4, 4), Kind.VAMPIRES: (9, 0), Kind.WEREWOLVES: (0, 9)}[winner]
    return GameResult(
        winner,
        termination,
        detail,
        plies,
        PlayerRecord(Kind.VAMPIRES, "v", counts[0]),
        PlayerRecord(Kind.WEREWOLVES, "w", counts[1]),
    )


def play(store: LadderStore, first: str, second: str, *winners: Kind | None) -> list[int]:
    """A pairing of ``first`` and ``second`` whose legs end with ``winners`` in turn."""
    pairing = store.new_pairing(first, second)
    numbers = []
    for leg, winner in enumerate(winners, 1):
        game = store.begin_game(pairing.id, leg)
        store.finish_game(game.id, result(winner), f"{game.id}.jsonl")
        numbers.append(game.id)
    return numbers


class Heard:
    """A sink that keeps every event, and lets a test wait until they say something."""

    def __init__(self) -> None:
        self.events: list = []
        self._changed = trio.Event()

    def __call__(self, event) -> None:
        self.events.append(event)
        self._changed.set()
        self._changed = trio.Event()

    def of(self, kind: type) -> list:
        return [event for event in self.events if isinstance(event, kind)]

    async def until(self, condition: Callable[["Heard"], bool]) -> None:
        while not condition(self):
            await self._changed.wait()


def ended(count: int) -> Callable[[Heard], bool]:
    """The condition: ``count`` games have ended."""
    return lambda heard: len(heard.of(GameEnded)) >= count


@asynccontextmanager
async def serving(
    store: LadderStore, also: Callable[[Any], None] | None = None, **options
) -> AsyncIterator[tuple[int, Heard, LadderServer]]:
    """``store``'s ladder served on a free loopback port (pairing rounds every 50 ms);
    its port, what it told (to ``also`` too), and the server. Stopped at the end of the
    block."""
    heard = Heard()
    options.setdefault("pairing_interval", 0.05)

    def hear(event: Any) -> None:
        heard(event)
        if also is not None:
            also(event)

    server = LadderServer(store, events=hear, **options)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve, "127.0.0.1", 0)
        yield port, heard, server
        nursery.cancel_scope.cancel()


async def team_bot(
    nursery: trio.Nursery, port: int, team: str, token: str, seed: int = 1, **options
) -> FakeBot:
    """A fake bot playing random plies for ``team`` with its credentials in its NME."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    name = format_credentials(Credentials(team, token))
    bot = FakeBot(stream, name, options.pop("policy", None) or random_policy(seed), **options)
    nursery.start_soon(bot.run)
    return bot
