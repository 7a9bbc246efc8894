"""The viewer's page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Skipped, with the reason, where Playwright or Chromium is missing; ``.ci/run`` installs both.
"""

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from queue import Queue

import pytest
import trio

from engine.mapgen import generate_map
from protocol.records import Ply, Record
from tests.server.fakes import random_policy
from tests.vvw.web.test_view import (
    GARBAGE,
    ILLEGAL,
    boards_after_each_ply,
    faulty_game,
    served_game,
)
from vvw.cli import main
from vvw.ports import Listening
from vvw.records.results import read_results
from vvw.transcripts import read_transcript
from vvw.web.live import LiveHub, live_view
from vvw.web.model import view_events

MAPS = Path(__file__).resolve().parents[3] / "maps"
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
    page.click("#cells-box summary")  # open "occupied cells"
    page.wait_for_selector("#cells tbody tr")  # drawn when it opens
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
    # The chart has its axes: the counts from 0 up, the plies from 0 to the last.
    labels = page.eval_on_selector_all("#chart text", "ts => ts.map(t => t.textContent)")
    assert labels.count("0") == 2 and str(len(plies)) in labels
    page.keyboard.press("Home")
    page.keyboard.press(" ")  # play
    page.wait_for_function("Number(document.getElementById('ply').textContent) >= 2")
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5000
    assert errors == []
    page.close()


class _LiveServer:
    """The live view in a trio thread, as a command runs it, fed transcript lines by the
    test; :meth:`stop` ends the command."""

    def __init__(self, tournament: bool = False) -> None:
        self.hub = LiveHub(tournament=tournament)
        self._ready: Queue[tuple[int, object]] = Queue()
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)
        self._thread.start()
        self.port, self._token = self._ready.get(timeout=10)
        self._sinks: dict[str, object] = {}

    async def _main(self) -> None:
        place = Listening("127.0.0.1", 0, "the live view")
        with trio.CancelScope() as self._command:
            async with live_view(self.hub, place, lambda _: None) as port:
                self._ready.put((port, trio.lowlevel.current_trio_token()))
                await trio.sleep_forever()

    def feed(self, lines: list[Record], game: str = "1") -> None:
        if game not in self._sinks:
            self._sinks[game] = trio.from_thread.run_sync(
                lambda: self.hub.record_sink(game, f"game {game}"), trio_token=self._token
            )
        for line in lines:
            trio.from_thread.run_sync(self._sinks[game], line, trio_token=self._token)

    def stop(self) -> None:
        """End the command (as Ctrl-C does); return once the view has stopped."""
        if self._thread.is_alive():
            trio.from_thread.run_sync(self._command.cancel, trio_token=self._token)
        self._thread.join(10)


def test_the_live_view_shows_a_game_in_progress_and_follows_its_plies(browser, transcript) -> None:
    lines = read_transcript(transcript)
    first_ply = next(i for i, line in enumerate(lines) if isinstance(line, Ply))
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


def _replay(transcript: Path, folder: Path) -> Path:
    html = folder / (transcript.stem + ".html")
    assert main(["replay", str(transcript), "-o", str(html)]) == 0
    return html


@pytest.fixture(scope="module")
def dense(tmp_path_factory) -> Path:
    """A 40 × 40 game on a crowded map (240 houses), random plies with splits: its transcript."""
    game_map = generate_map(40, 40, 120, seed=4)
    folder = tmp_path_factory.mktemp("dense")
    return served_game(folder, game_map, random_policy(1), random_policy(2), max_plies=24)


COUNTS = """ts => ts.map(t => {
    const b = t.getBoundingClientRect();
    return [Number(t.dataset.x), Number(t.dataset.y), t.textContent,
            b.left, b.top, b.right, b.bottom];
})"""
BOXES = """es => es.map(e => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
})"""
UNDER = """() => {
    // For each count drawn, the colours the board paints under its text (the board is a
    // canvas of its own, under the counts: no glyph in it).
    const canvas = document.getElementById("board"), at = canvas.getBoundingClientRect();
    const image = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const colour = (x, y) => {
        const i = (Math.floor(y - at.top) * image.width + Math.floor(x - at.left)) * 4;
        return `rgb(${image.data[i]}, ${image.data[i + 1]}, ${image.data[i + 2]})`;
    };
    return [...document.querySelectorAll("#counts text")].map((t) => {
        const b = t.getBoundingClientRect(), seen = new Set();
        for (let x = Math.ceil(b.left); x < b.right; x++) {
            for (let y = Math.ceil(b.top); y < b.bottom; y++) seen.add(colour(x, y));
        }
        return [t.textContent, [...seen]];
    });
}"""
KIND_COLOURS = {"rgb(109, 143, 58)", "rgb(198, 40, 40)", "rgb(21, 101, 192)"}


def _painted(page) -> None:
    """Wait until the page has painted what it scheduled for the next frame (zoom, pan)."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_40_by_40_replay_at_1400_by_900_draws_every_count_inside_its_cell(
    browser, dense, tmp_path
) -> None:
    events = view_events(read_transcript(dense))
    boards = [{(x, y, k, n) for x, y, k, n in events[0]["board"]}, *boards_after_each_ply(events)]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(_replay(dense, tmp_path).as_uri())
    frame = page.locator("#board-frame").bounding_box()
    assert frame["width"] > 700  # the board takes more than half of the window's width
    size = frame["width"] / 40
    assert frame["height"] == pytest.approx(40 * size)
    badges_seen = 0
    for ply, board in enumerate(boards):
        if ply:
            page.keyboard.press("ArrowRight")
        assert page.text_content("#ply") == str(ply)
        counts = page.eval_on_selector_all("#counts text", COUNTS)
        # Every count is drawn, and is the count of its cell.
        assert sorted((x, y, text) for x, y, text, *_ in counts) == sorted(
            (x, y, str(n)) for x, y, _, n in board
        )
        for x, y, _, left, top, right, bottom in counts:
            cell_left, cell_top = frame["x"] + x * size, frame["y"] + y * size
            assert cell_left <= left and right <= cell_left + size
            assert cell_top <= top and bottom <= cell_top + size
            assert bottom - top >= 10  # legible: the issue saw numbers about 8 pixels high
        boxes = [tuple(count[3:]) for count in counts]
        assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
        # No move's badge covers a count.
        badges = page.eval_on_selector_all("#badges rect", BOXES)
        assert not any(_overlap(badge, box) for badge in badges for box in boxes)
        badges_seen += len(badges)
    assert badges_seen > len(boards) // 2  # most plies' moves do show their counts
    # Each count lies on its own cell as the board paints it: its kind's colour all under it.
    for _, colours in page.evaluate(UNDER):
        assert len(colours) == 1 and colours[0] in KIND_COLOURS
    page.screenshot(path=str(tmp_path / "dense.png"))
    page.close()


@pytest.fixture(scope="module")
def wide(tmp_path_factory) -> Path:
    """A short game on a 150 × 150 map: its transcript."""
    game_map = generate_map(150, 150, 100, seed=2)
    folder = tmp_path_factory.mktemp("wide")
    return served_game(folder, game_map, random_policy(1), random_policy(2), max_plies=4)


def test_a_big_map_shows_its_counts_zoomed_in_each_on_its_cell_and_pans(
    browser, wide, tmp_path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(_replay(wide, tmp_path).as_uri())
    assert page.eval_on_selector_all("#counts text", "ts => ts.length") == 0
    assert "zoom in" in page.text_content("#hint")
    for _ in range(4):
        page.keyboard.press("+")
    _painted(page)
    assert page.eval_on_selector_all("#counts text", "ts => ts.length") > 0
    assert page.text_content("#hint") == ""

    def shown() -> list:
        counts = page.eval_on_selector_all("#counts text", COUNTS)
        for x, y, text, left, top, right, bottom in counts:
            # What the pointer finds under a count is that cell and that count.
            page.mouse.move((left + right) / 2, (top + bottom) / 2)
            assert page.text_content("#hover").startswith(f"({x},{y}): {text} ")
        for _, colours in page.evaluate(UNDER):
            assert len(colours) == 1 and colours[0] in KIND_COLOURS
        return sorted((x, y) for x, y, *_ in counts)

    before = shown()
    frame = page.locator("#board-frame").bounding_box()
    middle = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] - 300, middle[1] - 200, steps=5)
    page.mouse.up()
    _painted(page)
    after = shown()
    assert after and after != before
    page.keyboard.press("0")  # the whole board again
    _painted(page)
    assert page.eval_on_selector_all("#counts text", "ts => ts.length") == 0
    page.close()


def test_the_cell_under_the_pointer_is_said_for_the_ply_shown(
    browser, transcript, tmp_path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(_replay(transcript, tmp_path).as_uri())
    [first] = [r for r in read_transcript(transcript) if isinstance(r, Ply)][:1]
    x, y = first.moves[0].x, first.moves[0].y  # a cell the first ply changes
    kind, count = page.evaluate(f"vvw.game.frames[0].cells.get({y} * vvw.game.cols + {x})")
    before = f"({x},{y}): {count} {KINDS[kind]}"
    left = {(bx, by): (KINDS[int(k)], n) for bx, by, k, n in first.board}.get((x, y))
    after = f"({x},{y}): {left[1]} {left[0]}" if left else f"({x},{y}): empty"
    assert before != after  # its source: some of it moved
    frame = page.locator("#board-frame").bounding_box()
    size = frame["width"] / page.evaluate("vvw.game.cols")
    page.mouse.move(frame["x"] + (x + 0.5) * size, frame["y"] + (y + 0.5) * size)
    assert page.text_content("#hover") == before
    page.keyboard.press("ArrowRight")  # the pointer stays; the board changes under it
    assert page.text_content("#hover") == after
    page.close()


def test_a_click_in_the_move_list_shows_that_ply(browser, transcript, tmp_path) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(_replay(transcript, tmp_path).as_uri())
    plies = [r for r in read_transcript(transcript) if isinstance(r, Ply)]
    row = page.locator('#move-list tbody tr[data-ply="4"]').first
    assert (
        row.locator("td").nth(1).text_content()
        == {"vampires": "V", "werewolves": "W"}[plies[3].side.name.lower()]
    )
    row.click()
    assert page.text_content("#ply") == "4"
    assert "current" in row.get_attribute("class")
    shown = page.eval_on_selector_all("#arrows g.arrow", "gs => gs.map(g => g.dataset.count)")
    assert shown == [str(move.count) for move in plies[3].moves]
    page.keyboard.press("ArrowRight")  # the keys go on from there
    assert page.text_content("#ply") == "5"
    assert "current" in page.locator('#move-list tr[data-ply="5"]').first.get_attribute("class")
    page.close()


@pytest.mark.parametrize(
    ("sent", "says"),
    [
        (ILLEGAL, ["win by illegal ply", "rule 3", "MOV 1: (0,0)->(1,1) x99"]),
        (GARBAGE, ["win by protocol error", "unknown command", "[4d 4f 58]"]),
    ],
    ids=["illegal ply", "protocol error"],
)
def test_the_last_ply_says_how_the_game_ended(browser, sent, says, tmp_path) -> None:
    transcript = faulty_game(tmp_path / "game", sent)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(_replay(transcript, tmp_path).as_uri())
    page.keyboard.press("End")
    last = page.text_content("#ply")
    rows = page.locator(f'#move-list tr[data-ply="{last}"]')
    assert rows.count() == 2  # the refused turn, and the end of the game under it
    assert rows.nth(0).text_content().startswith(f"{last}W")
    assert "refused" in rows.nth(0).text_content()
    end = rows.nth(1).text_content()
    assert end.startswith("✗ game over: vampires (alice) win by ")
    assert all(words in end for words in says)
    assert "game over" in page.text_content("#ply-side")
    refused = page.eval_on_selector_all("#arrows g.arrow.refused", "gs => gs.length")
    assert refused == (1 if sent == ILLEGAL else 0)
    page.keyboard.press("ArrowLeft")  # the ply before: no end
    assert "game over" not in page.text_content("#ply-side")
    page.close()


def test_the_transcript_downloads_from_the_page_byte_for_byte(
    browser, transcript, tmp_path
) -> None:
    page = browser.new_page(accept_downloads=True)
    page.goto(_replay(transcript, tmp_path).as_uri())
    page.wait_for_selector("#download:not([hidden])")
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == transcript.name
    assert Path(download.value.path()).read_bytes() == transcript.read_bytes()
    page.close()


def _lines(transcript: Path) -> list[Record]:
    return read_transcript(transcript)


LISTED_PLIES = """() => {
    const item = document.querySelector("#games li.current");
    return item ? Number(item.dataset.plies) : -1;
}"""


def test_the_list_of_games_shows_the_ply_the_board_shows(browser, transcript) -> None:
    lines = _lines(transcript)
    server = _LiveServer(tournament=True)
    try:
        server.feed(lines[:3], game="1")
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{server.port}/?game=1")
        page.wait_for_selector("#games li.current")
        fed = 3
        for upto in (len(lines) // 3, 2 * len(lines) // 3):
            server.feed(lines[fed:upto], game="1")
            server.feed(lines[fed:upto], game="2")  # another game's plies meanwhile
            fed = upto
            plies = server.hub.games["1"].summary()["plies"]
            page.wait_for_function(f"({LISTED_PLIES})() === {plies}")
            assert page.text_content("#ply-count") == str(plies)
            assert page.text_content("#games li.current").endswith(f"playing, ply {plies}")
            other = page.locator('#games li[data-game="2"]')
            assert other.get_attribute("data-plies") == str(
                server.hub.games["2"].summary()["plies"]
            )
        page.close()
    finally:
        server.stop()


def test_when_the_command_ends_the_page_shows_the_last_ply_and_finished(
    browser, transcript
) -> None:
    lines = _lines(transcript)
    server = _LiveServer()
    try:
        server.feed(lines[: len(lines) // 2])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("Number(document.getElementById('ply-count').textContent) >= 1")
        page.keyboard.press("Home")  # looking at the start: the end moves the page on
        server.feed(lines[len(lines) // 2 :])
    finally:
        server.stop()
    page.wait_for_function("document.body.dataset.finished === 'true'")
    assert page.text_content("#status") == "finished"
    assert page.text_content("#ply") == page.text_content("#ply-count")
    assert "game over" in page.text_content("#ply-side")
    assert " win " in page.text_content("#result") or "draw" in page.text_content("#result")
    # The page does not try again: its event stream is closed for good.
    assert page.evaluate("live.source.readyState") == 2  # EventSource.CLOSED
    page.close()


def test_a_page_opened_after_its_game_ended_shows_that_game(browser, transcript) -> None:
    server = _LiveServer()
    try:
        server.feed(_lines(transcript))
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("document.getElementById('result').textContent.includes('after')")
        plies = [r for r in read_transcript(transcript) if isinstance(r, Ply)]
        assert page.text_content("#ply-count") == str(len(plies))
        assert page.text_content("#ply") == str(len(plies))
        assert page.text_content("#status") == "live"
        page.close()
    finally:
        server.stop()


def test_a_headless_chromium_screenshot_of_the_live_page_finishes(transcript, tmp_path) -> None:
    executable = _chromium()
    if executable is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set VVW_CHROMIUM)")
    lines = _lines(transcript)
    server = _LiveServer()
    try:
        server.feed(lines[: len(lines) // 2])  # a game in progress: its stream stays open
        shot = tmp_path / "live.png"
        done = subprocess.run(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--screenshot={shot}",
                "--window-size=1280,720",
                f"http://127.0.0.1:{server.port}/",
            ],
            capture_output=True,
            timeout=60,  # a bound for a hang, not a measure: it takes about a second
            check=False,
        )
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert shot.stat().st_size > 5000


ROOT = Path(__file__).resolve().parents[3]
SLOW_BOT = (
    f"{sys.executable} {ROOT / 'tests' / 'server' / 'bots' / 'bot.py'} late {{host}} {{port}}"
)
"""A bot that thinks a second before each ply: its games last while the test looks."""
TABLE_ROWS = """table => [...table.querySelectorAll("tr")].map(
    row => [...row.cells].map(cell => cell.textContent).join(" "))"""


def _report_lines(results: Path) -> list[str]:
    """The text tables of ``vvw tournament report``, one string per line, spaces collapsed."""
    done = subprocess.run(
        [sys.executable, "-m", "vvw", "tournament", "report", str(results)],
        capture_output=True,
        text=True,
        check=True,
    )
    return [" ".join(line.split()) for line in done.stdout.splitlines()]


def _tables_shown(page) -> list[str]:
    rows = page.eval_on_selector("#standings", TABLE_ROWS)
    rows += page.eval_on_selector("#pairs", TABLE_ROWS)
    return [" ".join(row.split()) for row in rows]


def test_the_tournament_dashboard_shows_the_report_s_standings_and_each_game(
    browser, tmp_path
) -> None:
    results = tmp_path / "results.jsonl"
    command = [
        sys.executable,
        "-m",
        "vvw",
        "tournament",
        "random",
        "name=slow",
        SLOW_BOT,
        "--maps",
        "testmap",
        "--ply-limit",
        "4",
        "--seed",
        "3",
        "--results",
        str(results),
        "--keep-transcripts",
        "--view",
        "--view-port",
        "0",
    ]
    tournament = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert tournament.stdout is not None
        address = ""
        for line in tournament.stdout:
            if line.startswith("live view on "):
                address = line.split()[-1]
                break
        assert address, tournament.stderr.read() if tournament.stderr else ""
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(address)
        # A game in progress, listed with its ply as it goes.
        page.wait_for_selector("#playing li a")
        playing = page.locator("#playing li").first
        assert playing.text_content().split(" — ")[1].startswith("playing, ply ")
        # The first game's replay, under the participants' names, while the second plays.
        page.wait_for_selector('#finished tr[data-game="1"] a')
        replay = browser.new_page(viewport={"width": 1400, "height": 900})
        replay.goto(address + page.get_attribute('#finished tr[data-game="1"] a', "href"))
        replay.wait_for_selector("#move-list tbody tr")
        names = (replay.text_content("#name-vampires"), replay.text_content("#name-werewolves"))
        assert names == ("random", "slow")
        assert "win" in replay.text_content("#result") or "draw" in replay.text_content("#result")
        replay.close()
        page.wait_for_function("document.body.dataset.finished === 'true'", timeout=120_000)
        tournament.communicate(timeout=60)
    finally:
        if tournament.poll() is None:
            tournament.kill()
            tournament.wait()
    assert tournament.returncode == 0
    # The standings of the end, as the terminal's report has them.
    report = _report_lines(results)
    shown = _tables_shown(page)
    assert len(shown) == 1 + 2 + 1 + 1  # heads and rows: 2 participants, 1 pair
    assert all(row in report for row in shown)
    assert page.text_content("#plan") == report[0]
    _, games = read_results(results)
    assert page.locator("#finished tbody tr").count() == len(games) == 2
    page.close()


def test_a_tournament_report_as_html_is_a_folder_of_pages(browser, tmp_path) -> None:
    results = tmp_path / "results.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        code = main(
            [
                "tournament",
                "random",
                "greedy",
                "--maps",
                "testmap",
                "--ply-limit",
                "6",
                "--seed",
                "4",
                "--results",
                str(results),
                "--keep-transcripts",
            ]
        )
        assert code == 0
        assert main(["tournament", "report", str(results), "--html", "site"]) == 0
    site = tmp_path / "site"
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto((site / "index.html").as_uri())
    report = _report_lines(results)
    shown = _tables_shown(page)
    assert len(shown) == 5 and all(row in report for row in shown)
    links = page.eval_on_selector_all(
        "#finished a", "links => links.map(a => a.getAttribute('href'))"
    )
    _, games = read_results(results)
    assert sorted(links) == sorted(f"games/{n}.html" for n in range(1, len(games) + 1))
    assert {path.name for path in (site / "games").iterdir()} == {
        link.split("/")[1] for link in links
    }
    page.click('#finished tr[data-game="1"] a')  # a relative link: the folder stands alone
    page.wait_for_selector("#download:not([hidden])")
    assert page.text_content("#name-vampires") == games[0].vampires.name
    assert page.text_content("#ply-count") != "0"
    page.click("#dashboard")  # "the tournament": back to the index
    page.wait_for_selector("#finished")
    assert page.url == (site / "index.html").as_uri()
    page.close()


OWN_GROUPS = """() => {
    // The person's groups on the board now, largest first: [x, y, count].
    const game = vvw.game, frame = game.frames[vvw.lastFrame()];
    const kind = {vampires: 2, werewolves: 3}[config.play.side];
    return [...frame.cells.entries()].filter(([, [k]]) => k === kind)
        .map(([key, [, n]]) => [key % game.cols, Math.floor(key / game.cols), n])
        .sort((a, b) => b[2] - a[2]);
}"""


def _click_cell(page, x: int, y: int) -> None:
    frame = page.locator("#board-frame").bounding_box()
    size = frame["width"] / page.evaluate("vvw.game.cols")
    page.mouse.click(frame["x"] + (x + 0.5) * size, frame["y"] + (y + 0.5) * size)


def test_a_person_plays_a_whole_game_against_greedy_and_it_is_recorded(browser, tmp_path):
    results = tmp_path / "results.jsonl"
    command = [
        *(sys.executable, "-m", "vvw", "play", "greedy", "--map", "testmap2"),
        *("--as", "werewolves", "--ply-limit", "12", "--seed", "3"),
        *("--results", str(results), "--port", "0", "--no-open"),
    ]
    play = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    sent: list[tuple[int, int, int, int, int]] = []
    try:
        assert play.stdout is not None
        first = play.stdout.readline()
        assert first.startswith("vvw play: you play the werewolves against greedy"), first
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(first.split()[-1])
        explained = False
        while True:
            page.wait_for_function(
                "document.body.dataset.playTurn || document.body.dataset.finished === 'true'"
            )
            if page.evaluate("document.body.dataset.finished === 'true'"):
                break
            turn = page.evaluate("document.body.dataset.playTurn")
            rows, cols = page.evaluate("[vvw.game.rows, vvw.game.cols]")
            x, y, count = page.evaluate(OWN_GROUPS)[0]
            _click_cell(page, x, y)
            if not explained:  # a cell two away: the engine's rule 4, in words
                _click_cell(page, x + 2 if x + 2 < cols else x - 2, y)
                page.wait_for_function(
                    "document.getElementById('play-message').textContent.startsWith('rule 4')"
                )
                assert "8 neighbours" in page.text_content("#play-message")
                assert page.locator("#play-moves li").count() == 0  # not added
                explained = True
            tx = x + (1 if x < cols // 2 else -1)
            ty = y + (1 if y < rows // 2 else -1)
            _click_cell(page, tx, ty)
            page.wait_for_selector("#play-moves li")
            assert page.text_content("#play-moves li") == f"{count} ({x},{y})→({tx},{ty})"
            page.click("#play-send")
            sent.append((x, y, count, tx, ty))
            page.wait_for_function(
                f"document.body.dataset.playTurn !== '{turn}'"
                " || document.body.dataset.finished === 'true'"
            )
        out, err = play.communicate(timeout=60)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
    assert play.returncode == 0, err
    assert errors == []
    assert page.text_content("#status") == "finished"
    page.close()
    # Recorded as any other game: the results file, its transcript, the report.
    header, [game] = read_results(results)
    assert header.participants == (("greedy", "greedy"), ("you", "a person at the page (vvw play)"))
    assert (game.vampires.name, game.werewolves.name) == ("greedy", "you")
    assert game.plies == 12 or game.termination.value == "elimination"
    assert game.werewolves.skipped_turns == 0 and "played for you" not in out
    assert Path(str(game.transcript)).parent == results.parent / "results-game"
    assert not (tmp_path / "runs").exists()  # all beside the results file
    records = read_transcript(tmp_path / str(game.transcript))
    played = [
        tuple(ply.moves[0])
        for ply in records
        if isinstance(ply, Ply) and ply.side.name == "WEREWOLVES"
    ]
    assert played == sent
    report = _report_lines(results)
    assert report[0].startswith("1 of 1 games played (play, 1 map")
    assert {line.split()[1]: line.split()[2] for line in report[3:5]} == {"greedy": "1", "you": "1"}


LISTED = """() => {
    const list = document.getElementById("games");
    return {games: [...list.querySelectorAll("li")].map((item) => item.dataset.game),
            hidden: list.scrollHeight - list.clientHeight};
}"""


def test_the_list_of_games_shows_the_newest_first_and_a_ladder_s_games_fit(
    browser, transcript, tmp_path
) -> None:
    # a ladder's live view keeps 20 finished games beside those in progress
    lines = _lines(transcript)
    server = _LiveServer()
    try:
        for number in range(1, 25):
            server.feed(lines[:3], game=str(number))
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("document.querySelectorAll('#games li').length === 24")
        listed = page.evaluate(f"({LISTED})()")
        page.screenshot(path=str(tmp_path / "games.png"))
        page.close()
    finally:
        server.stop()
    assert listed["games"] == [str(number) for number in range(24, 0, -1)]
    assert listed["hidden"] <= 0, "the list scrolls: not every game shows"


def test_the_header_names_no_map_before_the_game_s_map_is_known(browser, transcript) -> None:
    server = _LiveServer()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("document.getElementById('status').textContent === 'live'")
        assert "on" not in page.inner_text("h1").split()  # not "on ?"
        server.feed(_lines(transcript))
        page.wait_for_selector("#map-on:not([hidden])")
        assert page.inner_text("#map-on").startswith("on ")
        page.close()
    finally:
        server.stop()
