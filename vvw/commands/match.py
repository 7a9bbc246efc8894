"""``vvw match``: two bots (built-in names or commands) play games in pairs on local ports.

Games go in pairs with sides swapped, on the same map and the same battle seed; maps are
played in turn, one pair each. ``--seed`` decides the battles and the built-in bots' own
seeds, so the same command plays the same games. Results are per bot, whatever side it
played; ``--json`` is rewritten after every game, so an interrupted match loses nothing.
Each game's transcript is kept (in ``runs/transcripts/``, bounded in size, unless
``--transcript DIR`` or ``--no-transcript``), named with its result; the end says how to
watch the last game again.
"""

import argparse
import json
import os
import shlex
import shutil
import sys
from functools import partial
from pathlib import Path

import attrs

from engine import Termination
from protocol.printable import printable
from server.events import fan_out
from vvw import signals
from vvw.errors import Stopped, UsageError
from vvw.game_arguments import (
    add_settings_arguments,
    add_view_arguments,
    settings_from,
    split_maps_and_bots,
    transcript_folder,
)
from vvw.mapchoice import MapChoice, resolve_maps
from vvw.paths import PathError, make_folder
from vvw.ports import Listening, check_free
from vvw.records.game import finished_game, match_entry
from vvw.records.scores import Scores
from vvw.records.stats import Thinks, wdl_estimate
from vvw.running.botsfile import add_bots_argument, bots_named
from vvw.running.participants import Participant, check_startable, parsed, understood
from vvw.running.progress import GameProgress
from vvw.running.runner import Played, play_one
from vvw.running.schedule import ScheduledGame, match_schedule
from vvw.running.seeds import fresh_seed
from vvw.runs import TranscriptFolder, new_run_dir, remove_if_empty
from vvw.web.live import LiveHub, showing
from vvw.wording import plural

Pair = tuple[Participant, Participant]  # the two players of a match, in the order given


def writable_file(path: Path, force: bool) -> str | None:
    """Why ``path`` cannot take the results (``None`` if it can), checked before playing."""
    if path.exists() and not force:
        return f"{path} exists (use --force to overwrite it)"
    if path.is_dir():
        return f"{path} is a folder"
    try:
        make_folder(path.parent)  # a folder named for the results is made
    except PathError as error:
        return str(error)
    if not os.access(path.parent, os.W_OK):
        return f"folder {path.parent} is not writable"
    return None


def write_json(path: Path, played: list[Played]) -> None:
    """All results so far, replacing the file in one step (never half written)."""
    payload = [
        match_entry(finished_game(p.result, str(number), p.outputs, p.fallbacks, p.transcript))
        for number, p in enumerate(played, 1)
    ]
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(payload, indent=1))
    partial.replace(path)


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


def tally(players: Pair, played: list[Played]) -> str:
    """``4 games: greedy 4 wins, random 0 wins, 0 draws; greedy scores 100.0 %``: the
    games that ended; one stopped before its end (Ctrl-C) is listed apart, not counted."""
    names = [player.name for player in players]
    return Scores.of((game.result for game in played), names).line(scorer=names[0])


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


def table(players: Pair, played: list[Played]) -> str:
    """Each bot's games (W-D-L, score, Elo ± 95 %) and think times (replies, mean, 95th
    percentile, longest), the turns it let pass and its fallback plies, over the whole
    match."""
    scores = Scores.of(game.result for game in played)
    names = [printable(player.name)[:24] for player in players]
    width = max(len(name) for name in names)
    lines = [
        f"{'bot':<{width}}  {'W-D-L':>8} {'score':>6}  {'Elo ± 95 %':>16}"
        f"  {'replies':>7} {'think':>7} {'p95':>7} {'max':>7}  {'skipped':>7} {'fallback':>8}"
    ]
    for player, name, other in zip(players, names, reversed(players), strict=True):
        wins, losses = scores.wins.get(player.name, 0), scores.wins.get(other.name, 0)
        estimate = wdl_estimate(wins, scores.draws, losses)
        mine = [
            (game, side)
            for game in played
            for side in (game.result.vampires, game.result.werewolves)
            if side.name == player.name
        ]
        sides = [side for _, side in mine]
        fallbacks = sum(game.fallbacks.get(side.species, 0) for game, side in mine)
        thinks = Thinks.of([think for side in sides for think in side.thinks])
        times = (
            [f"{x:.3f}s" for x in (thinks.mean, thinks.p95, thinks.longest)]
            if thinks
            else ["-"] * 3
        )
        wdl = f"{wins}-{scores.draws}-{losses}"
        share = f"{estimate.score:.1%}" if scores.finished else "-"
        lines.append(
            f"{name:<{width}}  {wdl:>8} {share:>6}  {estimate.format():>16}"
            f"  {thinks.replies if thinks else 0:>7} {times[0]:>7} {times[1]:>7} {times[2]:>7}"
            f"  {sum(side.skipped_turns for side in sides):>7} {fallbacks:>8}"
        )
    return "\n".join(lines)


def abnormal(played: list[Played]) -> list[str]:
    """One line per game that did not end by the board or the clock, with the files it
    left: the bots' output, its transcript."""
    lines = []
    for number, game in enumerate(played, 1):
        if game.result.termination.is_abnormal:
            files = [str(f) for side in game.outputs.values() for f in side]
            files += [str(game.transcript)] if game.transcript is not None else []
            where = ", ".join(files) if files else "no file kept (the bots printed nothing)"
            lines.append(f"  game {number}: {game.result.termination.value}: {where}")
    return lines


def fallback_warnings(players: Pair, played: list[Played]) -> list[str]:
    """A line for each bot some of whose plies were its client library's fallbacks: a
    random legal ply sent for it, because it was late, failed or chose an illegal ply."""
    lines = []
    for player in players:
        counts = [
            (game.fallbacks.get(side.species, 0), len(side.thinks))
            for game in played
            for side in (game.result.vampires, game.result.werewolves)
            if side.name == player.name
        ]
        fallbacks, replies = sum(n for n, _ in counts), sum(r for _, r in counts)
        if fallbacks:
            lines.append(
                f"warning: {fallbacks} of {printable(player.name)}'s {replies} plies were not its"
                " own: its client library sent a random legal ply instead, as the bot was late,"
                " failed or chose an illegal ply (its .err file says which)"
            )
    return lines


def program() -> str:
    """How to type this ``vvw`` again: ``vvw`` when that is it, else its path
    (``.venv/bin/vvw`` from ``python3 dev.py play``)."""
    here = sys.argv[0]
    if os.path.basename(here) != "vvw" or not os.path.isfile(here):
        return "vvw"
    found = shutil.which("vvw")
    if found is not None and os.path.samefile(found, here):
        return "vvw"
    relative = os.path.relpath(here)
    return shlex.quote(here if relative.startswith("..") else relative)


def watch_again(played: list[Played]) -> str | None:
    """The commands that show the last game kept again, in a browser or the terminal."""
    kept = [game.transcript for game in played if game.transcript is not None]
    if not kept:
        return None
    vvw, path = program(), shlex.quote(str(kept[-1]))
    return (
        f"watch the last game again: {vvw} replay {path} --open"
        f"\nor read it in the terminal: {vvw} log show {path} --boards"
    )


def players_from(words: list[str], bots: Path | None = None) -> Pair:
    """The two participants named by ``words`` (or the bots file ``bots``), each able to start."""
    players = parsed(*bots_named(words, bots))
    if len(players) != 2:
        raise UsageError(
            f"two bots play a match, got {len(players)}: {understood(players) or 'none'}"
        )
    check_startable(players)
    return players[0], players[1]


@attrs.define
class _Match:
    """A match being played: its games in order, each recorded as it ends."""

    args: argparse.Namespace
    players: Pair
    games: list[ScheduledGame]
    run_dir: Path
    hub: LiveHub | None
    kept: TranscriptFolder = attrs.field(init=False)
    played: list[Played] = attrs.Factory(list)

    def __attrs_post_init__(self) -> None:
        self.kept = transcript_folder(self.args)

    async def main(self, view: Listening, progress: GameProgress) -> None:
        async with showing(self.hub, view, lambda at: print(f"live view on {at}", flush=True)):
            for game in self.games:
                await self.play(game, progress)

    async def play(self, game: ScheduledGame, progress: GameProgress) -> None:
        """Play one game, shown as it goes (in a terminal, on the live view) and recorded;
        stopped (Ctrl-C), it ends as aborted, and is recorded."""
        vampires, werewolves = game.vampires.name, game.werewolves.name
        title = f"game {game.number} on {game.map.label}: {vampires} vs {werewolves}"
        names = {"vampires": vampires, "werewolves": werewolves}
        shown = [progress.events(title)]
        if self.hub is not None:
            shown.append(self.hub.listener(f"game {game.number} ({game.map.label})", names))
        record = partial(self.record, game)
        record(
            await play_one(
                game.map.game_map,
                attrs.evolve(settings_from(self.args), seed=game.battle_seed),
                (game.vampires, game.werewolves),
                self.run_dir / f"game{game.number:03d}",
                seeds=game.seeds,
                transcript_dir=self.kept.folder,
                keep_transcript=True,
                number=game.number,
                events=fan_out(*(sink for sink in shown if sink is not None)),
                on_abort=record,
            )
        )

    def record(self, game: ScheduledGame, played: Played) -> None:
        """A game ended (or was aborted): said, scored, its transcript kept, --json written."""
        self.played.append(played)
        print(f"game {game.number} on {game.map.label}: {describe(played)}", flush=True)
        if played.result.termination is not Termination.ABORTED:  # else: no more games
            print(running_score(self.players, self.played, len(self.games)), flush=True)
        note = self.kept.kept(played.transcript)
        if note is not None:
            print(f"vvw match: {note}", file=sys.stderr, flush=True)
        if self.args.json is not None:
            write_json(self.args.json, self.played)


def _maps_and_players(
    args: argparse.Namespace,
) -> tuple[list[MapChoice], Pair]:
    """The maps and the two players, checked before any game (and the --json file)."""
    map_words, bot_words = split_maps_and_bots(args.map, args.bots)
    try:
        maps = resolve_maps(map_words)
    except ValueError as error:
        raise UsageError(str(error)) from None
    players = players_from(bot_words, args.bots_file)
    if args.json is not None:
        why = writable_file(args.json, args.force)
        if why is not None:
            raise UsageError(f"cannot write results: {why}")
    return maps, players


def run(args: argparse.Namespace) -> int:
    maps, players = _maps_and_players(args)
    view = Listening(args.view_host, args.view_port, "the live view (--view-port)")
    if args.view:
        check_free([view])
    seed = args.seed if args.seed is not None else fresh_seed()
    print(f"seed {seed}", flush=True)
    games = match_schedule(players, maps, args.games, seed)
    match = _Match(args, players, games, new_run_dir("match"), LiveHub() if args.view else None)
    try:
        with GameProgress(args.ply_limit) as progress:
            signum = signals.run(partial(match.main, view, progress))
    finally:
        remove_if_empty(match.run_dir)
        remove_if_empty(match.run_dir.parent)
    _print_end(players, match.played)
    if signum is not None:
        finished = Scores.of(game.result for game in match.played).finished
        raise Stopped(signum, f"after {finished} of {plural(args.games, 'game')}")
    return 0


def _print_end(players: Pair, played: list[Played]) -> None:
    """The match's end: the tally and table, the abnormal games, the fallback warnings,
    how to watch the last game again."""
    print(tally(players, played))
    if played:
        print(table(players, played))
    lines = abnormal(played)
    if lines:
        print("abnormal games:\n" + "\n".join(lines))
    for line in fallback_warnings(players, played):
        print(line)
    again = watch_again(played)
    if again is not None:
        print(again, flush=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play two bots against each other",
        description="Two bots play --games games, each on a local port of its own, in pairs"
        " with sides swapped on the same map and battle seed. After each game: its result,"
        " each bot's think times, skipped turns and fallback plies (a random ply its client"
        " library sent for it: bots on vvw's client library), where its transcript is kept, the"
        " running score (W-D-L, score, Elo ± 95 %, games left). At the end: the wins per bot,"
        " a table of each bot's score and think times (mean, 95th percentile, longest), the"
        " abnormal games with their files, and the commands that show the last game again."
        " Ctrl-C ends the game being played as aborted: listed, not counted.",
        epilog='example: vvw match --map thetrap greedy "python mybot.py {host} {port}" --games 10;'
        " vvw match --bots bots.toml mine deep --map thetrap",
    )
    parser.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        help="two bots: a built-in name with options ('alphabeta --depth 4'), a command"
        " ('./mybot {host} {port}'), each optionally after name=NAME (or in one word:"
        " 'name=NAME BOT')",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="FILE",
        help="write all results here (rewritten after every game)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing --json file")
    add_bots_argument(parser)
    add_settings_arguments(parser, several_maps=True)
    add_view_arguments(parser, own_host=True)
    parser.set_defaults(func=run)
