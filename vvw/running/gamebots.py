"""A game's bot processes: started one by one, judged when one hangs up, all ended when
the game is over, and what they leave (their output files, their fallback plies) tidied
and counted. A game played here (:mod:`vvw.running.local_game`) keeps one :class:`GameBots`."""

import contextlib
import re
from pathlib import Path
from types import TracebackType

import attrs

from engine import GameResult, Kind, Termination
from server.processes import BotProcess, await_exit, start_bot, stop_bot

HUNG_UP = (Termination.DISCONNECT, Termination.STALL)
"""Endings where the loser's process may have crashed (see :func:`crashed`)."""


def file_stem(species: Kind, name: str) -> str:
    """``vampires-alphabeta_--depth_4``: a side and a name, safe as a file name."""
    return f"{species.name.lower()}-" + re.sub(r"[^A-Za-z0-9_.#-]+", "_", name)[:48]


class GameBots:
    """The game's bot processes, started one by one; all ended when the block ends, and
    then ``outputs`` holds each side's non-empty output files."""

    def __init__(self, game_dir: Path) -> None:
        self.game_dir = game_dir
        self.running: dict[Kind, BotProcess] = {}
        self.outputs: dict[Kind, list[Path]] = {}
        self.fallbacks: dict[Kind, int] = {}

    async def start(
        self, species: Kind, name: str, argv: list[str], folder: str | None = None
    ) -> BotProcess:
        """Start the bot of ``species`` in ``folder`` (``OSError`` if it cannot start)."""
        bot = await start_bot(file_stem(species, name), argv, self.game_dir, folder)
        self.running[species] = bot
        return bot

    def label(self, species: Kind) -> str:
        """The bot of ``species`` as messages name it (its side, if it has no process)."""
        bot = self.running.get(species)
        return species.name.lower() if bot is None else bot.label

    async def judge_hang_up(self, species: Kind, how: str) -> tuple[Termination, str]:
        """A bot whose connection closed mid-game: a crash if its process exits with an
        error (waited for a moment), with its exit code and last words; else as ``how``."""
        bot = self.running.get(species)
        if bot is None:
            return Termination.DISCONNECT, how
        await await_exit(bot)  # a crash closes the socket a moment before the process ends
        if bot.crashed:  # the referee puts the player's label in front
            return Termination.CRASH, f"its process {crash_detail(bot)}"
        return Termination.DISCONNECT, how

    async def await_loser(self, result: GameResult) -> None:
        """After a hang-up, let the loser's process end so that its exit code tells."""
        if result.termination in HUNG_UP:
            for species, bot in self.running.items():
                if species != result.winner:
                    await await_exit(bot)

    def crashed(self, result: GameResult) -> GameResult:
        """A DISCONNECT/STALL of a bot whose process exited non-zero becomes a CRASH."""
        if result.termination not in HUNG_UP:
            return result
        for species, bot in self.running.items():
            if species != result.winner and bot.crashed:
                return attrs.evolve(result, termination=Termination.CRASH, detail=crash_detail(bot))
        return result

    async def __aenter__(self) -> "GameBots":
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for bot in self.running.values():
            await stop_bot(bot)  # shielded: a cancelled match ends its bots too
        for species, bot in self.running.items():
            self.fallbacks[species] = len(bot.fallbacks())
            bot.fallbacks_path.unlink(missing_ok=True)  # counted: the .err says why
        self.outputs = _tidy(self.running, self.game_dir)


def crash_detail(bot: BotProcess) -> str:
    """``bot.py exited with code 3: <its last lines on standard error>``."""
    return f"{bot.label} exited with code {bot.exit_code}: {bot.stderr_tail()}"


def when(bot: BotProcess | None) -> str:
    """``, 0.3 s after it started`` once the bot has exited, else nothing."""
    if bot is None or bot.exited_at is None:
        return ""
    return f", {bot.exited_at - bot.started_at:.1f} s after it started"


def _tidy(bots: dict[Kind, BotProcess], game_dir: Path) -> dict[Kind, list[Path]]:
    """Remove the output files the bots left empty (and ``game_dir`` if then empty); the
    non-empty ones, per side."""
    kept: dict[Kind, list[Path]] = {}
    for species, bot in bots.items():
        kept[species] = []
        for path in (bot.stdout_path, bot.stderr_path):
            try:
                if path.stat().st_size == 0:
                    path.unlink()
                else:
                    kept[species].append(path)
            except OSError:
                pass
    with contextlib.suppress(OSError):  # not empty, or never made
        game_dir.rmdir()
    return kept
