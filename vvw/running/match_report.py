"""A match's end, in words: the games counted per bot, the table of each bot's score and
think times, the abnormal games with the files they left, a warning for a bot some of whose
plies were not its own, and how to watch the last game again."""

import os
import shlex
import shutil
import sys

from protocol.printable import printable
from vvw.records.scores import Scores
from vvw.records.stats import Thinks, wdl_estimate
from vvw.running.local_game import Played
from vvw.running.match import Pair


def tally(players: Pair, played: list[Played]) -> str:
    """``4 games: greedy 4 wins, random 0 wins, 0 draws; greedy scores 100.0 %``: the
    games that ended; one stopped before its end (Ctrl-C) is listed apart, not counted."""
    names = [player.name for player in players]
    return Scores.of((game.result for game in played), names).line(scorer=names[0])


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


def end_report(players: Pair, played: list[Played]) -> str:
    """The match's end: the tally and table, the abnormal games, the fallback warnings,
    how to watch the last game again."""
    lines = [tally(players, played)]
    if played:
        lines.append(table(players, played))
    broken = abnormal(played)
    if broken:
        lines.append("abnormal games:\n" + "\n".join(broken))
    lines += fallback_warnings(players, played)
    again = watch_again(played)
    if again is not None:
        lines.append(again)
    return "\n".join(lines)
