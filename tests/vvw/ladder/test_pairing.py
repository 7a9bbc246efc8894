"""Who plays whom: return games first, close ratings and fresh opponents, built-in bots."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vvw.ladder.pairing import REMATCH_COST, Builtin, Match, ReturnLeg, Waiting, pair

BUILTINS = (Builtin("random", 600.0), Builtin("greedy", 1000.0), Builtin("alphabeta", 1400.0))
NOW = 1000.0


def waiting(*players: tuple[str, float], since: float = NOW) -> list[Waiting]:
    return [Waiting(seat, name, rating, since) for seat, (name, rating) in enumerate(players)]


def names(matches: list[Match]) -> list[tuple[str, str]]:
    return [(m.vampires.player, m.werewolves.player) for m in matches]


def test_close_ratings_are_paired_together():
    bots = waiting(("a", 1000.0), ("b", 1500.0), ("c", 1010.0), ("d", 1490.0))
    assert sorted(map(sorted, names(pair(bots, now=NOW, patience=60.0)))) == [
        ["a", "c"],
        ["b", "d"],
    ]


def test_the_latest_opponent_is_avoided_when_another_is_near_enough():
    bots = waiting(("a", 1000.0), ("b", 1005.0), ("c", 1100.0), ("d", 1110.0))
    assert sorted(map(sorted, names(pair(bots, now=NOW, patience=60.0)))) == [
        ["a", "b"],
        ["c", "d"],
    ]
    recent = {"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]}
    pairs = sorted(map(sorted, names(pair(bots, now=NOW, patience=60.0, recent=recent))))
    assert pairs == [["a", "d"], ["b", "c"]]


def test_a_rematch_is_taken_when_the_alternative_is_far_off():
    bots = waiting(("a", 1000.0), ("b", 1005.0), ("c", 1000.0 + REMATCH_COST + 100))
    recent = {"a": ["b"], "b": ["a"]}
    assert names(pair(bots, now=NOW, patience=60.0, recent=recent)) == [("a", "b")]


def test_an_older_opponent_costs_less_than_the_latest():
    bots = waiting(("a", 1000.0), ("b", 1000.0), ("c", 1000.0))
    recent = {"a": ["b", "c"], "b": ["a"], "c": ["b"]}
    assert names(pair(bots, now=NOW, patience=60.0, recent=recent)) == [("a", "c")]


def test_the_one_who_waited_longer_has_the_vampires():
    bots = [Waiting(1, "late", 1000.0, NOW), Waiting(2, "early", 1000.0, NOW - 5)]
    assert names(pair(bots, now=NOW, patience=60.0)) == [("early", "late")]


def test_two_connections_of_one_team_never_play_each_other():
    bots = waiting(("a", 1000.0), ("a", 1000.0))
    assert pair(bots, now=NOW, patience=60.0) == []


def test_no_pair_is_taken_that_would_leave_fewer_games():
    """The closest pair is b-c, but it would leave a's two connections with no one."""
    bots = waiting(("a", 1000.0), ("a", 1000.0), ("b", 1400.0), ("c", 1401.0))
    pairs = names(pair(bots, now=NOW, patience=60.0))
    assert len(pairs) == 2
    assert all("a" in p for p in pairs)


def test_a_return_game_is_played_as_soon_as_both_are_back():
    bots = waiting(("a", 1000.0), ("b", 1400.0), ("c", 1010.0), ("d", 1390.0))
    owed = [ReturnLeg(7, "b", "a")]
    matches = pair(bots, now=NOW, patience=60.0, owed=owed)
    assert matches[0].return_of == 7
    assert names(matches) == [("b", "a"), ("c", "d")]


def test_a_return_game_waits_while_one_side_is_away():
    bots = waiting(("a", 1000.0), ("c", 1010.0))
    matches = pair(bots, now=NOW, patience=60.0, owed=[ReturnLeg(7, "b", "a")])
    assert [(m.return_of, *n) for m, n in zip(matches, names(matches), strict=True)] == [
        (None, "a", "c")
    ]


def test_a_return_game_against_a_built_in_bot_needs_only_the_team():
    matches = pair(
        waiting(("a", 1000.0)),
        now=NOW,
        patience=60.0,
        builtins=BUILTINS,
        owed=[ReturnLeg(3, "greedy", "a")],
    )
    assert names(matches) == [("greedy", "a")]
    assert matches[0].return_of == 3
    assert matches[0].vampires == BUILTINS[1]


def test_a_bot_alone_past_the_patience_plays_the_nearest_built_in_bot():
    bots = [Waiting(1, "a", 1350.0, NOW - 60.0), Waiting(2, "a", 700.0, NOW - 59.0)]
    matches = pair(bots, now=NOW, patience=60.0, builtins=BUILTINS)
    assert names(matches) == [("a", "alphabeta")]


def test_without_built_in_bots_a_lone_bot_waits():
    assert pair(waiting(("a", 1.0), since=0.0), now=NOW, patience=60.0) == []


def test_seats_must_be_distinct():
    with pytest.raises(ValueError, match="same seat"):
        pair([Waiting(1, "a", 0, 0), Waiting(1, "b", 0, 0)], now=NOW, patience=1.0)


teams = st.sampled_from(["a", "b", "c", "d", "e"])
ratings = st.floats(0, 2000)


@st.composite
def rounds(draw):
    """Bots waiting (a few connections a team), what they owe, their latest opponents."""
    bots = [
        Waiting(seat, draw(teams), draw(ratings), draw(st.floats(NOW - 120, NOW)))
        for seat in range(draw(st.integers(0, 12)))
    ]
    players = ["a", "b", "c", "d", "e", "random", "greedy", "alphabeta"]
    owed = [
        ReturnLeg(n, *draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True)))
        for n in range(draw(st.integers(0, 4)))
    ]
    recent = {team: draw(st.lists(teams, max_size=4)) for team in "abcde"}
    return bots, owed, recent


def run(bots, owed, recent, order=None):
    return pair(
        bots if order is None else order,
        now=NOW,
        patience=60.0,
        builtins=BUILTINS,
        owed=owed,
        recent=recent,
    )


@given(rounds())
def test_every_bot_plays_at_most_once_and_never_its_own_team(case):
    matches = run(*case)
    seats = [s.seat for m in matches for s in (m.vampires, m.werewolves) if isinstance(s, Waiting)]
    assert len(seats) == len(set(seats))
    assert all(m.vampires.player != m.werewolves.player for m in matches)
    assert set(seats) <= {w.seat for w in case[0]}


@given(rounds())
def test_as_many_games_as_the_bots_left_allow_and_no_two_left_could_have_played(case):
    bots, owed, recent = case
    matches = run(bots, owed, recent)
    playing = {
        s.seat for m in matches for s in (m.vampires, m.werewolves) if isinstance(s, Waiting)
    }
    left = [w for w in bots if w.seat not in playing]
    assert len({w.player for w in left}) <= 1
    after_returns = [
        w
        for w in bots
        if w.seat
        not in {
            s.seat
            for m in matches
            if m.return_of is not None
            for s in (m.vampires, m.werewolves)
            if isinstance(s, Waiting)
        }
    ]
    largest = max(Counter(w.player for w in after_returns).values(), default=0)
    most = min(len(after_returns) // 2, len(after_returns) - largest)
    team_games = [m for m in matches if m.return_of is None and isinstance(m.werewolves, Waiting)]
    assert len(team_games) == most


@given(rounds())
def test_built_in_bots_play_only_those_who_waited_and_the_nearest_in_rating(case):
    for match in run(*case):
        if match.return_of is None and isinstance(match.werewolves, Builtin):
            team, bot = match.vampires, match.werewolves
            assert isinstance(team, Waiting) and NOW - team.since >= 60.0
            assert abs(bot.rating - team.rating) == min(
                abs(b.rating - team.rating) for b in BUILTINS
            )


@given(rounds())
def test_return_games_come_first_with_the_sides_they_owe(case):
    bots, owed, recent = case
    matches = run(bots, owed, recent)
    returns = [m for m in matches if m.return_of is not None]
    assert matches[: len(returns)] == returns
    legs = {leg.pairing: leg for leg in owed}
    for match in returns:
        leg = legs[match.return_of]
        assert (match.vampires.player, match.werewolves.player) == (leg.vampires, leg.werewolves)


@given(rounds(), st.randoms(use_true_random=False))
def test_the_order_of_the_bots_given_does_not_matter(case, rng):
    bots, owed, recent = case
    shuffled = bots[:]
    rng.shuffle(shuffled)
    assert run(bots, owed, recent, order=shuffled) == run(bots, owed, recent)
