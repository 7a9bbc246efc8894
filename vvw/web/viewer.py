"""The viewer's page with its configuration filled in: a replay's events or live mode.

The page is made of package files beside this module: ``viewer.html`` (its elements),
``viewer.css`` (its style, after the palette's colours, :mod:`vvw.web.palette`),
``viewer.js`` (its script), and the parts some pages add (``play.html``); :func:`page`
puts them together in one self-contained page.
"""

import base64
import gzip
import json
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from protocol.reading import TranscriptError
from vvw.transcripts import read_transcript
from vvw.web.model import ViewEvent, view_events
from vvw.web.palette import css_variables

PLACEHOLDER = "/*VVW_CONFIG*/"
STYLE = "/*VVW_STYLE*/"
SCRIPT = "/*VVW_SCRIPT*/"
EXTRAS = "<!--VVW_EXTRAS-->"
"""Where a part of the page's own (``play.html``) goes: after the page's script, whose
``vvw`` object (its hooks: a panel, the board's overlay, a cell clicked, an event of the
live view) it uses."""


def page(config: dict[str, Any], extras: Sequence[str] = ()) -> str:
    """The page, self-contained, with ``config`` embedded as JSON and the parts named by
    ``extras`` (files beside ``viewer.html``: ``play.html``, the person at the board).

    ``config`` is ``{"events": [...]}`` for a replay, ``{"live": true}`` for the live view
    (``"tournament": true`` shows the list of games), with what the extras read
    (``"play"``). Text in it (bot names) is never parsed as HTML: it sits in a JSON script
    element, with ``<`` escaped.
    """
    folder = files("vvw.web")
    template = folder.joinpath("viewer.html").read_text(encoding="utf-8")
    data = json.dumps(config, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    parts = "".join(folder.joinpath(name).read_text(encoding="utf-8") for name in extras)
    style = css_variables() + folder.joinpath("viewer.css").read_text(encoding="utf-8")
    script = folder.joinpath("viewer.js").read_text(encoding="utf-8")
    template = template.replace(STYLE, style, 1).replace(SCRIPT, script, 1)
    return template.replace(PLACEHOLDER, data, 1).replace(EXTRAS, parts, 1)


def replay_page(
    transcript: Path,
    names: Mapping[str, str] | None = None,
    analysis: dict[str, Any] | None = None,
    back: tuple[str, str] | None = None,
) -> tuple[str, list[ViewEvent]]:
    """The replay page of ``transcript`` (the file embedded, to download from the page) and
    its view events; ``names``: the players' names to show (a tournament's participants,
    see :class:`~vvw.web.model.ViewBuilder`); ``analysis``: the game's analysis (an
    analysis file's content, ``vvw analyse``) to show, if any; ``back``: the address and
    the words of a link back (a report's index, a ladder's games). ``TranscriptError`` when
    the file is not a transcript or holds no board to draw, ``OSError`` when it cannot be
    read."""
    events = view_events(read_transcript(transcript), names)
    if not events or events[0]["type"] != "start":
        raise TranscriptError(f"{transcript}: no game to show (no MAP message in it)")
    packed = gzip.compress(transcript.read_bytes(), compresslevel=9, mtime=0)
    embedded = {"name": transcript.name, "gzip": base64.b64encode(packed).decode("ascii")}
    config: dict[str, Any] = {"events": events, "transcript": embedded}
    if analysis is not None:
        config["analysis"] = analysis
    if back is not None:
        config["back"] = {"href": back[0], "text": back[1]}
    return page(config), events
