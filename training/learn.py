"""Learn winning chances from the corpus, and write the weights the analysis ships.

    python -m training.learn [--corpus runs/corpus] [--out agents/judge/learned.json]
        [--trees 200] [--depth 3] [--rate 0.1] [--leave-out FAMILY]

Reads the games of ``python -m training.corpus``, computes the features of every position
(:mod:`agents.judge.features`) and fits gradient-boosted trees (scikit-learn's
``GradientBoostingClassifier``, log-loss, no prior: :func:`train`) predicting the side to
move's expected score; writes them as :mod:`agents.judge.learned` reads them, with how
they were made. A draw counts as half a win and half a loss (two rows, weights ½).

Also the training-time fitting the analysis's curves need (:func:`fit_logistic`,
:func:`fit_curve`), by scikit-learn's logistic regression. Needs the ``train`` extra.
"""

import argparse
import json
import shlex
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from agents.judge.curve import Curve, decided, feature
from agents.judge.features import NAMES, features
from agents.judge.learned import WEIGHTS, Model, Tree
from agents.judge.logistic import logit
from engine import GameState
from engine.ending import totals
from engine.kinds import VAMPIRES
from engine.rules import DEFAULT_RULES
from training.corpus import read_corpus

TREES = 200
DEPTH = 3
RATE = 0.1
SEED = 1
"""The training's settings: trees, their depth, the learning rate, the subsampling's seed."""


@attrs.frozen
class Positions:
    """The corpus's positions as the training reads them: per position its features, the
    score the side to move made, its game and ply, ``match`` (``A vs B on MAP``), map,
    the families of both sides and the creatures of the side to move and of the other."""

    x: list[list[float]]
    score: list[float]
    game: list[int]
    ply: list[int]
    match: list[str]
    map: list[str]
    families: list[tuple[str, str]]
    own: list[int]
    other: list[int]

    def __len__(self) -> int:
        return len(self.score)

    def subset(self, keep: Sequence[bool]) -> "Positions":
        """The positions where ``keep`` is true."""
        fields = attrs.astuple(self, recurse=False)
        return Positions(*([v for v, k in zip(f, keep, strict=True) if k] for f in fields))

    @property
    def counts(self) -> list[float]:
        """The counts-only baseline's feature, ``(own − other) / (own + other)``."""
        return [(o - e) / max(1, o + e) for o, e in zip(self.own, self.other, strict=True)]


def state_of(row: dict[str, Any]) -> GameState:
    """The board of a corpus row."""
    flat = row["cells"]
    cells = tuple((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))
    return GameState.trusted(row["rows"], row["cols"], cells, row["ply"])


def positions(corpus: Path) -> Positions:
    """Every position of the corpus in ``corpus``, with its features."""
    data = Positions([], [], [], [], [], [], [], [], [])
    for row in read_corpus(corpus).to_pylist():
        state = state_of(row)
        v, w = totals(state)
        own, other = (v, w) if state.to_move == VAMPIRES else (w, v)
        values = (
            features(state, DEFAULT_RULES),
            float(row["score"]),
            row["game"],
            row["ply"],
            f"{row['vampires']} vs {row['werewolves']} on {row['map']}",
            row["map"],
            (row["vampires_family"], row["werewolves_family"]),
            own,
            other,
        )
        for column, value in zip(attrs.astuple(data, recurse=False), values, strict=True):
            column.append(value)
    return data


def as_labels(
    x: Sequence[Sequence[float]], score: Sequence[float]
) -> tuple[list[Sequence[float]], list[int], list[float]]:
    """Rows, win/loss labels and weights for a classifier: a draw is two rows of weight ½."""
    rows, labels, weights = [], [], []
    for features_, s in zip(x, score, strict=True):
        if s in (0.0, 1.0):
            rows.append(features_)
            labels.append(int(s))
            weights.append(1.0)
        else:
            rows += [features_, features_]
            labels += [1, 0]
            weights += [s, 1.0 - s]
    return rows, labels, weights


def train(
    data: Positions, trees: int = TREES, depth: int = DEPTH, rate: float = RATE, seed: int = SEED
) -> Model:
    """Gradient-boosted trees fitted on ``data``, as a :class:`Model` (no prior: every tree's
    leaves are log-odds, their sum times ``rate`` the prediction's)."""
    from sklearn.ensemble import GradientBoostingClassifier

    rows, labels, weights = as_labels(data.x, data.score)
    booster = GradientBoostingClassifier(
        n_estimators=trees,
        max_depth=depth,
        learning_rate=rate,
        subsample=0.8,
        init="zero",
        random_state=seed,
    )
    booster.fit(rows, labels, sample_weight=weights)
    shipped = tuple(_tree(estimator.tree_) for estimator in booster.estimators_[:, 0])
    weights = booster.feature_importances_
    importances = {name: round(float(v), 4) for name, v in zip(NAMES, weights, strict=True)}
    return Model(NAMES, 0.0, rate, shipped, {"importances": importances})


def _tree(tree: Any) -> Tree:
    """A scikit-learn regression tree as a :class:`Tree` (features and values rounded)."""
    return Tree(
        tuple(int(f) for f in tree.feature),
        tuple(round(float(t), 6) for t in tree.threshold),
        tuple(int(c) for c in tree.children_left),
        tuple(int(c) for c in tree.children_right),
        tuple(round(float(v), 6) for v in tree.value[:, 0, 0]),
    )


def fit_logistic(x: Sequence[Sequence[float]], score: Sequence[float]) -> list[float]:
    """``[intercept, slope per feature…]`` of the logistic curve that best predicts
    ``score`` from ``x`` (maximum likelihood, no penalty)."""
    from sklearn.linear_model import LogisticRegression

    if len(x) < 2:
        raise ValueError("a curve needs at least two points")
    rows, labels, weights = as_labels(x, score)
    if len(set(labels)) < 2:  # one outcome only: as near it as the curve may go
        return [logit(labels[0]), *([0.0] * len(rows[0]))]
    model = LogisticRegression(C=1e12, max_iter=1000)  # no penalty, in effect
    model.fit(rows, labels, sample_weight=weights)
    return [float(model.intercept_[0]), *(float(c) for c in model.coef_[0])]


def fit_curve(
    searched: Iterable[tuple[float, float]],
    solved: Iterable[tuple[float, float]],
) -> Curve:
    """The curves of :class:`agents.judge.curve.Curve` that best predict the scores of
    positions: ``searched`` as ``(search value, score the side to move made)``, decided
    values left out; ``solved`` endgames as ``(exact chance, score)``, certain ones left
    out."""
    points = [(feature(v), s) for v, s in searched if decided(v) is None]
    a, b = fit_logistic([[f] for f, _ in points], [s for _, s in points])
    endgames = [(logit(p), s) for p, s in solved if 0.0 < p < 1.0]
    d, e = (
        fit_logistic([[f] for f, _ in endgames], [s for _, s in endgames])
        if len(endgames) >= 2
        else (0.0, 1.0)
    )
    return Curve(a, b, d, e)


def _sklearn_version() -> str:
    import sklearn

    return str(sklearn.__version__)


def brier(predicted: Sequence[float], score: Sequence[float]) -> float:
    """The mean squared error of predictions."""
    return sum((p - s) ** 2 for p, s in zip(predicted, score, strict=True)) / len(score)


def without(data: Positions, family: str) -> Positions:
    """The positions of games in which no side is of ``family``."""
    return data.subset([family not in pair for pair in data.families])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.learn", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--corpus", type=Path, default=Path("runs/corpus"))
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--trees", type=int, default=TREES)
    parser.add_argument("--depth", type=int, default=DEPTH)
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--leave-out", metavar="FAMILY", help="train without its games")
    args = parser.parse_args(argv)
    command = (
        "python -m training.learn " + shlex.join(sys.argv[1:] if argv is None else argv)
    ).strip()
    began = time.monotonic()
    data = positions(args.corpus)
    if args.leave_out:
        data = without(data, args.leave_out)
    seconds = time.monotonic() - began
    print(f"{len(data)} positions of {len(set(data.game))} games (features in {seconds:.0f} s)")
    model = train(data, args.trees, args.depth, args.rate)
    predicted = [model.chance(x) for x in data.x]
    corpus = json.loads((args.corpus / "corpus.json").read_text())
    made = {
        "command": command,
        "corpus": {
            "seed": corpus["seed"],
            "noise": corpus["noise"],
            "games": len(set(data.game)),
            "positions": len(data),
        },
        "trainer": "sklearn.ensemble.GradientBoostingClassifier",
        "library": f"scikit-learn {_sklearn_version()}",
        "settings": {"trees": args.trees, "depth": args.depth, "rate": args.rate, "seed": SEED},
        "brier_in_sample": round(brier(predicted, data.score), 4),
    }
    model = attrs.evolve(model, made={**made, **model.made})
    args.out.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB): {json.dumps(made)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
