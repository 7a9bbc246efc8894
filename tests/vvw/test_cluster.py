"""``vvw tournament --cluster local``: the same games as on one machine, a lost worker
costs its game only, Ctrl-C keeps every finished game and ``--resume`` plays the rest."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Termination
from tests.helpers.processes import processes_mentioning
from vvw.records.results import read_results

pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
FAST = ["--maps", "testmap", "--ply-limit", "8", "--seed", "5"]
LOCAL_TWO = ["--cluster", "local", "--workers", "2"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def bot(mode: str, *extra: str) -> str:
    return " ".join([sys.executable, str(BOT), mode, "{host}", "{port}", *extra])


def vvw(*words: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "vvw", *words],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def comparable(path: Path) -> list[tuple]:
    """What decides a game, without times, paths and machines: equal for equal plays."""
    _, games = read_results(path)
    return sorted(
        (
            g.key,
            g.vampires.name,
            g.werewolves.name,
            g.vampires.seed,
            g.werewolves.seed,
            g.map,
            g.battle_seed,
            g.winner,
            g.termination,
            g.reason,
            g.plies,
            g.vampires.creatures,
            g.werewolves.creatures,
            g.retries,
        )
        for g in games
    )


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _wait_for(path: Path, run: subprocess.Popen, within: float = 90) -> None:
    deadline = time.monotonic() + within
    while not path.exists():  # a separate process: nothing to wait on but its file
        assert time.monotonic() < deadline and run.poll() is None, "the file never came"
        time.sleep(0.02)


def test_a_local_cluster_of_two_workers_plays_the_same_games_as_concurrency_two(tmp_path):
    players = ["random", "greedy", "name=c", "random"]
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    local = vvw(
        "tournament", *players, *FAST, "--concurrency", "2", "--results", str(here), cwd=tmp_path
    )
    assert local.returncode == 0, local.stderr
    cluster = vvw("tournament", *players, *FAST, *LOCAL_TWO, "--results", str(there), cwd=tmp_path)
    assert cluster.returncode == 0, cluster.stderr
    assert "Traceback" not in cluster.stderr
    assert "cluster local: 2 games at once" in cluster.stdout
    assert comparable(here) == comparable(there) and len(comparable(here)) == 6
    _, games = read_results(there)
    assert all(g.node and g.retries == 0 for g in games)
    assert _tables(cluster.stdout) == _tables(local.stdout)


def _tables(out: str) -> str:
    """The final tables of a run's output, without the bots' think times (the clock's)."""
    return re.sub(r"\d+\.\d\ds\b", "_s", out.split("games played")[1])


def _start_stalling_run(tmp_path: Path, move_time: str) -> tuple[subprocess.Popen, Path, Path]:
    """A cluster tournament of two playing bots and one that stalls, started and waited on
    until the staller writes its pid file: the run, that file and the results file."""
    stalled = tmp_path / "stalled.pid"
    results = tmp_path / "r.jsonl"
    command = [
        sys.executable,
        "-m",
        "vvw",
        "tournament",
        "name=a",
        bot("play"),
        "name=b",
        bot("play"),
        "name=s",
        bot("stall", str(stalled)),
        *FAST,
        "--move-time",
        move_time,
        "--on-timeout",
        "forfeit",
        *LOCAL_TWO,
        "--results",
        str(results),
    ]
    run = subprocess.Popen(
        command, cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    _wait_for(stalled, run)
    return run, stalled, results


def test_a_worker_killed_mid_game_costs_that_game_only_played_again_and_counted_once(
    tmp_path,
):
    run, stalled, results = _start_stalling_run(tmp_path, move_time="0.5")
    stalling_bot = int(stalled.read_text().split()[0])
    worker = _parent_of(stalling_bot)
    assert "ray::" in Path(f"/proc/{worker}/cmdline").read_text(errors="replace")
    os.kill(worker, signal.SIGKILL)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert "lost its worker" in err and "Traceback" not in err
    header, games = read_results(results)
    assert len(games) == header.games == 6 and len({g.key for g in games}) == 6
    (again,) = [g for g in games if g.retries]
    assert again.retries == 1 and "s" in again.names
    assert again.loser().name == "s" and again.termination is Termination.TIME_FORFEIT
    assert all(not g.abnormal or g.loser().name == "s" for g in games)
    assert processes_mentioning(str(tmp_path)) == []


@pytest.mark.slow  # three runs, two clusters started
def test_ctrl_c_on_a_cluster_run_keeps_the_finished_games_and_resume_plays_the_rest(
    tmp_path,
):
    run, stalled, results = _start_stalling_run(tmp_path, move_time="5")
    command = list(run.args)
    run.send_signal(signal.SIGINT)  # while s stalls: its game is cancelled, not finished
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    _, kept = read_results(results)
    # s's first game starts once a slot is free: after one game of a:b or both, in any order
    assert 1 <= len(kept) <= 2 and {g.key for g in kept} <= {"r1:m0:a:b:1", "r1:m0:a:b:2"}
    assert processes_mentioning(str(tmp_path)) == []
    stalled.unlink()
    resumed = subprocess.run(
        [*command[:-2], "--move-time", "0.5", *command[-2:], "--resume"],
        cwd=tmp_path,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 2 and "move_time 5.0 there, 0.5 here" in resumed.stderr
    resumed = subprocess.run(
        [*command, "--resume"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"6 games, {6 - len(kept)} to play" in resumed.stdout
    header, games = read_results(results)
    assert len(games) == header.games == 6 and len({g.key for g in games}) == 6
    assert games[: len(kept)] == kept


def test_cluster_options_that_cannot_work_are_one_line(tmp_path):
    workers = vvw("tournament", "random", "greedy", *FAST, "--workers", "2", cwd=tmp_path)
    assert workers.returncode == 2
    assert workers.stderr.strip() == (
        "vvw tournament: --workers is for --cluster local (a cluster's size is its own)"
    )
    ship = vvw(
        "tournament",
        "random",
        "greedy",
        *FAST,
        "--cluster",
        "local",
        "--ship",
        "nowhere",
        cwd=tmp_path,
    )
    assert ship.returncode == 2 and "nowhere is not one" in ship.stderr
    view = vvw(
        "tournament", "random", "greedy", *FAST, "--cluster", "local", "--view", cwd=tmp_path
    )
    assert view.returncode == 2 and "not with --cluster" in view.stderr


def test_a_shipped_bot_runs_from_its_folder_and_its_crash_is_its_loss_not_a_retry(tmp_path):
    shipped, elsewhere = tmp_path / "bots", tmp_path / "elsewhere"
    shipped.mkdir()
    elsewhere.mkdir()
    shutil.copy(BOT, shipped / "mine.py")
    results = tmp_path / "r.jsonl"
    run = vvw(
        "tournament",
        "name=good",
        f"{sys.executable} mine.py play {{host}} {{port}}",
        "name=bad",
        f"{sys.executable} mine.py crash {{host}} {{port}}",
        *FAST,
        *LOCAL_TWO,
        "--ship",
        str(shipped),
        "--results",
        str(results),
        cwd=elsewhere,
    )
    assert run.returncode == 0, run.stderr
    assert "lost its worker" not in run.stderr
    _, games = read_results(results)
    assert len(games) == 2
    for game in games:
        assert game.termination is Termination.CRASH and game.loser().name == "bad"
        assert game.retries == 0 and "exited with code 3" in game.reason
