"""One game played here: our server on a port of its own, and its two sides brought to it.

:func:`play_one` serves one game on a free port, brings the vampires to the board, waits
until they are seated, brings the werewolves, and returns the result with the
participants' names in it, whatever the bots call themselves. A side is a
:class:`~vvw.running.participants.Participant` (a bot process: built-in or a command) or
a :class:`Person`, a participant whose agent is the page (``vvw play``): a protocol client
in this process. Nothing here prints or schedules: the runner's venue of games played
here (:mod:`vvw.running.playing`: ``vvw match``, ``vvw tournament``, a cluster worker) and
``vvw play``'s (:mod:`vvw.running.human`) call it, and its observers hear the game: ``events``
(the server's events, the transcript's lines: the terminal, the live view) and
``on_abort`` (a game stopped by Ctrl-C). A bot that cannot start, exits, sends garbage or
stays silent before its NME loses the game with that reason; cancelling the call (Ctrl-C)
ends both bots before returning.

What it waits on arrives on one channel: the server's events (:mod:`server.events`) and
its own, :class:`Exited` (a bot's process ended). How a bot dropped before the game loses
is its :class:`~server.events.DropReason`'s, never its message's wording.
"""

import math
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import trio

from agents.base import Agent
from agents.client import play_on
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
from server.processes import BotProcess, await_exit
from server.referee import play_game
from server.serving import Transcripts, serve
from server.settings import Settings
from vvw.running.gamebots import GameBots, when
from vvw.running.participants import Participant

SIDES = (Kind.VAMPIRES, Kind.WEREWOLVES)


@attrs.frozen
class Person:
    """A person at the board: a side played in this process by the bots' own client
    (:func:`agents.client.play_on`) whose agent is the page (see :mod:`vvw.running.human`)."""

    agent: Agent
    time_budget: float
    """Seconds the person may think a ply (the client's own ply comes after)."""

    @property
    def name(self) -> str:
        return self.agent.name

    async def play(self, port: int) -> None:
        """The person's side of the game served on ``port``."""
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            await play_on(stream, self.agent, time_budget=self.time_budget, games=1)


Player = Participant | Person


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
    began: bool = True
    """``False``: a side lost before the game began (could not start, exited, silent…)."""


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


async def play_one(
    game_map: GameMap,
    settings: Settings,
    players: tuple[Player, Player],
    game_dir: Path,
    *,
    seeds: tuple[int | None, int | None] = (None, None),
    bot_time: float | None = None,
    transcript_dir: Path | None = None,
    keep_transcript: bool = False,
    number: int = 1,
    events: EventSink | None = None,
    on_abort: Callable[[Played], None] | None = None,
) -> Played:
    """One game: ``players[0]`` plays the vampires, ``players[1]`` the werewolves.

    The bots' output goes to ``game_dir`` (files left empty are removed, and the folder
    if nothing is left in it); ``seeds`` are the bots' own (built-in bots get
    ``--seed``, commands their ``{seed}``); a built-in bot thinks ``bot_time`` seconds a
    ply (default: the move time). ``events`` hears the server's events, its transcript's
    lines included (the live view). Cancelled mid-game (Ctrl-C), the game ends as aborted
    (END/BYE said, bots ended), ``on_abort`` is given it, and the cancellation goes on.
    """
    names = {species: player.name for species, player in zip(SIDES, players, strict=True)}
    transcripts = Transcripts(transcript_dir, keep_all=keep_transcript, lines=events is not None)
    game = _Game(game_map, settings, players, seeds, bot_time, number, transcripts)
    send, receive = trio.open_memory_channel[_Event](math.inf)
    bots = GameBots(game_dir)
    try:
        async with bots:
            ended, began = await game.play(bots, send, receive, events)
            await bots.await_loser(ended.result)
    except BaseException:
        aborted = aborted_in(receive)
        if aborted is not None and on_abort is not None:
            result = _named(aborted.result, names)
            on_abort(Played(result, bots.outputs, aborted.transcript, bots.fallbacks))
        raise
    result = _named(bots.crashed(ended.result), names)
    return Played(result, bots.outputs, ended.transcript, bots.fallbacks, began)


@attrs.frozen
class _Game:
    """One game to play: the server's side and the players."""

    game_map: GameMap
    settings: Settings
    players: tuple[Player, Player]
    seeds: tuple[int | None, int | None]
    bot_time: float | None
    number: int
    transcripts: Transcripts

    async def play(
        self,
        bots: GameBots,
        send: trio.MemorySendChannel[_Event],
        receive: trio.MemoryReceiveChannel[_Event],
        events: EventSink | None,
    ) -> tuple[GameEnded, bool]:
        """Serve the game, bring and seat the players in turn: how it ended, or how a side
        lost before it began; and whether it began."""
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
                ended = await _until_ended(receive, bots, to_forfeit)
            else:
                ended = GameEnded(self.number, self._lost(lost))
            nursery.cancel_scope.cancel()
        return ended, lost is None

    async def _seat_both(
        self,
        nursery: trio.Nursery,
        port: int,
        bots: GameBots,
        send: trio.MemorySendChannel[_Event],
        receive: trio.MemoryReceiveChannel[_Event],
    ) -> _Lost | None:
        """Bring each player in turn and wait until it is seated; how a side lost, if one did."""
        for species, player, seed in zip(SIDES, self.players, self.seeds, strict=True):
            if isinstance(player, Person):
                nursery.start_soon(player.play, port)
            else:
                move_time = self.settings.move_time if self.bot_time is None else self.bot_time
                argv = player.argv("127.0.0.1", port, seed, move_time)
                try:
                    bot = await bots.start(species, player.name, argv, player.folder)
                except OSError as error:
                    return _Lost(species, Termination.CRASH, str(error))
                nursery.start_soon(_report_exit, species, bot, send)
            lost = await _until_seated(species, bots, receive, self.settings)
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
    bots: GameBots,
    receive: trio.MemoryReceiveChannel[_Event],
    settings: Settings,
) -> _Lost | None:
    """Wait until the player of ``species`` is seated; else how a side lost meanwhile:
    this player dropped or silent, either bot exited, or the seated one left its seat."""
    with trio.move_on_after(settings.connect_time):
        while True:
            match await receive.receive():
                case Seated(species=seated) if seated == species:
                    return None
                case Dropped() as dropped:
                    return await _dropped(species, bots, dropped)
                case Unseated(species=left, detail=detail):
                    how = f"{bots.label(left)} left its seat before the game began: {detail}"
                    return _Lost(left, Termination.DISCONNECT, how)
                case Exited(species=gone, code=code):
                    bot = bots.running[gone]
                    moment = (
                        "before its NME"
                        if gone == species
                        else "once seated, before the game began"
                    )
                    how = f"{bot.label} exited with code {code} {moment}{when(bot)}"
                    return _Lost(gone, Termination.CRASH, f"{how}: {bot.stderr_tail()}")
    return _Lost(
        species,
        Termination.STALL,
        f"{bots.label(species)} did not connect and send NME within {settings.connect_time:g} s",
    )


async def _dropped(species: Kind, bots: GameBots, dropped: Dropped) -> _Lost:
    """How the player of ``species`` loses when the server dropped it before its NME."""
    bot = bots.running.get(species)
    if bot is not None:
        await await_exit(bot)  # a hang-up is often a crash: let its exit code tell
        if bot.crashed:
            how = f"{bot.label} exited with code {bot.exit_code} before its NME{when(bot)}"
            return _Lost(species, Termination.CRASH, f"{how}: {bot.stderr_tail()}")
    how = f"{bots.label(species)} was dropped before the game: {dropped.detail}"
    return _Lost(species, dropped.reason.termination, how)


async def _until_ended(
    receive: trio.MemoryReceiveChannel[_Event],
    bots: GameBots,
    to_forfeit: trio.MemorySendChannel[tuple[Kind, str]],
) -> GameEnded:
    """The game's end; meanwhile a bot whose process exits has its part ended by the
    server (whoever still holds its connection: a child it started)."""
    while True:
        event = await receive.receive()
        if isinstance(event, GameEnded):
            return event
        if isinstance(event, Exited):
            bot = bots.running.get(event.species)
            how = f"its process exited with code {event.code}{when(bot)}"
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


def _named(result: GameResult, names: dict[Kind, str]) -> GameResult:
    """The result with each side's participant name instead of the name it sent."""
    return attrs.evolve(
        result,
        vampires=attrs.evolve(result.vampires, name=names[Kind.VAMPIRES]),
        werewolves=attrs.evolve(result.werewolves, name=names[Kind.WEREWOLVES]),
    )
