"""The ladder's pages as HTML, pure functions of :mod:`vvw.ladder.tables`' values.

Every text that comes from a team or a bot (names, a game's reason, which may quote the
bytes a bot sent) is escaped with :func:`html.escape`, in text and in attributes; a name in
a link is percent-encoded too. The pages are read-only and need no script. Their addresses
are :func:`team_url`, :func:`replay_url`, :func:`transcript_url` and :func:`live_url` (the
web server serves them, :mod:`vvw.ladder.web`), ``/`` (the leaderboard) and ``/games``
(the games in progress and the latest ones).
"""

import html
import time
from collections.abc import Collection, Iterable, Sequence
from urllib.parse import quote

from engine import Kind
from vvw.ladder.ratings import Rating
from vvw.ladder.stored import GameStatus, StoredGame
from vvw.ladder.tables import Standing, Tally, TeamReport
from vvw.stats import format_elo

STYLE = """
:root { --vampires: #c62828; --werewolves: #1565c0; --ink: #222; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink); background: #fafafa; }
header { padding: 8px 14px; background: #fff; border-bottom: 1px solid #ddd; }
header h1 { font-size: 17px; margin: 0; display: inline; }
nav { display: inline; margin-left: 16px; }
nav a { margin-right: 10px; }
main { padding: 10px 14px; }
section { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 8px 10px;
  margin-bottom: 10px; overflow-x: auto; }
section h2 { font-size: 13px; margin: 0 0 6px 0; text-transform: uppercase; color: #555; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; font-variant-numeric: tabular-nums;
  vertical-align: top; white-space: nowrap; }
th { border-bottom: 1px solid #ddd; }
td.number, th.number { text-align: right; }
.vampires { color: var(--vampires); font-weight: 600; }
.werewolves { color: var(--werewolves); font-weight: 600; }
.muted { color: #777; }
.online { color: #2e7d32; font-weight: 600; }
td.wrapped { white-space: normal; min-width: 10em; max-width: 36em; }
.reason { color: #8a1c1c; white-space: pre-wrap; }
"""


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


def team_url(name: str) -> str:
    """The address of a team's (or a built-in bot's) page."""
    return f"/teams/{quote(name, safe='')}"


def replay_url(game: StoredGame) -> str:
    """The address of a game's replay in the viewer."""
    return f"/games/{game.id}/replay"


def transcript_url(game: StoredGame) -> str:
    """The address of a game's transcript (JSON Lines)."""
    return f"/games/{game.id}/transcript"


def live_url(game: StoredGame) -> str:
    """The address of a game in progress in the live view."""
    return f"/live/?game={game.id}"


def _link(url: str, label: str) -> str:
    return f'<a href="{_text(url)}">{_text(label)}</a>'


def _player(name: str, species: Kind | None = None) -> str:
    css = "" if species is None else f' class="{species.name.lower()}"'
    return f'<a{css} href="{_text(team_url(name))}">{_text(name)}</a>'


def _ago(then: float | None, now: float) -> str:
    """``5 min ago``, with the exact time (UTC) as the tooltip; ``never`` for ``None``."""
    if then is None:
        return '<span class="muted">never</span>'
    seconds = max(0.0, now - then)
    if seconds < 60:
        words = "just now"
    elif seconds < 3600:
        words = f"{int(seconds // 60)} min ago"
    elif seconds < 2 * 86400:
        words = f"{int(seconds // 3600)} h ago"
    else:
        words = f"{int(seconds // 86400)} days ago"
    exact = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(then))
    return f'<span title="{exact}">{words}</span>'


def _rating(rating: Rating | None, anchor: bool) -> tuple[str, str]:
    """The rating and its ``±`` cells."""
    if rating is None or (not rating.games and not anchor):
        return '<span class="muted">-</span>', ""
    if anchor:
        return f"{rating.elo:.0f}", '<span class="muted">anchor</span>'
    return f"{rating.elo:.0f}", f"± {rating.error:.0f}"


def _wdl(tally: Tally) -> str:
    return f"{tally.wins}-{tally.draws}-{tally.losses}"


def _table(
    head: Sequence[str],
    rows: Iterable[Sequence[str]],
    numbers: Iterable[int] = (),
    wrapped: Iterable[int] = (),
) -> str:
    """A table whose cells are HTML already; ``numbers``: columns aligned right;
    ``wrapped``: columns whose long texts wrap (the others stay on one line)."""
    css = {i: "number" for i in numbers} | {i: "wrapped" for i in wrapped}

    def line(tag: str, cells: Sequence[str]) -> str:
        out = []
        for i, content in enumerate(cells):
            attribute = f' class="{css[i]}"' if i in css else ""
            out.append(f"<{tag}{attribute}>{content}</{tag}>")
        return "<tr>" + "".join(out) + "</tr>"

    return "\n".join(["<table>", line("th", head), *(line("td", row) for row in rows), "</table>"])


def _document(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_text(title)} — vvw ladder</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'<header><h1>{_text(title)}</h1><nav><a href="/">leaderboard</a>'
        '<a href="/games">games</a><a href="/live/">live</a></nav></header>\n'
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _name_cell(standing: Standing) -> str:
    player = standing.player
    notes = []
    if player.builtin is not None:
        notes.append("built-in bot")
    if player.removed is not None:
        notes.append("removed")
    note = f' <span class="muted">({", ".join(notes)})</span>' if notes else ""
    return _player(player.name) + note


def leaderboard_page(standings: Sequence[Standing], now: float) -> str:
    """The leaderboard: rank, rating ± 95 %, games, W-D-L, online now, last seen."""
    rows = []
    for standing in standings:
        rating, error = _rating(standing.rating, standing.anchor)
        rows.append(
            (
                "" if standing.rank is None else str(standing.rank),
                _name_cell(standing),
                rating,
                error,
                str(standing.tally.games),
                _wdl(standing.tally),
                '<span class="online">online</span>' if standing.online else "",
                "" if standing.player.builtin else _ago(standing.player.last_seen, now),
            )
        )
    table = _table(
        ("#", "player", "rating", "± 95 %", "games", "W-D-L", "now", "last seen"),
        rows,
        numbers=(0, 2, 3, 4),
    )
    if not standings:
        table = '<p class="muted">No players yet.</p>'
    note = (
        '<p class="muted">Elo from every finished game at once, with its 95 % interval;'
        " the anchor's rating is fixed. Aborted games are kept but not rated.</p>"
    )
    return _document("Ladder", f"<section>\n{table}\n{note}\n</section>")


def _result(game: StoredGame) -> str:
    if game.status is GameStatus.PLAYING:
        return '<span class="muted">playing</span>'
    if game.status is GameStatus.ABORTED:
        return '<span class="muted">aborted</span>'
    if game.winner is None:
        return "draw"
    name = game.vampires if game.winner is Kind.VAMPIRES else game.werewolves
    return f"{_player(name, game.winner)} won"


def _how(game: StoredGame) -> str:
    if game.termination is None:
        return ""
    how = _text(game.termination.value)
    if game.abnormal and game.detail:
        how += f': <span class="reason">{_text(game.detail)}</span>'
    return how


def _files(game: StoredGame, analysed: Collection[int]) -> str:
    if game.status is GameStatus.PLAYING:
        return _link(live_url(game), "watch live")
    if game.transcript is None:
        return ""
    replay = "replay + analysis" if game.id in analysed else "replay"
    return f"{_link(replay_url(game), replay)} {_link(transcript_url(game), 'transcript')}"


def _game_rows(
    games: Iterable[StoredGame], now: float, analysed: Collection[int]
) -> list[tuple[str, ...]]:
    return [
        (
            str(game.id),
            _ago(game.started, now),
            _text(game.map),
            _player(game.vampires, Kind.VAMPIRES)
            + " vs "
            + _player(game.werewolves, Kind.WEREWOLVES),
            _result(game),
            _how(game),
            "" if game.status is GameStatus.PLAYING else str(game.plies),
            _files(game, analysed),
        )
        for game in games
    ]


GAME_HEAD = ("game", "began", "map", "vampires vs werewolves", "result", "how", "plies", "")


def games_page(
    games: Sequence[StoredGame], now: float, analysed: Collection[int] = frozenset()
) -> str:
    """The games in progress, to watch live, and the latest others with their replays (give
    them newest first); ``analysed``: the numbers of those whose replay has an analysis."""
    playing = [game for game in games if game.status is GameStatus.PLAYING]
    others = [game for game in games if game.status is not GameStatus.PLAYING]
    return _document(
        "Games",
        "\n".join(
            (
                _games_section("In progress", playing, now, "No game is being played now."),
                _games_section(
                    "Latest games, newest first", others, now, "No games yet.", analysed
                ),
            )
        ),
    )


def not_found_page(what: str) -> str:
    """A page saying that what was asked for is not there."""
    return _document("Not found", f"<section>\n<p>{_text(what)}.</p>\n</section>")


def team_page(report: TeamReport, now: float, analysed: Collection[int] = frozenset()) -> str:
    """A team's page: its standing, results by map and by opponent, its abnormal games
    with their exact reasons and transcripts, its latest games (``analysed``: as for
    :func:`games_page`)."""
    standing = report.standing
    rating, error = _rating(standing.rating, standing.anchor)
    rank = "unranked" if standing.rank is None else f"#{standing.rank}"
    seen = "" if standing.player.builtin else f", last seen {_ago(standing.player.last_seen, now)}"
    online = ' <span class="online">online</span>' if standing.online else ""
    summary = (
        f"<p>{_name_cell(standing)}: {rank}, rating {rating} {error},"
        f" {standing.tally.games} games ({_wdl(standing.tally)}){seen}{online}</p>"
    )
    by_map = _table(
        ("map", "rating", "± 95 %", "games", "W-D-L"),
        (
            (
                _text(line.map),
                f"{line.rating.elo:.0f}",
                f"± {line.rating.error:.0f}",
                str(line.tally.games),
                _wdl(line.tally),
            )
            for line in report.by_map
        ),
        numbers=(1, 2, 3),
    )
    by_opponent = _table(
        ("opponent", "games", "W-D-L", "score", "Elo difference ± 95 %"),
        (
            (
                _player(line.opponent),
                str(line.tally.games),
                _wdl(line.tally),
                f"{line.tally.score:.0%}",
                format_elo(line.difference.elo, line.difference.error),
            )
            for line in report.by_opponent
        ),
        numbers=(1, 3, 4),
    )
    sections = [
        f"<section>\n{summary}\n</section>",
        f"<section>\n<h2>By map</h2>\n{by_map}\n</section>" if report.by_map else "",
        f"<section>\n<h2>By opponent</h2>\n{by_opponent}\n</section>" if report.by_opponent else "",
        _games_section(
            "Abnormal games",
            report.abnormal,
            now,
            "None: every game ended by the board or the clock.",
            analysed,
        ),
        _games_section("Latest games", report.latest, now, "No games yet.", analysed),
    ]
    return _document(standing.player.name, "\n".join(filter(None, sections)))


def _games_section(
    title: str,
    games: Sequence[StoredGame],
    now: float,
    empty: str,
    analysed: Collection[int] = frozenset(),
) -> str:
    body = (
        _table(GAME_HEAD, _game_rows(games, now, analysed), numbers=(0, 6), wrapped=(5,))
        if games
        else f'<p class="muted">{_text(empty)}</p>'
    )
    return f"<section>\n<h2>{_text(title)}</h2>\n{body}\n</section>"
