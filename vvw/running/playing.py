"""A scheduled game played: one :class:`~vvw.running.schedule.ScheduledGame` in, one
results line out (:class:`vvw.records.results.GameLine`): the unit a scheduler runs, a local pool
of tasks (``vvw tournament``) or a cluster worker (:mod:`vvw.running.cluster`).
"""

import time
from pathlib import Path

import attrs

from engine import Kind
from server.events import EventSink
from server.settings import Settings
from vvw.records.results import GameLine, Side
from vvw.running.participants import Participant
from vvw.running.runner import Played, play_one
from vvw.running.schedule import ScheduledGame


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
