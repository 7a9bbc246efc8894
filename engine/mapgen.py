"""A map generator like the course's: centrally symmetric, so both species face the same map.

``generate_map(width, height, homes, seed)``: ``homes`` human groups of 1–19 at random
``x < width / 2``, each mirrored at ``(width − 1 − x, height − 1 − y)``; a werewolf start of
2–19 mirrored into the vampire start with the same count. Seeded: same seed, same map.
"""

import random

from engine.mapfile import MAX_CELLS, GameMap
from engine.state import MAX_SIDE


def mirror(x: int, y: int, width: int, height: int) -> tuple[int, int]:
    """The cell opposite ``(x, y)`` through the centre of the grid."""
    return width - 1 - x, height - 1 - y


def generate_map(width: int, height: int, homes: int, seed: int | None = None) -> GameMap:
    """A centrally symmetric map with ``2 × homes`` human houses (see the module docstring)."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"width and height must be 1..{MAX_SIDE}, got {width} × {height}")
    if homes < 0:
        raise ValueError(f"homes must be 0 or more, got {homes}")
    if 2 * homes + 2 > MAX_CELLS:
        raise ValueError(
            f"at most {(MAX_CELLS - 2) // 2} homes: the protocol's MAP message counts the"
            f" non-empty cells in one byte, and {homes} homes make {2 * homes + 2}"
        )
    half = [
        (x, y)
        for x in range((width + 1) // 2)
        for y in range(height)
        if (x, y) != mirror(x, y, width, height)
    ]
    pairs = (width // 2) * height + (width % 2) * (height // 2)
    if homes + 1 > pairs:
        raise ValueError(
            f"a {width} × {height} grid has room for {max(pairs - 1, 0)} mirrored homes"
            f" besides the starts, not {homes}"
        )
    rng = random.Random(seed)
    taken: set[tuple[int, int]] = set()

    def place() -> tuple[int, int]:
        while True:
            cell = rng.choice(half)
            twin = mirror(*cell, width, height)
            if cell not in taken and twin not in taken:
                taken.update((cell, twin))
                return cell

    wx, wy = place()
    count = rng.randint(2, 19)
    humans = []
    for _ in range(homes):
        x, y = place()
        n = rng.randint(1, 19)
        humans += [(x, y, n), (*mirror(x, y, width, height), n)]
    return GameMap(
        rows=height,
        cols=width,
        humans=tuple(humans),
        vampires=(*mirror(wx, wy, width, height), count),
        werewolves=(wx, wy, count),
        name=f"gen-{width}x{height}-{homes}-{seed}",
    )
