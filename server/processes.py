"""Bot processes for ``vvw match``: start one from a command, drain its output, end it.

A bot's standard output and error go straight to files (never to a pipe nobody reads,
which would block a chatty bot until it lost on time). Each bot runs in its own process
group, so a bot started through a shell script is ended with all its children.

Nothing a bot starts may outlive its game, not even a child that left the process group
(``setsid()``) or one whose parent exited. On Linux:

- this process becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``) when it
  starts its first bot, so a bot's orphaned descendants are re-parented to it, not to init,
  and it reaps them;
- each bot gets a token in its environment (``VVW_BOT_<token>=1``), which every descendant
  inherits; :func:`stop_bot` ends every process that carries it (found in ``/proc``).

Elsewhere only the process group is signalled: a descendant that calls ``setsid()`` or
clears its environment can escape (best effort; see docs/protocol.md).
"""

import contextlib
import ctypes
import logging
import os
import secrets
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
REAP_TIME = 2.0
"""Seconds to wait for the killed descendants of a bot to be gone (re-parented and reaped)."""
TOKEN_PREFIX = "VVW_BOT_"
"""Environment variables ``VVW_BOT_<token>=1`` mark a bot and everything it starts."""
FALLBACKS_VARIABLE = "VVW_FALLBACKS"
"""Names, in a bot's environment, the file where vvw's client library notes each fallback
ply (``agents.client.FALLBACKS_VARIABLE``: the same name; the two rooms never import each
other). A bot on another client never writes it: its fallbacks, if any, are not counted."""
PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36

_subreaper: bool | None = None
_running: set[int] = set()
"""Pids of the bot processes started here and not yet reaped by trio (never reaped here)."""


def become_subreaper() -> bool:
    """Make orphaned descendants of this process its children (Linux); whether it worked.

    Idempotent. Once set, the process must reap those orphans: :func:`stop_bot` does.
    """
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        if not _subreaper:
            log.info("not a child subreaper here: a bot's detached children may escape")
    return _subreaper


@attrs.define
class BotProcess:
    """A running bot: its process, the files its output goes to, when it started and ended."""

    label: str
    argv: list[str]
    process: trio.Process
    stdout_path: Path
    stderr_path: Path
    token: str = ""
    """The environment mark of the bot and its descendants (see the module's docstring)."""
    started_at: float = 0.0
    """``trio.current_time()`` when it was started."""
    exited_at: float | None = None
    """``trio.current_time()`` when :meth:`wait` first saw it gone."""
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

    async def wait(self) -> int:
        """Wait for the process to end; its exit code (``exited_at`` is set)."""
        code = await self.process.wait()
        if self.exited_at is None:
            self.exited_at = trio.current_time()
        return code

    @property
    def fallbacks_path(self) -> Path:
        """Where the bot's client library notes its fallback plies (see
        :data:`FALLBACKS_VARIABLE`)."""
        return self.stderr_path.with_suffix(".fallbacks")

    def fallbacks(self) -> list[str]:
        """The fallback plies the bot's client library noted so far: why each was sent."""
        try:
            text = self.fallbacks_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        return text.splitlines()

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the bot wrote to its standard error (for crash reports)."""
        try:
            text = self.stderr_path.read_bytes()[-4096:].decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])


async def start_bot(
    label: str, argv: list[str], log_dir: Path, cwd: str | None = None
) -> BotProcess:
    """Start ``argv`` in the folder ``cwd`` (``None``: ours; a relative program is looked
    for there) with its output going to ``log_dir/label.out`` and ``label.err``."""
    become_subreaper()
    await trio.Path(log_dir).mkdir(parents=True, exist_ok=True)
    stdout_path = log_dir / f"{label}.out"
    stderr_path = log_dir / f"{label}.err"
    token = secrets.token_hex(8)
    fallbacks = log_dir / f"{label}.fallbacks"
    env = {**os.environ, f"{TOKEN_PREFIX}{token}": "1", FALLBACKS_VARIABLE: str(fallbacks)}
    with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
        try:
            process = await trio.lowlevel.open_process(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
                env=env,
                cwd=cwd,
            )
        except OSError as error:
            raise OSError(f"cannot start bot {label} ({shlex.join(argv)}): {error}") from error
    _running.add(process.pid)
    log.info("started %s: %s (pid %d)", label, shlex.join(argv), process.pid)
    return BotProcess(label, argv, process, stdout_path, stderr_path, token, trio.current_time())


def _signal_group(process: trio.Process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def carrying(token: str) -> list[int]:
    """The live processes whose environment holds ``token`` (Linux; ``[]`` elsewhere).

    A zombie's environment reads empty: only processes that can still run are listed.
    """
    mark = f"{TOKEN_PREFIX}{token}=".encode()
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(PROC):
            if not entry.name.isdigit():
                continue
            try:
                environ = (PROC / entry.name / "environ").read_bytes()
            except OSError:  # gone, or another user's
                continue
            if any(item.startswith(mark) for item in environ.split(b"\0")):
                found.append(int(entry.name))
    return found


def _orphan_zombies() -> list[int]:
    """Zombie children of this process that are not bots trio is waiting for (re-parented
    descendants of bots, once this process is a subreaper)."""
    me = os.getpid()
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(PROC):
            if not entry.name.isdigit() or int(entry.name) in _running:
                continue
            try:
                stat = (PROC / entry.name / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if len(fields) > 1 and fields[0] == "Z" and fields[1] == str(me):
                found.append(int(entry.name))
    return found


def _reap(pid: int) -> bool:
    """Reap ``pid`` if it is a child of ours that has ended; whether it is gone."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:  # not our child (yet): gone only if it no longer exists
        return not (PROC / str(pid)).exists()
    return done == pid


async def end_descendants(bot: BotProcess) -> None:
    """SIGKILL every process carrying the bot's token, then reap what was re-parented here.

    Waits up to :data:`REAP_TIME` for the killed processes to be gone.
    """
    killed: set[int] = set()
    for _ in range(10):  # a process may fork while it is being ended: look again
        found = [pid for pid in carrying(bot.token) if pid != bot.process.pid]
        if not found:
            break
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed.update(found)
    with trio.move_on_after(REAP_TIME):
        while True:
            for pid in _orphan_zombies():
                _reap(pid)
            killed = {pid for pid in killed if not _reap(pid)}
            if not killed:
                break
            await trio.sleep(0.01)
    if killed:
        log.warning("%s: processes it started are still there: %s", bot.label, sorted(killed))


async def await_exit(bot: BotProcess, grace: float = HANG_UP_GRACE) -> None:
    """Wait up to ``grace`` for the bot to exit by itself (shielded from cancellation).

    A bot that crashed closes its socket a moment before its process is gone; ending it
    in that moment would hide its exit code (and its crash) behind our own signal.
    """
    with trio.CancelScope(shield=True), trio.move_on_after(grace):
        await bot.wait()


async def stop_bot(bot: BotProcess, grace: float = TERMINATE_GRACE) -> None:
    """End the bot and everything it started: SIGTERM to its group, then SIGKILL after
    ``grace`` to the group and to every descendant (see the module's docstring).

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
        await end_descendants(bot)
        if process.returncode is None:
            await bot.wait()
        _running.discard(process.pid)
        log.info("%s ended with exit code %s", bot.label, process.returncode)
