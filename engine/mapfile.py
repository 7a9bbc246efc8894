"""The course's XML map files: read them strictly, write them as the course kit does.

A map file is ``<Map Rows="r" Columns="c">`` holding ``<Humans X= Y= Count=/>`` elements
(any number), exactly one ``<Vampires …/>`` and one ``<Werewolves …/>``; names are
case-sensitive, values 0..255. A bad file raises :class:`MapFileError`, one clear line that
names the file, the element (and line) and what is wrong.
"""

import re
import xml.parsers.expat
from pathlib import Path

import attrs

from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.state import GameState

Group = tuple[int, int, int]
"""``(x, y, count)``."""

BOM = "\ufeff"
MAX_CELLS = 255
"""Non-empty cells a map may have: the protocol's MAP lists them with a one-byte count,
so a map holds at most 253 human houses besides the two starts."""
DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([^"']*)""")
"""The ``encoding`` of an XML declaration, for error messages."""
SHOWN = 40
"""Characters of a value or a name quoted in an error message (longer ones are cut)."""
ATTRIBUTES = {
    "Map": ("Rows", "Columns"),
    "Humans": ("X", "Y", "Count"),
    "Vampires": ("X", "Y", "Count"),
    "Werewolves": ("X", "Y", "Count"),
}


def _cut(text: str) -> str:
    """``text`` for an error message: at most :data:`SHOWN` characters, then how many more."""
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN]}… ({len(text) - SHOWN} more characters)"


class MapFileError(ValueError):
    """A map file that cannot be played: which file, which element and line, and why."""

    def __init__(
        self, file: str, reason: str, element: str | None = None, line: int | None = None
    ) -> None:
        self.file = file
        self.reason = reason
        self.element = element
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [self.file]
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.element is not None:
            where.append(self.element)
        return f"{', '.join(where)}: {self.reason}"


@attrs.frozen
class GameMap:
    """A map: grid size, human houses in file order, and the two species' starts."""

    rows: int
    cols: int
    humans: tuple[Group, ...]
    vampires: Group
    werewolves: Group
    name: str = attrs.field(default="", eq=False)

    def initial_state(self) -> GameState:
        """The board before the first ply."""
        cells = {(x, y): (HUMANS, n) for x, y, n in self.humans}
        cells[self.vampires[:2]] = (VAMPIRES, self.vampires[2])
        cells[self.werewolves[:2]] = (WEREWOLVES, self.werewolves[2])
        return GameState.from_cells(self.rows, self.cols, cells)

    def start(self, species_is_vampires: bool) -> Group:
        """The starting group of the vampires or the werewolves."""
        return self.vampires if species_is_vampires else self.werewolves


class _Reader:
    """Collects the elements of a map file from expat callbacks, checking as it goes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.parser = xml.parsers.expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.depth = 0
        self.size: tuple[int, int] | None = None
        self.humans: list[Group] = []
        self.species: dict[str, Group] = {}
        self.taken: dict[tuple[int, int], str] = {}

    def fail(self, reason: str, element: str | None = None) -> MapFileError:
        return MapFileError(self.source, reason, element, self.parser.CurrentLineNumber)

    def start(self, name: str, attributes: dict[str, str]) -> None:
        shown = f"<{_cut(name)}>"
        self.depth += 1
        if self.depth == 1:
            if name != "Map":
                raise self.fail(f"the root element must be <Map>, not {shown}", shown)
        elif self.depth > 2:
            raise self.fail("elements inside elements are not allowed", shown)
        elif name not in ATTRIBUTES or name == "Map":
            raise self.fail(
                "unknown element (expected <Humans>, <Vampires> or <Werewolves>;"
                " names are case-sensitive)",
                shown,
            )
        values = self.values(name, attributes, shown)
        if name == "Map":
            rows, cols = values
            for what, side in (("Rows", rows), ("Columns", cols)):
                if side < 1:
                    raise self.fail(f"{what} must be at least 1", shown)
            self.size = (rows, cols)
            return
        x, y, count = values
        shown = f'<{name} X="{x}" Y="{y}" Count="{count}"/>'
        assert self.size is not None
        rows, cols = self.size
        if count < 1:
            raise self.fail("Count must be at least 1 (an empty cell needs no element)", shown)
        if not (x < cols and y < rows):
            raise self.fail(f"cell ({x},{y}) is outside the {rows} × {cols} grid", shown)
        if (x, y) in self.taken:
            raise self.fail(f"cell ({x},{y}) already holds {self.taken[(x, y)]}", shown)
        self.taken[(x, y)] = f"<{name}>"
        if name == "Humans":
            self.humans.append((x, y, count))
        elif name in self.species:
            raise self.fail(f"a map has exactly one <{name}> element; this is a second", shown)
        else:
            self.species[name] = (x, y, count)

    def values(self, name: str, attributes: dict[str, str], shown: str) -> list[int]:
        expected = ATTRIBUTES[name]
        unknown = sorted(set(attributes) - set(expected))
        if unknown:
            raise self.fail(
                f"unknown attribute {_cut(unknown[0])!r} (expected {', '.join(expected)};"
                " names are case-sensitive)",
                shown,
            )
        values = []
        for attribute in expected:
            text = attributes.get(attribute)
            if text is None:
                raise self.fail(f"missing attribute {attribute}", shown)
            digits = text.strip()
            if not (digits.isascii() and digits.isdigit()):
                raise self.fail(f"{attribute}={_cut(text)!r} is not a whole number 0..255", shown)
            if len(digits.lstrip("0")) > 3:  # int() of thousands of digits is refused, or slow
                raise self.fail(f"{attribute}={_cut(digits)}: number too large (above 255)", shown)
            value = int(digits.lstrip("0") or "0")
            if value > 255:
                raise self.fail(f"{attribute}={value} is above 255", shown)
            values.append(value)
        return values

    def end(self, name: str) -> None:
        self.depth -= 1


def parse_map(data: bytes | str, source: str = "<map>") -> GameMap:
    """A :class:`GameMap` from the text of a map file, or :class:`MapFileError`."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip(b"\xef\xbb\xbf \t\r\n"):
        raise MapFileError(source, "the file is empty")
    reader = _Reader(source)
    try:
        reader.parser.Parse(data, True)
    except MapFileError:
        raise
    except LookupError as error:  # encoding="bogus" in the XML declaration
        raise MapFileError(source, f"not readable XML: {error}") from None
    except ValueError as error:  # a declared encoding expat cannot use: "UTF-7", "Shift_JIS"…
        declared = DECLARED_ENCODING.search(data[:200])
        name = repr(declared.group(1).decode("ascii", "replace")) if declared else "encoding"
        raise MapFileError(
            source, f"not readable XML: the declared encoding {name} cannot be used ({error})"
        ) from None
    except xml.parsers.expat.ExpatError as error:
        reason = xml.parsers.expat.ErrorString(error.code)
        raise MapFileError(source, f"not well-formed XML: {reason}", line=error.lineno) from None
    except RecursionError:
        raise MapFileError(source, "elements nested too deeply") from None
    if reader.size is None:
        raise MapFileError(source, "no <Map> element")
    for name in ("Vampires", "Werewolves"):
        if name not in reader.species:
            raise MapFileError(source, f"no <{name}> element: a map needs exactly one")
    rows, cols = reader.size
    game_map = GameMap(
        rows,
        cols,
        tuple(reader.humans),
        reader.species["Vampires"],
        reader.species["Werewolves"],
        Path(source).stem if source != "<map>" else "",
    )
    check_sendable(game_map, source)
    return game_map


def check_sendable(game_map: GameMap, source: str = "<map>") -> None:
    """:class:`MapFileError` unless the protocol can send the map (:data:`MAX_CELLS`)."""
    houses = len(game_map.humans)
    if houses + 2 > MAX_CELLS:
        raise MapFileError(
            source,
            f"{houses} <Humans> elements: the protocol's MAP message counts the non-empty"
            f" cells in one byte, so a map holds at most {MAX_CELLS - 2} houses",
        )


def load_map(path: str | Path) -> GameMap:
    """Read and parse a map file; ``MapFileError`` for a bad or unreadable one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise MapFileError(str(path), f"cannot read the file: {error.strerror}") from None
    return parse_map(data, str(path))


def _element(name: str, group: Group) -> str:
    x, y, count = group
    return f'  <{name} X="{x}" Y="{y}" Count="{count}"/>'


def dump_map(game_map: GameMap) -> bytes:
    """The map as the course kit writes it: BOM, XML declaration, CRLF, two-space indent."""
    lines = [
        '<?xml version="1.0" encoding="utf-8" ?>',
        f'<Map Rows="{game_map.rows}" Columns="{game_map.cols}">',
        *(_element("Humans", group) for group in game_map.humans),
        _element("Werewolves", game_map.werewolves),
        _element("Vampires", game_map.vampires),
        "</Map>",
    ]
    return (BOM + "\r\n".join(lines) + "\r\n").encode("utf-8")
