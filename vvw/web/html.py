"""The one way to write HTML in Python: elements and text, every text escaped by default.

:func:`element` makes an element from its tag, its children and its attributes; a child
that is a plain ``str`` (or a number) is text, escaped; only :class:`Markup` (what the
builder made, or a trusted constant marked with :func:`markup`) goes in as it is.
Attribute values are always escaped. :func:`document` is a whole page: the head every page
shares (its title, its style with the one palette, :mod:`vvw.web.palette`) and a body.

    >>> element("td", "<b>", class_="number")
    Markup('<td class="number">&lt;b&gt;</td>')
"""

import html
from collections.abc import Iterable, Mapping

from vvw.web.palette import css_variables


class Markup(str):
    """HTML already made: put in a page as it is, never escaped again."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Markup({str.__repr__(self)})"


VOID = frozenset({"meta", "link", "br", "hr", "img", "input"})
"""Elements that have no end tag."""


def markup(trusted: str) -> Markup:
    """``trusted`` (a constant of the code: a style, a script) as markup, not text."""
    return Markup(trusted)


def escape(value: object) -> Markup:
    """``value`` as text in HTML, quotes escaped too (so it is fit for an attribute)."""
    return Markup(html.escape(str(value), quote=True))


def render(child: object) -> Markup:
    """A child as HTML: markup as it is, text escaped, iterables joined, ``None`` nothing."""
    if isinstance(child, Markup):
        return child
    if child is None:
        return Markup("")
    if isinstance(child, str | int | float):
        return escape(child)
    if isinstance(child, Iterable):
        return Markup("".join(render(part) for part in child))
    raise TypeError(f"cannot put a {type(child).__name__} in a page")


def join(separator: str, children: Iterable[object]) -> Markup:
    """``children`` rendered and joined by ``separator`` (text, escaped)."""
    return Markup(escape(separator).join(render(child) for child in children))


def _attribute_name(name: str) -> str:
    """A keyword's attribute: ``class_`` is ``class``, ``data_game`` is ``data-game``."""
    return name.rstrip("_").replace("_", "-")


def attributes(values: Mapping[str, object]) -> Markup:
    """`` name="value"`` for each attribute whose value is not ``None`` (nor ``False``);
    ``True`` is an attribute without a value."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        spelled = _attribute_name(name)
        parts.append(f" {spelled}" if value is True else f' {spelled}="{escape(value)}"')
    return Markup("".join(parts))


def element(tag: str, *children: object, **attrs: object) -> Markup:
    """``<tag attrs>children</tag>``: text children and attribute values escaped."""
    start = f"<{tag}{attributes(attrs)}>"
    if tag in VOID:
        return Markup(start)
    return Markup(f"{start}{render(children)}</{tag}>")


STYLE = """
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink);
  background: var(--page); }
header { padding: 8px 14px; background: var(--panel); border-bottom: 1px solid var(--rule); }
header h1 { font-size: 17px; margin: 0; }
section { background: var(--panel); border: 1px solid var(--rule); border-radius: 4px;
  margin-bottom: 10px; overflow-x: auto; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; font-variant-numeric: tabular-nums;
  vertical-align: top; white-space: nowrap; }
th { border-bottom: 1px solid var(--rule); }
td.number, th.number { text-align: right; }
.vampires { color: var(--vampires); font-weight: 600; }
.werewolves { color: var(--werewolves); font-weight: 600; }
.muted { color: var(--muted); }
"""
"""The style every document shares (the tournament's dashboard, the ladder's pages): the
page, its header, its sections, its tables, the species' names; each adds its own."""

VIEWPORT = element("meta", name="viewport", content="width=device-width, initial-scale=1")


def document(title: str, style: str, *body: object) -> Markup:
    """A whole page: ``title`` (text), ``style`` (trusted CSS, after the palette's
    variables and the shared :data:`STYLE`) and ``body`` (its parts one a line)."""
    head = [
        element("meta", charset="utf-8"),
        VIEWPORT,
        element("title", title),
        element("style", markup(css_variables() + STYLE + style)),
    ]
    return Markup(
        "<!DOCTYPE html>\n"
        + element(
            "html",
            markup("\n"),
            element("head", markup("\n"), join("\n", head), markup("\n")),
            markup("\n"),
            element("body", markup("\n"), join("\n", body), markup("\n")),
            markup("\n"),
            lang="en",
        )
        + "\n"
    )
