"""``vvw play``'s game: a person at a web page against a bot, a schedule of one game
(:func:`~vvw.running.schedule.play_schedule`) on the one runner (:mod:`vvw.running.runner`).

Its venue is :class:`AtThePage`: the game begins when the page opens, the person's side
a protocol client whose agent is the page (:mod:`vvw.running.human`), the bot a process.
Its outputs: the results file (one that ``vvw tournament report`` reads), the live view
the page is, and the game kept for the end's words. :class:`PersonGame` serves the page
and plays.
"""

import secrets
import shlex
import sys
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path

import attrs

from engine import Kind
from server.events import EventSink
from server.settings import Settings
from vvw.errors import UsageError
from vvw.game_arguments import settings_record
from vvw.paths import make_folder
from vvw.ports import Listening
from vvw.records.results import Header, ResultsWriter
from vvw.running.human import PageAgent, Seat, play_handler, play_person
from vvw.running.local_game import Played
from vvw.running.outputs import LiveView, ResultsFile
from vvw.running.participants import Participant
from vvw.running.playing import results_line
from vvw.running.runner import Finished, Output, run_games
from vvw.running.schedule import Planned, ScheduledGame
from vvw.runs import new_run_dir
from vvw.web.live import LiveHub, live_view, view_handler
from vvw.wording import plies

PERSON = "a person at the page (vvw play)"
"""What plays a person's side, as the results file records each participant's command."""
METHODS = ("GET", "HEAD", "POST")
"""The page sends its moves (POST /move)."""


def you(name: str) -> str:
    """The person, as the terminal speaks to them: ``you``, or ``you (NAME)``."""
    return "you" if name == "you" else f"you ({name})"


def wins(name: str) -> str:
    """``you win`` (the person's default name), ``greedy wins``."""
    return "you win" if name == "you" else f"{name} wins"


def places(path: Path | None) -> tuple[Path, Path]:
    """The results file and the game's folder (its transcript): ``--results F`` and
    ``F-game`` beside it, as ``vvw tournament`` keeps ``F-games``; by default both in a new
    ``runs/play-STAMP``."""
    if path is None:
        run_dir = new_run_dir("play")
        return run_dir / "results.jsonl", run_dir / "game"
    if path.exists():
        raise UsageError(f"--results {path} exists: name a new file")
    make_folder(path.parent)  # a folder named for the results is made
    return path, path.parent / f"{path.stem}-game"


def results_file(path: Path, game: ScheduledGame, settings: Settings, seed: int) -> ResultsWriter:
    """The results file's writer, its header said."""
    header = Header(
        participants=[(p.name, p.spec) for p in (game.vampires, game.werewolves)],
        format="play",
        maps=[game.map.label],
        rounds=1,
        seed=seed,
        games=1,
        settings=settings_record(settings),
        command=shlex.join(["vvw", *sys.argv[1:]]),
    )
    return ResultsWriter(path, header)


def _ignore(done: Finished) -> None:
    """Nobody to tell of a game stopped."""


@attrs.frozen
class AtThePage:
    """The venue of a person's game: played here once the page is open, the person at
    ``agent``'s seat thinking up to ``person_time`` a ply, a built-in bot ``bot_time``."""

    agent: PageAgent
    settings: Settings
    game_dir: Path
    person_time: float
    bot_time: float

    async def play(
        self,
        game: ScheduledGame,
        events: EventSink | None = None,
        on_abort: Callable[[Finished], None] = _ignore,
    ) -> Finished:
        """Wait for the page, then play (:func:`~vvw.running.human.play_person`)."""
        await self.agent.seat.hub.watched.wait()
        began = time.monotonic()

        def finished(played: Played) -> Finished:
            return Finished(
                game, played, results_line(game, played, time.monotonic() - began, None)
            )

        bot_side = 1 if self.agent.seat.side == Kind.VAMPIRES else 0
        played = await play_person(
            game.map.game_map,
            attrs.evolve(self.settings, seed=game.battle_seed),
            self.agent,
            (game.vampires, game.werewolves)[bot_side],
            self.game_dir,
            person_time=self.person_time,
            bot_time=self.bot_time,
            bot_seed=game.seeds[bot_side],
            events=events,
            on_abort=lambda played: on_abort(finished(played)),
        )
        return finished(played)


class Kept(Output):
    """The game, once played or stopped, for the end's words."""

    def __init__(self) -> None:
        self.played: list[Played] = []
        self.aborted: list[Played] = []

    def game_finished(self, done: Finished) -> None:
        self.played.append(done.played)

    def game_stopped(self, done: Finished) -> None:
        self.aborted.append(done.played)


@attrs.define
class PersonGame:
    """The person's game: the page served, the game played when it opens."""

    name: str
    """The person's."""
    side: Kind
    bot: Participant
    game: ScheduledGame
    venue: AtThePage
    open_page: bool
    hub: LiveHub
    kept: Kept = attrs.Factory(Kept)

    @classmethod
    def make(
        cls,
        game: ScheduledGame,
        side: Kind,
        settings: Settings,
        game_dir: Path,
        *,
        name: str,
        open_page: bool,
        person_time: float,
        bot_time: float,
    ) -> "PersonGame":
        """The game of the person called ``name`` playing ``side`` in ``game``: its page's
        live view (opened in the browser if ``open_page``), its seat, its venue."""
        hub = LiveHub()
        agent = PageAgent(name, Seat(hub, side))
        venue = AtThePage(agent, settings, game_dir, person_time, bot_time)
        bot = game.werewolves if side == Kind.VAMPIRES else game.vampires
        return cls(name, side, bot, game, venue, open_page, hub)

    @property
    def seat(self) -> Seat:
        return self.venue.agent.seat

    def announce(self, address: str) -> None:
        print(
            f"vvw play: {you(self.name)} play the {self.side.name.lower()} against"
            f" {self.bot.name} on {self.game.map.label}: {address}",
            flush=True,
        )
        if self.open_page:
            webbrowser.open(address)

    async def play(self, place: Listening, writer: ResultsWriter) -> None:
        """Serve the page at ``place``; play the game once it opens, recorded by ``writer``."""
        token = secrets.token_urlsafe(18)
        page = {"play": {"side": self.side.name.lower(), "token": token, "name": self.name}}
        handler = play_handler(self.seat, token, view_handler(self.hub, page, ("play.html",)))
        async with live_view(self.hub, place, self.announce, handler=handler, methods=METHODS):
            print("vvw play: the game starts when the page is open", flush=True)
            view = LiveView(self.hub, lambda game: game.map.label)
            outputs = [view, self.kept, ResultsFile(writer)]
            await run_games(Planned([self.game]), self.venue, outputs)

    def end(self, path: Path) -> str:
        """Who won, how, the plies played for the person, where the game is kept."""
        [done] = self.kept.played
        result, game = done.result, self.game
        winner = (
            "a draw"
            if result.winner is None
            else wins((game.vampires if result.winner == Kind.VAMPIRES else game.werewolves).name)
        )
        lines = [f"{winner} by {result.termination.value} after {plies(result.plies)}"]
        if self.seat.late:
            lines.append(f"{plies(self.seat.late)} played for you (the move clock ran out)")
        replay = f"; its replay: vvw replay {done.transcript}" if done.transcript else ""
        lines.append(f"recorded in {path}{replay}")
        return "\n".join(lines)

    def stopped(self) -> str:
        """What a stop signal left: the game aborted and where its transcript is, or none."""
        if self.kept.played:
            return ""
        if not self.kept.aborted:
            return "before the game began (no game recorded)"
        [game] = self.kept.aborted
        kept = f"; its transcript: {game.transcript}" if game.transcript is not None else ""
        return f"(the game aborted after {plies(game.result.plies)}, not recorded{kept})"
