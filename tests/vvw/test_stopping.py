"""Every long-running command, as a real process, ends on SIGINT, SIGTERM or SIGHUP with one
line (``vvw COMMAND: stopped by SIGNAL…``) and the exit status 130, 143 or 129, leaving no
bot behind; a signal ignored when it started (``nohup``) stays ignored."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine import GameState, Kind
from server.settings import Settings
from server.transcript import Transcript
from tests.helpers.processes import processes_mentioning
from vvw.running.bots import bot_command

TINY = GameState.from_cells(2, 3, {(0, 0): (Kind.VAMPIRES, 4), (2, 1): (Kind.WEREWOLVES, 4)})

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
WAIT = 30.0
"""Seconds any one step may take before the test fails instead of hanging."""


def bot(mode: str, *extra: object) -> str:
    return " ".join([sys.executable, str(BOT), mode, "{host}", "{port}", *map(str, extra)])


class Command:
    """A ``vvw`` process started by a test, and what it printed."""

    def __init__(self, words: list[str], cwd: Path, **options: object) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "vvw", *words],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **options,  # type: ignore[call-overload]
        )
        self.server_side: socket.socket | None = None
        """The connection of a test playing the server, if it plays one."""

    def line(self, stream: str) -> str:
        """The next line the process writes on ``stream`` (``stdout`` or ``stderr``)."""
        pipe = getattr(self.process, stream)
        text: str = pipe.readline()
        assert text, f"{stream} closed; the process ended with {self.process.wait()}"
        return text

    def stop(self, signum: int, marker: Path) -> tuple[int, list[int], str]:
        """Send ``signum``; the exit status, the processes still mentioning ``marker``
        (ended now), and what was said on standard error."""
        self.process.send_signal(signum)
        code = self.process.wait(timeout=WAIT)
        left = processes_mentioning(str(marker))
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        _, err = self.process.communicate(timeout=WAIT)
        return code, left, err


def _appears(path: Path) -> None:
    """Wait for a file a bot process writes (a separate process: nothing else to wait on)."""
    deadline = time.monotonic() + WAIT
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A server socket that accepts and says nothing: a server a bot waits on forever."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server


def serve(tmp_path: Path, _: socket.socket) -> Command:
    command = Command(["serve", "--map", "testmap", "--port", "0"], tmp_path)
    assert command.line("stderr").startswith("serving on 127.0.0.1:")
    return command


def serve_with_view(tmp_path: Path, _: socket.socket) -> Command:
    command = Command(
        ["serve", "--map", "testmap", "--port", "0", "--view", "--view-port", "0"], tmp_path
    )
    assert command.line("stderr").startswith("live view on http://127.0.0.1:")
    assert command.line("stderr").startswith("serving on 127.0.0.1:")
    return command


def match(tmp_path: Path, _: socket.socket) -> Command:
    stalled = tmp_path / "stalled"
    command = Command(
        [
            "match",
            "--map",
            "testmap",
            bot("play", tmp_path),
            bot("stall", stalled),
            "--move-time",
            "1000",
        ],
        tmp_path,
    )
    _appears(stalled)
    return command


def tournament(tmp_path: Path, _: socket.socket) -> Command:
    stalled = tmp_path / "stalled"
    words = ["name=s", bot("stall", stalled), "name=p", bot("play", tmp_path), "--maps", "testmap"]
    command = Command(
        ["tournament", *words, "--move-time", "1000", "--results", str(tmp_path / "r.jsonl")],
        tmp_path,
    )
    _appears(stalled)
    return command


def proxy(tmp_path: Path, listener: socket.socket) -> Command:
    upstream = f"127.0.0.1:{listener.getsockname()[1]}"
    command = Command(
        ["proxy", "--listen", "0", "--upstream", upstream, "--no-transcript"], tmp_path
    )
    assert command.line("stdout").startswith("vvw proxy: listening on 127.0.0.1:0")
    return command


def agent(tmp_path: Path, listener: socket.socket) -> Command:
    port = listener.getsockname()[1]
    command = Command(["agent", "random", "127.0.0.1", str(port)], tmp_path)
    command.server_side, _ = listener.accept()  # held open: the game is about to begin
    command.server_side.recv(64)  # its NME
    return command


def check_bot(tmp_path: Path, _: socket.socket) -> Command:
    stalled = tmp_path / "stalled"
    command = Command(["check-bot", bot("stall", stalled), "--move-time", "1000"], tmp_path)
    _appears(stalled)
    return command


def log_follow(tmp_path: Path, _: socket.socket) -> Command:
    path = tmp_path / "game.jsonl"
    transcript = Transcript(path)
    transcript.header("tiny.xml", TINY, Settings(), seed=7)
    transcript.player(Kind.VAMPIRES, "alice", "127.0.0.1:1")
    command = Command(["log", "show", "--follow", str(path)], tmp_path)
    assert command.line("stdout").startswith("game on tiny.xml")
    return command


def replay_open(tmp_path: Path, _: socket.socket) -> Command:
    """``replay --open`` with a browser that stays in the foreground, as a terminal one does."""
    browser = tmp_path / "browser"
    browser.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    browser.chmod(0o755)
    example = sorted((ROOT / "docs" / "games").glob("*.jsonl"))[0]
    page = tmp_path / "game.html"
    command = Command(
        ["replay", str(example), "-o", str(page), "--open"],
        tmp_path,
        env={**os.environ, "BROWSER": str(browser)},
    )
    assert command.line("stdout").startswith(f"{page} (")
    deadline = time.monotonic() + WAIT
    while not processes_mentioning(str(browser)):
        assert time.monotonic() < deadline, "the browser never started"
        time.sleep(0.02)
    return command


COMMANDS: list[tuple[str, Callable[[Path, socket.socket], Command]]] = [
    ("serve", serve),
    ("serve", serve_with_view),
    ("match", match),
    ("tournament", tournament),
    ("proxy", proxy),
    ("agent", agent),
    ("check-bot", check_bot),
    ("log show", log_follow),
    ("replay", replay_open),
]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


CASES = [
    pytest.param(
        name,
        start,
        signum,
        id=f"{start.__name__}-{signum.name}",
        # by default each command with one signal, taken in turn; all of them in the slow run
        marks=[] if signum == SIGNALS[number % len(SIGNALS)] else [pytest.mark.slow],
    )
    for number, (name, start) in enumerate(COMMANDS)
    for signum in SIGNALS
]


@pytest.mark.parametrize(("name", "start", "signum"), CASES)
def test_a_long_running_command_ends_on_a_stop_signal_with_one_line_and_its_code(
    name: str,
    start: Callable[[Path, socket.socket], Command],
    signum: signal.Signals,
    tmp_path: Path,
    listener: socket.socket,
) -> None:
    command = start(tmp_path, listener)
    try:
        code, left, err = command.stop(signum, tmp_path)
    finally:
        command.process.kill()
        command.process.wait()
    assert code == 128 + signum, err
    (line,) = err.splitlines()
    assert line.startswith(f"vvw {name}: stopped by {signum.name}"), line
    if name != "replay":  # a browser in the foreground is the terminal's to stop
        assert left == [], "a bot outlived the command"


def test_ctrl_c_in_a_terminal_ends_a_tournament_showing_its_live_footer_in_one_line(
    tmp_path: Path,
) -> None:
    stalled = tmp_path / "stalled"
    terminal, screen = os.openpty()
    words = ["name=s", bot("stall", stalled), "name=p", bot("play", tmp_path), "--maps", "testmap"]
    settings = ["--move-time", "1000", "--results", str(tmp_path / "r.jsonl")]
    run = subprocess.Popen(
        [sys.executable, "-m", "vvw", "tournament", *words, *settings],
        cwd=tmp_path,
        stdin=screen,
        stdout=screen,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        env={**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "30"},
    )
    os.close(screen)
    try:
        _appears(stalled)
        os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
        assert run.wait(timeout=WAIT) == 130
        assert run.stderr is not None
        (line,) = run.stderr.read().splitlines()
    finally:
        run.kill()
        run.wait()
        os.close(terminal)
    assert line.startswith("vvw tournament: stopped by SIGINT after 0 of 2 games")
    assert processes_mentioning(str(tmp_path)) == []


def test_a_stop_signal_ignored_when_the_command_started_stays_ignored(tmp_path: Path) -> None:
    """``nohup vvw serve …``: a closing terminal's SIGHUP does not end it; SIGTERM does."""
    command = Command(
        ["serve", "--map", "testmap", "--port", "0"],
        tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    assert command.line("stderr").startswith("serving on 127.0.0.1:")
    command.process.send_signal(signal.SIGHUP)
    code, _, err = command.stop(signal.SIGTERM, tmp_path)
    assert code == 143 and err == "vvw serve: stopped by SIGTERM\n"


def test_a_built_in_bot_ended_by_its_runner_says_nothing_in_its_log(
    tmp_path: Path, listener: socket.socket
) -> None:
    """vvw match and tournament end their bots with SIGTERM after each game: a line there
    would be kept as the bot's output of every game."""
    argv = bot_command("greedy", "127.0.0.1", listener.getsockname()[1])
    assert "--quiet-stop" in argv
    assert argv[1:4] == ["-P", "-m", "vvw"]
    command = Command(argv[4:], tmp_path)
    command.server_side, _ = listener.accept()
    command.server_side.recv(64)  # its NME: it waits for the game
    code, _, err = command.stop(signal.SIGTERM, tmp_path)
    assert (code, err) == (-signal.SIGTERM, "")
