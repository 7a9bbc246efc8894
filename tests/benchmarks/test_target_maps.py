"""The generated maps the strength targets are measured on."""

import pytest

from benchmarks.target_maps import (
    BIG_MIN_HOUSE,
    BIG_SIDES,
    MIN_START_DISTANCE,
    SIDES,
    big_open_maps,
    main,
    playable,
    target_maps,
)
from engine.mapfile import GameMap
from vvw.mapchoice import resolve_maps


def mirrored_map(start: int, houses: list[int]) -> GameMap:
    """A 10 × 10 map with a start of ``start`` and a mirrored pair of each of ``houses``."""
    humans = []
    for i, count in enumerate(houses):
        humans += [(i, 0, count), (9 - i, 9, count)]
    return GameMap(
        rows=10, cols=10, humans=tuple(humans), vampires=(5, 5, start), werewolves=(4, 4, start)
    )


@pytest.mark.parametrize(
    ("start", "houses", "expected"),
    [
        (3, [3, 6], True),
        (2, [1, 3, 6], True),
        (2, [1, 4], False),
        (2, [3], False),
        (7, [2, 14, 16], False),
        (5, [], True),
    ],
)
def test_generated_maps_are_kept_only_if_a_start_can_grow_to_convert_its_half(
    start: int, houses: list[int], expected: bool
) -> None:
    assert playable(mirrored_map(start, houses)) is expected


def test_two_maps_of_each_size_with_starts_apart_and_conversions_that_never_stall(capsys):
    names = list(target_maps(2))
    assert len(names) == 2 * len(SIDES)
    for choice in resolve_maps(names):
        game_map = choice.game_map
        assert (game_map.cols, game_map.rows) in {(side, side) for side in SIDES}
        vx, vy, _ = game_map.vampires
        wx, wy, _ = game_map.werewolves
        assert max(abs(vx - wx), abs(vy - wy)) >= MIN_START_DISTANCE
        assert playable(game_map)
    main(["--per-size", "2", "--big-per-size", "0"])
    assert capsys.readouterr().out.split() == names


def test_big_open_maps_have_few_large_houses_and_starts_half_a_board_apart(capsys):
    names = list(big_open_maps(2))
    assert len(names) == 2 * len(BIG_SIDES)
    for choice in resolve_maps(names):
        game_map = choice.game_map
        side = game_map.cols
        assert side == game_map.rows and side in BIG_SIDES
        assert len(game_map.humans) <= side // 3
        assert min(house[2] for house in game_map.humans) >= BIG_MIN_HOUSE
        vx, vy, _ = game_map.vampires
        wx, wy, _ = game_map.werewolves
        assert max(abs(vx - wx), abs(vy - wy)) >= side // 2
        assert playable(game_map)
    main([])  # the default set: two maps of each size, then one big open map of each
    assert capsys.readouterr().out.split() == [*target_maps(2), *big_open_maps(1)]
