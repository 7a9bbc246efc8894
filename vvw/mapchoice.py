"""Which maps to play: files, globs, bundled names (``thetrap``) or generated ones.

A generated map is ``gen:SEED`` (20 × 15, 6 homes) or ``gen:SEED:WIDTHxHEIGHT[:HOMES]``:
the same text always gives the same map.
"""

import difflib
import glob
import os
from importlib import resources
from pathlib import Path

import attrs

from engine.mapfile import GameMap, MapFileError, load_map
from engine.mapgen import generate_map

BUNDLED = resources.files("vvw.maps")
"""The maps that come with vvw: ``maps/`` of a clone, installed as the package ``vvw.maps``."""
GENERATED_SIZE = (20, 15, 6)


@attrs.frozen
class MapChoice:
    """A map and the text that names it in results (``thetrap``, ``maps/x.xml``, ``gen:3``)."""

    label: str
    game_map: GameMap = attrs.field(eq=False, repr=False)


def bundled_names() -> list[str]:
    """The names of the bundled maps (``thetrap`` for ``thetrap.xml``), sorted."""
    return sorted(
        entry.name.removesuffix(".xml")
        for entry in BUNDLED.iterdir()
        if entry.name.endswith(".xml")
    )


def unknown_map(text: str) -> str:
    """Why ``text`` names no map: ``no such map file: 'maps/x.xml'`` for what looks like a
    file, else ``unknown map 'x'``; then the bundled maps, and the one closest to ``text``
    (``did you mean thetrap?``)."""
    names = bundled_names()
    looks_like_a_file = text.lower().endswith(".xml") or "/" in text or os.sep in text
    why = f"no such map file: {text!r}" if looks_like_a_file else f"unknown map {text!r}"
    why += f" (bundled: {', '.join(names)}; or a map file, a glob, gen:SEED)"
    if not looks_like_a_file and (close := difflib.get_close_matches(text, names, n=1)):
        why += f": did you mean {close[0]}?"
    return why


def _bundled(name: str) -> MapChoice | None:
    """The bundled map ``name``, if there is one."""
    entry = BUNDLED / f"{name}.xml"
    if not entry.is_file():
        return None
    with resources.as_file(entry) as path:
        return _loaded(path, name)


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
        elif (bundled := _bundled(text)) is not None:
            choices.append(bundled)
        else:
            raise ValueError(unknown_map(text))
    return choices
