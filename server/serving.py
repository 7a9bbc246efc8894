"""Serve games over TCP: admit two bots, seat them, referee, repeat ``games`` times.

Sturdier than the course server: the first two connections to complete their NME are
seated (Vampires first), so a connection closed before its NME, or silent, keeps no one
out; a first message that is not NME drops only that connection; a silent connection is
dropped after ``settings.connect_time``; a connection during a game is closed at once.

:func:`serve` is three small tasks: each connection's life (:func:`_connection`: admitted,
seated, held until its game is over), the games one after the other
(:func:`play_seated`), and the parts ended from outside (:func:`server.table.end_parts`).
Everything they see is reported as :mod:`server.events` to the one sink given.
"""

import contextlib
import datetime
import logging
import re
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import attrs
import trio

from engine import GameResult, Kind
from engine.mapfile import GameMap, check_sendable
from server.events import (
    EventSink,
    GameBegun,
    GameEnded,
    TranscriptLine,
    ignore,
)
from server.lobby import Admissions, connected
from server.player import FrameHook, Player
from server.referee import play_game
from server.settings import Settings
from server.table import Seats, Table, end_parts, hold_seat, take_seat
from server.transcript import FrameRecorder, Transcript

log = logging.getLogger(__name__)


PlayGame = Callable[
    [Player, Player, GameMap, Settings, Transcript | None, Callable[[GameResult], None] | None],
    Awaitable[GameResult],
]
"""What referees a game between two seated players, given (vampires, werewolves, the map,
the settings, the transcript, ``on_abort``): :func:`server.referee.play_game` (cancelled, it
gives the aborted game's result to ``on_abort``)."""


def transcript_name(number: int, names: tuple[str, str] = ("", "")) -> str:
    """``20261123-050000-game003-alice-bob.jsonl`` (names reduced to safe characters)."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    safe = [re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:32] for name in names if name]
    return "-".join([stamp, f"game{number:03d}", *safe]) + ".jsonl"


@attrs.frozen
class Transcripts:
    """Which games' transcripts are written, and which are kept."""

    folder: Path | None = None
    """Where they are written; ``None``: nowhere (unless ``lines``)."""
    keep_all: bool = False
    """Keep every game's; else only those of games that ended abnormally."""
    lines: bool = False
    """Report each line as a :class:`~server.events.TranscriptLine` (the live view); without
    a ``folder`` they are written to a scratch folder, deleted at the end."""


class TranscriptKeeper:
    """Where a server writes its transcripts (``folder``), and which it keeps."""

    def __init__(self, transcripts: Transcripts, folder: Path | None, events: EventSink) -> None:
        self.transcripts, self.folder, self.events = transcripts, folder, events

    def open(self, number: int, names: tuple[str, str]) -> Transcript | None:
        """The transcript of game ``number``, if one is written."""
        if self.folder is None:
            return None
        transcript = Transcript(self.folder / transcript_name(number, names))
        if self.transcripts.lines:
            transcript.taps.append(lambda record: self.events(TranscriptLine(number, record)))
        return transcript

    def settle(self, transcript: Transcript | None, result: GameResult) -> Path | None:
        """Keep the finished game's transcript or delete it; where it was kept."""
        if transcript is None:
            return None
        keep = self.transcripts.keep_all or result.termination.is_abnormal
        if self.transcripts.folder is None or not keep:
            transcript.discard()
            return None
        return transcript.keep_in(self.transcripts.folder)


@contextlib.contextmanager
def keeping(transcripts: Transcripts, events: EventSink) -> Iterator[TranscriptKeeper]:
    """The keeper of ``transcripts`` for one server's life (its scratch folder, if any)."""
    if transcripts.folder is not None or not transcripts.lines:
        yield TranscriptKeeper(transcripts, transcripts.folder, events)
        return
    with tempfile.TemporaryDirectory(prefix="vvw-") as scratch:
        yield TranscriptKeeper(transcripts, Path(scratch), events)


async def serve(
    game_map: GameMap,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 5555,
    games: int = 1,
    first_game: int = 1,
    transcripts: Transcripts = Transcripts(),
    events: EventSink = ignore,
    referee: PlayGame = play_game,
    forfeits: trio.MemoryReceiveChannel[tuple[Kind, str]] | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> list[GameResult]:
    """Serve ``games`` games on ``host:port``; the results, in order.

    Games are numbered from ``first_game`` (``vvw match`` serves one game at a time and
    gives each its number in the match). ``events`` is told everything as it happens (see
    :mod:`server.events`). ``referee`` plays each game once two players are seated and
    greeted. A ``(species, reason)`` on ``forfeits`` ends that side's part (its process
    exited; see :data:`server.table.EXIT_GRACE`).
    """
    check_sendable(game_map, game_map.name or "<map>")  # MapFileError: MAP could not say it
    listeners = await trio.open_tcp_listeners(port, host=host)  # OSError if the port is taken
    table = Table()
    admissions = Admissions()
    recorder = FrameRecorder()
    results: list[GameResult] = []
    with keeping(transcripts, events) as keeper:
        on_frame = recorder if keeper.folder is not None else None

        async def handle(stream: trio.SocketStream) -> None:
            try:
                await _connection(stream, table, admissions, game_map, settings, events, on_frame)
            except Exception:  # one connection must never bring the server down
                log.exception("connection handler failed")

        async with trio.open_nursery() as nursery:
            await nursery.start(trio.serve_listeners, handle, listeners)
            if forfeits is not None:
                nursery.start_soon(end_parts, forfeits, table)
            task_status.started(listeners[0].socket.getsockname()[1])
            for number in range(first_game, first_game + games):
                await table.seats.full.wait()
                result = await play_seated(
                    number, table.seats, game_map, settings, keeper, recorder, referee
                )
                results.append(result)
                table.next_game()
            nursery.cancel_scope.cancel()
    return results


async def _connection(
    stream: trio.SocketStream,
    table: Table,
    admissions: Admissions,
    game_map: GameMap,
    settings: Settings,
    events: EventSink,
    on_frame: FrameHook | None,
) -> None:
    """One connection's life: refused during a game; else admitted (or dropped), seated,
    and held open until its game is over."""
    peer = _peer(stream)
    if table.seats.full.is_set():
        log.info("refused %s: a game is being played", peer)
        await stream.aclose()
        return
    async with connected(stream, peer, on_frame=on_frame) as player:
        dropped = await admissions.admit(player, settings.connect_time)
        if dropped is not None:
            log.info("dropped %s: %s", peer, dropped.detail)
            events(dropped)
            return
        seats = await take_seat(player, table, game_map, events)
        if seats is not None:
            await hold_seat(player, seats, events)


def _peer(stream: trio.SocketStream) -> str:
    try:
        return "{}:{}".format(*stream.socket.getpeername()[:2])
    except OSError:
        return "?"


async def play_seated(
    number: int,
    seats: Seats,
    game_map: GameMap,
    settings: Settings,
    keeper: TranscriptKeeper,
    recorder: FrameRecorder,
    referee: PlayGame = play_game,
) -> GameResult:
    """Game ``number`` between the players of full ``seats``, from :class:`GameBegun` to
    :class:`GameEnded` (an aborted game's too); its transcript written, then kept or not."""
    events = keeper.events
    vampires, werewolves = seats.by_species()
    names = (vampires.name, werewolves.name)
    events(GameBegun(number, names))
    transcript = keeper.open(number, names)
    recorder.attach(transcript, seats.players)

    def aborted(result: GameResult) -> None:  # the transcript stays where it is
        kept = transcript.path if transcript is not None and keeper.transcripts.folder else None
        events(GameEnded(number, result, kept))

    try:
        result = await referee(vampires, werewolves, game_map, settings, transcript, aborted)
    finally:
        recorder.detach(seats.players)
        if transcript is not None:
            transcript.close()
        seats.done.set()
    events(GameEnded(number, result, keeper.settle(transcript, result)))
    return result
