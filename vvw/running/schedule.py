"""The games of a run, decided before any is played: who meets whom, on which map, with
which battle seed and which seeds for the bots, all from the run's one seed. Every run is
a schedule: a tournament's (:func:`schedule`), a match's (:func:`match_schedule`) and
``vvw play``'s one game (:func:`play_schedule`).

In a tournament every pairing plays, in each round, on each map, a pair of games with
sides swapped on the same map and the same battle seed. Games are ordered round by round,
map by map, so a run stopped early has played every pairing about equally. Each game has
a ``key`` that is the same in every run of the same plan: ``--resume`` plays the keys not
yet in the file, and :func:`scheduled_numbers` gives each key's place again from the plan
alone.

:class:`Planned` hands such a list to the runner (:mod:`vvw.running.runner`) one game at a
time, in order, and none once its stop rule says so (a tournament's SPRT).
"""

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import attrs

from vvw.mapchoice import MapChoice
from vvw.records.results import GameLine
from vvw.running.participants import Participant
from vvw.running.seeds import derive

FORMATS = ("round-robin", "gauntlet")
Player = TypeVar("Player")
"""A participant, or only its name."""


@attrs.frozen
class ScheduledGame:
    """One game to play, with everything needed to play it again the same way."""

    key: str
    pair: str
    round: int
    number: int
    """Its place in the schedule, from 1."""
    vampires: Participant
    werewolves: Participant
    map: MapChoice
    battle_seed: int
    seeds: tuple[int, int]
    """The vampires' and the werewolves' own seeds."""


def pairings(participants: Sequence[Player], form: str) -> list[tuple[Player, Player]]:
    """Round robin: every two participants; gauntlet: the first against each other one."""
    if form == "gauntlet":
        return [(participants[0], other) for other in participants[1:]]
    return [(a, b) for i, a in enumerate(participants) for b in participants[i + 1 :]]


def _pair_key(round_number: int, map_index: int, first: str, second: str) -> str:
    """A pair of games' ``pair``: the round, the map's index and the two names."""
    return f"r{round_number}:m{map_index}:{first}:{second}"


def _game_key(pair: str, leg: int) -> str:
    """A game's ``key``: its pair's, then ``:1`` (first player as vampires) or ``:2``."""
    return f"{pair}:{leg}"


def _pairs_in_order(
    participants: Sequence[Player], form: str, map_count: int, rounds: int
) -> Iterator[tuple[int, int, Player, Player]]:
    """``(round, map index, first, second)`` of every pair of games, in the schedule's order."""
    for round_number in range(1, rounds + 1):
        for map_index in range(map_count):
            for first, second in pairings(participants, form):
                yield round_number, map_index, first, second


def schedule(
    participants: list[Participant], form: str, maps: list[MapChoice], rounds: int, seed: int
) -> list[ScheduledGame]:
    """Every game of the run, in the order they are started."""
    games: list[ScheduledGame] = []
    for round_number, map_index, first, second in _pairs_in_order(
        participants, form, len(maps), rounds
    ):
        pair = _pair_key(round_number, map_index, first.name, second.name)
        battle_seed = derive(seed, "battle", pair)
        for leg, (vampires, werewolves) in enumerate(((first, second), (second, first)), 1):
            key = _game_key(pair, leg)
            games.append(
                ScheduledGame(
                    key=key,
                    pair=pair,
                    round=round_number,
                    number=len(games) + 1,
                    vampires=vampires,
                    werewolves=werewolves,
                    map=maps[map_index],
                    battle_seed=battle_seed,
                    seeds=(derive(seed, "bot", key, 0), derive(seed, "bot", key, 1)),
                )
            )
    return games


def scheduled_numbers(
    names: Sequence[str], form: str, map_count: int, rounds: int
) -> dict[str, int]:
    """Each game's key and its place in the schedule (:attr:`ScheduledGame.number`), from
    the plan alone: the participants' names in order, the format, the maps and rounds."""
    keys = (
        _game_key(_pair_key(*pair), leg)
        for pair in _pairs_in_order(names, form, map_count, rounds)
        for leg in (1, 2)
    )
    return {key: number for number, key in enumerate(keys, 1)}


def match_schedule(
    players: tuple[Participant, Participant], maps: list[MapChoice], games: int, seed: int
) -> list[ScheduledGame]:
    """``vvw match``'s games: in pairs with sides swapped on the same map and the same
    battle seed, the first player the vampires in each pair's first game; the maps in
    turn, one pair each."""
    scheduled = []
    for number in range(1, games + 1):
        index, leg = divmod(number - 1, 2)
        first, second = players if leg == 0 else players[::-1]
        pair = _pair_key(index // len(maps) + 1, index % len(maps), *(p.name for p in players))
        scheduled.append(
            ScheduledGame(
                key=_game_key(pair, leg + 1),
                pair=pair,
                round=index // len(maps) + 1,
                number=number,
                vampires=first,
                werewolves=second,
                map=maps[index % len(maps)],
                battle_seed=derive(seed, "battle", index),
                seeds=(derive(seed, "bot", number, 0), derive(seed, "bot", number, 1)),
            )
        )
    return scheduled


def play_schedule(
    vampires: Participant, werewolves: Participant, choice: MapChoice, seed: int
) -> list[ScheduledGame]:
    """``vvw play``'s one game: a person (a participant whose agent is the page) and a bot."""
    return [
        ScheduledGame(
            key="play:1",
            pair="play",
            round=1,
            number=1,
            vampires=vampires,
            werewolves=werewolves,
            map=choice,
            battle_seed=derive(seed, "battle", 1),
            seeds=(derive(seed, "bot", 0), derive(seed, "bot", 1)),
        )
    ]


def _never(results: Sequence[GameLine]) -> bool:
    return False


@attrs.define
class Planned:
    """A runner's schedule decided up front: ``games`` in order, and none once ``stop``
    says so, given every result so far."""

    games: Sequence[ScheduledGame]
    stop: Callable[[Sequence[GameLine]], bool] = _never
    handed: int = 0
    """The games handed out so far."""

    def next_game(self, results: Sequence[GameLine]) -> ScheduledGame | None:
        """The next game of the list, unless every one is handed out or ``stop`` says so."""
        if self.handed == len(self.games) or self.stop(results):
            return None
        self.handed += 1
        return self.games[self.handed - 1]
