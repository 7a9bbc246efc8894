"""What the ladder's tests share: a clock in the test's hands, settings, results to record."""

from engine import GameResult, Kind, PlayerRecord, Termination
from tests.helpers.maps import load
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
