"""A tournament's dashboard: its standings, its games in progress, its finished games.

The standings are the terminal's tables (:mod:`vvw.records.standings`: the same rows, Elo ± 95 %,
LOS, abnormal, late, fallback); each finished game links to its replay. :func:`dashboard_body` makes
that part from the results alone, as an HTML fragment; :func:`dashboard_page` wraps it in
the page. ``vvw tournament --view`` serves the page and pushes a new body after each game
(a :class:`LiveBoard`; the games in progress are drawn by the page from the live view's
list of games);
``vvw tournament report --html`` writes it once, with one replay page per kept transcript.

Every text that comes from a participant or a game (names, a game's reason, which may
quote a bot's bytes) is escaped: the page is written with the one HTML builder
(:mod:`vvw.web.html`).
"""

import os
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path
from urllib.request import pathname2url

import attrs

from protocol.reading import TranscriptError
from vvw.paths import make_folder, write_file
from vvw.records.results import GameLine
from vvw.records.standings import (
    PAIR_COLUMNS,
    PARTICIPANT_COLUMNS,
    Standings,
    pair_rows,
    participant_rows,
    plan_text,
)
from vvw.web.html import Markup, document, element, join, markup
from vvw.web.viewer import replay_page


@attrs.frozen
class FinishedGame:
    """A finished game as the dashboard lists it, and the address of its replay (relative
    to the dashboard; ``None``: no replay kept)."""

    number: int
    line: GameLine
    replay: str | None


NUMERIC = frozenset({"#", "games", "W", "D", "L", "score", "Elo ± 95 %", "LOS", "abnormal"})
NUMERIC |= {"late", "fallback", "think", "p95", "max", "W-D-L"}
"""Columns aligned right, as numbers are."""


def _cell(tag: str, column: str, value: object) -> Markup:
    return element(tag, value, class_="number" if column in NUMERIC else None)


def _table(table_id: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> Markup:
    """A table: ``columns`` its head, one ``<tr>`` a row (text escaped, markup kept)."""
    head = element("tr", (_cell("th", column, column) for column in columns))
    body = (
        element("tr", (_cell("td", c, v) for c, v in zip(columns, row, strict=True)))
        for row in rows
    )
    return element("table", element("thead", head), element("tbody", body), id=table_id)


def _result(line: GameLine) -> str:
    if line.winner is None:
        return f"draw ({line.termination.value})"
    winner = line.side(line.winner)
    return f"{winner.name} ({line.winner.name.lower()}) wins by {line.termination.value}"


FINISHED_COLUMNS = ("#", "map", "vampires", "werewolves", "result", "plies", "")


def _finished_row(game: FinishedGame) -> Markup:
    line = game.line
    replay = (
        element("a", "replay", href=game.replay)
        if game.replay is not None
        else element("span", "no transcript kept", class_="muted")
    )
    cells = [
        element("td", game.number, class_="number"),
        element("td", line.map),
        element("td", line.vampires.name, class_="vampires"),
        element("td", line.werewolves.name, class_="werewolves"),
        element("td", _result(line), title=line.reason),
        element("td", line.plies, class_="number"),
        element("td", replay),
    ]
    return element("tr", cells, data_game=game.number, class_="abnormal" if line.abnormal else None)


def _finished_rows(finished: Sequence[FinishedGame]) -> Markup:
    head = [
        element("th", column, class_="number" if column == "plies" else None)
        for column in FINISHED_COLUMNS
    ]
    rows = [_finished_row(game) for game in reversed(finished)]  # the latest first
    return element(
        "table", element("thead", element("tr", head)), element("tbody", rows), id="finished"
    )


def _file(path: str, files_from: Path | None) -> Markup:
    """A game's file or folder: a link relative to ``files_from`` (a report's folder) when
    it is there, else its path as text."""
    shown = element("code", path)
    if files_from is None or not Path(path).exists():
        return shown
    address = pathname2url(os.path.relpath(Path(path).resolve(), files_from.resolve()))
    return element("a", shown, href=address)


def _abnormal_item(line: GameLine, game: FinishedGame | None, files_from: Path | None) -> Markup:
    """One abnormal game: its number (its replay's link) as the table of finished games
    shows it, who lost how, the reason as written (a traceback keeps its lines), its files."""
    name: object = line.key if game is None else f"game {game.number}"
    if game is not None and game.replay is not None:
        name = element("a", name, href=game.replay)
    loser = line.loser()
    who = f"{loser.name} loses" if loser else "no winner"
    files = [_file(path, files_from) for path in (line.logs, line.transcript) if path]
    return element(
        "li",
        name,
        f" on {line.map}: {who} by {line.termination.value}: ",
        element("span", line.reason, class_="reason"),
        " ",
        element("span", "[", join(", ", files) if files else "no files kept", "]", class_="muted"),
    )


def _section(title: str, *content: object) -> Markup:
    return element("section", element("h2", title), *content)


def dashboard_body(
    table: Standings,
    finished: Sequence[FinishedGame],
    *,
    live: bool = False,
    files_from: Path | None = None,
) -> str:
    """The standings and the finished games, as an HTML fragment (escaped); ``live``: with
    room for the games in progress, which the page draws; ``files_from``: the folder the
    page is written to, from which the games' files are linked."""
    parts = [
        element("p", plan_text(table), id="plan"),
        _section("Standings", _table("standings", PARTICIPANT_COLUMNS, participant_rows(table))),
    ]
    if table.pairs:
        parts.append(_section("Pairs", _table("pairs", PAIR_COLUMNS, pair_rows(table))))
    if table.sprt is not None and table.llr is not None:
        parts.append(element("p", table.sprt.describe(table.llr), id="sprt"))
    if live:
        parts.append(_section("Playing now", element("ol", id="playing")))
    if table.abnormal:
        numbered = {game.line.key: game for game in finished}
        items = [
            _abnormal_item(line, numbered.get(line.key), files_from) for line in table.abnormal
        ]
        title = f"Abnormal games ({len(table.abnormal)})"
        parts.append(_section(title, element("ul", items, id="abnormal")))
    parts.append(_section(f"Finished games ({len(finished)})", _finished_rows(finished)))
    return join("\n", parts)


@attrs.define
class LiveBoard:
    """The dashboard of a run under way: its finished games, and a new body shown
    (``show``: the live view's) each time one is added."""

    show: Callable[[str], None]
    finished: list[FinishedGame] = attrs.Factory(list)

    def add(self, table: Standings, *games: FinishedGame) -> None:
        """``games`` have finished (none: the board as it stands): the new body shown,
        from the standings ``table``."""
        self.finished.extend(games)
        self.show(dashboard_body(table, self.finished, live=True))


STYLE = """
* { box-sizing: border-box; }
header { display: flex; gap: 6px 18px; align-items: baseline; }
#status { margin-left: auto; font-size: 13px; color: var(--muted); }
#status.finished { color: var(--good); font-weight: 600; }
main { padding: 8px 14px; max-width: 1200px; }
#plan { margin: 2px 0 8px; }
section { padding: 6px 10px; }
section h2 { font-size: 12px; margin: 0 0 4px; text-transform: uppercase; color: var(--ink-soft); }
th { color: var(--ink-soft); font-weight: 600; font-size: 13px; }
tbody tr:nth-child(even) td { background: var(--stripe); }
tr.abnormal td { color: var(--abnormal); }
#abnormal li { margin-bottom: 4px; }
.reason { white-space: pre-wrap; }
#playing { margin: 0; padding-left: 20px; }
#playing:empty::after { content: "none"; color: var(--muted); margin-left: -20px; }
"""
"""The dashboard's own style, after the pages' shared one (:data:`vvw.web.html.STYLE`)."""

LIVE_SCRIPT = files("vvw.web").joinpath("dashboard.js").read_text(encoding="utf-8")
"""The live dashboard's script (``dashboard.js``): a new body after each game, the games in
progress at each ply, "finished" when the tournament ends."""


def dashboard_page(body: str, *, live: bool, title: str = "vvw tournament") -> str:
    """The whole page around ``body`` (:func:`dashboard_body`); ``live``: it follows the
    tournament (its event stream beside the page)."""
    status = element("span", "live: connecting…", id="status") if live else None
    return document(
        title,
        STYLE,
        element("header", element("h1", title), status),
        element("main", element("div", markup(body), id="board")),
        element("script", markup(LIVE_SCRIPT)) if live else None,
    )


def write_report(
    folder: Path, table: Standings, games: Sequence[tuple[int, GameLine, Path | None]]
) -> tuple[int, list[str]]:
    """Write the dashboard of a finished run to ``folder``: ``index.html`` and, for each
    ``(number, line, transcript)`` of ``games`` whose transcript is given (and readable),
    ``games/NUMBER.html``, its replay. A self-contained folder: put it on any web server, or open
    ``index.html`` from disk. Returns the replays written, and a line for each transcript
    that could not be shown; :class:`PathError` if ``folder`` cannot be written.
    """
    make_folder(folder)
    if any(transcript is not None for _, _, transcript in games):
        make_folder(folder / "games")
    finished: list[FinishedGame] = []
    problems: list[str] = []
    for number, line, transcript in games:
        replay = None
        if transcript is not None:
            names = {"vampires": line.vampires.name, "werewolves": line.werewolves.name}
            try:
                page, _ = replay_page(transcript, names, back=("../index.html", "the tournament"))
                write_file(folder / "games" / f"{number}.html", page.encode())
                replay = f"games/{number}.html"
            except (OSError, UnicodeDecodeError, TranscriptError) as error:
                problems.append(f"game {number} ({line.key}): {transcript}: {error}")
        finished.append(FinishedGame(number, line, replay))
    index = dashboard_page(dashboard_body(table, finished, files_from=folder), live=False)
    write_file(folder / "index.html", index.encode())
    return sum(1 for game in finished if game.replay is not None), problems
