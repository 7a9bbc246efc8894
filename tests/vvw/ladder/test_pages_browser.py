"""The ladder's pages in a real headless Chromium (Playwright): leaderboard, team page, replay.

A ladder is served in a thread of its own (its server, its pages, fake bots that play a
few games, one of which sends bytes that are a script); the browser then reads the pages
as a class would. Screenshots are left in the test's folder. Skipped, with the reason,
where Playwright or Chromium is missing (see tests/vvw/web/test_view_browser.py).
"""

import threading
from pathlib import Path
from queue import Queue

import pytest
import trio

from engine import Rules
from server.events import GameBegun
from server.settings import Settings
from tests.server.fakes import random_policy, scripted
from tests.vvw.ladder.ladders import ManualClock, ended, ladder_settings, serving, team_bot
from tests.vvw.web.test_view_browser import browser  # noqa: F401 (the fixture)
from vvw.ladder.store import LadderStore
from vvw.ladder.web import LadderPages
from vvw.web.live import LiveHub
from vvw.web.server import serve_http

HOSTILE = b"<script>document.title='owned'</script>"


class _LadderThread:
    """A ladder served in a trio run of its own thread, after its teams played 3 games,
    while two others play a slow one."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "ladder.db"
        self._ready: Queue[int] = Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)
        self._thread.start()
        self.port = self._ready.get(timeout=60)

    async def _main(self) -> None:
        settings = ladder_settings(seed=3, game=Settings(rules=Rules(max_plies=30)), patience=3600)
        with LadderStore.create(self.path, settings, ManualClock()) as self.store:
            teams = ("les-loups", "nosferatu", "vlad", "garou")
            self.tokens = {team: self.store.add_team(team) for team in teams}
            await self._play_then_serve()

    async def _play_then_serve(self) -> None:
        hub = LiveHub()
        async with serving(self.store, hub.listener()) as (port, heard, server):
            with trio.fail_after(60):
                async with trio.open_nursery() as bots:  # a normal pairing: both its games
                    for leg in (1, 2):
                        await team_bot(bots, port, "les-loups", self.tokens["les-loups"], leg)
                        await team_bot(bots, port, "nosferatu", self.tokens["nosferatu"], leg)
                        await heard.until(ended(leg))
                async with trio.open_nursery() as bots:  # nosferatu's bot sends a script
                    hostile = scripted({2: HOSTILE}, random_policy(5))
                    await team_bot(bots, port, "les-loups", self.tokens["les-loups"], 3)
                    await team_bot(
                        bots, port, "nosferatu", self.tokens["nosferatu"], policy=hostile
                    )
                    await heard.until(ended(3))
            async with trio.open_nursery() as nursery:
                for team in ("vlad", "garou"):  # a game that lasts: one move a second
                    await team_bot(nursery, port, team, self.tokens[team], delay=1.0)
                await heard.until(lambda heard: len(heard.of(GameBegun)) == 4)
                pages = LadderPages(self.path, hub, lambda: server.online, lambda: server.version)
                web = await nursery.start(
                    lambda task_status: serve_http(pages, 0, task_status=task_status)
                )
                self._ready.put(web)
                await trio.to_thread.run_sync(self._stop.wait)
                nursery.cancel_scope.cancel()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    served = _LadderThread(tmp_path_factory.mktemp("ladder"))
    yield served
    served.stop()


def test_the_leaderboard_ranks_the_teams_and_links_each_team_s_page(browser, ladder, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"http://127.0.0.1:{ladder.port}/")
    rows = page.eval_on_selector_all(
        "table tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    assert rows[0][:6] == ["#", "player", "rating", "± 95 %", "games", "W-D-L"]
    by_name = {row[1].split(" ")[0]: row for row in rows[1:]}
    assert by_name["les-loups"][4] == by_name["nosferatu"][4] == "3"
    assert by_name["greedy"][3] == "anchor"
    ranks = [row[0] for row in rows[1:] if row[0]]
    assert ranks == [str(n) for n in range(1, len(ranks) + 1)]
    page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
    page.click("text=nosferatu")
    page.wait_for_url("**/teams/nosferatu")
    assert page.title() == "nosferatu — vvw ladder"
    assert errors == []
    page.close()


def test_a_team_page_shows_its_abnormal_game_with_the_bytes_its_bot_sent_as_text(
    browser,  # noqa: F811
    ladder,
    tmp_path,
):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(f"http://127.0.0.1:{ladder.port}/teams/nosferatu")
    assert page.title() == "nosferatu — vvw ladder"  # no script ran: the title is ours
    abnormal = page.locator("section", has_text="Abnormal games")
    reason = abnormal.locator(".reason").first.text_content()
    assert "protocol error" in abnormal.text_content()
    assert "<sc" in reason  # the bytes it sent, shown as text
    assert page.locator("section", has_text="By opponent").locator("td").first.text_content() == (
        "les-loups"
    )
    page.screenshot(path=str(tmp_path / "team.png"), full_page=True)
    page.close()


def test_a_replay_link_opens_the_game_in_the_viewer(browser, ladder, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{ladder.port}/games")
    page.locator("a", has_text="replay").first.click()
    page.wait_for_url("**/games/*/replay")
    assert int(page.text_content("#ply-count")) >= 1
    page.keyboard.press("End")
    assert page.text_content("#ply") == page.text_content("#ply-count")
    assert "win" in page.text_content("#result") or "draw" in page.text_content("#result")
    page.screenshot(path=str(tmp_path / "replay.png"))
    assert page.text_content("#dashboard") == "the games"
    page.click("#dashboard")  # back where it was opened from
    page.wait_for_url("**/games")
    assert errors == []
    page.close()


def test_a_game_in_progress_is_watched_live_from_the_games_page(browser, ladder, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{ladder.port}/games")
    progress = page.locator("section", has_text="In progress")
    assert "vlad" in progress.text_content() and "garou" in progress.text_content()
    page.screenshot(path=str(tmp_path / "games.png"), full_page=True)
    progress.locator("a", has_text="watch live").click()
    page.wait_for_url("**/live/?game=4")
    page.wait_for_function("Number(document.getElementById('ply-count').textContent) >= 1")
    assert page.text_content("#result") == "game in progress"
    page.screenshot(path=str(tmp_path / "live.png"))
    assert errors == []
    page.close()
