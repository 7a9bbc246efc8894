"""``vvw play BOT --map MAP``: a person plays a bot from a web page, over our server.

The page is the game's live view with a side to play (``vvw/web/play.html``): click a
group, a target cell, a count; as many moves as the ply takes; send. The person's side is
a protocol client like a bot's (:mod:`vvw.running.human`); the game is played by our server, and
kept and recorded as any other: its transcript, and a results file that ``vvw tournament
report`` reads.
"""

import argparse
import logging
import secrets
import shlex
import sys
import time
import webbrowser
from functools import partial
from pathlib import Path

import attrs

from engine import Kind, OnTimeout, Rules
from engine.rules import Variant
from server.settings import Settings
from vvw import signals
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import add_battle_arguments, settings_record, split_maps_and_bots
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.paths import make_folder
from vvw.ports import Listening, check_free
from vvw.records.results import Header, ResultsWriter
from vvw.running.bots import time_budget
from vvw.running.human import PageAgent, Seat, play_handler, play_person
from vvw.running.local_game import Played
from vvw.running.participants import Participant, check_startable, parsed, understood
from vvw.running.playing import results_line
from vvw.running.schedule import ScheduledGame, play_schedule
from vvw.running.seeds import derive, fresh_seed
from vvw.runs import new_run_dir
from vvw.web.live import LiveHub, live_view, view_handler
from vvw.wording import plies

PERSON = "a person at the page (vvw play)"
"""What plays a person's side, as the results file records each participant's command."""
METHODS = ("GET", "HEAD", "POST")
"""The page sends its moves (POST /move)."""


def _bot(words: list[str], person: str) -> Participant:
    """The one bot of ``words``, able to start, not named as the person is."""
    players = parsed(words)
    if len(players) != 1:
        raise UsageError(f"one bot plays you, got {len(players)}: {understood(players)}")
    check_startable(players)
    [bot] = players
    if bot.name == person:
        raise UsageError(f"you and the bot are both called {person!r}: give --name another")
    return bot


def _map(words: list[str]) -> MapChoice:
    try:
        choices = resolve_maps(words)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if len(choices) != 1:
        raise UsageError(f"one map only, got {len(choices)}: {' '.join(words)}")
    return choices[0]


def _places(path: Path | None) -> tuple[Path, Path]:
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


def _you(name: str) -> str:
    """The person, as the terminal speaks to them: ``you``, or ``you (NAME)``."""
    return "you" if name == "you" else f"you ({name})"


def _wins(name: str) -> str:
    """``you win`` (the person's default name), ``greedy wins``."""
    return "you win" if name == "you" else f"{name} wins"


def _settings(args: argparse.Namespace, seed: int) -> Settings:
    """The game's settings: the person's clock is the server's move clock."""
    return Settings(
        rules=Rules(variant=Variant(args.variant), max_plies=args.ply_limit),
        move_time=args.move_time,
        on_timeout=OnTimeout.SKIP,
        game_time=args.game_time,
        seed=derive(seed, "battle", 1),
    )


def _results(
    args: argparse.Namespace, game: ScheduledGame, settings: Settings, seed: int
) -> tuple[ResultsWriter, Path]:
    """The results file's writer (its header said) and the game's folder."""
    path, game_dir = _places(args.results)
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
    return ResultsWriter(path, header), game_dir


def run(args: argparse.Namespace) -> int:
    # A ply played for the person when the clock runs out is said on the page and at the
    # end, not as the bots' client's warning.
    logging.getLogger("agents.client").setLevel(logging.ERROR)
    map_words, bot_words = split_maps_and_bots(args.map, args.bot)  # --map thetrap greedy
    if not bot_words:
        raise UsageError("no bot to play against: vvw play BOT --map MAP")
    choice = _map(map_words)
    bot = _bot(bot_words, args.name)
    place = Listening(args.host, args.port, "the page (--port)")
    check_free([place])
    seed = args.seed if args.seed is not None else fresh_seed()
    side = Kind[args.side.upper()]
    person = Participant(args.name, PERSON)
    pair = (person, bot) if side == Kind.VAMPIRES else (bot, person)
    [game] = play_schedule(*pair, choice, seed)
    settings = _settings(args, seed)
    writer, game_dir = _results(args, game, settings, seed)
    board = _Board(args, side, bot, game, settings, game_dir)
    try:
        signum = signals.run(partial(board.main, place, writer))
    finally:
        writer.close()
    if signum is not None:
        raise Stopped(signum, _stopped(board.played, board.aborted))
    _print_end(game, board, writer.path)
    return 0


@attrs.define
class _Board:
    """The person's game: the page served, the game played when it opens."""

    args: argparse.Namespace
    side: Kind
    bot: Participant
    game: ScheduledGame
    settings: Settings
    game_dir: Path
    hub: LiveHub = attrs.Factory(LiveHub)
    seat: Seat = attrs.field(init=False)
    played: list[Played] = attrs.Factory(list)
    aborted: list[Played] = attrs.Factory(list)

    def __attrs_post_init__(self) -> None:
        self.seat = Seat(self.hub, self.side)

    def announce(self, address: str) -> None:
        print(
            f"vvw play: {_you(self.args.name)} play the {self.side.name.lower()} against"
            f" {self.bot.name} on {self.game.map.label}: {address}",
            flush=True,
        )
        if self.args.open:
            webbrowser.open(address)

    async def main(self, place: Listening, writer: ResultsWriter) -> None:
        token = secrets.token_urlsafe(18)
        page = {"play": {"side": self.side.name.lower(), "token": token, "name": self.args.name}}
        handler = play_handler(self.seat, token, view_handler(self.hub, page, ("play.html",)))
        async with live_view(self.hub, place, self.announce, handler=handler, methods=METHODS):
            print("vvw play: the game starts when the page is open", flush=True)
            await self.hub.watched.wait()
            began = time.monotonic()
            game = self.game
            names = {"vampires": game.vampires.name, "werewolves": game.werewolves.name}
            played = await play_person(
                game.map.game_map,
                self.settings,
                PageAgent(self.args.name, self.seat),
                self.bot,
                self.game_dir,
                person_time=time_budget(self.args.move_time),
                bot_time=self.args.bot_time,
                bot_seed=game.seeds[0 if self.side == Kind.WEREWOLVES else 1],
                events=self.hub.listener(f"{game.map.label}", names),
                on_abort=self.aborted.append,
            )
            self.played.append(played)
            writer.add(results_line(game, played, time.monotonic() - began, None))


def _print_end(game: ScheduledGame, board: _Board, path: Path) -> None:
    """Who won, how, the plies played for the person, where the game is kept."""
    [done] = board.played
    result = done.result
    winner = (
        "a draw"
        if result.winner is None
        else _wins((game.vampires if result.winner == Kind.VAMPIRES else game.werewolves).name)
    )
    print(f"{winner} by {result.termination.value} after {plies(result.plies)}", flush=True)
    if board.seat.late:
        print(f"{plies(board.seat.late)} played for you (the move clock ran out)", flush=True)
    replay = f"; its replay: vvw replay {done.transcript}" if done.transcript else ""
    print(f"recorded in {path}{replay}", flush=True)


def _stopped(played: list[Played], aborted: list[Played]) -> str:
    """What a stop signal left: the game aborted and where its transcript is, or none."""
    if played:
        return ""
    if not aborted:
        return "before the game began (no game recorded)"
    [game] = aborted
    kept = f"; its transcript: {game.transcript}" if game.transcript is not None else ""
    return f"(the game aborted after {plies(game.result.plies)}, not recorded{kept})"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a bot yourself, in the browser",
        description="Play against a bot (built-in or your own command) on a web page: click"
        " one of your groups, then a cell next to it (the count box says how many go), as"
        " many moves as you like, then send. Each move is checked by the rules engine as you"
        " add it. The game is played by our server over the real protocol; its transcript"
        " and result are kept like any other game's.",
        epilog="example: vvw play greedy --map thetrap --as werewolves",
    )
    parser.add_argument(
        "bot",
        nargs="*",
        metavar="BOT",
        help="a built-in name with options ('alphabeta --depth 4') or a command"
        " ('./mybot {host} {port}'), optionally after name=NAME",
    )
    parser.add_argument(
        "--map", nargs="+", required=True, metavar="MAP", help="map file or bundled name"
    )
    parser.add_argument(
        "--as",
        dest="side",
        choices=["vampires", "werewolves"],
        default="vampires",
        help="your side (default vampires: you move first)",
    )
    parser.add_argument("--name", default="you", help="your name in the results (default you)")
    parser.add_argument(
        "--move-time",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds per ply, yours and the server's limit (default 60); late, a legal ply"
        " is played for you",
    )
    parser.add_argument(
        "--bot-time",
        type=positive_float,
        default=2.0,
        metavar="S",
        help="seconds a built-in bot thinks per ply (default 2, as on the course's server)",
    )
    parser.add_argument(
        "--ply-limit", type=positive_int, default=200, help="plies per game (default 200)"
    )
    parser.add_argument(
        "--game-time",
        type=positive_float,
        default=3600.0,
        metavar="S",
        help="seconds per game (default 3600)",
    )
    add_battle_arguments(parser)
    _add_place_arguments(parser)
    parser.set_defaults(func=run)


def _add_place_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the game is kept and where its page is served."""
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="FILE",
        help="results file (default runs/play-STAMP/results.jsonl); the game's transcript"
        " goes in a folder beside it (me.jsonl: me-game/)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address of the page (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=5580,
        help="port of the page (default 5580; 0: any free one)",
    )
    parser.add_argument(
        "--no-open",
        dest="open",
        action="store_false",
        help="do not open the page in the web browser",
    )
