"""The logistic function, its logarithm and its inverse: laws, and no overflow at the ends."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.judge.logistic import log_sigmoid, logit, sigmoid

anywhere = st.floats(-1e6, 1e6)


@given(anywhere)
def test_the_logistic_is_a_chance_symmetric_about_a_half(z: float) -> None:
    assert 0.0 <= sigmoid(z) <= 1.0
    assert sigmoid(z) + sigmoid(-z) == pytest.approx(1.0)


@given(st.floats(-13, 13))
def test_the_logit_takes_a_chance_back_to_its_log_odds(z: float) -> None:
    assert logit(sigmoid(z)) == pytest.approx(z, abs=1e-6)


@given(anywhere)
def test_the_log_of_the_logistic_is_exact_where_the_logistic_is_not(z: float) -> None:
    value = log_sigmoid(z)
    assert math.isfinite(value) and value <= 0.0
    if sigmoid(z) > 1e-300:
        assert value == pytest.approx(math.log(sigmoid(z)), rel=1e-9, abs=1e-12)
    else:
        assert value == pytest.approx(z, rel=1e-9)  # log σ(z) → z far below 0
