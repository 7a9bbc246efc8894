"""training.learn: the shipped trees predict what scikit-learn's model predicts, a draw
counts half, and the logistic fits find the curves that made the scores."""

import random

import pytest

from agents.judge.curve import Curve
from agents.judge.features import NAMES
from agents.judge.logistic import sigmoid
from training.learn import Positions, as_labels, fit_curve, fit_logistic, train


def _positions(n: int, seed: int = 1) -> Positions:
    rng = random.Random(seed)
    x = [[rng.uniform(-1, 1) for _ in NAMES] for _ in range(n)]
    score = [float(rng.random() < sigmoid(3 * row[0] - 2 * row[4])) for row in x]
    score[::17] = [0.5] * len(score[::17])
    games = list(range(n))
    return Positions(x, score, games, games, [""] * n, [""] * n, [("a", "b")] * n, games, games)


def test_the_trees_written_predict_what_scikit_learn_predicts():
    from sklearn.ensemble import GradientBoostingClassifier

    data = _positions(600)
    model = train(data, trees=20, depth=2, rate=0.3)
    rows, labels, weights = as_labels(data.x, data.score)
    booster = GradientBoostingClassifier(
        n_estimators=20,
        max_depth=2,
        learning_rate=0.3,
        subsample=0.8,
        init="zero",
        random_state=1,
    ).fit(rows, labels, sample_weight=weights)
    expected = booster.predict_proba(data.x[:50])[:, 1]
    assert [model.chance(x) for x in data.x[:50]] == pytest.approx(list(expected), abs=1e-4)
    assert set(model.made["importances"]) == set(NAMES)


def test_a_draw_is_half_a_win_and_half_a_loss():
    rows, labels, weights = as_labels([[1.0], [2.0]], [1.0, 0.5])
    assert (rows, labels, weights) == ([[1.0], [2.0], [2.0]], [1, 1, 0], [1.0, 0.5, 0.5])


def test_the_logistic_fit_finds_the_curve_that_made_the_scores():
    x, score = [], []
    for i in range(-50, 51):
        v = i / 25
        p = sigmoid(0.4 + 1.5 * v)
        x += [[v]] * 100
        score += [1.0] * round(100 * p) + [0.0] * (100 - round(100 * p))
    a, b = fit_logistic(x, score)
    assert a == pytest.approx(0.4, abs=0.05) and b == pytest.approx(1.5, abs=0.05)


def test_fitting_finds_the_curves_that_made_the_scores():
    truth = Curve(0.3, 1.7, -0.2, 2.5)
    searched, solved = [], []
    for i in range(-40, 41):
        value = i * 20_000.0
        p = truth.searched(value)
        searched += [(value, 1.0)] * round(100 * p) + [(value, 0.0)] * round(100 * (1 - p))
        chance = (i + 41) / 83
        q = truth.solved(chance)
        solved += [(chance, 1.0)] * round(100 * q) + [(chance, 0.0)] * round(100 * (1 - q))
    fitted = fit_curve(searched, solved)
    assert fitted.intercept == pytest.approx(0.3, abs=0.05)
    assert fitted.slope == pytest.approx(1.7, abs=0.05)
    assert fitted.endgame_intercept == pytest.approx(-0.2, abs=0.05)
    assert fitted.endgame_slope == pytest.approx(2.5, abs=0.1)
