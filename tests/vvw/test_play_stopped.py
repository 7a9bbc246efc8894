"""``vvw play`` stopped mid-game (Ctrl-C in its terminal, or SIGTERM): the page says the
game was aborted, with no turn and no clock left, and the terminal names the transcript."""

import os
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from engine import Termination
from protocol.records import Result
from tests.helpers.terminal import in_a_terminal, read_until_closed
from tests.vvw.web.test_view_browser import browser  # noqa: F401 (the fixture)
from vvw.transcripts import read_transcript


def _first_line(terminal: int, timeout: float) -> str:
    shown = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in shown and time.monotonic() < deadline:
        if select.select([terminal], [], [], 0.5)[0]:
            shown += os.read(terminal, 65536)
    return shown.decode(errors="replace")


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_stopped_play_says_aborted_on_the_page_and_names_its_transcript(
    browser,  # noqa: F811 (the fixture)
    tmp_path: Path,
    how: str,
) -> None:
    command = [sys.executable, "-m", "vvw", "play", "--map", "testmap2", "greedy"]
    command += ["--move-time", "1000", "--port", "0", "--no-open"]
    run, terminal = in_a_terminal(command, tmp_path)
    try:
        first = _first_line(terminal, 60)
        address = re.search(r"(http://\S+)", first)
        assert address, first
        page = browser.new_page()
        page.goto(address.group(1))
        page.wait_for_function("document.body.dataset.playTurn === '1'")  # our turn, ply 1
        if how == "ctrl-c":
            os.write(terminal, b"\x03")
        else:
            run.send_signal(signal.SIGTERM)
        text = read_until_closed(terminal, 60)
        code = run.wait(timeout=30)
        page.wait_for_function("document.body.dataset.finished === 'true'")
        page.wait_for_function("document.body.dataset.playTurn === ''")
        state, clock = page.text_content("#play-state"), page.text_content("#play-clock")
        page.close()
    finally:
        run.kill()
        run.wait()
        os.close(terminal)
    name = "SIGINT" if how == "ctrl-c" else "SIGTERM"
    assert code == 128 + signal.Signals[name].value, text
    assert (state, clock) == ("the game was aborted", "")
    said = re.search(
        rf"vvw play: stopped by {name} \(the game aborted after 0 plies, not recorded;"
        r" its transcript: (\S+)\)",
        text,
    )
    assert said, text
    (result,) = [r for r in read_transcript(tmp_path / said.group(1)) if isinstance(r, Result)]
    assert result.termination is Termination.ABORTED
