"""A match played: its games (:func:`~vvw.running.schedule.match_schedule`) one after the
other on the one runner (:mod:`vvw.running.runner`), here, each on a port of its own. What
is shown and kept of it are outputs: a line per game and the running score
(:class:`MatchLines`), ``--json`` rewritten after every game (:class:`MatchJson`), the live
line in a terminal (:class:`~vvw.running.terminal.GameProgress`), the live view. A game
stopped by Ctrl-C is listed, written, never counted.
"""

import json
import sys
from pathlib import Path

import attrs

from protocol.printable import printable
from server.settings import Settings
from vvw.ports import Listening
from vvw.records.game import finished_game, match_entry
from vvw.records.scores import Scores
from vvw.records.stats import Thinks, wdl_estimate
from vvw.running.local_game import Played
from vvw.running.outputs import LiveView
from vvw.running.participants import Participant
from vvw.running.playing import Here
from vvw.running.runner import Finished, Output, run_games
from vvw.running.schedule import Planned, ScheduledGame
from vvw.running.terminal import GameProgress
from vvw.runs import TranscriptFolder
from vvw.web.live import LiveHub, showing
from vvw.wording import plural

Pair = tuple[Participant, Participant]
"""The two players of a match, in the order given."""


def describe(played: Played) -> str:
    """One line: the winner by name and side, how, the creatures left, each side's think
    times, the turns skipped (no reply in time), the plies that were its client library's
    fallbacks (not its own), where its transcript is."""
    result = played.result
    think = ", ".join(
        f"{p.name} thinks {summary.mean:.3f} s mean, {summary.longest:.3f} s longest"
        for p in (result.vampires, result.werewolves)
        if (summary := Thinks.of(p.thinks)) is not None
    )
    counts = f"vampires {result.vampires.creatures}, werewolves {result.werewolves.creatures}"
    skipped = ", ".join(
        f"{p.name} {p.skipped_turns}"
        for p in (result.vampires, result.werewolves)
        if p.skipped_turns
    )
    fallbacks = ", ".join(
        f"{p.name} {played.fallbacks[p.species]} of {len(p.thinks)}"
        for p in (result.vampires, result.werewolves)
        if played.fallbacks.get(p.species)
    )
    return (
        f"{printable(result.summary())} | {counts}"
        + (f" | {think}" if think else "")
        + (f" | skipped turns: {skipped}" if skipped else "")
        + (f" | fallback plies (not the bot's own): {fallbacks}" if fallbacks else "")
        + (f" | transcript {played.transcript}" if played.transcript is not None else "")
    )


def running_score(players: Pair, played: list[Played], games: int) -> str:
    """``score of greedy vs random: 3-1-0 (W-D-L), 87.5%, Elo +338.2 ± 400.0, 4 games
    left``: after each game, as the chess match runners show it (aborted games not counted)."""
    first, second = (player.name for player in players)
    scores = Scores.of(game.result for game in played)
    wins, draws, losses = scores.wins.get(first, 0), scores.draws, scores.wins.get(second, 0)
    estimate = wdl_estimate(wins, draws, losses)
    share = f"{estimate.score:.1%}" if scores.finished else "-"
    return (
        f"score of {printable(first)} vs {printable(second)}: {wins}-{draws}-{losses} (W-D-L),"
        f" {share}, Elo {estimate.format()}, {plural(games - len(played), 'game')} left"
    )


class MatchLines(Output):
    """A line per game as it ends (or is stopped), then the running score (not after a
    stopped game: no more games); the games played, in order."""

    def __init__(self, players: Pair, games: int, kept: TranscriptFolder) -> None:
        self.players = players
        self.games = games
        self.kept = kept
        self.played: list[Played] = []

    def game_finished(self, done: Finished) -> None:
        self._record(done, scored=True)

    def game_stopped(self, done: Finished) -> None:
        self._record(done, scored=False)

    def _record(self, done: Finished, scored: bool) -> None:
        """The game said (and the score, if it counts), its transcript kept (the oldest
        deleted past the budget)."""
        self.played.append(done.played)
        game = done.game
        print(f"game {game.number} on {game.map.label}: {describe(done.played)}", flush=True)
        if scored:
            print(running_score(self.players, self.played, self.games), flush=True)
        note = self.kept.kept(done.played.transcript)
        if note is not None:
            print(f"vvw match: {note}", file=sys.stderr, flush=True)


def write_json(path: Path, played: list[Played]) -> None:
    """All results so far, replacing the file in one step (never half written)."""
    payload = [
        match_entry(finished_game(p.result, str(number), p.outputs, p.fallbacks, p.transcript))
        for number, p in enumerate(played, 1)
    ]
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(payload, indent=1))
    partial.replace(path)


class MatchJson(Output):
    """``--json``: every game so far (a stopped one too), rewritten after each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.played: list[Played] = []

    def game_finished(self, done: Finished) -> None:
        self.played.append(done.played)
        write_json(self.path, self.played)

    def game_stopped(self, done: Finished) -> None:
        self.game_finished(done)


@attrs.define
class Match:
    """A match to play: its games, where their files go, what shows them."""

    players: Pair
    games: list[ScheduledGame]
    settings: Settings
    run_dir: Path
    """The bots' output: ``game001/`` … inside."""
    kept: TranscriptFolder
    json: Path | None = None
    hub: LiveHub | None = None
    lines: MatchLines = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.lines = MatchLines(self.players, len(self.games), self.kept)

    @property
    def played(self) -> list[Played]:
        """The games played so far, in order (a stopped one too)."""
        return self.lines.played

    async def play(self, view: Listening, progress: GameProgress) -> None:
        """Every game in turn, shown as it goes (in a terminal, on the live view at
        ``view``) and recorded; stopped (Ctrl-C), the game ends as aborted, and is recorded."""
        venue = Here(
            self.settings,
            self.run_dir,
            keep_transcripts=True,
            transcripts=lambda _: self.kept.folder,
            folder="game{:03d}",
        )
        outputs: list[Output] = [progress]
        if self.hub is not None:
            outputs.append(LiveView(self.hub))
        outputs.append(self.lines)
        if self.json is not None:
            outputs.append(MatchJson(self.json))
        async with showing(self.hub, view, lambda at: print(f"live view on {at}", flush=True)):
            await run_games(Planned(self.games), venue, outputs)
