"""Ctrl-C in a real terminal while a command starts up (its imports) or while ``vvw
analyse`` starts its worker processes: one line and the exit status 130, never a
traceback (the workers, in the same foreground group, get the Ctrl-C too)."""

import os
import sys
import time
from pathlib import Path

from tests.helpers.terminal import in_a_terminal, read_until_closed

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "docs" / "games" / "thetrap-seed2025-vs-expectiminimax.jsonl"
WAIT = 60.0
"""Seconds any one step may take before the test fails instead of hanging."""


class Terminal:
    """A ``vvw`` command run in a pseudo-terminal of its own, as its foreground job: a
    Ctrl-C typed there is SIGINT to every process of the command."""

    def __init__(self, *words: str, cwd: Path) -> None:
        command = [sys.executable, "-m", "vvw", *words]
        self.process, self.master = in_a_terminal(command, cwd, columns=100)

    def ctrl_c(self) -> None:
        os.write(self.master, b"\x03")

    def finish(self) -> tuple[int, str]:
        """The exit status, and all the terminal showed."""
        shown = read_until_closed(self.master, WAIT)
        status = self.process.wait(timeout=WAIT)
        os.close(self.master)
        return status, shown

    def children(self, running: str = "") -> list[int]:
        """The command's child processes (those whose command line holds ``running``)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            pids = [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []
        return [pid for pid in pids if running in (_state(pid) or "")]


def test_ctrl_c_while_a_command_starts_up_is_one_line(tmp_path: Path) -> None:
    run = Terminal("analyse", str(GAME), "--no-file", cwd=tmp_path)
    deadline = time.monotonic() + WAIT
    while _cpu(run.process.pid) < 0.1:  # Python has started: it imports what vvw stands on
        assert time.monotonic() < deadline and run.process.poll() is None
        time.sleep(0.01)
    run.ctrl_c()
    status, shown = run.finish()
    assert "Traceback" not in shown and "KeyboardInterrupt" not in shown, shown
    assert status == 130, shown
    assert "vvw analyse: stopped by SIGINT" in shown


def test_ctrl_c_while_analyse_starts_its_workers_ends_them_with_one_line(tmp_path: Path) -> None:
    run = Terminal("analyse", str(GAME), "--no-file", "--jobs", "2", cwd=tmp_path)
    deadline = time.monotonic() + WAIT
    # the workers have started, and are importing what they stand on
    while len(started := run.children("spawn_main")) < 2 or min(map(_cpu, started)) < 0.1:
        assert time.monotonic() < deadline, "no worker process started"
        time.sleep(0.01)
    workers = run.children()  # and the resource tracker
    run.ctrl_c()
    status, shown = run.finish()
    assert status == 130, shown
    assert "Traceback" not in shown and "Error" not in shown, shown
    assert "vvw analyse: stopped by SIGINT" in shown
    deadline = time.monotonic() + WAIT  # its resource tracker ends once it has: wait
    while left := {pid: state for pid in workers if (state := _state(pid)) not in (None, "Z")}:
        assert time.monotonic() < deadline, f"outlived it: {left}"
        time.sleep(0.01)


def _cpu(pid: int) -> float:
    """The processor seconds a process has used (0 once gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _state(pid: int) -> str | None:
    """A process's state (``Z``: ended, not yet reaped) and command, ``None`` if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    state = stat.rpartition(")")[2].split()[0]
    return state if state == "Z" else f"{state} {command}"
