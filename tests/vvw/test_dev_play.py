"""``python3 dev.py play``: extra arguments join the defaults they do not replace, and a game
played in a terminal shows its progress."""

import os
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dev
from tests.helpers.processes import processes_mentioning
from tests.helpers.terminal import in_a_terminal, read_until_closed
from vvw.cli import build_parser
from vvw.game_arguments import split_maps_and_bots

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"


def _as_match_reads(words: list[str]) -> tuple[list[str], list[str], int, float]:
    """The maps, bots, games and move time ``vvw match`` reads in ``dev.py play WORDS``."""
    args = build_parser().parse_args(["match", *dev.match_arguments(words)])
    maps, bots = split_maps_and_bots(args.map, args.bots)
    return maps, bots, args.games, args.move_time


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], (["maps/thetrap.xml"], ["alphabeta", "greedy"], 2, 2.0)),
        (["--move-time", "0.3"], (["maps/thetrap.xml"], ["alphabeta", "greedy"], 2, 0.3)),
        (["random", "greedy"], (["maps/thetrap.xml"], ["random", "greedy"], 2, 2.0)),
        (["--map", "testmap"], (["testmap"], ["alphabeta", "greedy"], 2, 2.0)),
        (["--map", "testmap", "random", "greedy"], (["testmap"], ["random", "greedy"], 2, 2.0)),
        (["--games=4", "--force"], (["maps/thetrap.xml"], ["alphabeta", "greedy"], 4, 2.0)),
    ],
)
def test_play_adds_its_arguments_to_the_defaults_they_do_not_replace(
    words: list[str], expected: tuple[list[str], list[str], int, float]
) -> None:
    assert _as_match_reads(words) == expected


def test_play_knows_which_options_of_vvw_match_take_no_value() -> None:
    match = build_parser().subcommands["match"]
    flags = {
        option
        for action in match._actions  # argparse keeps no public list of them
        if action.nargs == 0
        for option in action.option_strings
    }
    assert flags == dev.MATCH_FLAGS


def test_a_match_in_a_terminal_shows_the_game_as_it_goes(tmp_path: Path) -> None:
    terminal, screen = os.openpty()
    late = f"{sys.executable} {BOT} late {{host}} {{port}}"
    match = ["match", "--map", "testmap", "name=late", late, "random", "--ply-limit", "3"]
    run = subprocess.Popen(
        [sys.executable, "-m", "vvw", *match, "--seed", "1"],
        cwd=tmp_path,
        stdin=screen,
        stdout=screen,
        stderr=screen,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "200", "LINES": "30"},
    )
    os.close(screen)
    shown = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([terminal], [], [], 1)
            if not ready:
                continue
            try:
                data = os.read(terminal, 65536)
            except OSError:  # the command and everything it started closed the terminal
                break
            if not data:
                break
            shown += data
        assert run.wait(timeout=10) == 0
    finally:
        run.kill()
        run.wait()
        os.close(terminal)
    text = shown.decode(errors="replace")
    progress = r"game 1 on testmap: late vs random: ply \d of 3, vampires \d+, werewolves \d+"
    assert re.search(progress, text)
    assert "game 1 on testmap: " in text and "1 game: late" in text


def test_play_ends_with_the_commands_that_show_the_game_again(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    words = ["random", "greedy", "--map", "testmap", "--games", "1", "--transcript", str(folder)]
    played = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "play", *words],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    (kept,) = folder.iterdir()
    replay, read = played.stdout.splitlines()[-2:]
    vvw = r"(vvw|\.venv/bin/vvw)"
    assert re.fullmatch(rf"watch the last game again: {vvw} replay {kept} --open", replay)
    assert re.fullmatch(rf"or read it in the terminal: {vvw} log show {kept} --boards", read)
    page = tmp_path / "game.html"
    for line, instead in ((replay, ["-o", str(page)]), (read, [])):
        command = shlex.split(line.split(": ", 1)[1])
        if instead:
            command = [*command[:-1], *instead]  # the page written, not opened in a browser
        shown = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
        )
        assert shown.returncode == 0, shown.stderr
    assert page.stat().st_size > 0


def test_ctrl_c_on_play_lets_the_match_stop_cleanly_and_end_every_bot(tmp_path: Path) -> None:
    """Ctrl-C in the terminal reaches dev.py and vvw match both: dev.py waits while the
    match ends its game as aborted, ends its bots (one deaf to SIGTERM) and says so."""
    deaf, stalled = tmp_path / "deaf", tmp_path / "stalled"
    words = [
        "--map",
        "testmap",
        f"name=deaf {sys.executable} {BOT} spin {{host}} {{port}} {deaf}",
        f"name=stall {sys.executable} {BOT} stall {{host}} {{port}} {stalled}",
        "--move-time",
        "1000",
        "--no-transcript",
    ]
    run, terminal = in_a_terminal([sys.executable, str(ROOT / "dev.py"), "play", *words], ROOT)
    try:
        deadline = time.monotonic() + 60
        screen = b""
        while not stalled.exists():  # game 1 is being played: the stalling bot has its UPD
            assert time.monotonic() < deadline and run.poll() is None, screen
            if select.select([terminal], [], [], 0.05)[0]:
                screen += os.read(terminal, 65536)
        os.write(terminal, b"\x03")  # Ctrl-C, as typed
        text = screen.decode(errors="replace") + read_until_closed(terminal, 60)
        code = run.wait(timeout=30)
    finally:
        run.kill()
        run.wait()
        os.close(terminal)
    assert code == 130, text
    assert "game 1 on testmap: aborted after 1 ply" in text
    assert "vvw match: stopped by SIGINT after 0 of 2 games" in text
    assert not (Path("/proc") / deaf.read_text().strip()).exists()
    assert processes_mentioning(str(tmp_path)) == []
