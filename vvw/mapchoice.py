"""Which maps to play: files, globs, bundled names (``thetrap``) or generated ones.

A generated map is ``gen:SEED`` (20 × 15, 6 homes) or ``gen:SEED:WIDTHxHEIGHT[:HOMES]``:
the same text always gives the same map.
"""

import glob
from pathlib import Path

import attrs

from engine.mapfile import GameMap, MapFileError, load_map
from engine.mapgen import generate_map

BUNDLED = Path(__file__).resolve().parent.parent / "maps"
"""The maps that come with the project (``maps/`` beside the packages)."""
GENERATED_SIZE = (20, 15, 6)


@attrs.frozen
class MapChoice:
    """A map and the text that names it in results (``thetrap``, ``maps/x.xml``, ``gen:3``)."""

    label: str
    game_map: GameMap = attrs.field(eq=False, repr=False)


def bundled_names() -> list[str]:
    return sorted(path.stem for path in BUNDLED.glob("*.xml"))


def _generated(text: str) -> MapChoice:
    parts = text.split(":")[1:]
    width, height, homes = GENERATED_SIZE
    try:
        seed = int(parts[0])
        if len(parts) > 1:
            width, height = (int(n) for n in parts[1].lower().replace("×", "x").split("x"))
        if len(parts) > 2:
            homes = int(parts[2])
        if len(parts) > 3:
            raise ValueError
    except (ValueError, IndexError):
        raise ValueError(
            f"{text!r}: a generated map is gen:SEED or gen:SEED:WIDTHxHEIGHT[:HOMES]"
        ) from None
    game_map = generate_map(width, height, homes, seed)  # ValueError: a size it cannot make
    label = f"gen:{seed}:{width}x{height}:{homes}"
    return MapChoice(label, attrs.evolve(game_map, name=label))


def _loaded(path: Path, label: str) -> MapChoice:
    try:
        return MapChoice(label, load_map(path))
    except MapFileError as error:  # it names the file
        raise ValueError(f"bad map {error}") from None
    except OSError as error:
        raise ValueError(f"cannot read map {label}: {error.strerror or error}") from None


def resolve_maps(texts: list[str]) -> list[MapChoice]:
    """The maps named by ``texts``, in order (a glob's files sorted); ``ValueError`` with a
    one-line reason for one that cannot be found or read."""
    choices: list[MapChoice] = []
    for text in texts:
        if text.startswith("gen:") or text == "gen":
            choices.append(_generated(text))
        elif Path(text).exists():
            choices.append(_loaded(Path(text), text))
        elif any(char in text for char in "*?["):
            matches = sorted(glob.glob(text))
            if not matches:
                raise ValueError(f"no map file matches {text}")
            choices.extend(_loaded(Path(match), match) for match in matches)
        elif (BUNDLED / f"{text}.xml").exists():
            choices.append(_loaded(BUNDLED / f"{text}.xml", text))
        else:
            raise ValueError(
                f"no map {text!r}: not a file, nor a bundled map ({', '.join(bundled_names())}),"
                " nor gen:SEED"
            )
    return choices
