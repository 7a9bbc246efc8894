"""The viewer's page with its configuration filled in: a replay's events or live mode."""

import base64
import gzip
import json
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from protocol.transcript import TranscriptError
from vvw.transcripts import read_transcript
from vvw.view.model import ViewEvent, view_events

PLACEHOLDER = "/*VVW_CONFIG*/"


def page(config: dict[str, Any]) -> str:
    """The page, self-contained, with ``config`` embedded as JSON.

    ``config`` is ``{"events": [...]}`` for a replay, ``{"live": true}`` for the live view
    (``"tournament": true`` shows the list of games). Text in it (bot names) is never
    parsed as HTML: it sits in a JSON script element, with ``<`` escaped.
    """
    template = files("vvw.view").joinpath("page.html").read_text(encoding="utf-8")
    data = json.dumps(config, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return template.replace(PLACEHOLDER, data, 1)


def replay_page(
    transcript: Path,
    names: Mapping[str, str] | None = None,
    analysis: dict[str, Any] | None = None,
) -> tuple[str, list[ViewEvent]]:
    """The replay page of ``transcript`` (the file embedded, to download from the page) and
    its view events; ``names``: the players' names to show (a tournament's participants,
    see :class:`~vvw.view.model.ViewBuilder`); ``analysis``: the game's analysis (an
    analysis file's content, ``vvw analyse``) to show, if any. ``TranscriptError`` when
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
    return page(config), events
