"""The built-in bots' side of the ladder: a process started for each of their games.

A built-in bot's game starts its process (``vvw agent``), which connects to a loopback
port of the ladder's own (:meth:`BuiltinBots.connection`) with a name made for that one
game; it has :data:`BUILTIN_CONNECT_TIME` seconds to come, and is ended with its game.
"""

import logging
import secrets
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import attrs
import trio

from server.lobby import Admissions, connected
from server.processes import await_exit, start_bot, stop_bot
from server.race import wait_unless
from server.transcript import FrameRecorder
from vvw.ladder.admission import peer_of
from vvw.ladder.games import Entrant
from vvw.ladder.settings import LadderSettings
from vvw.running.bots import bot_command

log = logging.getLogger(__name__)

BUILTIN_CONNECT_TIME = 30.0
"""Seconds a built-in bot's process has to start and connect."""
BUILTIN_EXIT_GRACE = 2.0
"""Seconds a built-in bot has to exit by itself after its game before it is ended."""


@attrs.define(eq=False)
class _Expected:
    """A built-in bot's process on its way: its connection once it has come."""

    builtin: str
    arrived: trio.Event = attrs.field(factory=trio.Event)
    entrant: Entrant | None = None


class BuiltinBots:
    """The built-in bots' processes and connections (see the module's docstring). Each
    connection, once come, is given a seat of ``seats`` and held by ``hold`` until its
    game is over."""

    def __init__(
        self,
        settings: LadderSettings,
        recorder: FrameRecorder,
        seats: Iterator[int],
        hold: Callable[[Entrant], Awaitable[None]],
    ) -> None:
        self.settings = settings
        self.port = 0
        """The loopback port they connect to (set once it listens)."""
        self.logs = Path(tempfile.gettempdir())
        """Where their standard output and error go while they run."""
        self._recorder = recorder
        self._seats = seats
        self._hold = hold
        self._expected: dict[str, _Expected] = {}
        self._admissions = Admissions()

    async def connection(self, stream: trio.SocketStream) -> None:
        """A built-in bot's process connecting for the game it was started for."""
        async with connected(stream, peer_of(stream), on_frame=self._recorder) as player:
            connect_time = self.settings.game.connect_time
            if await self._admissions.admit(player, connect_time) is not None:
                return
            expected = self._expected.pop(player.name, None)
            if expected is None:
                log.warning("a connection to the built-in bots' port named no game")
                return
            player.name = expected.builtin
            entrant = Entrant(next(self._seats), expected.builtin, player, trio.current_time())
            expected.entrant = entrant
            expected.arrived.set()
            await self._hold(entrant)

    async def start(self, builtin: str, nursery: trio.Nursery) -> Entrant | None:
        """Start the process of the built-in bot ``builtin`` (ended when ``nursery`` is)
        and wait until it has connected; ``None`` if it could not."""
        name = f"{builtin}-{secrets.token_hex(6)}"
        expected = _Expected(builtin)
        self._expected[name] = expected
        argv = bot_command(
            builtin, "127.0.0.1", self.port, name=name, move_time=self.settings.game.move_time
        )
        try:
            bot = await start_bot(name, argv, self.logs)
        except OSError as error:
            log.error("the built-in bot %s cannot start: %s", builtin, error)
            del self._expected[name]
            return None

        async def run() -> None:
            try:
                await trio.sleep_forever()
            finally:
                await await_exit(bot, BUILTIN_EXIT_GRACE)
                await stop_bot(bot)
                for path in (bot.stdout_path, bot.stderr_path):
                    path.unlink(missing_ok=True)

        nursery.start_soon(run)
        with trio.move_on_after(BUILTIN_CONNECT_TIME):
            await wait_unless(expected.arrived.wait, bot.wait)
        self._expected.pop(name, None)
        if expected.entrant is None:
            log.error(
                "the built-in bot %s did not connect (exit code %s): %s",
                builtin,
                bot.exit_code,
                bot.stderr_tail(),
            )
        return expected.entrant
