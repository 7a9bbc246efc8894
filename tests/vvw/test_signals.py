"""Signals sent to ``vvw serve`` and ``vvw match`` subprocesses: a clean stop, no traceback."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Termination
from protocol.codec import FROM_SERVER, Bye, Decoder, End, Map, Nme, Upd, encode
from protocol.records import Result
from vvw.transcripts import read_transcript

ROOT = Path(__file__).resolve().parents[2]
TESTMAP = str(ROOT / "maps" / "testmap.xml")
BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
WAIT = 20.0
"""Seconds any one step may take before the test fails instead of hanging."""


def _vvw(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "vvw", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


class Client:
    """A bot played by the test over a blocking socket."""

    def __init__(self, port: int, name: bytes) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        self.sock.sendall(encode(Nme(name)))
        self.decoder, self.messages = Decoder(FROM_SERVER), []
        self.eof = False

    def until(self, kind: type) -> None:
        while not any(isinstance(m, kind) for m in self.messages):
            data = self.sock.recv(65536)
            assert data, f"closed before {kind.__name__}: {self.messages}"
            self.messages += self.decoder.feed(data)

    def to_the_end(self) -> list:
        while data := self.sock.recv(65536):
            self.messages += self.decoder.feed(data)
        self.sock.close()
        return self.messages


@pytest.mark.parametrize(
    ("signum", "players", "code", "line"),
    [
        (signal.SIGTERM, 2, 143, "vvw serve: stopped by SIGTERM"),
        (signal.SIGINT, 2, 130, "vvw serve: stopped by SIGINT"),
        (signal.SIGTERM, 1, 143, "vvw serve: stopped by SIGTERM"),
    ],
)
def test_serve_stopped_by_a_signal_aborts_the_game_says_goodbye_and_writes_it_down(
    tmp_path, signum, players, code, line
):
    server = _vvw(
        "serve",
        "--map",
        TESTMAP,
        "--port",
        "0",
        "--move-time",
        "1000",
        "--transcript",
        str(tmp_path),
    )
    try:
        assert server.stderr is not None and server.stdout is not None
        serving = server.stderr.readline()
        assert serving.startswith("serving on 127.0.0.1:"), serving
        port = int(serving.rsplit(":", 1)[1])
        clients = [Client(port, b"vamp")]
        clients[0].until(Map)  # seated
        if players == 2:
            clients.append(Client(port, b"wolf"))
            clients[0].until(Upd)  # the game is on: the vampires are to move
        server.send_signal(signum)
        for client in clients:
            assert client.to_the_end()[-2:] == [End(), Bye()]
        assert server.wait(timeout=WAIT) == code
        out, err = server.stdout.read(), server.stderr.read()
    finally:
        server.kill()
        server.wait()
    assert err.splitlines() == [line]  # one line, no traceback
    if players == 2:
        (transcript,) = tmp_path.glob("*.jsonl")
        first = out.splitlines()[0]
        assert first == f"aborted after 0 plies: the server was stopped | transcript {transcript}"
        (result,) = [r for r in read_transcript(transcript) if isinstance(r, Result)]
        assert (result.termination, result.winner) == (Termination.ABORTED, None)
    else:
        assert out.splitlines() == ["no game finished"]


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _wait_for(path: Path) -> str:
    """The text of a file a bot process writes (a separate process: nothing else to wait on)."""
    deadline = time.monotonic() + WAIT
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)
    return path.read_text()


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_match_stopped_by_a_signal_aborts_the_game_and_ends_the_bots(tmp_path, signum, code):
    record = tmp_path / "stall.txt"
    bots = [
        f"{sys.executable} {BOT} play {{host}} {{port}}",
        f"{sys.executable} {BOT} stall {{host}} {{port}} {record}",
    ]
    match = _vvw(
        "match",
        "--map",
        TESTMAP,
        *bots,
        "--move-time",
        "1000",
        "--games",
        "3",
        "--transcript",
        str(tmp_path / "t"),
        "--json",
        str(tmp_path / "results.json"),
    )
    try:
        pid = int(_wait_for(record).split()[0])  # the stalling bot got its first UPD
        match.send_signal(signum)
        assert match.wait(timeout=WAIT) == code
        assert match.stdout is not None and match.stderr is not None
        out, err = match.stdout.read(), match.stderr.read()
    finally:
        match.kill()
        match.wait()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    (game,) = [line for line in out.splitlines() if line.startswith("game ")]
    assert game.startswith(f"game 1 on {TESTMAP}: aborted after 1 ply: the server was stopped")
    (result,) = json.loads((tmp_path / "results.json").read_text())
    assert (result["termination"], result["winner"]) == ("aborted", None)
    assert record.read_text().split()[1:] == ["End", "Bye"]
    assert _gone(pid)
    (transcript,) = (tmp_path / "t").glob("*.jsonl")
    (result,) = [r for r in read_transcript(transcript) if isinstance(r, Result)]
    assert result.termination is Termination.ABORTED
