"""Every run is a schedule decided from its one seed: a match's games in pairs with sides
swapped, the maps in turn; vvw play's one game; the same seed, the same games."""

from vvw.mapchoice import resolve_maps
from vvw.running.participants import Participant
from vvw.running.schedule import match_schedule, play_schedule
from vvw.running.seeds import derive

GREEDY = Participant("greedy", "greedy")
RANDOM = Participant("random", "random")


def test_a_match_plays_pairs_with_sides_swapped_on_one_map_and_battle_seed_maps_in_turn():
    maps = resolve_maps(["thetrap", "testmap"])
    games = match_schedule((GREEDY, RANDOM), maps, 5, seed=7)
    assert [game.number for game in games] == [1, 2, 3, 4, 5]
    assert [(game.vampires.name, game.werewolves.name) for game in games] == [
        ("greedy", "random"),
        ("random", "greedy"),
    ] * 2 + [("greedy", "random")]
    assert [game.map.label for game in games] == [
        maps[0].label,
        maps[0].label,
        maps[1].label,
        maps[1].label,
        maps[0].label,
    ]
    assert [game.battle_seed for game in games] == [derive(7, "battle", i) for i in (0, 0, 1, 1, 2)]
    assert games[2].seeds == (derive(7, "bot", 3, 0), derive(7, "bot", 3, 1))
    assert len({game.key for game in games}) == 5


def test_the_same_seed_schedules_the_same_match_and_another_seed_other_battles():
    maps = resolve_maps(["thetrap"])
    assert match_schedule((GREEDY, RANDOM), maps, 4, 1) == match_schedule(
        (GREEDY, RANDOM), maps, 4, 1
    )
    other = match_schedule((GREEDY, RANDOM), maps, 4, 2)
    assert other[0].battle_seed != match_schedule((GREEDY, RANDOM), maps, 4, 1)[0].battle_seed


def test_vvw_play_is_a_schedule_of_one_game():
    [choice] = resolve_maps(["thetrap"])
    [game] = play_schedule(RANDOM, GREEDY, choice, seed=3)
    assert (game.key, game.number, game.vampires, game.werewolves) == ("play:1", 1, RANDOM, GREEDY)
    assert game.battle_seed == derive(3, "battle", 1)
    assert game.seeds == (derive(3, "bot", 0), derive(3, "bot", 1))
