"""Games counted per bot name, whatever side it played; an aborted game apart (issue 45)."""

from engine import GameResult, Kind, PlayerRecord, Termination
from vvw.records.scores import Scores


def game(vampires: str, werewolves: str, winner: Kind | None, how: Termination) -> GameResult:
    return GameResult(
        winner,
        how,
        "",
        10,
        PlayerRecord(Kind.VAMPIRES, vampires, 3),
        PlayerRecord(Kind.WEREWOLVES, werewolves, 3),
    )


def test_a_bot_that_wins_on_both_sides_has_both_wins() -> None:
    results = [
        game("alice", "bob", Kind.VAMPIRES, Termination.ELIMINATION),
        game("bob", "alice", Kind.WEREWOLVES, Termination.ELIMINATION),
    ]
    assert Scores.of(results).line() == "2 games: alice 2 wins, bob 0 wins, 0 draws"


def test_an_aborted_game_is_listed_apart_and_not_scored() -> None:
    results = [
        game("alice", "bob", None, Termination.PLY_LIMIT),
        game("bob", "alice", None, Termination.ABORTED),
    ]
    scores = Scores.of(results, ["bob", "alice"])
    assert scores.line(scorer="bob") == (
        "1 game: bob 0 wins, alice 0 wins, 1 draw; bob scores 50.0%; 1 aborted (not counted)"
    )
    assert Scores.of(results[1:]).line() == "no game finished; 1 aborted (not counted)"
    assert Scores.of([]).line() == "no game finished"


def test_each_name_has_its_tally_of_the_games_it_finished() -> None:
    results = [
        game("alice", "bob", Kind.VAMPIRES, Termination.ELIMINATION),
        game("bob", "alice", None, Termination.PLY_LIMIT),
        game("bob", "carol", Kind.VAMPIRES, Termination.CRASH),
        game("carol", "alice", None, Termination.ABORTED),
    ]
    tallies = Scores.of(results).tallies
    assert {name: tally.wdl for name, tally in tallies.items()} == {
        "alice": "1-1-0",
        "bob": "1-1-1",
        "carol": "0-0-1",
    }
