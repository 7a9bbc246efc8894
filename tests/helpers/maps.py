"""The maps the tests read: always the repository's own ``maps/`` folder."""

from pathlib import Path

from engine.mapfile import GameMap, load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"
"""The repository's maps: the course's five official maps (byte for byte) and ours."""


def load(name: str) -> GameMap:
    """The map ``maps/NAME.xml``."""
    return load_map(MAPS / f"{name}.xml")
