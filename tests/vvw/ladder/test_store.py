"""The ladder's SQLite file: teams and token hashes, pairings and games, a killed server."""

import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from engine import Kind, Termination
from tests.vvw.ladder.ladders import ladder_settings, play, result
from vvw.ladder.credentials import Credentials, TeamNameError, new_token
from vvw.ladder.queries import LadderReader, TeamError
from vvw.ladder.refusals import Refusal
from vvw.ladder.schema import APPLICATION_ID, StoreError, transcripts_folder
from vvw.ladder.snapshot import GameStatus
from vvw.ladder.store import INTERRUPTED, LadderStore


def test_a_new_ladder_keeps_its_settings_and_its_built_in_bots(tmp_path, clock):
    settings = ladder_settings(seed=3)
    LadderStore.create(tmp_path / "ladder.db", settings, clock).close()
    with LadderReader.open(tmp_path / "ladder.db") as ladder:
        assert ladder.settings == settings
        assert [(p.name, p.builtin) for p in ladder.players()] == [
            ("random", "random"),
            ("greedy", "greedy"),
            ("alphabeta", "alphabeta"),
        ]


def test_a_new_ladder_needs_a_new_file(tmp_path, clock):
    path = tmp_path / "ladder.db"
    path.write_text("my notes")
    with pytest.raises(StoreError, match="exists: a new ladder needs a new file"):
        LadderStore.create(path, ladder_settings(), clock)
    assert path.read_text() == "my notes"


def test_a_ladder_that_cannot_be_made_leaves_no_file(tmp_path, clock):
    with pytest.raises(StoreError, match="cannot make the ladder"):
        LadderStore.create(tmp_path / "no" / "such" / "ladder.db", ladder_settings(), clock)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_ladder_is_one_line_saying_how_to_make_one(tmp_path):
    with pytest.raises(StoreError, match=r"no ladder .*x\.db: make one with `vvw ladder new"):
        LadderStore.open(tmp_path / "x.db")


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "x.db"
    path.write_bytes(b"this is not a database, just text that is long enough" * 20)
    with pytest.raises(StoreError, match="is not a ladder: file is not a database"):
        LadderReader.open(path)


def test_an_empty_file_or_a_folder_is_refused(tmp_path):
    (tmp_path / "empty.db").touch()
    with pytest.raises(StoreError, match=r"empty\.db is empty, not a ladder"):
        LadderReader.open(tmp_path / "empty.db")
    with pytest.raises(StoreError, match="is not a file"):
        LadderReader.open(tmp_path)


def test_an_sqlite_file_of_something_else_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE things (a)")
    with pytest.raises(StoreError, match="an SQLite file but not a ladder's"):
        LadderStore.open(path)


def test_a_ladder_from_a_newer_vvw_is_refused(tmp_path, clock):
    path = tmp_path / "ladder.db"
    LadderStore.create(path, ladder_settings(), clock).close()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 7")
    with pytest.raises(
        StoreError, match=r"made by a newer vvw \(ladder schema 7; this one reads 1"
    ):
        LadderStore.open(path)


def test_damaged_settings_are_one_line(tmp_path, clock):
    path = tmp_path / "ladder.db"
    LadderStore.create(path, ladder_settings(), clock).close()
    with sqlite3.connect(path) as raw:
        raw.execute("DELETE FROM settings WHERE key = 'maps'")
    with pytest.raises(StoreError, match="the ladder's settings are damaged"):
        LadderReader.open(path)


def test_the_file_is_marked_as_a_ladder_in_wal_mode(store):
    raw = sqlite3.connect(store.path)
    assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    raw.close()


def test_transcripts_go_in_a_folder_beside_the_ladder(tmp_path, store):
    assert transcripts_folder(tmp_path / "ladder.db") == tmp_path / "ladder-transcripts"
    assert store.transcripts == tmp_path / "ladder-transcripts"


def test_a_team_added_is_seen_when_its_token_is_presented(store, clock):
    token = store.add_team("alpha")
    clock.advance(60)
    assert store.authenticate(Credentials("alpha", token)) is None
    (alpha,) = [p for p in store.players() if p.name == "alpha"]
    assert (alpha.builtin, alpha.created, alpha.last_seen) == (None, clock.now - 60, clock.now)


def test_a_team_name_is_matched_whatever_its_case(store):
    token = store.add_team("Alpha")
    assert store.authenticate(Credentials("ALPHA", token)) is None


def test_a_wrong_token_or_an_unknown_team_is_not_accepted(store):
    store.add_team("alpha")
    assert store.authenticate(Credentials("alpha", new_token())) is Refusal.WRONG_TOKEN
    assert store.authenticate(Credentials("beta", new_token())) is Refusal.NO_SUCH_TEAM
    assert store.authenticate(Credentials("greedy", new_token())) is Refusal.NO_SUCH_TEAM
    (alpha,) = [p for p in store.players() if p.name == "alpha"]
    assert alpha.last_seen is None


def test_the_token_is_nowhere_in_the_file_only_its_hash(store):
    tokens = [store.add_team("alpha"), store.reset_token("alpha"), store.add_team("beta")]
    store.close()
    files = [f for f in store.path.parent.iterdir() if f.name.startswith("ladder.db")]
    data = b"".join(f.read_bytes() for f in files)
    assert b"sha256$" in data
    for token in tokens:
        assert token.encode() not in data


@pytest.mark.parametrize(
    ("name", "error", "says"),
    [
        ("ALPHA", TeamError, "a team 'alpha' exists already"),
        ("Greedy", TeamError, "'greedy' is a built-in bot's name"),
        ("<b>", TeamNameError, "bad team name"),
    ],
)
def test_a_team_name_taken_or_bad_is_refused(store, name, error, says):
    store.add_team("alpha")
    with pytest.raises(error, match=says):
        store.add_team(name)


def test_a_reset_token_replaces_the_old_one(store):
    old = store.add_team("alpha")
    new = store.reset_token("alpha")
    assert store.authenticate(Credentials("alpha", old)) is Refusal.WRONG_TOKEN
    assert store.authenticate(Credentials("alpha", new)) is None


@pytest.mark.parametrize("action", ["reset_token", "remove_team"])
def test_only_a_team_that_plays_can_be_reset_or_removed(store, action):
    with pytest.raises(TeamError, match="no team 'nobody'"):
        getattr(store, action)("nobody")
    with pytest.raises(TeamError, match="'greedy' is a built-in bot, not a team"):
        getattr(store, action)("greedy")


def test_a_team_that_never_played_is_removed_entirely(store):
    store.add_team("alpha")
    assert store.remove_team("alpha") == 0
    assert "alpha" not in [p.name for p in store.players()]
    store.add_team("alpha")


def test_a_team_that_played_is_removed_but_its_games_and_name_stay(store):
    token = store.add_team("alpha")
    play(store, "alpha", "greedy", Kind.VAMPIRES, Kind.VAMPIRES)
    assert store.remove_team("alpha") == 2
    assert store.authenticate(Credentials("alpha", token)) is Refusal.NO_SUCH_TEAM
    assert len(store.games()) == 2
    with pytest.raises(TeamError, match="was removed but its games are kept"):
        store.add_team("alpha")
    with pytest.raises(TeamError, match="team 'alpha' was removed"):
        store.reset_token("alpha")


def test_a_pairing_plays_two_legs_with_sides_swapped_on_one_map_and_seed(store):
    store.add_team("alpha")
    pairing = store.new_pairing("alpha", "greedy")
    one = store.begin_game(pairing.id, 1)
    two = store.begin_game(pairing.id, 2)
    assert (one.vampires, one.werewolves, two.vampires, two.werewolves) == (
        "alpha",
        "greedy",
        "greedy",
        "alpha",
    )
    assert one.map == two.map == "thetrap"
    assert one.battle_seed == two.battle_seed == store.settings.battle_seed(1)
    assert (one.pairing, one.leg, two.pairing, two.leg) == (pairing.id, 1, pairing.id, 2)
    with pytest.raises(sqlite3.IntegrityError):
        store.begin_game(pairing.id, 1)


def test_each_new_pairing_takes_the_next_map(store):
    store.add_team("alpha")
    maps = [store.new_pairing("alpha", "random").map for _ in range(3)]
    assert maps == ["thetrap", "testmap", "thetrap"]


def test_a_player_cannot_be_paired_with_itself(store):
    with pytest.raises(ValueError, match="cannot play itself"):
        store.new_pairing("greedy", "GREEDY")


def test_a_finished_game_keeps_its_whole_result(store, clock):
    store.add_team("alpha")
    pairing = store.new_pairing("alpha", "greedy")
    game = store.begin_game(pairing.id, 1)
    assert (game.status, game.started, game.ended, game.termination) == (
        GameStatus.PLAYING,
        clock.now,
        None,
        None,
    )
    clock.advance(42)
    detail = "alpha sent a move for a cell it does not own on ply 12"
    store.finish_game(
        game.id, result(Kind.WEREWOLVES, Termination.ILLEGAL_PLY, detail, 12), "7.jsonl"
    )
    done = store.game(game.id)
    assert done.status is GameStatus.FINISHED and done.rated and done.abnormal
    assert (done.winner, done.termination, done.detail, done.plies) == (
        Kind.WEREWOLVES,
        Termination.ILLEGAL_PLY,
        detail,
        12,
    )
    assert (done.vampires_creatures, done.werewolves_creatures) == (0, 9)
    assert (done.ended, done.transcript, done.loser, done.score_of("alpha")) == (
        clock.now,
        "7.jsonl",
        "alpha",
        0.0,
    )


def test_an_aborted_game_is_kept_but_not_rated(store):
    store.add_team("alpha")
    pairing = store.new_pairing("alpha", "greedy")
    first, second = store.begin_game(pairing.id, 1), store.begin_game(pairing.id, 2)
    store.abort_game(first.id, "stopped by SIGTERM")
    store.finish_game(second.id, result(None, Termination.ABORTED, "stopped"), None)
    for number in (first.id, second.id):
        game = store.game(number)
        assert (game.status, game.termination, game.rated) == (
            GameStatus.ABORTED,
            Termination.ABORTED,
            False,
        )
    assert store.game(first.id).detail == "stopped by SIGTERM"


def test_a_game_ends_only_once(store):
    (number,) = play(store, "random", "greedy", Kind.VAMPIRES)
    with pytest.raises(ValueError, match="is not being played"):
        store.finish_game(number, result(None), None)
    with pytest.raises(ValueError, match="is not being played"):
        store.abort_game(number, "late")


def test_the_games_left_playing_are_aborted_when_the_server_starts_again(store):
    finished = play(store, "random", "greedy", Kind.VAMPIRES)
    pairing = store.new_pairing("alphabeta", "greedy")
    left = store.begin_game(pairing.id, 1)
    assert store.abort_interrupted() == [left.id]
    game = store.game(left.id)
    assert (game.status, game.detail) == (GameStatus.ABORTED, INTERRUPTED)
    assert store.game(finished[0]).status is GameStatus.FINISHED
    assert store.abort_interrupted() == []


KILLED_SERVER = """
import sys
from pathlib import Path
from engine import GameResult, Kind, PlayerRecord, Termination
from vvw.ladder.store import LadderStore

store = LadderStore.open(Path(sys.argv[1]))
for n in range(3):
    pairing = store.new_pairing("random", "greedy")
    game = store.begin_game(pairing.id, 1)
    store.finish_game(game.id, GameResult(
        Kind.WEREWOLVES, Termination.ELIMINATION, "", 40 + n,
        PlayerRecord(Kind.VAMPIRES, "random", 0), PlayerRecord(Kind.WEREWOLVES, "greedy", 5),
    ), None)
pairing = store.new_pairing("alphabeta", "greedy")
store.begin_game(pairing.id, 1)
store.begin_game(pairing.id, 2)
print("ready", flush=True)
sys.stdin.read()
"""


def test_a_server_killed_by_sigkill_loses_only_its_games_in_progress(tmp_path, clock):
    path = tmp_path / "ladder.db"
    LadderStore.create(path, ladder_settings(), clock).close()
    server = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(KILLED_SERVER), str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == "ready\n"
        server.send_signal(signal.SIGKILL)
        assert server.wait(timeout=30) == -signal.SIGKILL
    finally:
        server.kill()
        server.communicate()
    with LadderStore.open(path, clock) as store:
        assert sorted(g.plies for g in store.games() if g.status is GameStatus.FINISHED) == [
            40,
            41,
            42,
        ]
        assert len(store.abort_interrupted()) == 2
        assert sorted(g.status.value for g in store.games()) == ["aborted"] * 2 + ["finished"] * 3


def test_a_reader_is_never_held_up_by_the_writer_nor_holds_it_up(store):
    play(store, "random", "greedy", Kind.VAMPIRES)
    with LadderReader.open(store.path) as reader:
        reader._db.execute("BEGIN")
        before = reader._db.execute("SELECT COUNT(*) FROM games").fetchone()
        play(store, "random", "greedy", Kind.WEREWOLVES)  # commits while the reader reads
        assert reader._db.execute("SELECT COUNT(*) FROM games").fetchone() == before
        reader._db.execute("COMMIT")
        assert len(reader.snapshot().games) == 2
        with store._write():  # a write in progress does not stop a snapshot either
            assert len(reader.snapshot().games) == 2


def test_a_reader_cannot_write(store):
    with LadderReader.open(store.path) as reader, pytest.raises(sqlite3.OperationalError):
        reader._db.execute("DELETE FROM games")


def test_a_snapshot_holds_players_and_every_game_oldest_first(store, clock):
    store.add_team("alpha")
    play(store, "alpha", "greedy", Kind.VAMPIRES, None)
    play(store, "random", "alpha", Kind.WEREWOLVES)
    snapshot = LadderReader.open(store.path, clock).snapshot()
    assert [g.id for g in snapshot.games] == [1, 2, 3]
    assert [p.name for p in snapshot.players][-1] == "alpha"
    assert snapshot.taken == clock.now
    assert [g.id for g in store.games(limit=2)] == [3, 2]


def test_a_return_game_is_owed_once_the_first_is_over_and_until_it_begins(store):
    store.add_team("alpha")
    store.add_team("beta")
    owed_pairing = store.new_pairing("alpha", "beta")
    store.finish_game(store.begin_game(owed_pairing.id, 1).id, result(None), None)
    in_progress = store.new_pairing("beta", "greedy")
    store.begin_game(in_progress.id, 1)
    play(store, "alpha", "random", Kind.VAMPIRES, Kind.WEREWOLVES)
    assert store.owed_return_legs() == [owed_pairing]
    assert owed_pairing.sides(2) == ("beta", "alpha")
    store.begin_game(owed_pairing.id, 2)
    assert store.owed_return_legs() == []


def test_no_return_game_is_owed_after_an_aborted_first_one_or_to_a_removed_team(store):
    store.add_team("alpha")
    aborted = store.new_pairing("alpha", "greedy")
    store.abort_game(store.begin_game(aborted.id, 1).id, "stopped")
    play(store, "alpha", "random", Kind.VAMPIRES)
    assert [p.id for p in store.owed_return_legs()] == [2]
    store.remove_team("alpha")
    assert store.owed_return_legs() == []


def test_recent_opponents_are_the_latest_first(store):
    store.add_team("alpha")
    for opponent in ("random", "greedy", "alphabeta"):
        play(store, "alpha", opponent, Kind.VAMPIRES)
    assert store.recent_opponents("alpha", 2) == ["alphabeta", "greedy"]
    assert store.recent_opponents("greedy", 5) == ["alpha"]
