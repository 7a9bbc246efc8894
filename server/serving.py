"""Serve games over TCP: admit two bots, greet them, referee, repeat ``games`` times.

Sturdier than the course server: the first two connections to complete their NME are
seated (Vampires first), so a connection closed before its NME, or silent, keeps no one
out; a first message that is not NME drops only that connection; a silent connection is
dropped after ``settings.connect_time``; a connection during a game is closed at once.
"""

import contextlib
import datetime
import logging
import re
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

import trio

from engine import GameResult, Kind
from engine.mapfile import GameMap, check_sendable
from protocol.codec import Bye, End
from server.lobby import admit, connected, greet
from server.player import Closed, Player, SendFailed
from server.referee import ABORT_GOODBYE, play_game
from server.settings import Settings
from server.transcript import FrameRecorder, Transcript

log = logging.getLogger(__name__)


class PlayGame(Protocol):
    """What referees a game between two seated players: :func:`server.referee.play_game`
    (cancelled, it gives the aborted game's result to ``on_abort``)."""

    def __call__(
        self,
        vampires: Player,
        werewolves: Player,
        game_map: GameMap,
        settings: Settings,
        transcript: Transcript | None = None,
        on_abort: Callable[[GameResult], None] | None = None,
    ) -> Awaitable[GameResult]: ...


EXIT_GRACE = 0.5
"""Seconds a seated bot's connection has, once its process has exited, to deliver what it
sent and close by itself; then its part is over, whoever still holds the connection."""
MAX_PENDING = 8
"""Connections allowed to be waiting for their NME at once (a flood cannot exhaust the
server); when one more comes, the oldest gives way, so silent ones never keep a bot out."""


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
        self.waiting: dict[trio.CancelScope, str] = {}
        """The connections waiting for their NME, oldest first: each one's admission scope
        (cancelled when it must give way) and peer."""
        self.seating = trio.Lock()
        """Held while a player is greeted, so seats are given in order."""

    def reset(self) -> None:
        self.seated = []
        self.full = trio.Event()
        self.done = trio.Event()


GameWatcher = Callable[[int, tuple[str, str]], Callable[[str], None]]
"""``on_game(number, (vampires' name, werewolves' name))`` as a game starts: returns the
function given each line (JSON text) of the game's transcript as it is written."""


async def wait_unless(event: trio.Event, other: Callable[[], Awaitable[object]]) -> bool:
    """Wait for ``event``, giving up if ``other()`` returns first; whether ``event`` is set."""
    if event.is_set():
        return True
    async with trio.open_nursery() as nursery:

        async def watch() -> None:
            await other()
            nursery.cancel_scope.cancel()

        nursery.start_soon(watch)
        await event.wait()
        nursery.cancel_scope.cancel()
    return event.is_set()


async def _part(player: Player, table: _Table) -> None:
    """A seated player's last words when the server stops: END/BYE before the game, or
    (the game has begun) wait until the referee has said them, before its stream closes."""
    with trio.CancelScope(shield=True):
        if table.full.is_set():
            with trio.move_on_after(ABORT_GOODBYE + 1):
                await table.done.wait()
        else:
            with trio.move_on_after(ABORT_GOODBYE):
                for message in (End(), Bye()):
                    await player.send_quietly(message)


async def _end_parts(forfeits: trio.MemoryReceiveChannel[tuple[Kind, str]], table: _Table) -> None:
    """For each ``(species, reason)`` received (a bot's process exited), end the part of
    the player seated on that side once :data:`EXIT_GRACE` has passed, unless its
    connection closed by itself meanwhile."""

    async def end(player: Player, reason: str) -> None:
        with trio.move_on_after(EXIT_GRACE):
            await player.reader_done.wait()
        player.forfeit(reason)  # nothing changes if the reader is done

    async with trio.open_nursery() as nursery:
        async for species, reason in forfeits:
            for player in table.seated:
                if player.species == species:
                    nursery.start_soon(end, player, reason)


async def serve(
    game_map: GameMap,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 5555,
    games: int = 1,
    first_game: int = 1,
    transcript_dir: Path | None = None,
    keep_all_transcripts: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    on_seated: Callable[[Kind, str], None] | None = None,
    on_dropped: Callable[[str], None] | None = None,
    on_game: GameWatcher | None = None,
    referee: PlayGame = play_game,
    forfeits: trio.MemoryReceiveChannel[tuple[Kind, str]] | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> list[GameResult]:
    """Serve ``games`` games on ``host:port``; the results, in order.

    Games are numbered from ``first_game`` in transcript names (``vvw match`` serves one
    game at a time and gives each its number in the match). ``on_dropped(why)`` hears of
    each connection dropped before its NME (garbage, silence, a hang-up). ``referee``
    plays each game once two players are seated and greeted. ``on_game(number, names)``
    is called as each game starts and returns a function given each of its transcript
    lines (JSON text) as they are written: the live view. Without ``transcript_dir`` these
    transcripts go to a scratch folder, deleted at the end. A ``(species, reason)`` on
    ``forfeits`` ends that side's part (its process exited; see :data:`EXIT_GRACE`).
    """
    check_sendable(game_map, game_map.name or "<map>")  # MapFileError: MAP could not say it
    listeners = await trio.open_tcp_listeners(port, host=host)  # OSError if the port is taken
    table = _Table(game_map, settings)
    recorder = FrameRecorder()
    scratch = tempfile.TemporaryDirectory(prefix="vvw-") if on_game and not transcript_dir else None
    written_to = transcript_dir if scratch is None else Path(scratch.name)
    results: list[GameResult] = []

    async def handle(stream: trio.SocketStream) -> None:
        try:
            await seat(stream)
        except Exception:  # one connection must never bring the server down
            log.exception("connection handler failed")

    async def seat(stream: trio.SocketStream) -> None:
        try:
            peer = "{}:{}".format(*stream.socket.getpeername()[:2])
        except OSError:
            peer = "?"
        if table.full.is_set():
            log.info("refused %s: a game is being played", peer)
            await stream.aclose()
            return
        if len(table.waiting) >= MAX_PENDING:
            oldest = next(iter(table.waiting))
            log.info("%s gives way to %s", table.waiting.pop(oldest), peer)
            oldest.cancel()
        admission = trio.CancelScope()
        table.waiting[admission] = peer
        try:
            on_frame = recorder if written_to is not None else None
            async with connected(stream, peer, on_frame=on_frame) as player:
                with admission:
                    why = await admit(player, settings.connect_time)
                table.waiting.pop(admission, None)
                if admission.cancelled_caught:
                    why = (
                        f"no NME yet, and it gave way to a newer connection"
                        f" ({MAX_PENDING} were waiting for theirs)"
                    )
                if why is not None:
                    log.info("dropped %s: %s", peer, why)
                    if on_dropped is not None:
                        on_dropped(why)
                    return
                async with table.seating:
                    if table.full.is_set():
                        log.info("dropped %s: the table is full", peer)
                        return
                    # The seat nobody holds: the vampires' when a seated vampire left.
                    held = {seated.species for seated in table.seated}
                    species = Kind.WEREWOLVES if Kind.VAMPIRES in held else Kind.VAMPIRES
                    player.species = species
                    try:
                        await greet(player, game_map, species)
                    except SendFailed as error:
                        log.info("dropped %s: greeting failed: %s", peer, error)
                        return
                    table.seated.append(player)
                    if on_seated is not None:
                        on_seated(species, player.name)
                    if len(table.seated) == 2:
                        table.full.set()
                full = None
                try:
                    full = await wait_unless(table.full, player.reader_done.wait)
                finally:
                    if full is None:  # cancelled: the server is stopping
                        await _part(player, table)
                if not full:  # it left first
                    table.seated.remove(player)  # at once: no other task runs in between
                    reason = (
                        player.closed.reason
                        if isinstance(player.closed, Closed)
                        else (str(player.closed.error) if player.closed is not None else "?")
                    )
                    log.info("unseated %s before the game: %s", peer, reason)
                    return
                done = table.done
                try:
                    await done.wait()
                except trio.Cancelled:
                    if table.full.is_set():
                        # The server is stopping mid-game: let the referee say END/BYE first.
                        with trio.CancelScope(shield=True), trio.move_on_after(ABORT_GOODBYE + 1):
                            await done.wait()
                    raise
        finally:
            table.waiting.pop(admission, None)

    with scratch if scratch is not None else contextlib.nullcontext():
        async with trio.open_nursery() as nursery:
            await nursery.start(trio.serve_listeners, handle, listeners)
            if forfeits is not None:
                nursery.start_soon(_end_parts, forfeits, table)
            task_status.started(listeners[0].socket.getsockname()[1])
            for number in range(first_game, first_game + games):
                await table.full.wait()
                vampires, werewolves = sorted(table.seated, key=lambda player: player.species)
                transcript = None
                names = (vampires.name, werewolves.name)
                if written_to is not None:
                    transcript = Transcript(written_to / transcript_name(number, names))
                    if on_game is not None:
                        transcript.taps.append(on_game(number, names))
                recorder.attach(transcript, table.seated)

                def aborted(result: GameResult) -> None:
                    results.append(result)
                    if on_result is not None:
                        on_result(result)

                try:
                    result = await referee(
                        vampires, werewolves, game_map, settings, transcript, on_abort=aborted
                    )
                finally:
                    recorder.detach()
                    if transcript is not None:
                        transcript.close()  # an aborted game's transcript stays where it is
                    table.done.set()
                results.append(result)
                if transcript is not None and scratch is not None:
                    transcript.discard()
                elif transcript is not None and transcript_dir is not None:
                    if keep_all_transcripts or result.termination.is_abnormal:
                        transcript.keep_in(transcript_dir)
                    else:
                        transcript.discard()
                if on_result is not None:
                    on_result(result)
                table.reset()
            nursery.cancel_scope.cancel()
    return results
