"""Groups on the board and the distance between them, as every bot reads them.

A group is ``(x, y, count)``, as :meth:`engine.GameState.groups` gives them; creatures move
one cell a ply in any of the eight directions, so the plies between two cells are their
Chebyshev (king-move) distance.
"""

Group = tuple[int, int, int]
"""``(x, y, count)``."""


def distance(a: Group, b: Group) -> int:
    """King moves between the cells of two groups (the plies one needs to reach the other)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
