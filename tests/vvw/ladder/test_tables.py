"""The leaderboard and a team's report, computed from a snapshot of a real ladder file."""

from engine import Kind, Termination
from tests.vvw.ladder.ladders import play, result
from vvw.ladder.queries import LadderReader
from vvw.ladder.tables import leaderboard, ratings_of, team_report

V, W = Kind.VAMPIRES, Kind.WEREWOLVES


def snapshot_of(store):
    with LadderReader.open(store.path) as reader:
        return reader.snapshot()


def test_the_leaderboard_ranks_rated_players_best_first_then_those_yet_to_play(store):
    for team in ("alpha", "beta", "gamma"):
        store.add_team(team)
    play(store, "alpha", "greedy", V, W)  # alpha wins both
    play(store, "beta", "greedy", W, None)  # beta loses one, draws one
    snapshot = snapshot_of(store)
    rows = leaderboard(snapshot, ratings_of(snapshot), online={"beta"})
    assert [(r.rank, r.player.name) for r in rows] == [
        (1, "alpha"),
        (2, "greedy"),
        (3, "beta"),
        (None, "alphabeta"),
        (None, "gamma"),
        (None, "random"),
    ]
    alpha, greedy, beta = rows[:3]
    assert (alpha.tally.wins, alpha.tally.draws, alpha.tally.losses) == (2, 0, 0)
    assert (beta.tally.wins, beta.tally.draws, beta.tally.losses) == (0, 1, 1)
    assert (greedy.tally.games, greedy.anchor, greedy.rating.elo) == (4, True, 1000.0)
    assert [r.online for r in rows[:3]] == [False, False, True]


def test_aborted_games_and_games_in_progress_are_not_rated(store):
    store.add_team("alpha")
    play(store, "alpha", "greedy", V)
    pairing = store.new_pairing("alpha", "random")
    store.abort_game(store.begin_game(pairing.id, 1).id, "stopped")
    store.begin_game(pairing.id, 2)
    snapshot = snapshot_of(store)
    (alpha,) = [r for r in leaderboard(snapshot, ratings_of(snapshot)) if r.player.name == "alpha"]
    assert alpha.tally.games == alpha.rating.games == 1
    assert ratings_of(snapshot)["alpha"].points == 1.0


def test_a_removed_team_leaves_the_leaderboard_but_its_games_still_count(store):
    store.add_team("alpha")
    store.add_team("beta")
    play(store, "alpha", "beta", V, V)
    store.remove_team("alpha")
    snapshot = snapshot_of(store)
    ratings = ratings_of(snapshot)
    names = [r.player.name for r in leaderboard(snapshot, ratings)]
    assert "alpha" not in names
    assert ratings["beta"].games == 2
    report = team_report(snapshot, "alpha", ratings)
    assert report is not None and report.standing.player.removed is not None


def test_a_team_report_has_its_maps_opponents_and_abnormal_games(store):
    store.add_team("alpha")
    play(store, "alpha", "greedy", V, W)  # thetrap: 2 wins
    pairing = store.new_pairing("alpha", "random")  # testmap
    game = store.begin_game(pairing.id, 1)
    reason = "alpha sent a move for a cell it does not own on ply 12"
    store.finish_game(game.id, result(W, Termination.ILLEGAL_PLY, reason, 12), "3.jsonl")
    play(store, "random", "alpha", None)  # thetrap again: a draw
    snapshot = snapshot_of(store)
    report = team_report(snapshot, "alpha", ratings_of(snapshot), online={"alpha"})
    assert report is not None and report.standing.online
    assert [(m.map, m.tally.wins, m.tally.draws, m.tally.losses) for m in report.by_map] == [
        ("testmap", 0, 0, 1),
        ("thetrap", 2, 1, 0),
    ]
    thetrap = report.by_map[1].rating
    assert thetrap.elo > ratings_of(snapshot)["alpha"].elo  # its best map
    assert [(o.opponent, o.tally.games, o.tally.score) for o in report.by_opponent] == [
        ("greedy", 2, 1.0),
        ("random", 2, 0.25),
    ]
    greedy, random = report.by_opponent
    assert greedy.difference.elo > 0 > random.difference.elo
    assert 0 < greedy.difference.error < float("inf")
    assert [(g.id, g.detail) for g in report.abnormal] == [(game.id, reason)]
    assert [g.id for g in report.latest] == [4, 3, 2, 1]


def test_there_is_no_report_of_a_player_that_does_not_exist(store):
    snapshot = snapshot_of(store)
    assert team_report(snapshot, "nobody", ratings_of(snapshot)) is None
