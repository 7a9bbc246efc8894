"""Elo, its interval, LOS and the SPRT's LLR against the values fastchess's tests state."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.judge.logistic import sigmoid
from vvw.records.stats import (
    PAIR_SCORES,
    Sprt,
    Thinks,
    elo_estimate,
    elo_of_score,
    parse_sprt,
    score_of_elo,
    wdl_estimate,
)


def test_elo_interval_and_los_of_wins_draws_losses():
    estimate = wdl_estimate(wins=136, draws=111, losses=96)  # fastchess "EloWDL 2"
    assert estimate.elo == pytest.approx(40.70, abs=0.01)
    assert estimate.error == pytest.approx(30.43, abs=0.01)
    assert estimate.los == pytest.approx(0.9960, abs=0.00005)
    assert wdl_estimate(76, 123, 89).los == pytest.approx(0.1553, abs=0.00005)  # "EloWDL 1"


@pytest.mark.parametrize(
    ("ll", "ld", "wl", "dd", "wd", "ww", "elo", "error", "los"),
    [
        (34, 54, 31, 32, 64, 75, 55.58, 27.65, 1.0),  # fastchess "EloPentanomial 1"
        (332, 433, 457, 41, 333, 334, -8.64, 10.33, 0.0505),
    ],  # "EloPentanomial 2"
)
def test_elo_of_pairs_of_games(ll, ld, wl, dd, wd, ww, elo, error, los):
    estimate = elo_estimate((ll, ld, wl + dd, wd, ww), PAIR_SCORES)
    assert estimate.elo == pytest.approx(elo, abs=0.01)
    assert estimate.error == pytest.approx(error, abs=0.01)
    assert estimate.los == pytest.approx(los, abs=0.00005)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "llr"),
    [
        (21404, 21184, 40708, 0.5, 2.5, -1.57),  # fastchess "logistic trinomial 1"
        (57433, 57030, 106593, 0.0, 2.0, -2.59),
    ],  # "logistic trinomial 2"
)
def test_sprt_llr_of_wins_draws_losses(wins, losses, draws, elo0, elo1, llr):
    sprt = Sprt(elo0, elo1, 0.05, 0.05)
    assert sprt.llr((losses, draws, wins)) == pytest.approx(llr, abs=0.01)


@pytest.mark.parametrize(
    ("ll", "ld", "wl", "dd", "wd", "ww", "elo0", "elo1", "llr"),
    [
        (223, 9863, 20279, 1000, 10037, 246, 0.5, 2.5, -3.07),  # "logistic pentanomial 1"
        (871, 26175, 55003, 980, 26678, 821, 0.0, 2.0, -4.98),
    ],  # "logistic pentanomial 2"
)
def test_sprt_llr_of_pairs(ll, ld, wl, dd, wd, ww, elo0, elo1, llr):
    sprt = Sprt(elo0, elo1, 0.05, 0.05)
    assert sprt.llr((ll, ld, wl + dd, wd, ww), PAIR_SCORES) == pytest.approx(llr, abs=0.01)


def test_sprt_bounds_and_decisions():
    sprt = parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.1")
    assert (sprt.lower, sprt.upper) == (
        pytest.approx(math.log(0.1 / 0.95)),
        pytest.approx(math.log(0.9 / 0.05)),
    )
    assert sprt.decision(3.0) == "H1" and sprt.decision(-2.26) == "H0"
    assert sprt.decision(0.0) is None
    assert sprt.llr((0, 0, 0)) == 0.0
    assert sprt.decision(sprt.llr((20, 100, 600))) == "H1"  # far better than +10
    assert sprt.decision(sprt.llr((600, 100, 20))) == "H0"
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        parse_sprt("elo0=5,elo1=0")
    with pytest.raises(ValueError, match="'x=1' is not"):
        parse_sprt("x=1")


def test_edge_scores_do_not_break():
    assert wdl_estimate(5, 0, 0).elo == math.inf and wdl_estimate(5, 0, 0).los == 1.0
    assert wdl_estimate(0, 0, 0).samples == 0
    assert wdl_estimate(0, 4, 0).format() == "+0.0 ± 0.0"


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_swapping_wins_and_losses_mirrors_the_estimate(w, d, lost):
    here, there = wdl_estimate(w, d, lost), wdl_estimate(lost, d, w)
    if here.samples:
        assert here.elo == pytest.approx(-there.elo)
        assert here.los + there.los == pytest.approx(1.0)
        assert here.low <= here.elo <= here.high
    sprt = Sprt(0, 5)
    assert sprt.llr((lost, d, w)) <= sprt.llr((max(lost - 1, 0), d, w + 1)) + 1e-9


def test_elo_of_score_is_logistic():
    assert elo_of_score(0.5) == 0 and elo_of_score(10 / 11) == pytest.approx(400)


@given(st.lists(st.floats(0.0, 10.0), min_size=1, max_size=300))
def test_the_95th_percentile_is_the_smallest_time_that_95_percent_do_not_exceed(times):
    summary = Thinks.of(times)
    assert summary is not None
    assert summary.p95 in times and summary.longest == max(times)
    assert sum(t <= summary.p95 for t in times) >= 0.95 * len(times)
    assert sum(t < summary.p95 for t in times) < 0.95 * len(times)
    assert min(times) <= summary.mean <= max(times) or math.isclose(summary.mean, min(times))
    assert Thinks.of([]) is None


@given(st.floats(min_value=-800.0, max_value=800.0))
def test_the_logistic_is_the_elo_curve_and_never_overflows(z: float) -> None:
    assert 0.0 <= sigmoid(z) <= 1.0
    assert sigmoid(z) + sigmoid(-z) == pytest.approx(1.0)
    if abs(z) < 30:
        assert sigmoid(z) == pytest.approx(score_of_elo(z * 400.0 / math.log(10.0)))
