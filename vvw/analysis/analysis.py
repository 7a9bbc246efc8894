"""A game's analysis: every turn searched, judged and its battles' luck weighed, over processes.

:func:`analyse_game` searches the position before each turn (:mod:`vvw.analysis.search`),
the best ply's and the ply played's outcomes; turns are searched independently, so they
are shared among ``jobs`` processes and the result is the same for any number of them;
then each turn's change in chances is split into play and luck (:mod:`vvw.analysis.ledger`).
:class:`GameAnalysis` holds it all, with each side's summary, and turns into plain JSON
(:meth:`GameAnalysis.to_json`), the analysis file that ``vvw replay`` reads.
"""

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from engine import Kind
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.rules import Rules
from protocol.watch import moves_text
from vvw.analysis.chances import CURVE, Curve
from vvw.analysis.game import PlayedGame, PlayedTurn
from vvw.analysis.judging import (
    DEFAULT_THRESHOLDS,
    Label,
    Thresholds,
    accuracy,
    chance_points,
    chance_text,
)
from vvw.analysis.leaves import Leaf
from vvw.analysis.ledger import TurnAnalysis, TurnSearch, judged_turns, next_known, search_turn
from vvw.analysis.luck import BattleLuck
from vvw.analysis.search import DEFAULT_SETTINGS, PositionSearch, Settings
from vvw.analysis.turning import TurningPoint, turning_points
from vvw.wording import plural

FORMAT = "vvw-analysis"
VERSION = 2
SWINGS = 3
"""The biggest swings a side's summary shows."""


@attrs.frozen
class Swing:
    """One of a side's biggest drops: the turn, and the better ply."""

    turn: TurnAnalysis

    @property
    def text(self) -> str:
        t = self.turn
        played = moves_text(t.played) if t.played is not None else "(turn skipped)"
        return (
            f"ply {t.number}: {played} lost {_points(t.drop)}"
            f" ({chances_text(t)}); better {moves_text(t.best)}"
        )


def chances_text(turn: TurnAnalysis) -> str:
    """The mover's chances before its ply and its ply's expected chance, in points:
    ``80 → 62``; with a decimal where whole points would show no change (``80.3 → 79.7``)."""
    before, after = turn.score, turn.expected or 0.0
    if chance_text(before) == chance_text(after) and before != after:
        return f"{100 * before:.1f} → {100 * after:.1f}"
    return f"{chance_text(before)} → {chance_text(after)}"


def _points(value: float) -> str:
    """``1 point``, ``25 points``: a number of points as the report rounds it."""
    return plural(round(value), "point")


@attrs.frozen
class SideSummary:
    """One side's game: accuracy, labelled plies, luck and play in points, biggest swings."""

    side: Kind
    name: str
    accuracy: float | None
    counts: Mapping[Label, int]
    luck: float
    """Points (of 100) of expected score the dice gave (negative: took)."""
    play: float
    """Points the side's plies lost against the best found, in all (negative: gained)."""
    swings: tuple[Swing, ...]
    luckiest: BattleLuck | None
    """The battle that gave the most (or, if the dice took, took the most)."""

    @property
    def sentence(self) -> str:
        """``vampires lost 31 points to the dice (ply 37: 8 against 7 at 64 %, lost) and 12
        by play``."""
        who = self.side.name.lower()
        if abs(self.luck) < 0.5 or self.luckiest is None:
            dice = "had even dice"
        else:
            verb = "gained" if self.luck > 0 else "lost"
            word = "from" if self.luck > 0 else "to"
            b = self.luckiest
            whose = "" if b.side == self.side else f"{b.side.name.lower()}' "
            dice = (
                f"{verb} {_points(abs(self.luck))} {word} the dice (ply {b.ply}:"
                f" {whose}{battle_words(b)})"
            )
        if self.play <= -0.5:
            return f"{who} {dice} and gained {-self.play:.0f} by play"
        return f"{who} {dice} and lost {max(0.0, self.play):.0f} by play"


def battle_words(b: BattleLuck) -> str:
    """``8 against 7 at 64 %, lost``, from the side that struck."""
    outcome = "won" if b.won else "lost"
    return f"{b.attackers} against {b.defenders} at {100 * b.win_probability:.0f} %, {outcome}"


@attrs.frozen
class GameAnalysis:
    """A whole game analysed."""

    game: PlayedGame
    turns: tuple[TurnAnalysis, ...]
    settings: Settings
    thresholds: Thresholds
    curve: Curve

    def label(self, turn: TurnAnalysis) -> Label | None:
        return self.thresholds.label(turn.drop) if turn.judged else None

    @property
    def battles(self) -> list[BattleLuck]:
        return [battle for turn in self.turns for battle in turn.battles]

    def chances(self, side: Kind = VAMPIRES) -> list[float | None]:
        """``side``'s expected score before each turn, then at the end (the result, if
        known): the winning-chances curve of the game."""
        points: list[float | None] = [
            t.score if t.side == side else 1.0 - t.score for t in self.turns
        ]
        points.append(self.game.score(side))
        return points

    def turning_points(self) -> list[TurningPoint]:
        """Where a side's chances fell by 25 points or more with no ply of its labelled
        (:mod:`vvw.analysis.turning`)."""
        curve = self.chances()
        last = self.turns[-1] if self.turns else None
        if curve[-1] is None and last is not None and last.after is not None:
            curve[-1] = last.after if last.side == VAMPIRES else 1.0 - last.after
        return turning_points(
            self.turns,
            [turn.after for turn in self.game.turns],
            curve,
            [self.label(turn) is not None for turn in self.turns],
        )

    def summary(self, side: Kind) -> SideSummary:
        own = [t for t in self.turns if t.side == side and t.judged]
        counts = {label: 0 for label in Label}
        for turn in own:
            label = self.label(turn)
            if label is not None:
                counts[label] += 1
        battles = self.battles
        luck = 100 * sum(t.luck if t.side == side else -t.luck for t in self.turns)
        luckiest = None
        if battles:
            pick = max if luck > 0 else min
            luckiest = pick(battles, key=lambda b: b.luck_for(side))
        swings = sorted(own, key=lambda t: -t.drop)[:SWINGS]
        return SideSummary(
            side,
            self.game.names.get(side, ""),
            accuracy([t.drop for t in own]),
            counts,
            luck,
            -100 * sum(t.play for t in own),
            tuple(Swing(t) for t in swings if t.drop >= 0.5),
            luckiest,
        )

    def to_json(self, transcript: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The analysis as plain JSON data: the analysis file's content."""
        game = self.game
        return {
            "format": FORMAT,
            "version": VERSION,
            "transcript": dict(transcript or {}),
            "map": game.map,
            "names": {side.name.lower(): name for side, name in game.names.items()},
            "result": game.result,
            "winner": None if game.winner is None else game.winner.name.lower(),
            "settings": {
                "depth": self.settings.depth,
                "seconds": self.settings.seconds,
                "widths": list(self.settings.widths),
                "thresholds": attrs.asdict(self.thresholds),
                "curve": attrs.asdict(self.curve),
            },
            "vampires": [None if c is None else chance_points(c) for c in self.chances()],
            "plies": [self._turn_json(t) for t in self.turns],
            "turning_points": [
                {
                    "side": point.side.name.lower(),
                    "first": point.first,
                    "last": point.last,
                    "from": chance_points(point.high),
                    "to": chance_points(point.low),
                    "text": point.text,
                }
                for point in self.turning_points()
            ],
            "sides": {
                side.name.lower(): self._side_json(self.summary(side))
                for side in (VAMPIRES, WEREWOLVES)
            },
        }

    def _turn_json(self, t: TurnAnalysis) -> dict[str, Any]:
        label = self.label(t)
        return {
            "ply": t.number,
            "side": t.side.name.lower(),
            "score": chance_points(t.score),
            "played": None if t.played is None else [list(m) for m in t.played],
            "best": [list(m) for m in t.best],
            "after": None if t.after is None else chance_points(t.after),
            "expected": None if t.expected is None else chance_points(t.expected),
            "play": round(100 * t.play, 2),
            "luck": round(100 * t.luck, 2),
            "drop": round(t.drop, 2),
            "label": None if label is None else label.value,
            "depth": t.depth,
            "how": t.how,
            "think": t.think,
            "battles": [_battle_json(b) for b in t.battles],
        }

    def _side_json(self, s: SideSummary) -> dict[str, Any]:
        return {
            "name": s.name,
            # As computed: the page rounds them as the terminal does (rounded twice, 97.46
            # would show as 98 there and 97 here).
            "accuracy": s.accuracy,
            **{label.plural: s.counts[label] for label in Label},
            "luck": s.luck,
            "play": s.play,
            "sentence": s.sentence,
            "swings": [
                {"ply": w.turn.number, "drop": round(w.turn.drop, 2), "text": w.text}
                for w in s.swings
            ],
        }


def _battle_json(b: BattleLuck) -> dict[str, Any]:
    return {
        "cell": list(b.cell),
        "side": b.side.name.lower(),
        "attackers": b.attackers,
        "defender": b.defender.name.lower(),
        "defenders": b.defenders,
        "p": round(b.win_probability, 6),
        "winner": None if b.winner is None else b.winner.name.lower(),
        "survivors": b.survivors,
        "expected": round(100 * b.expected, 2),
        "happened": round(100 * b.happened, 2),
        "luck": round(100 * b.luck, 2),
        "text": battle_words(b),
    }


def default_jobs() -> int:
    """The processes to use by default: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_worker: PositionSearch | None = None


def _start_worker(settings: Settings, rules: Rules, leaf: Leaf | None, curve: Curve) -> None:
    global _worker
    _worker = PositionSearch(settings, rules, leaf, curve)


def _work(job: tuple[PlayedTurn, bool]) -> TurnSearch:
    assert _worker is not None
    return search_turn(_worker, *job)


def searched_turns(
    game: PlayedGame,
    settings: Settings,
    leaf: Leaf | None = None,
    curve: Curve = CURVE,
    jobs: int = 1,
) -> Iterator[TurnSearch]:
    """Each turn of ``game`` searched, in order, with ``jobs`` processes."""
    work = [(turn, next_known(game, i)) for i, turn in enumerate(game.turns)]
    if jobs <= 1 or len(game.turns) < 2:
        search = PositionSearch(settings, game.rules, leaf, curve)
        for job in work:
            yield search_turn(search, *job)
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        jobs, context, initializer=_start_worker, initargs=(settings, game.rules, leaf, curve)
    )
    finished = False
    try:
        with _interrupts_held():  # the workers start (on the first turns) deaf to Ctrl-C
            turns = pool.map(_work, work)
        yield from turns
        finished = True
    finally:
        _stop(pool, finished)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C back while worker processes start, from them and from us: a Ctrl-C
    in a terminal reaches every process of the command, but only the command answers it
    (its workers then stopped, no traceback of theirs). The processes started meanwhile
    keep SIGINT blocked; one that came meanwhile is raised here once they have started."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are the main thread's: nothing to hold back
        return
    came: list[int] = []
    handler = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler)
    if came:
        signal.raise_signal(signal.SIGINT)


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Shut the worker processes down: at once (their turns left undone) unless every
    turn was analysed."""
    if finished:
        pool.shutdown()
        return
    workers = list((pool._processes or {}).values())  # no public way to end them at once
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()


def analyse_game(
    game: PlayedGame,
    settings: Settings = DEFAULT_SETTINGS,
    *,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    leaf: Leaf | None = None,
    curve: Curve = CURVE,
    jobs: int = 1,
    progress: Callable[[TurnSearch], None] = lambda turn: None,
) -> GameAnalysis:
    """The analysis of ``game`` judged by ``leaf`` (by default
    :func:`vvw.analysis.leaves.default_leaf`); ``progress`` is called after each turn is
    searched, in order."""
    found = []
    for turn in searched_turns(game, settings, leaf, curve, jobs):
        found.append(turn)
        progress(turn)
    return GameAnalysis(game, judged_turns(game, found), settings, thresholds, curve)
