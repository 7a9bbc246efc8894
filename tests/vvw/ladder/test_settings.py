"""A ladder's settings: kept whole, checked, and what they decide for each pairing."""

import attrs
import pytest

from engine import OnTimeout, Rules, Variant
from server.settings import Settings
from tests.helpers.maps import load
from tests.vvw.ladder.ladders import ladder_settings
from vvw.ladder.settings import LadderSettings, SettingsError


def test_settings_come_back_from_their_record_unchanged():
    game = Settings(Rules(Variant.SPEC, 150), 0.5, OnTimeout.FORFEIT, 60.0, 10.0)
    settings = ladder_settings(
        game=game,
        seed=42,
        builtins=("random", "zcsn"),
        anchor="zcsn",
        anchor_rating=1500.0,
        patience=20.0,
        team_connections=3,
    )
    assert LadderSettings.from_record(settings.to_record()) == settings


def test_a_map_is_kept_whole_and_read_back_as_the_same_map():
    settings = ladder_settings()
    assert settings.maps[0].game_map == load("thetrap")
    assert settings.maps[0].game_map.name == "thetrap"


def test_pairings_take_the_maps_in_turn():
    settings = ladder_settings()
    assert [settings.map_of(n).label for n in range(1, 6)] == [
        "thetrap",
        "testmap",
        "thetrap",
        "testmap",
        "thetrap",
    ]


def test_battle_seeds_follow_from_the_ladder_seed():
    one, other = ladder_settings(seed=1), ladder_settings(seed=2)
    assert one.battle_seed(5) == ladder_settings(seed=1).battle_seed(5)
    assert len({one.battle_seed(n) for n in range(1, 50)}) == 49
    assert one.battle_seed(5) != other.battle_seed(5)


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"maps": ()}, "one map or more"),
        ({"builtins": ("greedy", "nobody")}, "no built-in bot 'nobody'"),
        ({"builtins": ("greedy", "greedy")}, "named twice"),
        ({"anchor": "random", "builtins": ("greedy",)}, "anchor 'random' is not one of"),
        ({"anchor_rating": float("nan")}, "must be a number"),
        ({"patience": 0.0}, "patience"),
        ({"team_connections": 0}, "needs a connection"),
    ],
)
def test_settings_that_cannot_be_are_refused_saying_why(changes, says):
    with pytest.raises(SettingsError, match=says):
        attrs.evolve(ladder_settings(), **changes)


def test_the_description_names_every_setting_a_teacher_chose():
    text = ladder_settings(seed=9).describe()
    for part in ("thetrap, testmap", "move time 2 s", "200 plies", "seed 9", "greedy anchored"):
        assert part in text
