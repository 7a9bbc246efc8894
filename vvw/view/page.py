"""The viewer's page with its configuration filled in: a replay's events or live mode."""

import json
from importlib.resources import files
from typing import Any

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
