"""The viewer's page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Skipped, with the reason, where Playwright or Chromium is missing; ``.ci/run`` installs both.
"""

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from queue import Queue

import pytest
import trio

from protocol.transcript import Ply, read_transcript
from vvw.cli import main
from vvw.view.live import LiveHub, serve_view

MAPS = Path(__file__).resolve().parents[2] / "maps"
KINDS = {1: "humans", 2: "vampires", 3: "werewolves"}


def _chromium() -> str | None:
    for name in (os.environ.get("VVW_CHROMIUM"), "chromium", "chromium-browser"):
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (python3 dev.py setup)"
    )
    executable = _chromium()
    if executable is None:
        pytest.skip(
            "no Chromium found: install Debian's chromium package (apt-get install "
            "chromium) or set VVW_CHROMIUM to a Chromium executable"
        )
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        except Exception as error:  # a browser that cannot start here: say why, do not fail
            pytest.skip(f"Chromium at {executable} does not start: {error}")
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def transcript(tmp_path_factory) -> Path:
    """A real game's transcript: greedy against random on testmap2, through our server."""
    folder = tmp_path_factory.mktemp("transcripts")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert (
            main(
                [
                    "match",
                    "--map",
                    str(MAPS / "testmap2.xml"),
                    "greedy",
                    "random",
                    "--games",
                    "1",
                    "--seed",
                    "5",
                    "--transcript",
                    str(folder),
                    "--keep-transcripts",
                ]
            )
            == 0
        )
    [path] = folder.glob("*.jsonl")
    return path


def _totals(board) -> dict[str, int]:
    totals = dict.fromkeys(KINDS.values(), 0)
    for _x, _y, kind, count in board:
        totals[KINDS[int(kind)]] += count
    return totals


def _shown(page) -> dict[str, int]:
    return {kind: int(page.text_content(f"#count-{kind}")) for kind in KINDS.values()}


def test_a_replay_steps_through_the_game_with_its_counts_cells_and_arrows(
    browser, transcript, tmp_path
) -> None:
    html = tmp_path / "replay.html"
    assert main(["replay", str(transcript), "-o", str(html)]) == 0
    plies = [r for r in read_transcript(transcript) if isinstance(r, Ply)]
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(html.as_uri())
    assert page.text_content("#ply") == "0"
    assert int(page.text_content("#ply-count")) >= len(plies)

    page.keyboard.press("ArrowRight")
    first = plies[0]
    assert page.text_content("#ply") == "1"
    assert _shown(page) == _totals(first.board)
    arrows = page.eval_on_selector_all(
        "#arrows g.arrow", "gs => gs.map(g => [g.dataset.from, g.dataset.to, g.dataset.count])"
    )
    assert arrows == [[f"{m.x},{m.y}", f"{m.tx},{m.ty}", str(m.count)] for m in first.moves]
    cells = page.eval_on_selector_all(
        "#cells tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert sorted(cells) == sorted(
        [str(x), str(y), KINDS[int(kind)], str(n)] for x, y, kind, n in first.board
    )

    page.fill("#slider", "5")
    page.dispatch_event("#slider", "input")
    assert page.text_content("#ply") == "5"
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#ply") == "4"
    page.keyboard.press("End")
    assert page.text_content("#ply") == page.text_content("#ply-count")
    assert "win" in page.text_content("#result") or "draw" in page.text_content("#result")
    page.keyboard.press("Home")
    page.keyboard.press(" ")  # play
    page.wait_for_function("Number(document.getElementById('ply').textContent) >= 2")
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5000
    assert errors == []
    page.close()


class _LiveServer:
    """The live view in a trio thread, fed transcript lines by the test."""

    def __init__(self) -> None:
        self.hub = LiveHub()
        self._ready: Queue[tuple[int, object]] = Queue()
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)
        self._thread.start()
        self.port, self._token = self._ready.get(timeout=10)
        self._sink = trio.from_thread.run_sync(
            lambda: self.hub.line_sink("1", "game 1"), trio_token=self._token
        )

    async def _main(self) -> None:
        async with trio.open_nursery() as nursery:
            self._stop = nursery.cancel_scope
            port = await nursery.start(serve_view, self.hub, 0)
            self._ready.put((port, trio.lowlevel.current_trio_token()))

    def feed(self, lines: list[str]) -> None:
        for line in lines:
            trio.from_thread.run_sync(self._sink, line, trio_token=self._token)

    def stop(self) -> None:
        trio.from_thread.run_sync(self._stop.cancel, trio_token=self._token)
        self._thread.join(10)


def test_the_live_view_shows_a_game_in_progress_and_follows_its_plies(browser, transcript) -> None:
    lines = transcript.read_text(encoding="utf-8").splitlines()
    first_ply = next(i for i, line in enumerate(lines) if '"type": "ply"' in line)
    server = _LiveServer()
    try:
        server.feed(lines[: first_ply + 3])  # the start and the first plies
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("Number(document.getElementById('ply-count').textContent) >= 1")
        before = int(page.text_content("#ply-count"))
        assert page.text_content("#result") == "game in progress"
        server.feed(lines[first_ply + 3 :])
        page.wait_for_function(
            f"Number(document.getElementById('ply-count').textContent) > {before}"
        )
        page.wait_for_function("document.getElementById('result').textContent.includes('after')")
        # Following: the page shows the newest ply as it comes.
        assert page.text_content("#ply") == page.text_content("#ply-count")
        page.close()
    finally:
        server.stop()
