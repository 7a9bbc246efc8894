"""The replay page with a game's analysis, in a real headless Chromium (as
tests/vvw/web/test_view_browser.py, whose ``browser`` fixture it uses): the winning-chances
chart, the marks on it and in the move list, clicking a mark, the better ply, the luck."""

import json
import math
from pathlib import Path

from tests.vvw.web.test_view_browser import browser  # noqa: F401  (the fixture)
from vvw.cli import main

GAME = Path(__file__).resolve().parents[2] / "docs" / "games"
GAME = GAME / "testmap-5x9-expectiminimax-vs-zcsn.jsonl"


def signed(points: float) -> str:
    """Points as the page writes them (rounded half up, as ``Math.round``)."""
    rounded = math.floor(points + 0.5)
    return "0" if rounded == 0 else f"{rounded:+d}".replace("-", "−")


def test_the_replay_of_an_analysed_game_shows_its_chances_marks_better_plies_and_luck(
    browser,  # noqa: F811
    tmp_path,
) -> None:
    transcript = tmp_path / "game.jsonl"
    transcript.write_bytes(GAME.read_bytes())
    # Low thresholds, so that this short game between good bots has marks to show.
    analyse = ["analyse", str(transcript), "--depth", "2", "--jobs", "1", "--thresholds", "1,2,3"]
    assert main([*analyse, "--no-file"]) == 0
    assert main(analyse) == 0
    analysis = json.loads((tmp_path / "game.analysis.json").read_text())
    assert main(["replay", str(transcript)]) == 0  # finds the analysis beside the transcript
    labelled = {p["ply"]: p for p in analysis["plies"] if p["label"]}
    marked = {n: p for n, p in labelled.items() if p["label"] in ("mistake", "blunder")}
    assert marked, "the game should have a mistake or a blunder at these thresholds"

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((tmp_path / "game.html").as_uri())
    assert not page.is_hidden("#analysis-box")
    # The chart: one point per ply and the result, a dot on each mistake and blunder.
    points = page.get_attribute("#wins polyline", "points")
    assert points is not None and len(points.split()) == len(analysis["plies"]) + 1
    dots = page.eval_on_selector_all("#wins circle.mark", "cs => cs.map(c => c.dataset.ply)")
    assert sorted(int(d) for d in dots) == sorted(marked)
    # The move list: each labelled ply carries its sign, and its think time stays.
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for number, entry in labelled.items():
        row = f'#move-list tbody tr[data-ply="{number}"]'
        assert page.text_content(f"{row} .mark") == symbols[entry["label"]]
    # Clicking a mark jumps to its ply, where the better ply is drawn dashed.
    first = min(marked)
    page.click(f'#wins circle.mark[data-ply="{first}"]')
    assert page.text_content("#ply") == str(first)
    better = page.eval_on_selector_all(
        "#arrows g.better", "gs => gs.map(g => [g.dataset.from, g.dataset.to])"
    )
    assert better == [[f"{x},{y}", f"{tx},{ty}"] for x, y, _, tx, ty in marked[first]["best"]]
    assert symbols[marked[first]["label"]] in page.text_content("#notes")
    # Each battle's luck is said in its panel.
    fought = next(p for p in analysis["plies"] if p["battles"])
    page.click(f'#move-list tbody tr[data-ply="{fought["ply"]}"]')
    luck = fought["battles"][0]["luck"]
    assert f"luck {'+' if luck >= 0 else '−'}{abs(luck):.0f}" in page.text_content("#battles")
    # Each ply says its chances before and after, and the play and luck between them.
    entry = fought
    note = page.text_content("#notes .ledger")
    assert note is not None and note.startswith(f"{entry['side']}' chances ")
    assert f"play {signed(entry['play'])}, luck {signed(entry['luck'])}" in note
    # Each side's play beside its luck.
    sides = page.text_content("#sides")
    assert sides is not None and f"play {signed(-analysis['sides']['vampires']['play'])}" in sides
    # A click on the chart's plot jumps to the ply under it.
    box = page.query_selector("#wins").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 9, box["y"] + box["height"] / 2)
    assert page.text_content("#ply") == page.text_content("#ply-count")
    page.screenshot(path=str(tmp_path / "analysed.png"))
    assert errors == []
    page.close()
