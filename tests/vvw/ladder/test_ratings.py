"""Elo from all the games at once: laws, and agreement with the match statistics."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vvw.ladder import ratings as ratings_module
from vvw.ladder.ratings import Outcome, fit_ratings
from vvw.records.stats import wdl_estimate

ANCHOR = "anchor"
PLAYERS = ["anchor", "a", "b", "c", "d"]
scores = st.sampled_from([0.0, 0.5, 1.0])


def games_between(first: str, second: str, wins: int, draws: int, losses: int) -> list[Outcome]:
    return (
        [Outcome(first, second, 1.0)] * wins
        + [Outcome(first, second, 0.5)] * draws
        + [Outcome(first, second, 0.0)] * losses
    )


@st.composite
def tournaments(draw, players=PLAYERS) -> list[Outcome]:
    """Games between random pairs of ``players``, each pair's score strictly between 0 and
    all (so that every rating is a finite maximum of the likelihood, prior aside)."""
    outcomes = []
    for i, first in enumerate(players):
        for second in players[i + 1 :]:
            if draw(st.booleans()):
                wins, draws, losses = (draw(st.integers(0, 3)) for _ in range(3))
                if wins + draws and losses + draws:
                    outcomes += games_between(first, second, wins, draws, losses)
    return outcomes


def test_the_anchor_keeps_its_rating_with_no_error():
    ratings = fit_ratings(games_between("a", ANCHOR, 5, 2, 1), ANCHOR, 1500.0)
    assert (ratings[ANCHOR].elo, ratings[ANCHOR].error) == (1500.0, 0.0)
    assert ratings["a"].elo > 1500.0


def test_no_games_rate_the_anchor_alone():
    ratings = fit_ratings([], ANCHOR, 1000.0)
    assert list(ratings) == [ANCHOR]
    assert ratings[ANCHOR].games == 0


def test_games_and_points_are_counted_from_each_side():
    ratings = fit_ratings(games_between("a", "b", 3, 2, 1), ANCHOR, 0.0)
    assert (ratings["a"].games, ratings["a"].points) == (6, 4.0)
    assert (ratings["b"].games, ratings["b"].points) == (6, 2.0)


def test_a_player_cannot_play_itself():
    with pytest.raises(ValueError, match="cannot play itself"):
        fit_ratings([Outcome("a", "a", 1.0)], ANCHOR, 0.0)


def test_many_games_against_the_anchor_agree_with_the_match_statistics():
    """With the prior's few virtual draws drowned, the rating is the match's Elo difference
    and its interval the match's interval."""
    ratings = fit_ratings(games_between("a", ANCHOR, 600, 0, 400), ANCHOR, 0.0)
    match = wdl_estimate(600, 0, 400)
    assert ratings["a"].elo == pytest.approx(match.elo, rel=0.01)
    assert ratings["a"].error == pytest.approx(match.error, rel=0.02)


def test_with_draws_the_interval_errs_on_the_wide_side():
    """A draw counts as half a win and half a loss: the model sees more spread than the
    games' own (trinomial), so its interval is a little wider, never narrower."""
    ratings = fit_ratings(games_between("a", ANCHOR, 600, 200, 200), ANCHOR, 0.0)
    match = wdl_estimate(600, 200, 200)
    assert ratings["a"].elo == pytest.approx(match.elo, rel=0.01)
    assert match.error < ratings["a"].error < 1.2 * match.error


def test_a_perfect_score_gives_a_finite_rating():
    ratings = fit_ratings(games_between("a", ANCHOR, 10, 0, 0), ANCHOR, 0.0)
    assert math.isfinite(ratings["a"].elo) and ratings["a"].elo > 300
    assert math.isfinite(ratings["a"].error)


def test_players_who_never_met_the_anchor_still_get_ratings_on_its_scale():
    ratings = fit_ratings(games_between("a", "b", 8, 0, 2), ANCHOR, 1000.0)
    assert ratings["a"].elo > 1000.0 > ratings["b"].elo
    assert ratings["a"].elo - 1000.0 == pytest.approx(1000.0 - ratings["b"].elo)


@given(tournaments(), st.randoms(use_true_random=False))
def test_the_order_of_the_games_does_not_matter(outcomes, rng):
    shuffled = outcomes[:]
    rng.shuffle(shuffled)
    flipped = [Outcome(o.second, o.first, 1.0 - o.score) for o in shuffled]
    assert fit_ratings(shuffled, ANCHOR, 0.0) == fit_ratings(outcomes, ANCHOR, 0.0)
    for name, rating in fit_ratings(flipped, ANCHOR, 0.0).items():
        assert rating.elo == pytest.approx(fit_ratings(outcomes, ANCHOR, 0.0)[name].elo, abs=1e-6)


@given(tournaments(["anchor", "c", "d"]), st.integers(0, 3), st.integers(0, 4))
def test_players_with_the_same_results_get_the_same_rating(others, drawn, per_opponent):
    """``a`` and ``b`` draw their games together and score alike against everyone else."""
    outcomes = others + games_between("a", "b", 0, drawn, 0)
    for opponent in ("anchor", "c", "d"):
        for twin in ("a", "b"):
            outcomes += games_between(twin, opponent, per_opponent, 1, 4 - per_opponent)
    ratings = fit_ratings(outcomes, ANCHOR, 0.0)
    assert ratings["a"].elo == pytest.approx(ratings["b"].elo, abs=1e-6)
    assert ratings["a"].error == pytest.approx(ratings["b"].error, abs=1e-6)


@given(
    st.sampled_from(["a", "b", "c", "d"]),
    st.lists(scores, min_size=10, max_size=10),
    st.integers(1, 3),
)
def test_a_team_that_beats_everyone_ranks_first(winner, results, rounds):
    """In a round robin (each pair ``rounds`` games), whatever the others' results."""
    outcomes = []
    others = iter(results)
    for i, first in enumerate(PLAYERS):
        for second in PLAYERS[i + 1 :]:
            score = float(first == winner) if winner in (first, second) else next(others)
            outcomes += [Outcome(first, second, score)] * rounds
    ratings = fit_ratings(outcomes, ANCHOR, 0.0)
    assert max(ratings.values(), key=lambda r: r.elo).name == winner
    assert all(r.elo < ratings[winner].elo for r in ratings.values() if r.name != winner)


@given(tournaments(), st.integers(2, 4))
def test_intervals_shrink_with_more_games(outcomes, times):
    """The same results played ``times`` times over: every interval narrower."""
    once = fit_ratings(outcomes, ANCHOR, 0.0)
    more = fit_ratings(outcomes * times, ANCHOR, 0.0)
    for name, rating in once.items():
        if name != ANCHOR:
            assert more[name].error < rating.error


def test_a_stronger_player_ends_above_a_weaker_one_from_simulated_games():
    """Three players 200 points apart, games drawn by the model: the order comes out."""
    rng = random.Random(5)
    strength = {"anchor": 0.0, "strong": 200.0, "weak": -200.0}
    outcomes = []
    for _ in range(300):
        first, second = rng.sample(sorted(strength), 2)
        expected = 1.0 / (1.0 + 10.0 ** ((strength[second] - strength[first]) / 400.0))
        outcomes.append(Outcome(first, second, 1.0 if rng.random() < expected else 0.0))
    ratings = fit_ratings(outcomes, ANCHOR, 0.0)
    assert ratings["strong"].low > 0.0 > ratings["weak"].high
    for name in ("strong", "weak"):
        assert ratings[name].low < strength[name] < ratings[name].high


def test_a_large_ladder_is_rated_in_a_few_newton_steps(monkeypatch):
    """33 players, 10 000 games: Newton's method converges quadratically, so a handful of
    steps, not a hundred stalled ones halved against rounding."""
    steps = []
    original = ratings_module._Problem.slope_and_curvature

    def counted(problem, x):
        steps.append(1)
        return original(problem, x)

    monkeypatch.setattr(ratings_module._Problem, "slope_and_curvature", counted)
    rng = random.Random(1)
    names = ["anchor"] + [f"team{i}" for i in range(32)]
    outcomes = [Outcome(*rng.sample(names, 2), rng.choice([0.0, 0.5, 1.0])) for _ in range(10_000)]
    ratings = fit_ratings(outcomes, ANCHOR, 0.0)
    assert len(steps) <= 8
    assert all(math.isfinite(r.elo) for r in ratings.values())
