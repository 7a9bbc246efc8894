"""The generated maps the strength targets are measured on."""

from benchmarks.strength import playable
from benchmarks.target_maps import MIN_START_DISTANCE, SIDES, main, target_maps
from vvw.mapchoice import resolve_maps


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
    main(["--per-size", "2"])
    assert capsys.readouterr().out.split() == names
