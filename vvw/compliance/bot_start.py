"""One start of the bot under check: its process, its connection, its output, its exit."""

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import attrs
import trio

from server.lobby import connected
from server.processes import BotProcess, start_bot, stop_bot
from server.race import wait_unless
from vvw.compliance.scripted import Connection, ScriptedGame, StepFailed, cut

EXIT_GRACE = 2.0
"""Seconds a bot has to exit after the connection ends."""


@attrs.define
class Session:
    """One start of the bot: its process, its connection, the game it plays, the logs."""

    log_dir: Path
    label: str
    connect_time: float
    bot: BotProcess | None = None
    connection: Connection | None = None
    game: ScriptedGame | None = None
    listener: trio.SocketListener | None = None
    _open: contextlib.AsyncExitStack = attrs.field(factory=contextlib.AsyncExitStack)

    def fallbacks(self) -> list[str]:
        """The fallback plies the bot's client library has noted (vvw's client only)."""
        return [] if self.bot is None else self.bot.fallbacks()

    def output(self, lines: int = 8) -> str:
        """The bot's last lines of standard output and error (long ones cut)."""
        if self.bot is None:
            return ""
        texts = []
        for path, name in ((self.bot.stdout_path, "stdout"), (self.bot.stderr_path, "stderr")):
            try:
                text = path.read_bytes()[-4096:].decode("utf-8", "replace").strip()
            except OSError:
                continue
            if text:
                tail = text.splitlines()[-lines:]
                texts.append(f"{name}:\n" + "\n".join(f"  | {cut(line)}" for line in tail))
        return "\n".join(texts) or "(nothing on stdout or stderr)"

    async def connect(self, port_command: Callable[[int], list[str]]) -> Connection:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.listener = listeners[0]
        port = self.listener.socket.getsockname()[1]
        self.bot = await start_bot(self.label, port_command(port), self.log_dir)
        stream = None
        with trio.move_on_after(self.connect_time):
            stream = await wait_unless(self.listener.accept, self.bot.process.wait)
        if stream is None:
            code = self.bot.process.returncode
            got = (
                f"the bot exited with code {code} without connecting"
                if code is not None
                else f"no connection in {self.connect_time:g} s"
            )
            raise StepFailed(f"a connection to 127.0.0.1:{port}", got + self._hidden_package())
        player = await self._open.enter_async_context(connected(stream, f"127.0.0.1:{port}"))
        self.connection = Connection(player)
        return self.connection

    def _hidden_package(self) -> str:
        """A hint if the bot's own ``agents.py`` hid our package from its import."""
        assert self.bot is not None
        try:
            errors = self.bot.stderr_path.read_bytes()[-4096:]
        except OSError:
            return ""
        if b"'agents' is not a package" not in errors:
            return ""
        return (
            "; the bot's own agents.py hides vvw's agents package: import the client"
            " library as `from vvw.client import play_blocking` (or rename the file)"
        )

    async def exits(self, grace: float = EXIT_GRACE) -> bool:
        assert self.bot is not None
        with trio.move_on_after(grace):
            await self.bot.process.wait()
            return True
        return False

    async def still_running(self) -> str:
        """How a bot that did not exit in time is doing: idle, or busy (spinning?)."""
        assert self.bot is not None
        share = await _cpu_share(self.bot.process.pid)
        if share is None:
            return f"still running after {EXIT_GRACE:g} s"
        state = "busy (spinning?)" if share > 0.3 else "idle"
        return f"still running after {EXIT_GRACE:g} s, {state} at {share:.0%} CPU"

    async def close(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot)  # first: the connection then closes at once
            for path in (self.bot.stdout_path, self.bot.stderr_path):  # nothing said: no file
                with contextlib.suppress(OSError):
                    if path.stat().st_size == 0:
                        path.unlink()
            with contextlib.suppress(OSError):  # not empty
                self.log_dir.rmdir()
        await self._open.aclose()
        if self.listener is not None:
            await self.listener.aclose()


def _cpu_seconds(pid: int) -> float | None:
    """CPU time used by a process so far (Linux), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _cpu_share(pid: int, over: float = 1.0) -> float | None:
    before = _cpu_seconds(pid)
    await trio.sleep(over)
    after = _cpu_seconds(pid)
    return None if before is None or after is None else (after - before) / over
