"""The map generator: centrally symmetric, seeded, counts in the course's ranges."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mapgen import generate_map, mirror

sizes = st.tuples(st.integers(2, 40), st.integers(2, 40))


@st.composite
def feasible(draw: st.DrawFn) -> tuple[int, int, int, int]:
    width, height = draw(sizes)
    pairs = (width * height) // 2
    return width, height, draw(st.integers(0, min(pairs - 1, 30))), draw(st.integers())


@settings(max_examples=200, deadline=None)
@given(feasible())
def test_generated_maps_are_centrally_symmetric(args: tuple[int, int, int, int]) -> None:
    width, height, homes, seed = args
    game_map = generate_map(width, height, homes, seed)
    assert (game_map.rows, game_map.cols) == (height, width)
    assert len(game_map.humans) == 2 * homes
    for (x, y, n), (mx, my, mn) in zip(game_map.humans[::2], game_map.humans[1::2], strict=True):
        assert (mx, my) == mirror(x, y, width, height) and mn == n
        assert x < width / 2
    wx, wy, wn = game_map.werewolves
    assert game_map.vampires == (*mirror(wx, wy, width, height), wn)
    assert wx < width / 2


@settings(max_examples=200, deadline=None)
@given(feasible())
def test_generated_counts_are_in_range_and_cells_distinct(args: tuple[int, int, int, int]) -> None:
    game_map = generate_map(*args)
    assert all(1 <= n <= 19 for _, _, n in game_map.humans)
    assert 2 <= game_map.werewolves[2] <= 19
    cells = [(x, y) for x, y, _ in (*game_map.humans, game_map.vampires, game_map.werewolves)]
    assert len(set(cells)) == len(cells)
    assert all(0 <= x < game_map.cols and 0 <= y < game_map.rows for x, y in cells)
    game_map.initial_state()


def test_the_same_seed_gives_the_same_map() -> None:
    assert generate_map(20, 15, 6, seed=42) == generate_map(20, 15, 6, seed=42)
    assert generate_map(20, 15, 6, seed=42).name == "gen-20x15-6-42"
    assert len({generate_map(20, 15, 6, seed=s) for s in range(10)}) > 1


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 3), (5, 4), (1, 2), (7, 1)])
def test_the_largest_number_of_homes_fills_every_mirrored_pair(width: int, height: int) -> None:
    pairs = (width * height) // 2
    game_map = generate_map(width, height, pairs - 1, seed=1)
    assert len(game_map.humans) + 2 == 2 * pairs
    with pytest.raises(ValueError, match=f"has room for {pairs - 1} mirrored homes"):
        generate_map(width, height, pairs, seed=1)


@pytest.mark.parametrize(
    ("width", "height", "homes", "message"),
    [
        (0, 5, 1, "width and height must be 1..255, got 0 × 5"),
        (5, 256, 1, "width and height must be 1..255, got 5 × 256"),
        (5, 5, -1, "homes must be 0 or more, got -1"),
        (1, 1, 0, r"a 1 × 1 grid has room for 0 mirrored homes besides the starts, not 0"),
        (2, 2, 2, r"a 2 × 2 grid has room for 1 mirrored homes besides the starts, not 2"),
        (
            30,
            30,
            127,
            r"at most 126 homes: the protocol's MAP message counts the non-empty"
            r" cells in one byte, and 127 homes make 256",
        ),
    ],
)
def test_impossible_sizes_are_refused(width: int, height: int, homes: int, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        generate_map(width, height, homes, seed=0)


def test_the_most_homes_the_protocol_can_send_are_made() -> None:
    assert len(generate_map(30, 30, 126, seed=1).humans) + 2 == 254
