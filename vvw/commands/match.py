"""``vvw match``: play bots (built-in names or commands) against each other on a local port."""

import argparse
import contextlib
import json
import shlex
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

import attrs
import trio

from engine import Kind
from engine.mapfile import GameMap
from server.processes import BotProcess, await_exit, start_bot, stop_bot
from server.result import GameResult, PlayerRecord, Termination
from server.settings import Settings
from vvw.bots import bot_command
from vvw.commands.serve import (
    add_settings_arguments,
    map_from,
    os_error_in,
    settings_from,
    tally,
)

HUNG_UP = (Termination.DISCONNECT, Termination.STALL)
"""Endings where the loser's process may have crashed (see :func:`_crashed`)."""


def _crashed(result: GameResult, bots: dict[Kind, BotProcess]) -> GameResult:
    """A DISCONNECT/STALL of a bot whose process exited non-zero becomes a CRASH."""
    if result.termination not in HUNG_UP:
        return result
    for species, bot in bots.items():
        if species != result.winner and bot.crashed:
            detail = f"{bot.label} exited with code {bot.exit_code}: {bot.stderr_tail()}"
            return attrs.evolve(result, termination=Termination.CRASH, detail=detail)
    return result


def _stall(species: Kind, label: str, settings: Settings, map_name: str) -> GameResult:
    other = Kind.WEREWOLVES if species == Kind.VAMPIRES else Kind.VAMPIRES
    return GameResult(
        winner=other,
        termination=Termination.STALL,
        detail=f"{label} did not connect and send NME within {settings.connect_time:g} s"
        f" (map {map_name})",
        plies=0,
        vampires=PlayerRecord(Kind.VAMPIRES, label if species == Kind.VAMPIRES else "", 0),
        werewolves=PlayerRecord(Kind.WEREWOLVES, label if species == Kind.WEREWOLVES else "", 0),
        map_name=map_name,
    )


async def play_one(
    game_map: GameMap,
    settings: Settings,
    specs: tuple[str, str],
    log_dir: Path,
    transcript_dir: Path | None,
    keep: bool,
    number: int = 1,
) -> GameResult:
    """One game: serve on a free port, start bot 1, once it is seated start bot 2."""
    from server.serving import serve

    seated = {Kind.VAMPIRES: trio.Event(), Kind.WEREWOLVES: trio.Event()}
    bots: dict[Kind, BotProcess] = {}
    results: list[GameResult] = []
    result: GameResult | None = None
    try:
        async with trio.open_nursery() as nursery:

            async def run_server(task_status=trio.TASK_STATUS_IGNORED) -> None:
                results.extend(
                    await serve(
                        game_map,
                        settings,
                        port=0,
                        first_game=number,
                        transcript_dir=transcript_dir,
                        keep_all_transcripts=keep,
                        on_seated=lambda k, _n: seated[k].set(),
                        task_status=task_status,
                    )
                )
                nursery.cancel_scope.cancel()

            port = await nursery.start(run_server)
            for species, spec in zip((Kind.VAMPIRES, Kind.WEREWOLVES), specs, strict=True):
                label = f"{species.name.lower()}-{shlex.split(spec)[0].rsplit('/', 1)[-1]}"
                argv = bot_command(spec, "127.0.0.1", port)
                bots[species] = await start_bot(label, argv, log_dir)
                if not await _seated(seated[species], bots[species], settings.connect_time):
                    nursery.cancel_scope.cancel()
                    result = _stall(species, label, settings, game_map.name)
                    break
    finally:
        ended = result if result is not None else (results[0] if results else None)
        if ended is not None and ended.termination in HUNG_UP:
            for species, bot in bots.items():
                if species != ended.winner:
                    await await_exit(bot)
        for bot in bots.values():
            await stop_bot(bot)
    assert ended is not None  # no exception: a stall was found or the server gave a result
    result = _crashed(ended, bots)
    if not result.termination.is_abnormal:
        _remove_logs(bots.values(), log_dir)
    return result


async def _seated(event: trio.Event, bot: BotProcess, within: float) -> bool:
    """Wait until the bot is seated; ``False`` if it exits or ``within`` seconds pass first."""
    from server.serving import wait_unless  # imported where serve is (see play_one)

    with trio.move_on_after(within):
        await wait_unless(event, bot.process.wait)
    return event.is_set()


def _remove_logs(bots: Iterable[BotProcess], log_dir: Path) -> None:
    """Delete the bots' output files of a game that ended normally (and the empty folder)."""
    for bot in bots:
        bot.stdout_path.unlink(missing_ok=True)
        bot.stderr_path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        log_dir.rmdir()


def _describe(result: GameResult) -> str:
    think = ", ".join(
        f"{p.name} longest think {p.longest_think:.3f} s"
        for p in (result.vampires, result.werewolves)
        if p.longest_think is not None
    )
    counts = f"vampires {result.vampires.creatures}, werewolves {result.werewolves.creatures}"
    return f"{result.summary()} | {counts}" + (f" | {think}" if think else "")


def run(args: argparse.Namespace) -> int:
    game_map = map_from(args)
    if game_map is None:
        return 2
    settings = settings_from(args)
    for spec in (args.bot1, args.bot2):
        try:
            bot_command(spec, "127.0.0.1", 0)
        except ValueError as error:  # empty, or shlex's "No closing quotation"
            print(f"vvw match: bot command {spec!r}: {error}", file=sys.stderr)
            return 2
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    run_dir = Path("runs") / f"match-{stamp}"
    results: list[GameResult] = []

    async def main() -> None:
        for number in range(1, args.games + 1):
            specs = (args.bot1, args.bot2) if number % 2 else (args.bot2, args.bot1)
            log_dir = run_dir / f"game{number:03d}"
            result = await play_one(
                game_map, settings, specs, log_dir, args.transcript, args.keep_transcripts, number
            )
            results.append(result)
            print(f"game {number}: {_describe(result)}", flush=True)

    code = 0
    try:
        trio.run(main)
    except KeyboardInterrupt:
        print("vvw match: interrupted", file=sys.stderr)
        code = 130
    except (OSError, BaseExceptionGroup) as error:
        failure = os_error_in(error)  # a bot that cannot start, a port in use
        if failure is None:
            raise
        print(f"vvw match: {failure}", file=sys.stderr)
        return 2
    finally:
        if args.json is not None:
            payload = [attrs.asdict(r, value_serializer=_plain) for r in results]
            Path(args.json).write_text(json.dumps(payload, indent=1))
    print(tally(results))
    return code


def _plain(_instance: object, _field: object, value: object) -> object:
    if isinstance(value, Kind):
        return value.name.lower()
    if isinstance(value, Termination):
        return value.value
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("match", help="play two bots against each other")
    parser.add_argument("bot1", help="built-in name or command ('./mybot {host} {port}')")
    parser.add_argument("bot2")
    parser.add_argument("--json", default=None, metavar="FILE", help="write all results here")
    add_settings_arguments(parser)
    parser.set_defaults(func=run)
