"""The ladder's pages as HTML, pure functions of :mod:`vvw.ladder.tables`' values.

Every text that comes from a team or a bot (names, a game's reason, which may quote the
bytes a bot sent) is escaped, in text and in attributes, by the one HTML builder
(:mod:`vvw.web.html`); a name in a link is percent-encoded too. The pages are read-only
and need no script. Their addresses are :func:`team_url`, :func:`replay_url`,
:func:`transcript_url` and :func:`live_url` (the web server serves them,
:mod:`vvw.ladder.web`), ``/`` (the leaderboard) and ``/games`` (the games in progress and
the latest ones).
"""

import time
from collections.abc import Collection, Iterable, Sequence
from urllib.parse import quote

from engine import Kind
from vvw.ladder.ratings import Rating
from vvw.ladder.snapshot import GameStatus, StoredGame
from vvw.ladder.tables import Standing, TeamReport
from vvw.records.stats import format_elo
from vvw.records.tally import Tally
from vvw.web.html import Markup, document, element, join, markup, render

STYLE = """
header h1 { display: inline; }
nav { display: inline; margin-left: 16px; }
nav a { margin-right: 10px; }
main { padding: 10px 14px; }
section { padding: 8px 10px; }
section h2 { font-size: 13px; margin: 0 0 6px 0; text-transform: uppercase;
  color: var(--ink-soft); }
.online { color: var(--good); font-weight: 600; }
td.wrapped { white-space: normal; min-width: 10em; max-width: 36em; }
.reason { color: var(--abnormal); white-space: pre-wrap; }
"""
"""The ladder's pages' own style, after the pages' shared one (:data:`vvw.web.html.STYLE`)."""


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


def _link(url: str, label: str) -> Markup:
    return element("a", label, href=url)


def _player(name: str, species: Kind | None = None) -> Markup:
    css = None if species is None else species.name.lower()
    return element("a", name, class_=css, href=team_url(name))


def _muted(words: str) -> Markup:
    return element("span", words, class_="muted")


def _ago(then: float | None, now: float) -> Markup:
    """``5 min ago``, with the exact time (UTC) as the tooltip; ``never`` for ``None``."""
    if then is None:
        return _muted("never")
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
    return element("span", words, title=exact)


def _rating(rating: Rating | None, anchor: bool) -> tuple[object, object]:
    """The rating and its ``±`` cells."""
    if rating is None or (not rating.games and not anchor):
        return _muted("-"), ""
    if anchor:
        return f"{rating.elo:.0f}", _muted("anchor")
    return f"{rating.elo:.0f}", f"± {rating.error:.0f}"


def _wdl(tally: Tally) -> str:
    return f"{tally.wins}-{tally.draws}-{tally.losses}"


def _table(
    head: Sequence[object],
    rows: Iterable[Sequence[object]],
    numbers: Iterable[int] = (),
    wrapped: Iterable[int] = (),
) -> Markup:
    """A table, one ``<tr>`` a line (text escaped, markup kept); ``numbers``: columns
    aligned right; ``wrapped``: columns whose long texts wrap (the others stay on one
    line)."""
    css = {i: "number" for i in numbers} | {i: "wrapped" for i in wrapped}

    def line(tag: str, cells: Sequence[object]) -> Markup:
        return element(
            "tr", (element(tag, cell, class_=css.get(i)) for i, cell in enumerate(cells))
        )

    lines = join("\n", [line("th", head), *(line("td", row) for row in rows)])
    return element("table", markup("\n"), lines, markup("\n"))


NAVIGATION = element(
    "nav",
    _link("/", "leaderboard"),
    _link("/games", "games"),
    _link("/live/", "live"),
)


def _document(title: str, *body: object) -> str:
    return document(
        f"{title} — vvw ladder",
        STYLE,
        element("header", element("h1", title), NAVIGATION),
        element("main", markup("\n"), join("\n", body), markup("\n")),
    )


def _section(*content: object) -> Markup:
    """A section, its parts one a line."""
    return element("section", markup("\n"), join("\n", content), markup("\n"))


def _name_cell(standing: Standing) -> Markup:
    player = standing.player
    notes = []
    if player.builtin is not None:
        notes.append("built-in bot")
    if player.removed is not None:
        notes.append("removed")
    note = [" ", _muted(f"({', '.join(notes)})")] if notes else []
    return render([_player(player.name), *note])


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
                element("span", "online", class_="online") if standing.online else "",
                "" if standing.player.builtin else _ago(standing.player.last_seen, now),
            )
        )
    table = _table(
        ("#", "player", "rating", "± 95 %", "games", "W-D-L", "now", "last seen"),
        rows,
        numbers=(0, 2, 3, 4),
    )
    if not standings:
        table = element("p", "No players yet.", class_="muted")
    note = element(
        "p",
        "Elo from every finished game at once, with its 95 % interval;"
        " the anchor's rating is fixed. Aborted games are kept but not rated.",
        class_="muted",
    )
    return _document("Ladder", _section(table, note))


def _result(game: StoredGame) -> object:
    if game.status is GameStatus.PLAYING:
        return _muted("playing")
    if game.status is GameStatus.ABORTED:
        return _muted("aborted")
    if game.winner is None:
        return "draw"
    name = game.vampires if game.winner is Kind.VAMPIRES else game.werewolves
    return [_player(name, game.winner), " won"]


def _how(game: StoredGame) -> object:
    if game.termination is None:
        return ""
    how: list[object] = [game.termination.value]
    if game.abnormal and game.detail:
        how += [": ", element("span", game.detail, class_="reason")]
    return how


def _files(game: StoredGame, analysed: Collection[int]) -> object:
    if game.status is GameStatus.PLAYING:
        return _link(live_url(game), "watch live")
    if game.transcript is None:
        return ""
    replay = "replay + analysis" if game.id in analysed else "replay"
    return [_link(replay_url(game), replay), " ", _link(transcript_url(game), "transcript")]


def _game_rows(
    games: Iterable[StoredGame], now: float, analysed: Collection[int]
) -> list[tuple[object, ...]]:
    return [
        (
            str(game.id),
            _ago(game.started, now),
            game.map,
            [
                _player(game.vampires, Kind.VAMPIRES),
                " vs ",
                _player(game.werewolves, Kind.WEREWOLVES),
            ],
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
        _games_section("In progress", playing, now, "No game is being played now."),
        _games_section("Latest games, newest first", others, now, "No games yet.", analysed),
    )


def not_found_page(what: str) -> str:
    """A page saying that what was asked for is not there."""
    return _document("Not found", _section(element("p", f"{what}.")))


def _by_map(report: TeamReport) -> Markup:
    return _table(
        ("map", "rating", "± 95 %", "games", "W-D-L"),
        (
            (
                line.map,
                f"{line.rating.elo:.0f}",
                f"± {line.rating.error:.0f}",
                str(line.tally.games),
                _wdl(line.tally),
            )
            for line in report.by_map
        ),
        numbers=(1, 2, 3),
    )


def _by_opponent(report: TeamReport) -> Markup:
    return _table(
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


def _summary(standing: Standing, now: float) -> Markup:
    """A team's line: its name, rank, rating, games, last seen, online."""
    rating, error = _rating(standing.rating, standing.anchor)
    rank = "unranked" if standing.rank is None else f"#{standing.rank}"
    seen = [] if standing.player.builtin else [", last seen ", _ago(standing.player.last_seen, now)]
    online = [" ", element("span", "online", class_="online")] if standing.online else []
    games = f" {standing.tally.games} games ({_wdl(standing.tally)})"
    return element(
        "p",
        _name_cell(standing),
        f": {rank}, rating ",
        rating,
        " ",
        error,
        ",",
        games,
        seen,
        online,
    )


def team_page(report: TeamReport, now: float, analysed: Collection[int] = frozenset()) -> str:
    """A team's page: its standing, results by map and by opponent, its abnormal games
    with their exact reasons and transcripts, its latest games (``analysed``: as for
    :func:`games_page`)."""
    sections = [
        _section(_summary(report.standing, now)),
        _section(element("h2", "By map"), _by_map(report)) if report.by_map else None,
        _section(element("h2", "By opponent"), _by_opponent(report))
        if report.by_opponent
        else None,
        _games_section(
            "Abnormal games",
            report.abnormal,
            now,
            "None: every game ended by the board or the clock.",
            analysed,
        ),
        _games_section("Latest games", report.latest, now, "No games yet.", analysed),
    ]
    return _document(report.standing.player.name, *filter(None, sections))


def _games_section(
    title: str,
    games: Sequence[StoredGame],
    now: float,
    empty: str,
    analysed: Collection[int] = frozenset(),
) -> Markup:
    body = (
        _table(GAME_HEAD, _game_rows(games, now, analysed), numbers=(0, 6), wrapped=(5,))
        if games
        else element("p", empty, class_="muted")
    )
    return _section(element("h2", title), body)
