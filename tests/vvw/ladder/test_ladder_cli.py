"""``vvw ladder new`` and ``vvw ladder team …`` as a teacher types them."""

import sqlite3

import pytest

from vvw.cli import main
from vvw.ladder.credentials import Credentials
from vvw.ladder.queries import LadderReader
from vvw.ladder.refusals import Refusal
from vvw.ladder.store import LadderStore


@pytest.fixture
def ladder(tmp_path, capsys):
    path = tmp_path / "ladder.db"
    assert main(["ladder", "new", str(path), "--map", "thetrap", "testmap"]) == 0
    capsys.readouterr()
    return path


def test_new_makes_a_ladder_with_the_settings_of_serve(tmp_path, capsys):
    path = tmp_path / "class.db"
    code = main(
        [
            "ladder",
            "new",
            str(path),
            "--map",
            "thetrap",
            "gen:3",
            "--move-time",
            "0.5",
            "--ply-limit",
            "120",
            "--variant",
            "spec",
            "--on-timeout",
            "forfeit",
            "--seed",
            "11",
            "--builtin",
            "random",
            "greedy",
            "--anchor",
            "random",
            "--anchor-rating",
            "0",
            "--patience",
            "30",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert f"made the ladder {path}" in out and f"vvw ladder team add {path} NAME" in out
    with LadderReader.open(path) as made:
        settings = made.settings
    assert [m.label for m in settings.maps] == ["thetrap", "gen:3:20x15:6"]
    assert (settings.game.move_time, settings.game.rules.max_plies) == (0.5, 120)
    assert (settings.game.rules.variant.value, settings.game.on_timeout.value) == (
        "spec",
        "forfeit",
    )
    assert (settings.seed, settings.builtins, settings.anchor) == (
        11,
        ("random", "greedy"),
        "random",
    )
    assert (settings.anchor_rating, settings.patience) == (0.0, 30.0)


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--map", "nowhere"], "unknown map 'nowhere' (bundled: "),
        (["--map", "thetrap", "--anchor", "zcsn"], "the anchor 'zcsn' is not one of"),
        (["--map", "thetrap", "--builtin", "nobody"], "no built-in bot 'nobody'"),
    ],
)
def test_new_refuses_bad_settings_in_one_line(tmp_path, capsys, words, says):
    assert main(["ladder", "new", str(tmp_path / "x.db"), *words]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not (tmp_path / "x.db").exists()


def test_new_never_overwrites_a_file(ladder, capsys):
    assert main(["ladder", "new", str(ladder), "--map", "thetrap"]) == 2
    assert "exists: a new ladder needs a new file" in capsys.readouterr().err


def test_team_add_prints_the_token_once_and_only_its_hash_is_kept(ladder, capsys):
    assert main(["ladder", "team", "add", str(ladder), "alpha"]) == 0
    captured = capsys.readouterr()
    token = captured.out.strip()
    assert len(token) == 32 and token not in captured.err
    assert "shown this once" in captured.err
    with LadderStore.open(ladder) as store:
        assert store.authenticate(Credentials("alpha", token)) is None
    assert main(["ladder", "team", "list", str(ladder)]) == 0
    listing = capsys.readouterr().out
    assert "alpha" in listing and token not in listing
    data = b"".join(f.read_bytes() for f in ladder.parent.iterdir() if f.is_file())
    assert token.encode() not in data


def test_team_reset_prints_a_new_token_and_the_old_one_stops_working(ladder, capsys):
    main(["ladder", "team", "add", str(ladder), "alpha"])
    old = capsys.readouterr().out.strip()
    assert main(["ladder", "team", "reset", str(ladder), "alpha"]) == 0
    new = capsys.readouterr().out.strip()
    assert new != old
    with LadderStore.open(ladder) as store:
        assert store.authenticate(Credentials("alpha", old)) is Refusal.WRONG_TOKEN
        assert store.authenticate(Credentials("alpha", new)) is None


def test_team_list_shows_each_team_with_its_games_and_status(ladder, capsys):
    assert main(["ladder", "team", "list", str(ladder)]) == 0
    assert "no teams yet" in capsys.readouterr().out
    for name in ("alpha", "beta"):
        main(["ladder", "team", "add", str(ladder), name])
    main(["ladder", "team", "remove", str(ladder), "beta"])
    assert "team beta removed" in capsys.readouterr().out
    assert main(["ladder", "team", "list", str(ladder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["team", "games", "added", "last", "seen", "status"]
    assert [line.split()[0] for line in lines[1:]] == ["alpha"]
    assert lines[1].split()[1] == "0" and lines[1].endswith("plays")


@pytest.mark.parametrize(
    ("words", "code", "says"),
    [
        (["add", "{file}", "Alpha"], 2, "a team 'alpha' exists already"),
        (["add", "{file}", "greedy"], 2, "'greedy' is a built-in bot's name"),
        (["add", "{file}", "<script>"], 2, "bad team name '<script>'"),
        (["add", "{file}", "x" * 40], 2, "at most 32 characters"),
        (["reset", "{file}", "nobody"], 2, "no team 'nobody'"),
        (["remove", "{file}", "greedy"], 2, "is a built-in bot, not a team"),
        (["list", "{dir}/missing.db"], 2, "no ladder"),
    ],
)
def test_team_commands_refuse_in_one_line(ladder, capsys, words, code, says):
    main(["ladder", "team", "add", str(ladder), "alpha"])
    capsys.readouterr()
    words = [w.format(file=ladder, dir=ladder.parent) for w in words]
    assert main(["ladder", "team", *words]) == code
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_file_that_is_not_a_ladder_or_is_too_new_is_one_line(tmp_path, ladder, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00garbage" * 200)
    assert main(["ladder", "team", "list", str(junk)]) == 2
    assert "junk.db is not a ladder: file is not a database" in capsys.readouterr().err
    with sqlite3.connect(ladder) as raw:
        raw.execute("PRAGMA user_version = 2")
    assert main(["ladder", "team", "add", str(ladder), "alpha"]) == 2
    assert "made by a newer vvw" in capsys.readouterr().err
