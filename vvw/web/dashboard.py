"""A tournament's dashboard: its standings, its games in progress, its finished games.

The standings are the terminal's tables (:mod:`vvw.standings`: the same rows, Elo ± 95 %,
LOS, abnormal, late, fallback); each finished game links to its replay. :func:`dashboard_body` makes
that part from the results alone, as an HTML fragment; :func:`dashboard_page` wraps it in
the page. ``vvw tournament --view`` serves the page and pushes a new body after each game
(the games in progress are drawn by the page from the live view's list of games);
``vvw tournament report --html`` writes it once, with one replay page per kept transcript.

Every text that comes from a participant or a game (names, a game's reason, which may
quote a bot's bytes) is escaped.
"""

import html
import os
from collections.abc import Sequence
from pathlib import Path
from urllib.request import pathname2url

import attrs

from protocol.reading import TranscriptError
from vvw.paths import make_folder, write_file
from vvw.results import GameLine
from vvw.standings import (
    PAIR_COLUMNS,
    PARTICIPANT_COLUMNS,
    Standings,
    pair_rows,
    participant_rows,
    plan_text,
)
from vvw.web.viewer import replay_page


@attrs.frozen
class FinishedGame:
    """A finished game as the dashboard lists it, and the address of its replay (relative
    to the dashboard; ``None``: no replay kept)."""

    number: int
    line: GameLine
    replay: str | None


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


NUMERIC = frozenset({"#", "games", "W", "D", "L", "score", "Elo ± 95 %", "LOS", "abnormal"})
NUMERIC |= {"late", "fallback", "think", "p95", "max", "W-D-L"}
"""Columns aligned right, as numbers are."""


def _table(table_id: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def cell(tag: str, column: str, value: str) -> str:
        css = ' class="number"' if column in NUMERIC else ""
        return f"<{tag}{css}>{_text(value)}</{tag}>"

    head = "".join(cell("th", column, column) for column in columns)
    body = "".join(
        "<tr>" + "".join(cell("td", c, v) for c, v in zip(columns, row, strict=True)) + "</tr>"
        for row in rows
    )
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _result(line: GameLine) -> str:
    if line.winner is None:
        return f"draw ({line.termination.value})"
    winner = line.side(line.winner)
    return f"{winner.name} ({line.winner.name.lower()}) wins by {line.termination.value}"


def _finished_rows(finished: Sequence[FinishedGame]) -> str:
    rows = []
    for game in reversed(finished):  # the latest first
        line = game.line
        replay = (
            f'<a href="{_text(game.replay)}">replay</a>'
            if game.replay is not None
            else '<span class="muted">no transcript kept</span>'
        )
        css = ' class="abnormal"' if line.abnormal else ""
        rows.append(
            f'<tr data-game="{game.number}"{css}><td class="number">{game.number}</td>'
            f"<td>{_text(line.map)}</td>"
            f'<td class="vampires">{_text(line.vampires.name)}</td>'
            f'<td class="werewolves">{_text(line.werewolves.name)}</td>'
            f'<td title="{_text(line.reason)}">{_text(_result(line))}</td>'
            f'<td class="number">{line.plies}</td><td>{replay}</td></tr>'
        )
    head = "<th>#</th><th>map</th><th>vampires</th><th>werewolves</th><th>result</th>"
    head += '<th class="number">plies</th><th></th>'
    return (
        f'<table id="finished"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _file(path: str, files_from: Path | None) -> str:
    """A game's file or folder: a link relative to ``files_from`` (a report's folder) when
    it is there, else its path as text."""
    shown = f"<code>{_text(path)}</code>"
    if files_from is None or not Path(path).exists():
        return shown
    address = pathname2url(os.path.relpath(Path(path).resolve(), files_from.resolve()))
    return f'<a href="{_text(address)}">{shown}</a>'


def _abnormal_item(line: GameLine, game: FinishedGame | None, files_from: Path | None) -> str:
    """One abnormal game: its number (its replay's link) as the table of finished games
    shows it, who lost how, the reason as written (a traceback keeps its lines), its files."""
    name = _text(line.key) if game is None else f"game {game.number}"
    if game is not None and game.replay is not None:
        name = f'<a href="{_text(game.replay)}">{name}</a>'
    loser = line.loser()
    who = f"{_text(loser.name)} loses" if loser else "no winner"
    files = [_file(path, files_from) for path in (line.logs, line.transcript) if path]
    return (
        f"<li>{name} on {_text(line.map)}: {who} by {line.termination.value}:"
        f' <span class="reason">{_text(line.reason)}</span>'
        f' <span class="muted">[{", ".join(files) or "no files kept"}]</span></li>'
    )


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
        f'<p id="plan">{_text(plan_text(table))}</p>',
        "<section><h2>Standings</h2>",
        _table("standings", PARTICIPANT_COLUMNS, participant_rows(table)),
        "</section>",
    ]
    if table.pairs:
        parts += [
            "<section><h2>Pairs</h2>",
            _table("pairs", PAIR_COLUMNS, pair_rows(table)),
            "</section>",
        ]
    if table.sprt is not None and table.llr is not None:
        parts.append(f'<p id="sprt">{_text(table.sprt.describe(table.llr))}</p>')
    if live:
        parts.append('<section><h2>Playing now</h2><ol id="playing"></ol></section>')
    if table.abnormal:
        numbered = {game.line.key: game for game in finished}
        items = "".join(
            _abnormal_item(line, numbered.get(line.key), files_from) for line in table.abnormal
        )
        parts.append(
            f"<section><h2>Abnormal games ({len(table.abnormal)})</h2>"
            f'<ul id="abnormal">{items}</ul></section>'
        )
    parts += [
        f"<section><h2>Finished games ({len(finished)})</h2>",
        _finished_rows(finished),
        "</section>",
    ]
    return "\n".join(parts)


STYLE = """
:root { --vampires: #c62828; --werewolves: #1565c0; --ink: #222; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink); background: #fafafa; }
header { display: flex; gap: 6px 18px; align-items: baseline; padding: 8px 14px;
  background: #fff; border-bottom: 1px solid #ddd; }
header h1 { font-size: 17px; margin: 0; }
#status { margin-left: auto; font-size: 13px; color: #777; }
#status.finished { color: #2e7d32; font-weight: 600; }
main { padding: 8px 14px; max-width: 1200px; }
#plan { margin: 2px 0 8px; }
section { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 6px 10px;
  margin-bottom: 10px; overflow-x: auto; }
section h2 { font-size: 12px; margin: 0 0 4px; text-transform: uppercase; color: #555; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; font-variant-numeric: tabular-nums;
  white-space: nowrap; vertical-align: top; }
th { border-bottom: 1px solid #ddd; color: #555; font-weight: 600; font-size: 13px; }
td.number, th.number { text-align: right; }
tbody tr:nth-child(even) td { background: #f7f7f7; }
.vampires { color: var(--vampires); font-weight: 600; }
.werewolves { color: var(--werewolves); font-weight: 600; }
.muted { color: #777; }
tr.abnormal td { color: #8a1c1c; }
#abnormal li { margin-bottom: 4px; }
.reason { white-space: pre-wrap; }
#playing { margin: 0; padding-left: 20px; }
#playing:empty::after { content: "none"; color: #777; margin-left: -20px; }
"""

LIVE_SCRIPT = """
"use strict";
// The live dashboard: a new body after each game, the games in progress at each ply,
// "finished" when the tournament ends (the page then stays as it is).
const playing = new Map();
function drawPlaying() {
  const list = document.getElementById("playing");
  if (!list) return;
  list.replaceChildren(...[...playing.values()].filter((game) => !game.finished).map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "?game=" + encodeURIComponent(game.id);
    link.textContent = game.title;
    item.dataset.game = game.id;
    item.dataset.plies = game.plies;
    item.append(link, " — " + game.status);
    return item;
  }));
}
function connect() {
  const status = document.getElementById("status");
  const source = new EventSource("events?board=1");
  source.onopen = () => { status.textContent = "live"; };
  source.onerror = () => { status.textContent = "connection lost, retrying…"; };
  source.addEventListener("board", (message) => {
    document.getElementById("board").innerHTML = JSON.parse(message.data);  // escaped by vvw
  });
  source.addEventListener("games", (message) => {
    playing.clear();
    for (const game of JSON.parse(message.data)) playing.set(game.id, game);
    drawPlaying();
  });
  source.addEventListener("game", (message) => {
    const game = JSON.parse(message.data);
    playing.set(game.id, game);
    drawPlaying();
  });
  source.addEventListener("finished", () => {
    source.close();
    status.textContent = "finished";
    status.className = "finished";
    document.body.dataset.finished = "true";
  });
}
if (document.readyState === "complete") connect();
else window.addEventListener("load", connect, {once: true});
"""


def dashboard_page(body: str, *, live: bool, title: str = "vvw tournament") -> str:
    """The whole page around ``body`` (:func:`dashboard_body`); ``live``: it follows the
    tournament (its event stream beside the page)."""
    script = f"<script>{LIVE_SCRIPT}</script>" if live else ""
    status = '<span id="status">live: connecting…</span>' if live else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_text(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{_text(title)}</h1>{status}</header>\n"
        f'<main><div id="board">{body}</div></main>\n{script}\n</body>\n</html>\n'
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
