"""Play one game between two bot processes on a port of its own: the unit of every match.

:func:`play_one` serves one game on a free port, starts the vampires' bot, waits until it
is seated, starts the werewolves', and returns the result with the participants' names in
it, whatever the bots call themselves. Nothing here prints or schedules: ``vvw match`` and
``vvw tournament`` (and a cluster worker) call it and decide what to do with the result.
A bot that cannot start, exits, sends garbage or stays silent before its NME loses the
game with that reason; cancelling the call (Ctrl-C) ends both bots before returning.

What it waits on arrives on one channel: the server's events (:mod:`server.events`) and
its own, :class:`Exited` (a bot's process ended). How a bot dropped before the game loses
is its :class:`~server.events.DropReason`'s, never its message's wording.
"""

import contextlib
import math
import re
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any

import attrs
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from engine.mapfile import GameMap
from server.events import (
    Dropped,
    EventSink,
    GameEnded,
    Seated,
    ServerEvent,
    Unseated,
    fan_out,
)
from server.processes import BotProcess, await_exit, start_bot, stop_bot
from server.referee import play_game
from server.serving import Transcripts, serve
from server.settings import Settings
from vvw.results import GameLine, Side
from vvw.running.participants import Participant
from vvw.running.schedule import ScheduledGame

SIDES = (Kind.VAMPIRES, Kind.WEREWOLVES)
HUNG_UP = (Termination.DISCONNECT, Termination.STALL)
"""Endings where the loser's process may have crashed (see :func:`_crashed`)."""


@attrs.frozen
class Played:
    """A finished game: its result and the files it left (bots' output, transcript)."""

    result: GameResult
    outputs: dict[Kind, list[Path]]
    """Each side's non-empty output files (standard output, then error)."""
    transcript: Path | None = None
    fallbacks: dict[Kind, int] = attrs.field(factory=dict)
    """Each side's plies that were its client library's fallbacks, not its own (counted
    for bots on vvw's client library only: see :data:`server.processes.FALLBACKS_VARIABLE`)."""


@attrs.frozen
class Exited:
    """The process of the bot playing ``species`` ended with ``code``."""

    species: Kind
    code: int


@attrs.frozen
class _Lost:
    """``loser`` lost before its game began (it could not start, exited, was dropped…)."""

    loser: Kind
    termination: Termination
    detail: str


_Event = ServerEvent | Exited


def file_stem(species: Kind, name: str) -> str:
    """``vampires-alphabeta_--depth_4``: a side and a name, safe as a file name."""
    return f"{species.name.lower()}-" + re.sub(r"[^A-Za-z0-9_.#-]+", "_", name)[:48]


class _Bots:
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

    async def judge_hang_up(self, species: Kind, how: str) -> tuple[Termination, str]:
        """A bot whose connection closed mid-game: a crash if its process exits with an
        error (waited for a moment), with its exit code and last words; else as ``how``."""
        bot = self.running.get(species)
        if bot is None:
            return Termination.DISCONNECT, how
        await await_exit(bot)  # a crash closes the socket a moment before the process ends
        if bot.crashed:  # the referee puts the player's label in front
            return Termination.CRASH, f"its process {_crash_detail(bot)}"
        return Termination.DISCONNECT, how

    async def __aenter__(self) -> "_Bots":
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


async def play_one(
    game_map: GameMap,
    settings: Settings,
    players: tuple[Participant, Participant],
    game_dir: Path,
    *,
    seeds: tuple[int | None, int | None] = (None, None),
    transcript_dir: Path | None = None,
    keep_transcript: bool = False,
    number: int = 1,
    events: EventSink | None = None,
    on_abort: Callable[[Played], None] | None = None,
) -> Played:
    """One game: ``players[0]`` plays the vampires, ``players[1]`` the werewolves.

    The bots' output goes to ``game_dir`` (files left empty are removed, and the folder
    if nothing is left in it); ``seeds`` are the bots' own (built-in bots get
    ``--seed``, commands their ``{seed}``). ``events`` hears the server's events, its
    transcript's lines included (the live view). Cancelled mid-game (Ctrl-C), the game
    ends as aborted (END/BYE said, bots ended), ``on_abort`` is given it, and the
    cancellation goes on.
    """
    names = {species: player.name for species, player in zip(SIDES, players, strict=True)}
    game = _Game(
        game_map,
        settings,
        players,
        seeds,
        number,
        Transcripts(transcript_dir, keep_all=keep_transcript, lines=events is not None),
    )
    send, receive = trio.open_memory_channel[_Event](math.inf)
    bots = _Bots(game_dir)
    try:
        async with bots:
            ended = await game.play(bots, send, receive, events)
            if ended.result.termination in HUNG_UP:  # let the loser's exit code tell
                for species, bot in bots.running.items():
                    if species != ended.result.winner:
                        await await_exit(bot)
    except BaseException:
        aborted = aborted_in(receive)
        if aborted is not None and on_abort is not None:
            played = Played(_named(aborted.result, names), bots.outputs, aborted.transcript)
            on_abort(attrs.evolve(played, fallbacks=bots.fallbacks))
        raise
    result = _named(_crashed(ended.result, bots.running), names)
    return Played(result, bots.outputs, ended.transcript, bots.fallbacks)


@attrs.frozen
class _Game:
    """One game to play: the server's side and the bots' commands."""

    game_map: GameMap
    settings: Settings
    players: tuple[Participant, Participant]
    seeds: tuple[int | None, int | None]
    number: int
    transcripts: Transcripts

    async def play(
        self,
        bots: _Bots,
        send: trio.MemorySendChannel[_Event],
        receive: trio.MemoryReceiveChannel[_Event],
        events: EventSink | None,
    ) -> GameEnded:
        """Serve the game, start and seat the bots in turn: how it ended, or how a side
        lost before it began."""
        to_forfeit, forfeits = trio.open_memory_channel[tuple[Kind, str]](len(SIDES))
        hear = send.send_nowait if events is None else fan_out(send.send_nowait, events)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(
                    serve,
                    self.game_map,
                    self.settings,
                    port=0,
                    first_game=self.number,
                    transcripts=self.transcripts,
                    events=hear,
                    forfeits=forfeits,
                    referee=partial(play_game, hung_up=bots.judge_hang_up),
                )
            )
            lost = await self._seat_both(nursery, port, bots, send, receive)
            if lost is None:
                ended = await _until_ended(receive, bots.running, to_forfeit)
            else:
                ended = GameEnded(self.number, self._lost(lost))
            nursery.cancel_scope.cancel()
        return ended

    async def _seat_both(
        self,
        nursery: trio.Nursery,
        port: int,
        bots: _Bots,
        send: trio.MemorySendChannel[_Event],
        receive: trio.MemoryReceiveChannel[_Event],
    ) -> _Lost | None:
        """Start each bot in turn and wait until it is seated; how a side lost, if one did."""
        for species, player, seed in zip(SIDES, self.players, self.seeds, strict=True):
            argv = player.argv("127.0.0.1", port, seed, self.settings.move_time)
            try:
                bot = await bots.start(species, player.name, argv, player.folder)
            except OSError as error:
                return _Lost(species, Termination.CRASH, str(error))
            nursery.start_soon(_report_exit, species, bot, send)
            lost = await _until_seated(species, bots.running, receive, self.settings)
            if lost is not None:
                return attrs.evolve(lost, detail=f"{lost.detail} (map {self.game_map.name})")
        return None

    def _lost(self, lost: _Lost) -> GameResult:
        names = [player.name for player in self.players]
        return GameResult(
            winner=Kind.WEREWOLVES if lost.loser == Kind.VAMPIRES else Kind.VAMPIRES,
            termination=lost.termination,
            detail=lost.detail,
            plies=0,
            vampires=PlayerRecord(Kind.VAMPIRES, names[0], 0),
            werewolves=PlayerRecord(Kind.WEREWOLVES, names[1], 0),
            map_name=self.game_map.name,
            seed=self.settings.seed,
        )


async def _report_exit(
    species: Kind, bot: BotProcess, send: trio.MemorySendChannel[_Event]
) -> None:
    send.send_nowait(Exited(species, await bot.wait()))


async def _until_seated(
    species: Kind,
    running: dict[Kind, BotProcess],
    receive: trio.MemoryReceiveChannel[_Event],
    settings: Settings,
) -> _Lost | None:
    """Wait until the bot of ``species`` is seated; else how a side lost meanwhile: this
    bot dropped or silent, either bot exited, or the seated one left its seat."""
    with trio.move_on_after(settings.connect_time):
        while True:
            match await receive.receive():
                case Seated(species=seated) if seated == species:
                    return None
                case Dropped() as dropped:
                    return await _dropped(species, running[species], dropped)
                case Unseated(species=left, detail=detail):
                    how = f"{running[left].label} left its seat before the game began: {detail}"
                    return _Lost(left, Termination.DISCONNECT, how)
                case Exited(species=gone, code=code):
                    bot = running[gone]
                    when = (
                        "before its NME"
                        if gone == species
                        else "once seated, before the game began"
                    )
                    how = f"{bot.label} exited with code {code} {when}{_when(bot)}"
                    return _Lost(gone, Termination.CRASH, f"{how}: {bot.stderr_tail()}")
    label = running[species].label
    return _Lost(
        species,
        Termination.STALL,
        f"{label} did not connect and send NME within {settings.connect_time:g} s",
    )


async def _dropped(species: Kind, bot: BotProcess, dropped: Dropped) -> _Lost:
    """How the bot of ``species`` loses when the server dropped it before its NME."""
    await await_exit(bot)  # a hang-up is often a crash: let its exit code tell
    if bot.crashed:
        how = f"{bot.label} exited with code {bot.exit_code} before its NME{_when(bot)}"
        return _Lost(species, Termination.CRASH, f"{how}: {bot.stderr_tail()}")
    how = f"{bot.label} was dropped before the game: {dropped.detail}"
    return _Lost(species, dropped.reason.termination, how)


async def _until_ended(
    receive: trio.MemoryReceiveChannel[_Event],
    running: dict[Kind, BotProcess],
    to_forfeit: trio.MemorySendChannel[tuple[Kind, str]],
) -> GameEnded:
    """The game's end; meanwhile a bot whose process exits has its part ended by the
    server (whoever still holds its connection: a child it started)."""
    while True:
        event = await receive.receive()
        if isinstance(event, GameEnded):
            return event
        if isinstance(event, Exited):
            how = f"its process exited with code {event.code}{_when(running[event.species])}"
            to_forfeit.send_nowait((event.species, how))


def aborted_in(receive: trio.MemoryReceiveChannel[Any]) -> GameEnded | None:
    """The end of the game the server reported as it was stopped, if it was playing one."""
    while True:
        try:
            event = receive.receive_nowait()
        except trio.WouldBlock:
            return None
        if isinstance(event, GameEnded):
            return event


def _crashed(result: GameResult, running: dict[Kind, BotProcess]) -> GameResult:
    """A DISCONNECT/STALL of a bot whose process exited non-zero becomes a CRASH."""
    if result.termination not in HUNG_UP:
        return result
    for species, bot in running.items():
        if species != result.winner and bot.crashed:
            return attrs.evolve(result, termination=Termination.CRASH, detail=_crash_detail(bot))
    return result


def _crash_detail(bot: BotProcess) -> str:
    """``bot.py exited with code 3: <its last lines on standard error>``."""
    return f"{bot.label} exited with code {bot.exit_code}: {bot.stderr_tail()}"


def _named(result: GameResult, names: dict[Kind, str]) -> GameResult:
    """The result with each side's participant name instead of the name it sent."""
    return attrs.evolve(
        result,
        vampires=attrs.evolve(result.vampires, name=names[Kind.VAMPIRES]),
        werewolves=attrs.evolve(result.werewolves, name=names[Kind.WEREWOLVES]),
    )


def _when(bot: BotProcess) -> str:
    """``, 0.3 s after it started`` once the bot has exited, else nothing."""
    if bot.exited_at is None:
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


async def play_scheduled(
    game: ScheduledGame,
    settings: Settings,
    games_dir: Path,
    keep_transcript: bool = False,
    events: EventSink | None = None,
) -> GameLine:
    """Play one scheduled game and return its results line: the unit a scheduler (a local
    pool of tasks, or a cluster) runs. The game's files go to ``games_dir/NUMBER``."""
    game_dir = games_dir / f"{game.number:05d}"
    began = time.monotonic()
    played = await play_one(
        game.map.game_map,
        attrs.evolve(settings, seed=game.battle_seed),
        (game.vampires, game.werewolves),
        game_dir,
        seeds=game.seeds,
        transcript_dir=game_dir,
        keep_transcript=keep_transcript,
        number=game.number,
        events=events,
    )
    logs = game_dir if _exists(game_dir) else None
    return results_line(game, played, time.monotonic() - began, logs)


def _exists(folder: Path) -> bool:
    return folder.exists()


def results_line(
    game: ScheduledGame, played: Played, seconds: float, logs: Path | None
) -> GameLine:
    """The results line of a scheduled game once played; ``logs``: its folder, if kept."""
    result = played.result

    def side(species: Kind, player: Participant, seed: int) -> Side:
        record = result.vampires if species == Kind.VAMPIRES else result.werewolves
        return Side(
            name=player.name,
            command=player.spec,
            seed=seed,
            creatures=record.creatures,
            longest_think=record.longest_think,
            skipped_turns=record.skipped_turns,
            fallbacks=played.fallbacks.get(species, 0),
            thinks=tuple(round(think, 4) for think in record.thinks),
            outputs=tuple(str(path) for path in played.outputs.get(species, [])),
        )

    return GameLine(
        key=game.key,
        pair=game.pair,
        round=game.round,
        map=game.map.label,
        battle_seed=result.seed,
        vampires=side(Kind.VAMPIRES, game.vampires, game.seeds[0]),
        werewolves=side(Kind.WEREWOLVES, game.werewolves, game.seeds[1]),
        winner=result.winner,
        termination=result.termination,
        reason=result.detail,
        plies=result.plies,
        transcript=None if played.transcript is None else str(played.transcript),
        logs=None if logs is None else str(logs),
        seconds=round(seconds, 3),
    )
