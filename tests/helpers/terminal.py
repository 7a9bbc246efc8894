"""A command run as a user runs it in a terminal: a pty of its own as its controlling
terminal, its process group in the foreground, so a Ctrl-C typed there (``\\x03``) is
SIGINT to every process of the command."""

import fcntl
import os
import select
import subprocess
import termios
import time
from pathlib import Path


def in_a_terminal(
    command: list[str], cwd: Path, columns: int = 200
) -> tuple[subprocess.Popen[bytes], int]:
    """``command`` started as a shell starts it in a terminal; the terminal's other end."""
    terminal, screen = os.openpty()

    def controlling() -> None:  # after setsid(): the pty becomes the session's terminal
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    run = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=screen,
        stdout=screen,
        stderr=screen,
        start_new_session=True,
        preexec_fn=controlling,
        env={**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": "30"},
    )
    os.close(screen)
    return run, terminal


def read_until_closed(terminal: int, timeout: float) -> str:
    """All the terminal shows until every process that held it is gone (or ``timeout``)."""
    shown = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([terminal], [], [], 1)
        if not ready:
            continue
        try:
            data = os.read(terminal, 65536)
        except OSError:  # every process that held the terminal is gone
            break
        if not data:
            break
        shown += data
    return shown.decode(errors="replace")
