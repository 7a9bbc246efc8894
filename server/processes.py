"""Bot processes for ``vvw match``: start one from a command, drain its output, end it.

A bot's standard output and error go straight to files (never to a pipe nobody reads,
which would block a chatty bot until it lost on time). Each bot runs in its own process
group, so a bot started through a shell script is ended with all its children.
"""

import contextlib
import logging
import os
import shlex
import signal
import subprocess
from pathlib import Path

import attrs
import trio

log = logging.getLogger(__name__)

TERMINATE_GRACE = 0.5
"""Seconds a bot has to exit after SIGTERM before it is killed."""
HANG_UP_GRACE = 1.0
"""Seconds a bot that hung up mid-game has to exit by itself, so its exit code is its own."""


@attrs.define
class BotProcess:
    """A running bot: its process and the files its output goes to."""

    label: str
    argv: list[str]
    process: trio.Process
    stdout_path: Path
    stderr_path: Path
    signalled: bool = False
    """Whether :func:`stop_bot` had to end it (it had not exited by itself)."""

    @property
    def exit_code(self) -> int | None:
        """The exit code once the process has ended, else ``None``."""
        return self.process.returncode

    @property
    def crashed(self) -> bool:
        """It exited by itself with an error. A bot we had to end is not counted, whatever
        code it then exits with (a JVM ends with 143 on SIGTERM, many programs with 1)."""
        return not self.signalled and self.exit_code not in (None, 0)

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the bot wrote to its standard error (for crash reports)."""
        try:
            text = self.stderr_path.read_bytes()[-4096:].decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])


async def start_bot(label: str, argv: list[str], log_dir: Path) -> BotProcess:
    """Start ``argv`` with its output going to ``log_dir/label.out`` and ``label.err``."""
    await trio.Path(log_dir).mkdir(parents=True, exist_ok=True)
    stdout_path = log_dir / f"{label}.out"
    stderr_path = log_dir / f"{label}.err"
    with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
        try:
            process = await trio.lowlevel.open_process(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
            )
        except OSError as error:
            raise OSError(f"cannot start bot {label} ({shlex.join(argv)}): {error}") from error
    log.info("started %s: %s (pid %d)", label, shlex.join(argv), process.pid)
    return BotProcess(label, argv, process, stdout_path, stderr_path)


def _signal_group(process: trio.Process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


async def await_exit(bot: BotProcess, grace: float = HANG_UP_GRACE) -> None:
    """Wait up to ``grace`` for the bot to exit by itself (shielded from cancellation).

    A bot that crashed closes its socket a moment before its process is gone; ending it
    in that moment would hide its exit code (and its crash) behind our own signal.
    """
    with trio.CancelScope(shield=True), trio.move_on_after(grace):
        await bot.process.wait()


async def stop_bot(bot: BotProcess, grace: float = TERMINATE_GRACE) -> None:
    """End the bot and every process of its group: SIGTERM, then SIGKILL after ``grace``.

    Safe to call more than once and from a cancelled scope (it shields itself).
    """
    with trio.CancelScope(shield=True):
        process = bot.process
        if process.returncode is None:
            bot.signalled = True
            _signal_group(process, signal.SIGTERM)
            await await_exit(bot, grace)
        # Children of a bot may outlive it even when it exited by itself.
        _signal_group(process, signal.SIGKILL)
        if process.returncode is None:
            await process.wait()
        log.info("%s ended with exit code %s", bot.label, process.returncode)
