"""Serve games over TCP: admit two bots, greet them, referee, repeat ``games`` times.

Sturdier than the course server: a connection closed before its NME frees its slot, a
first message that is not NME drops only that connection, a silent connection is dropped
after ``settings.connect_time``, and a third connection during a game is closed at once.
"""

import datetime
import logging
import re
from collections.abc import Callable
from pathlib import Path

import trio

from engine import Kind
from engine.mapfile import GameMap
from server.result import GameResult
from server.settings import Settings
from server.transcript import Transcript

log = logging.getLogger(__name__)


def transcript_name(number: int, names: tuple[str, str] = ("", "")) -> str:
    """``20261123-050000-game003-alice-bob.jsonl`` (names reduced to safe characters)."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    safe = [re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:32] for name in names if name]
    return "-".join([stamp, f"game{number:03d}", *safe]) + ".jsonl"


class _Table:
    """The seats of the game being formed; extra connections are refused."""

    def __init__(self, game_map: GameMap, settings: Settings) -> None:
        self.game_map = game_map
        self.settings = settings
        self.seated: list = []
        self.full = trio.Event()
        self.done = trio.Event()
        self.pending = 0

    def reset(self) -> None:
        self.seated = []
        self.full = trio.Event()
        self.done = trio.Event()


async def serve(
    game_map: GameMap,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 5555,
    games: int = 1,
    transcript_dir: Path | None = None,
    keep_all_transcripts: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    on_seated: Callable[[Kind, str], None] | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> list[GameResult]:
    """Serve ``games`` games on ``host:port``; the results, in order."""
    listeners = await trio.open_tcp_listeners(port, host=host)  # OSError if the port is taken
    from server.lobby import admit, connected, greet  # written alongside; imported late
    from server.referee import play_game

    table = _Table(game_map, settings)
    results: list[GameResult] = []

    async def handle(stream: trio.SocketStream) -> None:
        try:
            peer = "{}:{}".format(*stream.socket.getpeername()[:2])
        except OSError:
            peer = "?"
        if len(table.seated) + table.pending >= 2 or table.full.is_set():
            log.info("refused %s: a game is already being played", peer)
            await stream.aclose()
            return
        table.pending += 1
        admitted = False
        try:
            async with connected(stream, peer) as player:
                why = await admit(player, settings.connect_time)
                table.pending -= 1
                admitted = True
                if why is not None or table.full.is_set():
                    log.info("dropped %s: %s", peer, why or "table full")
                    return
                species = Kind.VAMPIRES if not table.seated else Kind.WEREWOLVES
                table.seated.append(player)
                if on_seated is not None:
                    on_seated(species, player.name)
                await greet(player, game_map, species)
                if len(table.seated) == 2:
                    table.full.set()
                await table.done.wait()
        finally:
            if not admitted:
                table.pending -= 1

    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_listeners, handle, listeners)
        task_status.started(listeners[0].socket.getsockname()[1])
        for number in range(1, games + 1):
            await table.full.wait()
            vampires, werewolves = table.seated
            transcript = None
            if transcript_dir is not None:
                names = (vampires.name, werewolves.name)
                transcript = Transcript(transcript_dir / transcript_name(number, names))
            result = await play_game(vampires, werewolves, game_map, settings, transcript)
            results.append(result)
            if transcript is not None:
                if keep_all_transcripts or result.termination.is_abnormal:
                    transcript.keep_in(transcript_dir)
                else:
                    transcript.discard()
            if on_result is not None:
                on_result(result)
            table.done.set()
            table.reset()
        nursery.cancel_scope.cancel()
    return results
