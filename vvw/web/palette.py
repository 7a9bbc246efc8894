"""The one palette: every colour of every page, named once.

The pages use the colours by name, as CSS variables (``var(--vampires)``): the documents
written in Python get :func:`css_variables` from :func:`vvw.web.html.document`, the viewer's
page before its own style (:func:`vvw.web.viewer.page`), and its script reads them back
from the page's style. Nothing else in ``vvw/`` spells a colour.
"""

PALETTE = {
    # the species, on the board and in every table
    "vampires": "#c62828",
    "werewolves": "#1565c0",
    "humans": "#6d8f3a",
    # the page
    "ink": "#222",
    "ink-strong": "#444",
    "ink-soft": "#555",
    "ink-faint": "#666",
    "muted": "#777",
    "guide": "#888",
    "page": "#fafafa",
    "panel": "#fff",
    "rule": "#ddd",
    "rule-strong": "#ccc",
    "frame": "#bbb",
    "grid": "#eee",
    "cell-line": "#e6e6e6",
    "stripe": "#f7f7f7",
    "hover": "#f3f3f3",
    "current": "#fff4c2",
    "current-hover": "#ffec99",
    # what went well or badly
    "good": "#2e7d32",
    "abnormal": "#8a1c1c",
    "error": "#b00020",
    "mistake": "#ef6c00",
    "refused": "#d50000",
    # the board's marks
    "arrow": "#111",
    "badge": "#ffeb3b",
    "badge-edge": "#8a7a00",
    "highlight": "#ff9800",
    # a person at the board (vvw play)
    "turn": "#f0b400",
    "pending": "#e65100",
    "selected": "#ffb300",
}
"""Each colour by its name (the CSS variable ``--NAME``)."""


def css_variables() -> str:
    """The palette as CSS: ``:root { --vampires: #c62828; ... }`` and a new line."""
    names = " ".join(f"--{name}: {colour};" for name, colour in PALETTE.items())
    return f":root {{ {names} }}\n"
