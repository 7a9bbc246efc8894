"""The venue of games played here: a scheduled game in, our server on a port of its own
and the game's two bot processes beside it, the game as played and its results line out
(:class:`vvw.records.results.GameLine`). ``vvw match`` and ``vvw tournament`` play here,
and so does each worker of a cluster (:mod:`vvw.running.cluster`).
"""

import time
from collections.abc import Callable
from pathlib import Path

import attrs

from engine import Kind
from server.events import EventSink
from server.settings import Settings
from vvw.records.results import GameLine, Side
from vvw.running.local_game import Played, play_one
from vvw.running.participants import Participant
from vvw.running.runner import Finished
from vvw.running.schedule import ScheduledGame


def _ignore(done: Finished) -> None:
    """Nobody to tell of a game stopped."""


def _own_folder(game_dir: Path) -> Path | None:
    """A game's transcript in the game's own folder."""
    return game_dir


@attrs.frozen
class Here:
    """Games played here, each on a port of its own, the files of game ``N`` in
    ``games_dir`` / ``folder.format(N)``."""

    settings: Settings
    """The run's settings; each game's battle seed is its own."""
    games_dir: Path
    keep_transcripts: bool = False
    """Every game's transcript kept (else an abnormal game's only)."""
    transcripts: Callable[[Path], Path | None] = _own_folder
    """The folder of a game's transcript, from the game's folder (``None``: none written)."""
    folder: str = "{:05d}"

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None = None,
        on_abort: Callable[[Finished], None] = _ignore,
    ) -> Finished:
        """Play ``game``: its bots' output (and by default its transcript) in its folder."""
        game_dir = self.games_dir / self.folder.format(game.number)
        began = time.monotonic()

        def finished(played: Played) -> Finished:
            logs = game_dir if game_dir.exists() else None
            seconds = time.monotonic() - began
            return Finished(game, played, results_line(game, played, seconds, logs))

        played = await play_one(
            game.map.game_map,
            attrs.evolve(self.settings, seed=game.battle_seed),
            (game.vampires, game.werewolves),
            game_dir,
            seeds=game.seeds,
            transcript_dir=self.transcripts(game_dir),
            keep_transcript=self.keep_transcripts,
            number=game.number,
            events=events,
            on_abort=lambda played: on_abort(finished(played)),
        )
        return finished(played)


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
