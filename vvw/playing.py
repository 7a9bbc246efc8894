"""Play one game between two bot processes on a port of its own: the unit of every match.

:func:`play_one` serves one game on a free port, starts the vampires' bot, waits until it
is seated, starts the werewolves', and returns the result with the participants' names in
it, whatever the bots call themselves. Nothing here prints or schedules: ``vvw match`` and
``vvw tournament`` (and later a cluster worker) call it and decide what to do with the
result. A bot that cannot start, exits, sends garbage or stays silent before its NME loses
the game with that reason; cancelling the call (Ctrl-C) ends both bots before returning.
"""

import contextlib
import re
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from engine.mapfile import GameMap
from server.processes import BotProcess, await_exit, start_bot, stop_bot
from server.serving import GameWatcher, serve
from server.settings import Settings
from vvw.participants import Participant
from vvw.results import GameLine, Side
from vvw.schedule import ScheduledGame

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


def file_stem(species: Kind, name: str) -> str:
    """``vampires-alphabeta_--depth_4``: a side and a name, safe as a file name."""
    return f"{species.name.lower()}-" + re.sub(r"[^A-Za-z0-9_.#-]+", "_", name)[:48]


def _lost(
    loser: Kind,
    names: dict[Kind, str],
    termination: Termination,
    detail: str,
    game_map: GameMap,
    seed: int | None,
) -> GameResult:
    winner = Kind.WEREWOLVES if loser == Kind.VAMPIRES else Kind.VAMPIRES
    return GameResult(
        winner=winner,
        termination=termination,
        detail=detail,
        plies=0,
        vampires=PlayerRecord(Kind.VAMPIRES, names[Kind.VAMPIRES], 0),
        werewolves=PlayerRecord(Kind.WEREWOLVES, names[Kind.WEREWOLVES], 0),
        map_name=game_map.name,
        seed=seed,
    )


def _crashed(result: GameResult, bots: dict[Kind, BotProcess]) -> GameResult:
    """A DISCONNECT/STALL of a bot whose process exited non-zero becomes a CRASH."""
    if result.termination not in HUNG_UP:
        return result
    for species, bot in bots.items():
        if species != result.winner and bot.crashed:
            detail = f"{bot.label} exited with code {bot.exit_code}: {bot.stderr_tail()}"
            return attrs.evolve(result, termination=Termination.CRASH, detail=detail)
    return result


def _named(result: GameResult, names: dict[Kind, str]) -> GameResult:
    """The result with each side's participant name instead of the name it sent."""
    return attrs.evolve(
        result,
        vampires=attrs.evolve(result.vampires, name=names[Kind.VAMPIRES]),
        werewolves=attrs.evolve(result.werewolves, name=names[Kind.WEREWOLVES]),
    )


@attrs.define
class _Drops:
    """The connections the server dropped before their NME, and an event for the next."""

    reasons: list[str] = attrs.field(factory=list)
    event: trio.Event = attrs.field(factory=trio.Event)

    def __call__(self, why: str) -> None:
        self.reasons.append(why)
        self.event.set()


async def _until_seated(
    seated: trio.Event, drops: _Drops, bot: BotProcess, within: float
) -> tuple[Termination, str] | None:
    """Wait until the bot is seated; else how it failed: exited, dropped, or silent."""
    drops.event = trio.Event()
    with trio.move_on_after(within):
        async with trio.open_nursery() as nursery:

            async def exits() -> None:
                await bot.wait()
                nursery.cancel_scope.cancel()

            async def watch_drops() -> None:
                await drops.event.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(exits)
            nursery.start_soon(watch_drops)
            await seated.wait()
            nursery.cancel_scope.cancel()
    if seated.is_set():
        return None
    if drops.event.is_set():
        why = drops.reasons[-1]
        await await_exit(bot)  # a hang-up is often a crash: let its exit code tell
        if bot.crashed:
            return Termination.CRASH, (
                f"{bot.label} exited with code {bot.exit_code} before its NME{_when(bot)}: "
                f"{bot.stderr_tail()}"
            )
        kind = Termination.DISCONNECT if why.startswith("closed") else Termination.PROTOCOL_ERROR
        if why.startswith("no NME"):
            kind = Termination.STALL
        return kind, f"{bot.label} was dropped before the game: {why}"
    if bot.exit_code is not None:
        return Termination.CRASH, (
            f"{bot.label} exited with code {bot.exit_code} before its NME{_when(bot)}:"
            f" {bot.stderr_tail()}"
        )
    return Termination.STALL, f"{bot.label} did not connect and send NME within {within:g} s"


def _when(bot: BotProcess) -> str:
    """``, 0.3 s after it started`` once the bot has exited, else nothing."""
    if bot.exited_at is None:
        return ""
    return f", {bot.exited_at - bot.started_at:.1f} s after it started"


async def _end_on_exit(
    species: Kind,
    bot: BotProcess,
    game_begun: Callable[[], bool],
    forfeits: trio.MemorySendChannel[tuple[Kind, str]],
) -> tuple[Termination, str]:
    """Once the seated bot's process exits: in the game, have the server end its part
    (whoever still holds its connection: a child it started); before the game, how it
    failed, returned to end the game."""
    code = await bot.wait()
    if game_begun():
        forfeits.send_nowait((species, f"its process exited with code {code}{_when(bot)}"))
        await trio.sleep_forever()
    return Termination.CRASH, (
        f"{bot.label} exited with code {code} once seated, before the game began{_when(bot)}:"
        f" {bot.stderr_tail()}"
    )


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
    on_game: GameWatcher | None = None,
    on_abort: Callable[[Played], None] | None = None,
) -> Played:
    """One game: ``players[0]`` plays the vampires, ``players[1]`` the werewolves.

    The bots' output goes to ``game_dir`` (files left empty are removed, and the folder
    if nothing is left in it); ``seeds`` are the bots' own (built-in bots get
    ``--seed``, commands their ``{seed}``). ``on_game`` is :func:`serve`'s: the live view.
    Cancelled mid-game (Ctrl-C), the game ends as aborted (END/BYE said, bots ended),
    ``on_abort`` is given it, and the cancellation goes on.
    """
    names = {species: player.name for species, player in zip(SIDES, players, strict=True)}
    seated = {Kind.VAMPIRES: trio.Event(), Kind.WEREWOLVES: trio.Event()}
    drops = _Drops()
    bots: dict[Kind, BotProcess] = {}
    results: list[GameResult] = []
    failed: GameResult | None = None
    to_forfeit, forfeits = trio.open_memory_channel[tuple[Kind, str]](len(SIDES))
    try:
        async with trio.open_nursery() as nursery:

            async def end_on_exit(species: Kind, bot: BotProcess) -> None:
                nonlocal failed
                termination, detail = await _end_on_exit(
                    species, bot, lambda: all(e.is_set() for e in seated.values()), to_forfeit
                )
                failed = _lost(species, names, termination, detail, game_map, settings.seed)
                nursery.cancel_scope.cancel()

            async def run_server(task_status=trio.TASK_STATUS_IGNORED) -> None:
                await serve(
                    game_map,
                    settings,
                    port=0,
                    first_game=number,
                    transcript_dir=transcript_dir,
                    keep_all_transcripts=keep_transcript,
                    on_result=results.append,  # an aborted game's too
                    on_seated=lambda k, _n: seated[k].set(),
                    on_dropped=drops,
                    forfeits=forfeits,
                    on_game=on_game,
                    task_status=task_status,
                )
                nursery.cancel_scope.cancel()

            port = await nursery.start(run_server)
            for species, player, seed in zip(SIDES, players, seeds, strict=True):
                argv = player.argv("127.0.0.1", port, seed, settings.move_time)
                label = file_stem(species, player.name)
                try:
                    bots[species] = await start_bot(label, argv, game_dir)
                except OSError as error:
                    failed = _lost(
                        species, names, Termination.CRASH, str(error), game_map, settings.seed
                    )
                    nursery.cancel_scope.cancel()
                    break
                why = await _until_seated(
                    seated[species], drops, bots[species], settings.connect_time
                )
                if why is not None:
                    termination, detail = why
                    failed = _lost(
                        species,
                        names,
                        termination,
                        f"{detail} (map {game_map.name})",
                        game_map,
                        settings.seed,
                    )
                    nursery.cancel_scope.cancel()
                    break
                nursery.start_soon(end_on_exit, species, bots[species])
    finally:
        ended = failed if failed is not None else (results[0] if results else None)
        if ended is not None and ended.termination in HUNG_UP:
            for species, bot in bots.items():
                if species != ended.winner:
                    await await_exit(bot)
        for bot in bots.values():
            await stop_bot(bot)
        outputs = _tidy(bots, game_dir)
        transcript = _transcript_in(game_dir) if transcript_dir == game_dir else None
        if ended is not None and ended.termination is Termination.ABORTED and on_abort:
            on_abort(Played(_named(ended, names), outputs, transcript))
    assert ended is not None  # no exception: a failure was found or the server gave a result
    return Played(_named(_crashed(ended, bots), names), outputs, transcript)


def _transcript_in(game_dir: Path) -> Path | None:
    """The transcript the server kept in the game's own folder, if it kept one."""
    return next(iter(sorted(game_dir.glob("*.jsonl"))), None)


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
    on_game: GameWatcher | None = None,
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
        on_game=on_game,
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
        winner=None if result.winner is None else result.winner.name.lower(),
        termination=result.termination.value,
        reason=result.detail,
        plies=result.plies,
        transcript=None if played.transcript is None else str(played.transcript),
        logs=None if logs is None else str(logs),
        seconds=round(seconds, 3),
    )
