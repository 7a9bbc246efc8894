"""Winning chances learned from games: the expected score of a position for the side to move.

A model trained on a corpus of games with known results (``python -m training.corpus``
made the games, ``python -m training.learn`` trained it with scikit-learn) reads the
:mod:`agents.judge.features` of a position and says what the side to move scores from
there on average: a win 1, a draw ½, a loss 0. The model is a sum of small regression
trees (gradient boosting on the log-loss) turned into a chance by the logistic function;
its trees are shipped as JSON (``learned.json`` beside this module, with how it was made)
and walked here in pure Python: neither scikit-learn nor numpy is needed to use it.

Nothing is certain but a finished game: the chance of a game still going on is kept
within :data:`FLOOR` of 0 and 1.

    from agents.judge.learned import expected_score
    expected_score(state)            # the side to move's expected score, 0 < p < 1
    identity()                       # {"name": "learned", "sha256": …}: which model judged
"""

import hashlib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import attrs

from agents.judge.features import NAMES, features
from agents.judge.logistic import sigmoid
from engine import GameState, end_of_game
from engine.rules import DEFAULT_RULES, Rules

WEIGHTS = Path(__file__).with_name("learned.json")
"""The shipped model."""
NAME = "learned"
"""The model's name where a bot's option or an analysis file names its judge."""
FORMAT = "vvw-learned-chances"
FLOOR = 0.001
"""How close to 0 or 1 the chance of an unfinished game may come."""


@attrs.frozen
class Tree:
    """One regression tree: node ``i`` sends a position left when its feature ``feature[i]``
    is at most ``threshold[i]``; a node whose ``left`` is −1 is a leaf worth ``value[i]``."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]

    def __call__(self, x: Sequence[float]) -> float:
        node = 0
        left, right, feature, threshold = self.left, self.right, self.feature, self.threshold
        while left[node] != -1:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        return self.value[node]


@attrs.frozen
class Model:
    """Gradient-boosted trees: ``σ(bias + rate · Σ tree(x))`` over the features ``names``."""

    names: tuple[str, ...]
    bias: float
    rate: float
    trees: tuple[Tree, ...]
    made: dict[str, Any] = attrs.field(factory=dict, eq=False)
    """How the model was made (the corpus, the training's settings and figures)."""

    def raw(self, x: Sequence[float]) -> float:
        """The log-odds of a win for features ``x``."""
        return self.bias + self.rate * sum(tree(x) for tree in self.trees)

    def chance(self, x: Sequence[float]) -> float:
        """The expected score for features ``x``, within :data:`FLOOR` of 0 and 1."""
        return min(1.0 - FLOOR, max(FLOOR, sigmoid(self.raw(x))))

    def to_json(self) -> dict[str, Any]:
        """The model as the JSON object of :func:`from_json`."""
        return {
            "format": FORMAT,
            "version": 1,
            "features": list(self.names),
            "bias": self.bias,
            "rate": self.rate,
            "trees": [attrs.asdict(tree) for tree in self.trees],
            "made": self.made,
        }


def from_json(data: dict[str, Any]) -> Model:
    """A model from its JSON object; ``ValueError`` if it is not one of this version."""
    if data.get("format") != FORMAT or data.get("version") != 1:
        raise ValueError(f"not a {FORMAT} version 1 model")
    names = tuple(data["features"])
    if names != NAMES:
        raise ValueError("the model's features are not agents.judge.features.NAMES")
    trees = tuple(
        Tree(*(tuple(t[k]) for k in ("feature", "threshold", "left", "right", "value")))
        for t in data["trees"]
    )
    return Model(names, float(data["bias"]), float(data["rate"]), trees, data.get("made", {}))


@cache
def shipped() -> Model:
    """The shipped model (read once)."""
    return from_json(json.loads(WEIGHTS.read_text()))


@cache
def identity() -> dict[str, str]:
    """Which model judges: its name and the SHA-256 of the shipped file's bytes (an
    analysis file records it, so a later model's analyses are told apart)."""
    return {"name": NAME, "sha256": hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()}


def expected_score(state: GameState, rules: Rules = DEFAULT_RULES) -> float:
    """The expected score of ``state`` for the side to move: 1, ½ or 0 for a finished
    game, else the shipped model's chance (strictly between 0 and 1)."""
    end = end_of_game(state, rules)
    if end is not None:
        if end.winner is None:
            return 0.5
        return 1.0 if end.winner == state.to_move else 0.0
    return shipped().chance(features(state, rules))
