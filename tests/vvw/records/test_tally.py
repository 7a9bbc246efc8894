"""One tally: a bot's games counted from its side (match, tournament tables, ladder)."""

from hypothesis import given
from hypothesis import strategies as st

from vvw.records.stats import wdl_estimate
from vvw.records.tally import Tally

game_scores = st.lists(st.sampled_from([0.0, 0.5, 1.0]))


@given(game_scores)
def test_a_tally_counts_every_game_once_and_its_points(scores: list[float]) -> None:
    tally = Tally.of(scores)
    assert tally.games == len(scores)
    assert tally.points == sum(scores)
    assert tally.score == (sum(scores) / len(scores) if scores else 0.0)
    assert tally.wdl == f"{scores.count(1.0)}-{scores.count(0.5)}-{scores.count(0.0)}"
    assert tally.estimate() == wdl_estimate(tally.wins, tally.draws, tally.losses)


def test_no_games_scores_nothing() -> None:
    assert (Tally().games, Tally().score, Tally().wdl) == (0, 0.0, "0-0-0")
