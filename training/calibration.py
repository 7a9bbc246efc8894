"""How well the winning chances are calibrated: the learned ones, and the analysis's.

    python -m training.calibration [--corpus runs/corpus] [--family NAME] [--trees 200]
    python -m training.calibration --analysis [--games 300] [--depth 4] [--jobs 2]
        [--move-time 10] [--seed 1] [--fit] [--samples FILE]

By default, the learned chances (:mod:`agents.judge.learned`) on the corpus of
``python -m training.corpus``, on bots they never trained on: for each reference family
(``seed2019``, ``zcsn``, ``seed2025``) in turn, the trees are trained (as
``training.learn`` does) on the games in which no side is of that family, and measured
on the games between two bots of it: a reliability table (:data:`LEARNED_GOAL`: every
bucket of 30+ positions within 5 points), the Brier score against the counts-only baseline
fitted on the measured games themselves (:data:`BETTER`: 20 % lower), the figures per
map, and the features the trees lean on most.

With ``--analysis`` (or ``--fit``, ``--samples``, ``--from-samples``), it plays
``--games`` games between different built-in bots in the in-process arena, cycling
through pairings and maps (every pairing meets every map once in 150 games, twice in the
default 300, the second time with other seeds), analyses each (``vvw analyse``'s
analysis at ``--depth``), and compares every position's predicted expected score for the
side to move with what that side scored in the end (a win 1, a draw ½, a loss 0):

- a reliability table: positions bucketed by predicted score (ten points wide), and per
  bucket the mean prediction and the mean score observed;
- the Brier score (mean squared error) of the predictions, beside a baseline that knows
  only the creature counts (a logistic curve of ``(own − other) / (own + other)``, fitted
  on the very games it is scored on, which favours it);
- for a bucket off the goal, the games that fill most of it (the positions of one game
  are alike: a few games can make a bucket).

The bots play at fixed depths (:data:`BOTS`), so a game is the same on any machine under
any load: ``--move-time`` is only a limit that their replies stay well within (a bot that
ran out of time would skip its turn, a loss that no prediction can know of; the game's
line says so if it happens).

The default games are the *calibration set*: maps and seeds the shipped curve was not
fitted on. ``--fit`` plays the *fitting set* instead (other maps, other seeds), fits the
curve on it (:func:`training.learn.fit_curve`) and prints the constants to ship in
:data:`agents.judge.curve.CURVE`. ``--samples FILE`` writes every position as a JSON
line (game, match, ply, how it was valued, value, prediction, score, counts, the board)
as the games are analysed; ``--from-samples FILE…`` reads such files back instead of
playing (the positions predicted by the shipped curves: the table for new constants at
once).
"""

import argparse
import json
import math
import random
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from agents.arena import play_game
from agents.judge.curve import CURVE, Curve
from agents.judge.features import NAMES
from agents.judge.logistic import sigmoid
from agents.registry import make_agent
from engine import GameState, Termination, Turn
from engine.ending import totals
from engine.kinds import VAMPIRES
from protocol.printable import printable
from training.corpus import REFERENCE_FAMILIES, game_map
from training.learn import TREES, Positions, fit_curve, fit_logistic, positions, train, without
from vvw.analysis.game import game_from_turns
from vvw.analysis.game_analysis import analyse_game
from vvw.analysis.search import DEFAULT_DEPTH, Settings
from vvw.analysis.workers import default_jobs

BOTS: dict[str, dict[str, int]] = {
    "expectiminimax": {"depth": 3},
    "alphabeta": {"depth": 4},
    "seed2025": {"depth": 3},
    "zcsn": {"depth": 4},
    "seed2019": {"depth": 3},
    "greedy": {},
}
"""The bots that play, every ordered pair of two different ones in turn, with their
options: each searches to a fixed depth (a reply of a few tenths of a second at most on
these maps), so a game does not depend on the machine's load."""
MOVE_TIME = 10.0
"""Seconds per reply: a limit the bots at their depths stay well within."""
FIT_MAPS = ("thetrap", "testmap2", "gen-10x10", "gen:12x8:4", "gen:10x10:5")
"""The maps of the fitting set."""
CALIBRATION_MAPS = ("testmap", "testmap-5x9", "gen:14x10:5", "gen:9x9:4", "gen-20x15")
"""The maps of the calibration set: none of the fitting set's."""
GAMES = 2 * len(BOTS) * (len(BOTS) - 1) * len(CALIBRATION_MAPS)
"""The games of a run by default (300): every ordered pairing on every map of its set,
twice. On a map file, bots at fixed depths play the same game again unless a random battle
goes otherwise; on a generated map the second game's seed makes another map."""
FIT_SEED = 1_000_000
"""Seeds of the fitting set's games start here (the calibration set's at ``--seed``)."""
BUCKET = 10
"""Points of predicted score per bucket of the reliability table."""
ENOUGH = 30
"""Positions from which a bucket is held to the goal."""
GOAL = 10.0
"""Points within which a bucket's mean score should be of its mean prediction."""
FILLERS = 3
"""The games named per bucket off the goal, those with the most positions in it."""


@attrs.frozen
class Sample:
    """One position: its game and ply, what the search said (``how``: ``search`` or
    ``endgame``; ``value``: the search's value or the endgame's exact chance), the
    prediction, the score the side to move made, and the creatures of each side."""

    game: int
    ply: int
    how: str
    value: float
    predicted: float
    score: float
    own: int
    other: int
    match: str = ""
    """``vampires vs werewolves on map``."""
    rows: int = 0
    cols: int = 0
    board: tuple[tuple[int, int, int, int], ...] = ()
    """The board before the ply: ``(x, y, kind, count)`` per cell (to search it again)."""

    @property
    def counts(self) -> float:
        """The counts-only baseline's feature: ``(own − other) / (own + other)``."""
        total = self.own + self.other
        return (self.own - self.other) / total if total else 0.0


def plan(games: int, maps: Sequence[str], seed: int) -> Iterator[tuple[int, str, str, str]]:
    """``(seed, vampires, werewolves, map)`` of each game: pairs and maps cycled, the maps
    one further at each round of the pairs, so every pair meets every map."""
    pairs = [(a, b) for a in BOTS for b in BOTS if a != b]
    for index in range(games):
        vampires, werewolves = pairs[index % len(pairs)]
        label = maps[(index + index // len(pairs)) % len(maps)]
        yield seed + index, vampires, werewolves, label


def play_and_analyse(
    seed: int, vampires: str, werewolves: str, label: str, args: argparse.Namespace
) -> tuple[str, list[Sample]]:
    """One game played and analysed: a line saying what happened, and its positions."""
    chosen = game_map(label, seed)
    start = chosen.initial_state()
    turns: list[Turn] = []
    result = play_game(
        make_agent(vampires, seed=seed, **BOTS[vampires]),
        make_agent(werewolves, seed=seed, **BOTS[werewolves]),
        chosen,
        move_time=args.move_time,
        seed=seed,
        on_turn=turns.append,
    )
    match = f"{vampires} vs {werewolves} on {label}"
    line = f"{match}: {printable(result.summary())}"
    skipped = sum(turn.ply is None for turn in turns)
    if skipped:
        line += f" ({skipped} turns skipped: out of time)"
    if result.termination not in (Termination.ELIMINATION, Termination.PLY_LIMIT):
        return line + " (not counted)", []
    game = game_from_turns(
        start, turns, names=(vampires, werewolves), winner=result.winner, map_name=label
    )
    analysis = analyse_game(game, Settings(depth=args.depth), jobs=args.jobs)
    samples = []
    for turn in analysis.turns:
        score = game.score(turn.side)
        assert score is not None
        own, other = _counts(turn.before, turn.side == VAMPIRES)
        assert turn.value is not None
        before = turn.before
        cells = tuple((x, y, int(kind), n) for x, y, kind, n in before.board_cells())
        samples.append(
            Sample(
                seed,
                turn.number,
                turn.how,
                turn.value,
                turn.score,
                score,
                own,
                other,
                match,
                before.rows,
                before.cols,
                cells,
            )
        )
    return line, samples


def _counts(state: GameState, vampires: bool) -> tuple[int, int]:
    v, w = totals(state)
    return (v, w) if vampires else (w, v)


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    """The mean squared error of ``(prediction, score)`` pairs."""
    return sum((p - s) ** 2 for p, s in pairs) / len(pairs)


def bucket(samples: Sequence[Sample], start: int) -> list[Sample]:
    """The samples predicted from ``start`` to ``start + BUCKET`` points (100 in the last)."""
    return [
        s
        for s in samples
        if start <= 100 * s.predicted < start + BUCKET
        or (start + BUCKET == 100 and s.predicted == 1.0)
    ]


def fillers(inside: Sequence[Sample], most: int = FILLERS) -> list[tuple[Sample, int, float]]:
    """The ``most`` games with the most positions among ``inside``: a sample of each, its
    positions there, and the mean score the side to move made in them."""
    games: dict[int, list[Sample]] = {}
    for s in inside:
        games.setdefault(s.game, []).append(s)
    biggest = sorted(games.values(), key=lambda found: (-len(found), found[0].game))[:most]
    return [(found[0], len(found), sum(s.score for s in found) / len(found)) for found in biggest]


def reliability(samples: Sequence[Sample]) -> list[tuple[int, int, float, float]]:
    """``(bucket start, positions, mean predicted, mean observed)``, in points, per
    non-empty bucket."""
    rows = []
    for start in range(0, 100, BUCKET):
        inside = bucket(samples, start)
        if inside:
            predicted = 100 * sum(s.predicted for s in inside) / len(inside)
            observed = 100 * sum(s.score for s in inside) / len(inside)
            rows.append((start, len(inside), predicted, observed))
    return rows


def spread(inside: Sequence[Sample], draws: int = 400, seed: int = 1) -> tuple[float, float]:
    """The 95 % interval of a bucket's points off (observed − predicted) over its games
    resampled with replacement: the positions of one game share its result, so a bucket
    knows as much as its games, not its positions."""
    games: dict[int, list[float]] = {}
    for s in inside:
        games.setdefault(s.game, []).append(s.score - s.predicted)
    sums = [(sum(diffs), len(diffs)) for diffs in games.values()]
    rng = random.Random(seed)
    offs = []
    for _ in range(draws):
        drawn = rng.choices(sums, k=len(sums))
        offs.append(100 * sum(d for d, _ in drawn) / sum(n for _, n in drawn))
    offs.sort()
    return offs[int(0.025 * draws)], offs[int(0.975 * draws) - 1]


def report(
    samples: Sequence[Sample],
    games: int,
    seconds: float,
    goal: float = GOAL,
    by_game: bool = False,
) -> tuple[float, float, float]:
    """The reliability table and the Brier scores, printed; the worst bucket's points off,
    the Brier score and the counts-only baseline's. With ``by_game``, each bucket's games
    and the 95 % interval of its points off over its games resampled (:func:`spread`)."""
    print(f"\n{len(samples)} positions from {games} games ({seconds:.0f} s)")
    extra = f" {'games':>6} {'95 % by game':>14}" if by_game else ""
    print(
        f"{'predicted':>11} {'positions':>9} {'mean predicted':>15} {'observed':>9} {'off':>6}"
        + extra
    )
    worst = 0.0
    for start, count, predicted, observed in reliability(samples):
        off = observed - predicted
        flag = ""
        if count >= ENOUGH:
            worst = max(worst, abs(off))
            flag = "" if abs(off) <= goal else "  over the goal"
        else:
            flag = "  (few)"
        if by_game:
            in_bucket = bucket(samples, start)
            low, high = spread(in_bucket)
            flag = f" {len({s.game for s in in_bucket}):>6} {low:>+6.1f}…{high:<+6.1f}" + flag
        print(
            f"{start:>4}–{start + BUCKET:<4}% {count:>9} {predicted:>15.1f} {observed:>9.1f}"
            f" {off:>+6.1f}{flag}"
        )
        if count >= ENOUGH and abs(off) > goal:
            for s, inside, scored in fillers(bucket(samples, start)):
                print(
                    f"{'':>11} {inside:>9} of them from game {s.game}"
                    f" ({s.match or 'match not recorded'}), scored {100 * scored:.0f}"
                )
    ours = brier([(s.predicted, s.score) for s in samples])
    a, b = fit_logistic([[s.counts] for s in samples], [s.score for s in samples])
    baseline = brier([(sigmoid(a + b * s.counts), s.score) for s in samples])
    print(f"\nworst bucket of {ENOUGH}+ positions: {worst:.1f} points off (goal: {goal:g})")
    what = "learned" if by_game else "analysis"
    print(f"Brier score: {what} {ours:.4f}, counts-only baseline {baseline:.4f}")
    print(f"  (the baseline's curve σ({a:.3f} + {b:.3f}·(own − other)/(own + other)),")
    print("   fitted on these very games; a constant ½ scores 0.25)")
    return worst, ours, baseline


LEARNED_GOAL = 5.0
"""Points within which each bucket of 30+ positions of the learned chances should be, on
games of a family they were not trained on."""
BETTER = 0.20
"""How much lower the learned chances' Brier score should be than the counts-only
baseline's."""
SIZES = ((100, "≤ 10 × 10"), (400, "≤ 20 × 20"), (900, "≤ 30 × 30"), (1600, "≤ 40 × 40"))
"""The classes of generated maps by cells, in the table by map."""


def learned_samples(data: Positions, predicted: Sequence[float]) -> list[Sample]:
    """The positions of ``data`` with their predictions, as the reliability table reads them."""
    return [
        Sample(game, ply, "learned", p, p, score, own, other, match)
        for game, ply, p, score, own, other, match in zip(
            data.game,
            data.ply,
            predicted,
            data.score,
            data.own,
            data.other,
            data.match,
            strict=True,
        )
    ]


def map_class(name: str, cells: int) -> str:
    """An official map by its name, a generated one by its size."""
    if name.count("-") < 3:  # gen-WxH-HOMES-SEED is generated, the rest are map files
        return name
    return "generated " + next(label for most, label in SIZES if cells <= most or most == 1600)


def by_map(samples: Sequence[Sample], data: Positions, curve: tuple[float, float]) -> None:
    """Per map (official) or size (generated): positions, the Brier score of the learned
    chances and of the counts-only baseline, mean predicted and observed."""
    board = NAMES.index("board_cells")
    groups: dict[str, list[Sample]] = {}
    for sample, x, name in zip(samples, data.x, data.map, strict=True):
        groups.setdefault(map_class(name, round(math.exp(x[board]))), []).append(sample)
    a, b = curve
    head = ("positions", "learned", "counts", "predicted", "observed")
    print(f"{'maps':<24} " + " ".join(f"{word:>9}" for word in head))
    for label, inside in sorted(groups.items(), key=lambda item: -len(item[1])):
        ours = brier([(s.predicted, s.score) for s in inside])
        base = brier([(sigmoid(a + b * s.counts), s.score) for s in inside])
        mean = 100 * sum(s.predicted for s in inside) / len(inside)
        observed = 100 * sum(s.score for s in inside) / len(inside)
        figures = f"{ours:>9.4f} {base:>9.4f} {mean:>9.1f} {observed:>9.1f}"
        print(f"{label:<24} {len(inside):>9} {figures}")


def left_out(data: Positions, family: str, options: dict[str, Any]) -> bool:
    """Train without ``family``'s games, measure on the games between two of its bots and
    print the tables; whether the goal is met."""
    print(f"\n## {family} left out: trained without its games, measured on {family} vs {family}")
    began = time.monotonic()
    measured = data.subset([pair == (family, family) for pair in data.families])
    if not len(measured):
        print("no game between two of its bots in the corpus")
        return False
    model = train(without(data, family), **options)
    samples = learned_samples(measured, [model.chance(x) for x in measured.x])
    seconds = time.monotonic() - began
    worst, ours, baseline = report(
        samples, len(set(measured.game)), seconds, LEARNED_GOAL, by_game=True
    )
    better = 1 - ours / baseline
    met = worst <= LEARNED_GOAL and better >= BETTER
    print(
        f"Brier score {100 * better:.1f} % better than the baseline (goal {100 * BETTER:.0f} %);"
        f" goal {'met' if met else 'NOT met'}"
    )
    a, b = fit_logistic([[c] for c in measured.counts], measured.score)
    print()
    by_map(samples, measured, (a, b))
    ranked = sorted(model.made.get("importances", {}).items(), key=lambda kv: -kv[1])
    print("features the model leans on most: " + ", ".join(f"{n} {v:.2f}" for n, v in ranked[:6]))
    control(data, measured, family, baseline, options)
    return met


def control(
    data: Positions, measured: Positions, family: str, baseline: float, options: dict[str, Any]
) -> None:
    """The same games measured by trees that also saw ``family``'s games against other
    bots: whether what is missing is the family, or games."""
    model = train(data.subset([pair != (family, family) for pair in data.families]), **options)
    samples = learned_samples(measured, [model.chance(x) for x in measured.x])
    ours = brier([(s.predicted, s.score) for s in samples])
    worst = max(
        (
            abs(observed - predicted)
            for _, count, predicted, observed in reliability(samples)
            if count >= ENOUGH
        ),
        default=0.0,
    )
    print(
        f"control, trained also on {family}'s games against other bots: Brier {ours:.4f}"
        f" ({100 * (1 - ours / baseline):+.1f} % against the baseline),"
        f" worst bucket {worst:.1f} points off"
    )


def families(args: argparse.Namespace) -> int:
    """The leave-one-family-out tables of the learned chances on the corpus."""
    began = time.monotonic()
    data = positions(args.corpus)
    games = len(set(data.game))
    print(f"corpus {args.corpus}: {len(data)} positions of {games} games", end="")
    print(f" (features in {time.monotonic() - began:.0f} s)")
    options = {"trees": args.trees}
    met = [left_out(data, family, options) for family in args.family or REFERENCE_FAMILIES]
    print(f"\ngoal met for {sum(met)} of {len(met)} families left out")
    return 0


def fit(samples: Sequence[Sample]) -> Curve:
    """The curves fitted on ``samples``, printed as the constants to ship."""
    curve = fit_curve(
        [(s.value, s.score) for s in samples if s.how == "search"],
        [(s.value, s.score) for s in samples if s.how == "endgame"],
    )
    fields = ", ".join(f"{name}={value:.4f}" for name, value in attrs.asdict(curve).items())
    print(f"\nfitted on {len(samples)} positions:\nCURVE = Curve({fields})")
    return curve


def predicted(curve: Curve, sample: Sample) -> float:
    """What ``curve`` predicts for a sample's position."""
    return curve.solved(sample.value) if sample.how == "endgame" else curve.searched(sample.value)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.calibration",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument(
        "--games",
        type=int,
        default=GAMES,
        help=f"games to play (default {GAMES}: every pairing on every map, twice)",
    )
    parser.add_argument(
        "--depth", type=int, default=DEFAULT_DEPTH, help=f"analysis depth (default {DEFAULT_DEPTH})"
    )
    parser.add_argument(
        "--jobs", type=int, default=default_jobs(), help="processes analysing a game"
    )
    parser.add_argument(
        "--move-time",
        type=float,
        default=MOVE_TIME,
        help=f"seconds per reply in the games, a limit only: the bots search to fixed depths"
        f" ({MOVE_TIME:g})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (1)")
    parser.add_argument(
        "--fit", action="store_true", help="play the fitting set and fit the curve on it"
    )
    parser.add_argument("--samples", type=Path, help="write every position as a JSON line")
    parser.add_argument(
        "--from-samples",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="play no games: the positions of --samples files, predicted by the shipped "
        "curves (with --fit, fitted again)",
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="play games and measure vvw analyse's chances (the default: the learned"
        " chances on the corpus, each reference family left out in turn)",
    )
    parser.add_argument(
        "--corpus", type=Path, default=Path("runs/corpus"), help="the corpus (runs/corpus)"
    )
    parser.add_argument(
        "--family",
        action="append",
        choices=REFERENCE_FAMILIES,
        help=f"the family left out (repeatable; default each of {', '.join(REFERENCE_FAMILIES)})",
    )
    parser.add_argument("--trees", type=int, default=TREES, help=f"trees trained ({TREES})")
    args = parser.parse_args(argv)
    print("python -m training.calibration " + shlex.join(sys.argv[1:] if argv is None else argv))
    if not (args.analysis or args.fit or args.from_samples or args.samples):
        return families(args)
    return analysis_calibration(args)


def analysis_calibration(args: argparse.Namespace) -> int:
    """Games played and analysed (or ``--from-samples``), and the analysis's chances
    measured on them (with ``--fit``, its curves fitted again)."""
    maps = FIT_MAPS if args.fit else CALIBRATION_MAPS
    seed = FIT_SEED + args.seed if args.fit else args.seed
    samples: list[Sample] = []
    began = time.monotonic()
    if args.from_samples:  # predicted by the shipped curves, whichever made the file
        stored = [sample for path in args.from_samples for sample in read_samples(path)]
        samples = [attrs.evolve(s, predicted=predicted(CURVE, s)) for s in stored]
        return summarise(samples, began, args.fit)
    out = args.samples.open("w") if args.samples else None
    played = 0
    try:
        for index, (game_seed, vampires, werewolves, label) in enumerate(
            plan(args.games, maps, seed), 1
        ):
            line, found = play_and_analyse(game_seed, vampires, werewolves, label, args)
            played += bool(found)
            samples += found
            print(f"{index}/{args.games} {line} ({time.monotonic() - began:.0f} s)", flush=True)
            if out is not None:
                for sample in found:
                    out.write(json.dumps(_jsonable(sample)) + "\n")
                out.flush()
    except KeyboardInterrupt:
        print("stopped: the figures of the games analysed so far", flush=True)
    finally:
        if out is not None:
            out.close()
    return summarise(samples, began, args.fit)


def summarise(samples: Sequence[Sample], began: float, fitting: bool) -> int:
    """The report on ``samples`` and, when ``fitting``, the curves fitted on them, with
    the report again as they would predict."""
    if not samples:
        print("no positions")
        return 1
    games = len({s.game for s in samples})
    report(samples, games, time.monotonic() - began)
    if fitting:
        curve = fit(samples)
        print("\nthe same games as the fitted curves predict them (in-sample):")
        refitted = [attrs.evolve(s, predicted=predicted(curve, s)) for s in samples]
        report(refitted, games, time.monotonic() - began)
    return 0


def read_samples(path: Path) -> list[Sample]:
    """The positions of a ``--samples`` file."""
    samples = []
    with path.open() as lines:
        for line in lines:
            data = json.loads(line)
            data["board"] = tuple(tuple(cell) for cell in data.get("board", ()))
            if data.get("how") is None:  # written before endgames were told apart
                endgame = data["value"] is None
                data["how"] = "endgame" if endgame else "search"
                data["value"] = data["predicted"] if endgame else data["value"]
            samples.append(Sample(**data))
    return samples


def _jsonable(sample: Sample) -> dict[str, Any]:
    return attrs.asdict(sample)


if __name__ == "__main__":
    sys.exit(main())
