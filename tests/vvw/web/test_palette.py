"""The one palette (vvw/web/palette.py): every colour of the pages defined once, there."""

import re
from pathlib import Path

from vvw.web.palette import PALETTE, css_variables
from vvw.web.viewer import page

VVW = Path(__file__).resolve().parents[3] / "vvw"
COLOUR = re.compile(r"(?<![&\w])#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b|\brgba?\(")
USED = re.compile(r"var\(--([a-z-]+)\)|colour\(\"([a-z-]+)\"\)")


def _sources() -> list[Path]:
    return [path for path in VVW.rglob("*") if path.suffix in {".py", ".html", ".css", ".js"}]


def test_no_colour_is_spelled_outside_the_palette_nor_twice_in_it() -> None:
    outside = [
        f"{path.relative_to(VVW)}: {match.group(0)}"
        for path in _sources()
        if path.name != "palette.py"
        for match in COLOUR.finditer(path.read_text(encoding="utf-8"))
    ]
    assert outside == []
    colours = [colour.lower() for colour in PALETTE.values()]
    assert len(set(colours)) == len(colours)


def test_every_colour_a_page_names_is_in_the_palette() -> None:
    named = {
        name
        for path in _sources()
        for match in USED.finditer(path.read_text(encoding="utf-8"))
        for name in match.groups()
        if name
    }
    assert named - {"font"} <= PALETTE.keys()
    assert {"vampires", "werewolves", "humans"} <= named


def test_the_viewer_gets_the_palette_once() -> None:
    shown = page({"live": True}, ("play.html",))
    assert shown.count(css_variables()) == 1 and "/*VVW_" not in shown
