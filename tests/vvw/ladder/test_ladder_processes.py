"""``vvw ladder serve`` and ``vvw ladder join`` as a class runs them: real processes.

The server and each team's ``join`` are processes of their own, the teams' bots processes
of theirs, everything over loopback; a test waits for what the ladder's file or a
process's output says, never for a fixed time.
"""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.processes import processes_mentioning
from vvw.ladder.queries import LadderReader
from vvw.ladder.recovery import cut_transcript
from vvw.ladder.schema import transcripts_folder
from vvw.ladder.snapshot import GameStatus
from vvw.ladder.tables import ratings_of

WAIT = 120.0
"""Seconds a test waits for what it expects before it fails."""
SPY = """\
import os, sys
with open(sys.argv[3], "a") as seen:
    seen.write(repr(sys.argv) + repr(dict(os.environ)) + "\\n")
from vvw.cli import main
sys.exit(main(["agent", "random", sys.argv[1], sys.argv[2], "--quiet-stop"]))
"""
"""A bot that writes down its command line and environment, then plays random plies."""


def vvw(*words: str) -> list[str]:
    return [sys.executable, "-P", "-m", "vvw", *words]


def wait_for(condition: Callable[[], object], what: str, timeout: float = WAIT) -> object:
    """What ``condition()`` returns once it is true (looked at every 50 ms)."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.05)
    return found


class Process:
    """A process whose output goes to files in ``folder``."""

    def __init__(self, folder: Path, name: str, argv: list[str], env: dict | None = None) -> None:
        self.out, self.err = folder / f"{name}.out", folder / f"{name}.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(argv, cwd=folder, stdout=out, stderr=err, env=env)

    def output(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def stop(self, signum: int = signal.SIGINT) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self.process.wait(30)


class Ladder:
    """A ladder file with teams, and its server when serving."""

    def __init__(self, folder: Path, *words: str) -> None:
        self.folder, self.path = folder, folder / "ladder.db"
        self.tokens: dict[str, str] = {}
        self.processes: list[Process] = []
        made = subprocess.run(
            vvw("ladder", "new", str(self.path), *words), cwd=folder, capture_output=True
        )
        assert made.returncode == 0, made.stderr

    def add(self, team: str) -> str:
        added = subprocess.run(
            vvw("ladder", "team", "add", str(self.path), team), capture_output=True, text=True
        )
        assert added.returncode == 0, added.stderr
        self.tokens[team] = added.stdout.strip()
        return self.tokens[team]

    def serve(self, name: str = "serve", *words: str) -> tuple[Process, int, int]:
        """The server, its bots' port and its pages' port."""
        server = Process(
            self.folder,
            name,
            vvw(
                *words,
                "ladder",
                "serve",
                str(self.path),
                "--listen",
                "127.0.0.1:0",
                "--web",
                "127.0.0.1:0",
                "--pairing-interval",
                "0.2",
            ),
        )
        self.processes.append(server)
        pattern = r"bots connect to 127\.0\.0\.1:(\d+) .* pages on http://127\.0\.0\.1:(\d+)/"
        found = wait_for(lambda: re.search(pattern, server.err.read_text()), "the server")
        assert isinstance(found, re.Match)
        return server, int(found[1]), int(found[2])

    def join(self, port: int, team: str, bot: str, *, by_file: bool = False) -> Process:
        env = dict(os.environ)
        words = ["ladder", "join", f"127.0.0.1:{port}", "--team", team, bot]
        if by_file:
            token_file = self.folder / f"{team}.token"
            token_file.write_text(self.tokens[team] + "\n")
            words += ["--token-file", str(token_file)]
        else:
            env["VVW_LADDER_TOKEN"] = self.tokens[team]
        joined = Process(self.folder, f"join-{team}", vvw(*words), env)
        self.processes.append(joined)
        return joined

    def games(self) -> tuple:
        with LadderReader.open(self.path) as reader:
            return reader.snapshot().games

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            if process.process.poll() is None:
                process.stop()


@pytest.fixture
def ladder(tmp_path):
    made: list[Ladder] = []

    def make(*words: str) -> Ladder:
        made.append(Ladder(tmp_path, *words))
        return made[-1]

    yield make
    for each in made:
        each.stop_all()
    assert processes_mentioning(str(tmp_path)) == []


FAST = ("--map", "testmap", "--move-time", "0.5", "--ply-limit", "40", "--patience", "3600")


@pytest.mark.slow
def test_join_pair_play_rate_a_stronger_built_in_bot_ends_above_a_weaker_one(ladder):
    class_ = ladder(*FAST)
    for team in ("strong", "weak"):
        class_.add(team)
    server, port, _ = class_.serve()
    strong = class_.join(port, "strong", "greedy --time-budget 0.3")
    weak = class_.join(port, "weak", "random")
    wait_for(lambda: sum(game.rated for game in class_.games()) >= 12, "12 rated games")

    def told(team) -> int:  # a game is recorded before its END reaches the bots
        return sum(" against " in line for line in team.out.read_text().splitlines())

    wait_for(lambda: told(strong) >= 12, "12 results told to the strong team")
    assert strong.stop() == 130 and weak.stop() == 130
    assert server.stop() == 130
    with LadderReader.open(class_.path) as reader:
        snapshot = reader.snapshot()
    ratings = ratings_of(snapshot)
    assert ratings["strong"].elo > ratings["weak"].elo
    won = sum(game.score_of("strong") for game in snapshot.games if game.rated)
    assert won > sum(game.rated for game in snapshot.games) / 2
    results = [line for line in strong.out.read_text().splitlines() if " against weak: " in line]
    assert len(results) >= 12 and "stopped by SIGINT after" in strong.err.read_text()


def test_a_killed_server_loses_only_its_games_in_progress_recorded_aborted_at_its_restart(
    ladder,
):
    class_ = ladder(
        "--map", "testmap", "--move-time", "0.3", "--ply-limit", "30", "--patience", "3600"
    )
    for team in ("alpha", "beta"):
        class_.add(team)
    server, port, _ = class_.serve()
    for team in ("alpha", "beta"):
        class_.join(port, team, "alphabeta --time-budget 0.2")

    def finished_and_playing() -> bool:
        """A finished game, and one in progress that has begun: its transcript is being
        written (a game is recorded as playing a moment before its greeting)."""
        games = class_.games()
        states = [game.status for game in games]
        return (
            GameStatus.FINISHED in states
            and states[-1] is GameStatus.PLAYING
            and cut_transcript(transcripts_folder(class_.path), games[-1].id) is not None
        )

    wait_for(finished_and_playing, "a finished game and one in progress")
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(30)
    before = class_.games()
    finished = [game for game in before if game.status is GameStatus.FINISHED]
    playing = [game.id for game in before if game.status is GameStatus.PLAYING]
    assert playing
    with LadderReader.open(class_.path) as reader:
        rated_before = ratings_of(reader.snapshot())
    again, _, _ = class_.serve("serve-again")
    left = f"{len(playing)} game{'' if len(playing) == 1 else 's'} left playing"
    assert left in again.err.read_text()
    after = {game.id: game for game in class_.games()}
    assert [after[game.id] for game in finished] == finished  # every finished game, as it was
    assert all(after[number].status is GameStatus.ABORTED for number in playing)
    assert all(not after[number].rated for number in playing)
    # each cut game keeps the transcript it was writing (a game begun has its MAP at least)
    assert all(after[number].transcript is not None for number in playing)
    with LadderReader.open(class_.path) as reader:
        snapshot = reader.snapshot()
    rated_now = [g for g in snapshot.games if g.rated and g.id <= max(playing)]
    assert len(rated_now) == len(finished)
    only_those = ratings_of(snapshot, rated_now)
    assert {name: r.elo for name, r in only_those.items()} == pytest.approx(
        {name: r.elo for name, r in rated_before.items()}
    )


def _page(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return answer.read()


def test_the_token_is_in_no_log_page_file_command_line_or_bot_environment(ladder):
    class_ = ladder(*FAST)
    for team in ("alpha", "beta"):
        class_.add(team)
    spy = class_.folder / "spy.py"
    spy.write_text(SPY)
    seen = class_.folder / "seen-by-the-bot.txt"
    server, port, web = class_.serve("serve", "-vv")
    class_.join(port, "alpha", f"{sys.executable} {spy} {{host}} {{port}} {seen}")
    class_.join(port, "beta", "random", by_file=True)
    wait_for(lambda: len([g for g in class_.games() if g.rated]) >= 2, "two rated games")
    pages = [
        _page(web, path)
        for path in (
            "/",
            "/games",
            "/teams/alpha",
            "/teams/beta",
            "/games/1/replay",
            "/games/1/transcript",
            "/live/",
            "/live/games",
        )
    ]
    commands = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in processes_mentioning("ladder")]
    class_.stop_all()
    tokens = [token.encode() for token in class_.tokens.values()]
    files = [
        path for path in class_.folder.rglob("*") if path.is_file() and path.suffix != ".token"
    ]
    assert {"ladder.db", "serve.err", "join-alpha.err", "seen-by-the-bot.txt"} <= {
        path.name for path in files
    }
    assert any(path.suffix == ".jsonl" for path in files)  # the transcripts are looked at
    assert b"INFO vvw.ladder.serving: Joined(team='alpha'" in server.err.read_bytes()
    for token in tokens:
        for path in files:
            assert token not in path.read_bytes(), path
        for text in pages + commands:
            assert token not in text
