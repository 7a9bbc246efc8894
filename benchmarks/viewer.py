"""The replay page's weight and speed on the largest map: 200 plies on 255 × 255.

    python -m benchmarks.viewer [--repeats 5] [--transcript FILE] [--html FILE ...]
        [--keep DIR] [--width 1400] [--height 900]

Plays one game on a generated 255 × 255 map (the largest the protocol allows, with 126
mirrored houses: the most cells a MAP can carry) between two instant random bots over our
server, to the 200-ply limit; writes its replay page (``vvw replay``); then opens the page
in headless Chromium (Debian's ``chromium``, or ``VVW_CHROMIUM``) ``--repeats`` times and
prints:

- the page's size;
- *open*: from the navigation's start to the first frame painted after the page loaded
  (the board drawn);
- *step*: one ply forward by the ``→`` key over the whole game, both the page's own work
  (*script*: the key's handler) and the time until the next frame is painted (*paint*),
  over every step of every repeat;

each as its median, 95th percentile and maximum.

``--transcript`` measures that game instead of playing one. ``--html`` measures other pages
in the same run, opened in turn with ours (interleaved), so that the machine's load weighs
on each alike: e.g. the replay of the same transcript written by an older vvw
(``--keep DIR`` keeps the transcript and our page there).
"""

import argparse
import os
import shutil
import statistics
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import trio

from benchmarks.referee import instant_bot
from engine.mapgen import generate_map
from server.serving import Transcripts, serve
from server.settings import Settings
from vvw.commands.replay import write_replay

SIDE = 255
HOUSES = 126
"""Mirrored house pairs: 252 human cells and the two starts, the 254 cells a MAP can hold."""

STEP = """async () => {
    // Every ply forward, one after the other: the key's handler, and the next paint.
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "Home"}));
    await frame();
    const plies = Number(document.getElementById("ply-count").textContent);
    const script = [], paint = [];
    for (let i = 0; i < plies; i++) {
        const start = performance.now();
        document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
        script.push(performance.now() - start);
        await frame();
        paint.push(performance.now() - start);
    }
    return [script, paint];
}"""
OPENED = """() => new Promise((done) =>
    requestAnimationFrame(() => setTimeout(() => done(performance.now()))))"""


def play_big_game(folder: Path, seed: int) -> Path:
    """One game of 200 plies on the largest map, instant random bots; its transcript."""
    game_map = generate_map(SIDE, SIDE, HOUSES, seed=seed)

    async def play() -> None:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(
                    serve,
                    game_map,
                    Settings(seed=seed),
                    port=0,
                    transcripts=Transcripts(folder, keep_all=True),
                )
            )
            for name, bot_seed in ((b"vampires", seed), (b"werewolves", seed + 1)):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                nursery.start_soon(instant_bot, stream, name, bot_seed)

    trio.run(play)
    [transcript] = folder.glob("*.jsonl")
    return transcript


def chromium() -> str | None:
    """Debian's Chromium, or the one ``VVW_CHROMIUM`` names."""
    for name in (os.environ.get("VVW_CHROMIUM"), "chromium", "chromium-browser"):
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


def measure(browser: Any, page_file: Path, size: tuple[int, int]) -> tuple[float, list, list]:
    """Open ``page_file`` once and step through it: (open ms, script ms, paint ms)."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(page_file.resolve().as_uri(), wait_until="load")
        opened = page.evaluate(OPENED)
        script, paint = page.evaluate(STEP)
    finally:
        page.close()
    return opened, script, paint


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.viewer",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--transcript", type=Path, help="measure this game's replay")
    parser.add_argument("--html", type=Path, action="append", default=[], help="another page")
    parser.add_argument("--keep", type=Path, help="keep the transcript and the page here")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("benchmarks.viewer: Playwright is not installed (python3 dev.py setup)")
        return 2
    executable = chromium()
    if executable is None:
        print("benchmarks.viewer: no Chromium (apt-get install chromium, or VVW_CHROMIUM)")
        return 2
    with tempfile.TemporaryDirectory(prefix="vvw-viewer-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        transcript = args.transcript or play_big_game(folder, args.seed)
        ours = folder / (transcript.stem + ".html")
        plies = write_replay(transcript, ours)
        pages = [ours, *args.html]
        print(f"{transcript.name}: {plies} plies, transcript {transcript.stat().st_size:,} bytes")
        results: dict[Path, list[tuple[float, list, list]]] = {page: [] for page in pages}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            for _ in range(args.repeats):
                for page in pages:
                    results[page].append(measure(browser, page, (args.width, args.height)))
            browser.close()
        for page in pages:
            runs = results[page]
            label = "this vvw" if page == ours else str(page)
            print(f"{label}: {page.stat().st_size / 1e6:.3f} MB")
            print(f"  open  {spread([opened for opened, _, _ in runs])}")
            print(f"  step  script {spread([t for _, script, _ in runs for t in script])}")
            print(f"        paint  {spread([t for _, _, paint in runs for t in paint])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
