"""The ladder's pages over HTTP, beside a ladder served in the same trio run."""

import pytest
import trio

from engine import Rules
from server.settings import Settings
from tests.helpers.http import get
from tests.vvw.ladder.ladders import ManualClock, ended, ladder_settings, serving, team_bot
from vvw.analysis.files import analysis_path
from vvw.ladder.analysing import Analysed
from vvw.ladder.store import LadderStore
from vvw.ladder.web import FRESH, STALE, LadderPages
from vvw.web.live import LiveHub
from vvw.web.server import STREAMS_PER_ADDRESS, serve_http


@pytest.fixture
def ladder(tmp_path, clock):
    settings = ladder_settings(seed=2, game=Settings(rules=Rules(max_plies=20)), patience=3600)
    store = LadderStore.create(tmp_path / "ladder.db", settings, clock)
    tokens = {team: store.add_team(team) for team in ("alpha", "beta")}
    yield store, tokens
    store.close()


async def test_the_pages_show_the_leaderboard_the_games_a_team_a_replay_and_a_transcript(ladder):
    store, tokens = ladder
    hub = LiveHub(keep=5)
    with trio.fail_after(30):
        async with serving(store) as (port, heard, server), trio.open_nursery() as nursery:
            pages = LadderPages(store.path, hub, lambda: server.online, lambda: server.version)
            web = await nursery.start(
                lambda task_status: serve_http(pages, 0, task_status=task_status)
            )
            async with trio.open_nursery() as bots:
                for team in ("alpha", "beta"):
                    await team_bot(bots, port, team, tokens[team])
                await heard.until(ended(1))
            status, headers, board = await get(web, "/")
            assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
            assert "script-src" not in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff"
            assert b'href="/teams/alpha"' in board and b'href="/teams/beta"' in board
            status, _, games = await get(web, "/games")
            assert status == 200 and b"/games/1/replay" in games and b"/games/1/transcript" in games
            status, _, team = await get(web, "/teams/alpha")
            assert status == 200 and b"<h2>By opponent</h2>" in team
            status, headers, replay = await get(web, "/games/1/replay")
            assert status == 200 and b'"events":' in replay and b'"type":"start"' in replay
            status, headers, transcript = await get(web, "/games/1/transcript")
            assert status == 200 and headers["content-type"] == "text/plain; charset=utf-8"
            assert headers["x-content-type-options"] == "nosniff"
            (game,) = store.games()
            assert game.transcript is not None
            assert transcript == (store.transcripts / game.transcript).read_bytes()
            for target in ("/teams/nobody", "/games/9/replay", "/games/x/replay", "/nothing"):
                assert (await get(web, target))[0] == 404
            status, headers, _ = await get(web, "/live")
            assert status == 301 and headers["location"] == "/live/"
            status, _, live = await get(web, "/live/")
            assert status == 200 and b'"live":true' in live
            nursery.cancel_scope.cancel()


async def test_a_page_is_made_once_a_moment_however_many_ask_for_it(ladder, monkeypatch):
    store, _ = ladder
    version, clock = 0, ManualClock(0.0)
    pages = LadderPages(store.path, LiveHub(), version=lambda: version, clock=clock)
    made: list[str] = []
    make = LadderPages._make

    def counting(self, path, moment):
        made.append(path)
        return make(self, path, moment)

    monkeypatch.setattr(LadderPages, "_make", counting)
    got: list = []
    async with trio.open_nursery() as browsers:
        for _ in range(10):  # ten browsers at once: one page made
            browsers.start_soon(lambda: _append(got, pages.page("/")))
    assert made == ["/"] and all(page is got[0] for page in got)
    version += 1  # the ladder changed, but the moment is still fresh
    clock.advance(FRESH / 2)
    assert await pages.page("/") is got[0] and made == ["/"]
    clock.advance(FRESH)  # no longer fresh, and changed: read again
    again = await pages.page("/")
    assert again is not got[0] and made == ["/", "/"]
    clock.advance(STALE - 1)  # nothing changed: kept up to STALE
    assert await pages.page("/") is again
    clock.advance(2)
    assert await pages.page("/") is not again and made == ["/", "/", "/"]


async def _append(got: list, page) -> None:
    got.append(await page)


async def test_with_analyse_each_game_is_analysed_and_its_replay_shows_the_analysis(ladder):
    store, tokens = ladder
    with trio.fail_after(120):
        async with serving(store, analyse=1) as (port, heard, server), trio.open_nursery() as n:
            pages = LadderPages(
                store.path, LiveHub(), lambda: server.online, lambda: server.version
            )
            web = await n.start(lambda task_status: serve_http(pages, 0, task_status=task_status))
            async with trio.open_nursery() as bots:
                for team in ("alpha", "beta"):
                    await team_bot(bots, port, team, tokens[team])
            await heard.until(lambda heard: bool(heard.of(Analysed)))
            (analysed,) = heard.of(Analysed)
            (game,) = store.games()
            assert analysed.number == game.id and game.transcript is not None
            assert analysed.path == analysis_path(store.transcripts / game.transcript)
            status, _, replay = await get(web, f"/games/{game.id}/replay")
            assert status == 200 and b'"analysis":{' in replay
            _, _, games = await get(web, "/games")
            assert b">replay + analysis</a>" in games
            n.cancel_scope.cancel()


async def _open_stream(port: int, target: str = "/live/events") -> tuple[trio.SocketStream, bytes]:
    """An event stream asked for, and the first bytes of its answer (its status line)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return stream, await stream.receive_some()


async def _pages(nursery: trio.Nursery, store: LadderStore, **options) -> int:
    """An idle ladder's pages (no game: no event reveals a closed stream), on a free port."""
    pages = LadderPages(store.path, LiveHub(keep=5))
    return await nursery.start(
        lambda task_status: serve_http(pages, 0, task_status=task_status, **options)
    )


async def test_live_streams_closed_by_their_browsers_leave_the_pages_answered(ladder):
    # an idle ladder (no game, so no event would ever reveal a closed stream): a crowd of
    # streams opened and closed, more than the server's connections, then the pages
    store, _ = ladder
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            web = await _pages(nursery, store, connections=8)
            for _ in range(3 * 8):
                stream, head = await _open_stream(web)
                assert head.startswith(b"HTTP/1.1 200")
                await stream.aclose()
            assert (await get(web, "/"))[0] == 200
            nursery.cancel_scope.cancel()


async def test_live_streams_are_bounded_per_address_and_the_pages_still_answered(ladder):
    # streams that never read, held open: the one too many is refused, pages are answered
    store, _ = ladder
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            web = await _pages(nursery, store)
            held = [await _open_stream(web) for _ in range(STREAMS_PER_ADDRESS)]
            assert all(head.startswith(b"HTTP/1.1 200") for _, head in held)
            refused, head = await _open_stream(web)
            assert head.startswith(b"HTTP/1.1 503")
            await refused.aclose()
            assert (await get(web, "/"))[0] == 200
            await held[0][0].aclose()  # one closed: one more may open
            with trio.fail_after(10):
                while True:
                    again, head = await _open_stream(web)
                    await again.aclose()
                    if head.startswith(b"HTTP/1.1 200"):
                        break
            for stream, _ in held[1:]:
                await stream.aclose()
            nursery.cancel_scope.cancel()
