"""The ladder's pages: what they show, every text from a team or a bot escaped."""

import html
import sqlite3
from html.parser import HTMLParser

import pytest

from engine import Kind, Termination
from tests.vvw.ladder.ladders import play, result
from vvw.ladder.pages import games_page, leaderboard_page, team_page, team_url
from vvw.ladder.queries import LadderReader
from vvw.ladder.tables import leaderboard, ratings_of, team_report

V, W = Kind.VAMPIRES, Kind.WEREWOLVES
HOSTILE = '<script>alert("x")</script>'
REASON = "protocol error: bytes b'<img src=x onerror=alert(1)>' are not a message"
VOID = {"meta", "br", "img", "input", "link", "hr"}


class Structure(HTMLParser):
    """Checks that every element opened is closed, in order; collects the scripts and
    the links."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.scripts = 0
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
        if tag == "a":
            self.links += [value for name, value in attrs if name == "href"]
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"


def structure(page: str) -> Structure:
    parser = Structure()
    parser.feed(page)
    parser.close()
    assert parser.open == []
    return parser


@pytest.fixture
def ladder(store, clock):
    """A ladder with a team whose name is hostile HTML (put in behind the name check, as
    a damaged or future file could) and an abnormal game whose reason quotes HTML."""
    store.add_team("alpha")
    store.add_team("beta")
    play(store, "alpha", "greedy", V, W)
    pairing = store.new_pairing("beta", "alpha")
    game = store.begin_game(pairing.id, 1)
    store.finish_game(game.id, result(W, Termination.PROTOCOL_ERROR, REASON, 5), "3.jsonl")
    pairing = store.new_pairing("random", "beta")
    store.begin_game(pairing.id, 1)
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE players SET name = ? WHERE name = 'alpha'", (HOSTILE,))
    with LadderReader.open(store.path, clock) as reader:
        snapshot = reader.snapshot()
    return snapshot, ratings_of(snapshot)


def test_the_leaderboard_shows_rank_rating_games_record_and_presence(ladder):
    snapshot, ratings = ladder
    rows = leaderboard(snapshot, ratings, online={"beta"})
    page = leaderboard_page(rows, snapshot.taken + 90)
    assert structure(page).scripts == 0
    assert "<td>1</td>" in page.replace(' class="number"', "")
    assert f"{ratings['beta'].elo:.0f}" in page and f"± {ratings['beta'].error:.0f}" in page
    assert "1000" in page and "anchor" in page and "built-in bot" in page
    assert "0-0-1" in page  # beta's record
    assert '<span class="online">online</span>' in page
    assert "never" in page  # a team never seen
    assert "/teams/beta" in page


def test_every_text_from_a_team_or_a_bot_is_escaped_on_every_page(ladder):
    snapshot, ratings = ladder
    now = snapshot.taken
    report = team_report(snapshot, HOSTILE, ratings)
    assert report is not None
    pages = [
        leaderboard_page(leaderboard(snapshot, ratings), now),
        games_page(list(reversed(snapshot.games)), now),
        team_page(report, now),
        team_page(team_report(snapshot, "beta", ratings), now),
    ]
    for page in pages:
        parsed = structure(page)
        assert parsed.scripts == 0
        assert HOSTILE not in page and "<img" not in page
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
        assert team_url(HOSTILE) in parsed.links
        assert team_url(HOSTILE) == "/teams/%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E"


def test_a_team_page_shows_its_abnormal_game_with_the_exact_reason_and_transcript(ladder):
    snapshot, ratings = ladder
    page = team_page(team_report(snapshot, "beta", ratings), snapshot.taken)
    assert "<h2>Abnormal games</h2>" in page
    assert f'protocol error: <span class="reason">{html.escape(REASON)}</span>' in page
    links = structure(page).links
    assert "/games/3/transcript" in links and "/games/3/replay" in links
    assert "<h2>By map</h2>" in page and "<h2>By opponent</h2>" in page


def test_the_games_page_lists_results_in_progress_and_replays(ladder):
    snapshot, _ = ladder
    page = games_page(list(reversed(snapshot.games)), snapshot.taken + 7200)
    assert page.index("playing") < page.index("protocol error")  # newest first
    assert "2 h ago" in page and "won" in page
    assert {"/games/1/replay", "/games/2/replay", "/games/3/replay"} <= set(structure(page).links)
    assert "/games/4/replay" not in page  # in progress: no transcript yet…
    assert "/live/?game=4" in structure(page).links  # …but watched live
    assert page.index("In progress") < page.index("/live/?game=4") < page.index("Latest games")


def test_empty_pages_say_so(store):
    with LadderReader.open(store.path) as reader:
        snapshot = reader.snapshot()
    assert "No games yet." in games_page([], snapshot.taken)
    assert "No players yet." in leaderboard_page([], snapshot.taken)
