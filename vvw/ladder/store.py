"""The ladder's file: one SQLite database (WAL) with its settings, players, pairings and games.

* :class:`LadderStore` writes: teams and their token hashes, a pairing's games as they
  begin, each game's end in one transaction of its own (so a server killed at any moment
  loses only the games in progress), and :meth:`LadderStore.abort_interrupted`, which the
  server calls when it starts: the games a killed server left "playing" become aborted.
* :class:`LadderReader` reads, on a connection of its own: a page or a rating table reads a
  consistent :class:`Snapshot` while games go on being written (WAL: readers and the
  writer never wait for each other).

The schema is versioned (``PRAGMA user_version``) and the file marked as a ladder's
(``PRAGMA application_id``), so a file that is missing, not SQLite, not a ladder, or made
by a newer vvw is refused in one line (:class:`StoreError`). Transcripts live in a folder
beside the file (:func:`transcripts_folder`); the games name theirs relative to it.
"""

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Self

import attrs

from engine import GameResult, Kind, Termination
from vvw.ladder.credentials import (
    Credentials,
    check_team_name,
    hash_token,
    name_key,
    new_token,
    token_matches,
)
from vvw.ladder.settings import LadderSettings

SCHEMA_VERSION = 1
APPLICATION_ID = 0x76767731
"""``vvw1``: marks the file as a vvw ladder's."""
INTERRUPTED = "the ladder's server stopped during the game"
SCHEMA = (  # one statement each
    """
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL                 -- JSON
)
""",
    """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,           -- the name casefolded: one team per name
    builtin TEXT,                       -- a built-in bot's registered name; NULL: a team
    token_hash TEXT,                    -- a team's; NULL for a built-in bot or a removed team
    created REAL NOT NULL,
    last_seen REAL,
    removed REAL                        -- when a team that had played was removed
)
""",
    """
CREATE TABLE pairings (
    id INTEGER PRIMARY KEY,
    first INTEGER NOT NULL REFERENCES players (id),    -- the vampires of leg 1
    second INTEGER NOT NULL REFERENCES players (id),   -- the vampires of leg 2
    map TEXT NOT NULL,
    battle_seed INTEGER NOT NULL,
    created REAL NOT NULL
)
""",
    """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL REFERENCES pairings (id),
    leg INTEGER NOT NULL CHECK (leg IN (1, 2)),
    vampires INTEGER NOT NULL REFERENCES players (id),
    werewolves INTEGER NOT NULL REFERENCES players (id),
    started REAL NOT NULL,
    ended REAL,
    state TEXT NOT NULL CHECK (state IN ('playing', 'finished', 'aborted')),
    winner TEXT CHECK (winner IN ('vampires', 'werewolves')),
    termination TEXT,                   -- engine.Termination's value
    detail TEXT NOT NULL DEFAULT '',
    plies INTEGER NOT NULL DEFAULT 0,
    vampires_creatures INTEGER,
    werewolves_creatures INTEGER,
    transcript TEXT,                    -- relative to the transcripts folder
    UNIQUE (pairing, leg)
)
""",
    "CREATE INDEX games_by_state ON games (state)",
)
GAME_COLUMNS = """
    g.id, g.pairing, g.leg, p.map, p.battle_seed, v.name, w.name, g.started, g.ended,
    g.state, g.winner, g.termination, g.detail, g.plies, g.vampires_creatures,
    g.werewolves_creatures, g.transcript
"""
GAME_QUERY = f"""
SELECT {GAME_COLUMNS} FROM games g
JOIN pairings p ON p.id = g.pairing
JOIN players v ON v.id = g.vampires
JOIN players w ON w.id = g.werewolves
"""


class StoreError(Exception):
    """The ladder's file cannot be used; ``str()`` says why in one line, naming it."""


class TeamError(ValueError):
    """A team command that cannot be done (a name taken, a team unknown); one line."""


class GameStatus(Enum):
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"
    """Stopped before its end (the server stopped): kept, never rated."""


class Verdict(Enum):
    """What the store says of a connection's credentials."""

    ACCEPTED = "accepted"
    NO_SUCH_TEAM = "no such team"
    WRONG_TOKEN = "wrong token"


@attrs.frozen
class Player:
    """A team, or a built-in bot (``builtin`` names it in the registry)."""

    name: str
    builtin: str | None
    created: float
    last_seen: float | None
    removed: float | None
    """When the team was removed (its games kept); ``None`` while it plays."""


@attrs.frozen
class Pairing:
    """Two players' two games on one map and battle seed: ``first`` has the vampires in
    leg 1, ``second`` in leg 2."""

    id: int
    first: str
    second: str
    map: str
    battle_seed: int

    def sides(self, leg: int) -> tuple[str, str]:
        """The vampires and the werewolves of ``leg``."""
        return (self.first, self.second) if leg == 1 else (self.second, self.first)


@attrs.frozen
class StoredGame:
    """One game as the store keeps it."""

    id: int
    pairing: int
    leg: int
    map: str
    battle_seed: int
    vampires: str
    werewolves: str
    started: float
    ended: float | None
    status: GameStatus
    winner: Kind | None
    termination: Termination | None
    """``None`` while it is played."""
    detail: str
    plies: int
    vampires_creatures: int | None
    werewolves_creatures: int | None
    transcript: str | None

    @property
    def rated(self) -> bool:
        """Finished games are rated; games in progress and aborted ones are not."""
        return self.status is GameStatus.FINISHED

    @property
    def abnormal(self) -> bool:
        """Whether it ended otherwise than by the board or the clock of the rules (an
        aborted game too)."""
        return self.termination is not None and self.termination.is_abnormal

    @property
    def names(self) -> tuple[str, str]:
        return (self.vampires, self.werewolves)

    def side_of(self, name: str) -> Kind:
        return Kind.VAMPIRES if name == self.vampires else Kind.WEREWOLVES

    def opponent_of(self, name: str) -> str:
        return self.werewolves if name == self.vampires else self.vampires

    def score_of(self, name: str) -> float:
        """1 for a win of ``name``, ½ for a draw, 0 for a loss (of a finished game)."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is self.side_of(name) else 0.0

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.werewolves if self.winner is Kind.VAMPIRES else self.vampires


@attrs.frozen
class Snapshot:
    """Everything a page or a rating table reads, as of one moment."""

    settings: LadderSettings
    players: tuple[Player, ...]
    games: tuple[StoredGame, ...]
    """Oldest first."""
    taken: float


def transcripts_folder(path: Path) -> Path:
    """Where a ladder's transcripts go: ``ladder-transcripts/`` beside ``ladder.db``."""
    return path.with_name(f"{path.stem}-transcripts")


def _connect(path: Path, failure: str) -> sqlite3.Connection:
    """A connection to ``path`` in autocommit mode (transactions begun by hand), waiting
    up to 5 s for another writer; :class:`StoreError` (``failure: why``) if none. It may
    be used from any thread, one at a time (the server's calls are made in a worker
    thread: :mod:`vvw.ladder.storethread`)."""
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise StoreError(f"{failure}: {error}") from None
    connection.execute("PRAGMA busy_timeout = 5000")
    return connection


def _check_file(path: Path, connection: sqlite3.Connection) -> None:
    try:
        (application,) = connection.execute("PRAGMA application_id").fetchone()
        (version,) = connection.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} is not a ladder: {error}") from None
    if application != APPLICATION_ID:
        raise StoreError(f"{path} is an SQLite file but not a ladder's")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} was made by a newer vvw (ladder schema {version}; this one reads"
            f" {SCHEMA_VERSION}): upgrade vvw to use it"
        )


def _game(row: tuple[Any, ...]) -> StoredGame:
    """A game from a row of :data:`GAME_QUERY`."""
    (number, pairing, leg, map_, seed, vampires, werewolves, started, ended) = row[:9]
    (state, winner, termination, detail, plies, v_count, w_count, transcript) = row[9:]
    return StoredGame(
        number,
        pairing,
        leg,
        map_,
        seed,
        vampires,
        werewolves,
        started,
        ended,
        GameStatus(state),
        None if winner is None else Kind[winner.upper()],
        None if termination is None else Termination(termination),
        detail,
        plies,
        v_count,
        w_count,
        transcript,
    )


class LadderReader:
    """A ladder read on a connection of its own (see the module's docstring)."""

    def __init__(
        self, path: Path, connection: sqlite3.Connection, clock: Callable[[], float]
    ) -> None:
        self.path = path
        self._db = connection
        self._clock = clock
        self.settings = self._read_settings()

    @classmethod
    def open(cls, path: Path, clock: Callable[[], float] = time.time) -> Self:
        """The ladder at ``path``; :class:`StoreError` if there is none there."""
        if not path.exists():
            raise StoreError(f"no ladder {path}: make one with `vvw ladder new {path}`")
        if not path.is_file():
            raise StoreError(f"{path} is not a file")
        if path.stat().st_size == 0:
            raise StoreError(f"{path} is empty, not a ladder")
        connection = _connect(path, f"cannot open {path}")
        try:
            _check_file(path, connection)
            reader = cls(path, connection, clock)
        except BaseException:
            connection.close()
            raise
        reader._prepare()
        return reader

    def _prepare(self) -> None:
        self._db.execute("PRAGMA query_only = ON")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def transcripts(self) -> Path:
        return transcripts_folder(self.path)

    def _read_settings(self) -> LadderSettings:
        try:
            rows = self._db.execute("SELECT key, value FROM settings").fetchall()
            return LadderSettings.from_record({key: json.loads(value) for key, value in rows})
        except (sqlite3.DatabaseError, KeyError, ValueError, TypeError) as error:
            raise StoreError(f"{self.path}: the ladder's settings are damaged ({error})") from None

    def players(self) -> tuple[Player, ...]:
        """Every player: the built-in bots first (as made), then the teams as added."""
        rows = self._db.execute(
            "SELECT name, builtin, created, last_seen, removed FROM players ORDER BY id"
        )
        return tuple(Player(*row) for row in rows)

    def games(self, limit: int | None = None) -> tuple[StoredGame, ...]:
        """The games, newest first (``limit`` of them if given)."""
        query = GAME_QUERY + " ORDER BY g.id DESC" + ("" if limit is None else " LIMIT ?")
        rows = self._db.execute(query, () if limit is None else (limit,))
        return tuple(_game(row) for row in rows)

    def game(self, number: int) -> StoredGame:
        """Game ``number``; ``ValueError`` if there is none."""
        row = self._db.execute(GAME_QUERY + " WHERE g.id = ?", (number,)).fetchone()
        if row is None:
            raise ValueError(f"no game {number}")
        return _game(row)

    def canonical_name(self, name: str) -> str:
        """The name the player called ``name`` (in any case) was added with;
        :class:`TeamError` if there is none."""
        return self._player_row(name)[1]

    def _player_row(self, name: str) -> tuple[int, str, str | None, str | None, float | None]:
        """``(id, name, builtin, token_hash, removed)`` of the player called ``name``."""
        row = self._db.execute(
            "SELECT id, name, builtin, token_hash, removed FROM players WHERE key = ?",
            (name_key(name),),
        ).fetchone()
        if row is None:
            raise TeamError(f"no team {name!r} in {self.path}")
        return row

    def snapshot(self) -> Snapshot:
        """Players and every game, read in one transaction (one moment's state)."""
        self._db.execute("BEGIN")
        try:
            players = self.players()
            games = tuple(_game(row) for row in self._db.execute(GAME_QUERY + " ORDER BY g.id"))
        finally:
            self._db.execute("COMMIT")
        return Snapshot(self.settings, players, games, self._clock())


class LadderStore(LadderReader):
    """A ladder written: teams, pairings, games (see the module's docstring). One writer
    at a time; the team commands may run beside the server (each write is short)."""

    @classmethod
    def create(
        cls, path: Path, settings: LadderSettings, clock: Callable[[], float] = time.time
    ) -> Self:
        """A new ladder at ``path`` with ``settings`` and its built-in bots;
        :class:`StoreError` if a file is there or cannot be made."""
        if path.exists():
            raise StoreError(f"{path} exists: a new ladder needs a new file")
        connection = _connect(path, f"cannot make the ladder {path}")
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            with _transaction(connection):
                for statement in SCHEMA:
                    connection.execute(statement)
                connection.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?)",
                    [(key, json.dumps(value)) for key, value in settings.to_record().items()],
                )
                connection.executemany(
                    "INSERT INTO players (name, key, builtin, created) VALUES (?, ?, ?, ?)",
                    [(name, name_key(name), name, clock()) for name in settings.builtins],
                )
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            connection.close()
            for suffix in ("", "-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
            raise StoreError(f"cannot make the ladder {path}: {error}") from None
        store = cls(path, connection, clock)
        store._prepare()
        return store

    def _prepare(self) -> None:
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with _transaction(self._db):
            yield self._db

    # -- teams --------------------------------------------------------------------------

    def _team_row(self, name: str) -> tuple[int, str]:
        """``(id, name)`` of the team ``name`` that still plays; :class:`TeamError` if none."""
        id_, stored_name, builtin, _, removed = self._player_row(name)
        if builtin is not None:
            raise TeamError(f"{stored_name!r} is a built-in bot, not a team")
        if removed is not None:
            raise TeamError(f"team {stored_name!r} was removed")
        return id_, stored_name

    def add_team(self, name: str) -> str:
        """Add the team ``name``; its token (shown once: only its hash is kept).
        :class:`~vvw.ladder.credentials.TeamNameError` for a bad name, :class:`TeamError`
        for one taken (by a team, a removed team or a built-in bot)."""
        check_team_name(name)
        token = new_token()
        try:
            with self._write() as db:
                db.execute(
                    "INSERT INTO players (name, key, token_hash, created) VALUES (?, ?, ?, ?)",
                    (name, name_key(name), hash_token(token), self._clock()),
                )
        except sqlite3.IntegrityError:
            _, taken, builtin, _, removed = self._player_row(name)
            if builtin is not None:
                raise TeamError(f"{taken!r} is a built-in bot's name") from None
            if removed is not None:
                raise TeamError(
                    f"a team {taken!r} was removed but its games are kept: the name stays taken"
                ) from None
            raise TeamError(f"a team {taken!r} exists already") from None
        return token

    def reset_token(self, name: str) -> str:
        """A new token for the team ``name`` (the old one stops working); shown once."""
        id_, _ = self._team_row(name)
        token = new_token()
        with self._write() as db:
            db.execute("UPDATE players SET token_hash = ? WHERE id = ?", (hash_token(token), id_))
        return token

    def remove_team(self, name: str) -> int:
        """Remove the team ``name``: it can no longer connect. A team that played keeps its
        games (and so its name, and its place in the others' ratings); one that never did
        is deleted. The number of games kept."""
        id_, _ = self._team_row(name)
        with self._write() as db:
            (games,) = db.execute(
                "SELECT COUNT(*) FROM games WHERE vampires = ? OR werewolves = ?", (id_, id_)
            ).fetchone()
            if games:
                db.execute(
                    "UPDATE players SET token_hash = NULL, removed = ? WHERE id = ?",
                    (self._clock(), id_),
                )
            else:
                db.execute("DELETE FROM pairings WHERE first = ? OR second = ?", (id_, id_))
                db.execute("DELETE FROM players WHERE id = ?", (id_,))
        return int(games)

    def authenticate(self, credentials: Credentials) -> Verdict:
        """Whether ``credentials`` are a team's; the team is then seen now."""
        row = self._db.execute(
            "SELECT id, token_hash FROM players WHERE key = ? AND token_hash IS NOT NULL",
            (name_key(credentials.team),),
        ).fetchone()
        if row is None:
            return Verdict.NO_SUCH_TEAM
        id_, stored = row
        if not token_matches(credentials.token, stored):
            return Verdict.WRONG_TOKEN
        with self._write() as db:
            db.execute("UPDATE players SET last_seen = ? WHERE id = ?", (self._clock(), id_))
        return Verdict.ACCEPTED

    # -- pairings and games ---------------------------------------------------------------

    def _id_of(self, name: str) -> int:
        return self._player_row(name)[0]

    def new_pairing(self, first: str, second: str) -> Pairing:
        """A new pairing of the players ``first`` (vampires in leg 1) and ``second``: the
        next map of the rotation and a battle seed of its own."""
        ids = self._id_of(first), self._id_of(second)
        if ids[0] == ids[1]:
            raise ValueError(f"{first!r} cannot play itself")
        with self._write() as db:
            (number,) = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM pairings").fetchone()
            game_map = self.settings.map_of(number)
            seed = self.settings.battle_seed(number)
            db.execute(
                "INSERT INTO pairings (id, first, second, map, battle_seed, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (number, *ids, game_map.label, seed, self._clock()),
            )
        return self.pairing(number)

    def pairing(self, number: int) -> Pairing:
        row = self._db.execute(
            "SELECT p.id, f.name, s.name, p.map, p.battle_seed FROM pairings p"
            " JOIN players f ON f.id = p.first JOIN players s ON s.id = p.second"
            " WHERE p.id = ?",
            (number,),
        ).fetchone()
        if row is None:
            raise ValueError(f"no pairing {number}")
        return Pairing(*row)

    def begin_game(self, pairing: int, leg: int) -> StoredGame:
        """Record that leg ``leg`` (1 or 2) of ``pairing`` begins now; the game as stored."""
        sides = self.pairing(pairing).sides(leg)
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO games (pairing, leg, vampires, werewolves, started, state)"
                " VALUES (?, ?, ?, ?, ?, 'playing')",
                (pairing, leg, *map(self._id_of, sides), self._clock()),
            )
        assert cursor.lastrowid is not None
        return self.game(cursor.lastrowid)

    def finish_game(self, number: int, result: GameResult, transcript: str | None) -> None:
        """Record the end of game ``number`` (one transaction): its result, and its
        transcript's name in the transcripts folder. An aborted result aborts it."""
        status = (
            GameStatus.ABORTED if result.termination is Termination.ABORTED else GameStatus.FINISHED
        )
        self._end(
            number,
            status,
            {
                "winner": None if result.winner is None else result.winner.name.lower(),
                "termination": result.termination.value,
                "detail": result.detail,
                "plies": result.plies,
                "vampires_creatures": result.vampires.creatures,
                "werewolves_creatures": result.werewolves.creatures,
                "transcript": transcript,
            },
        )

    def abort_game(self, number: int, reason: str) -> None:
        """Record that game ``number`` stopped before its end (never rated)."""
        self._end(
            number, GameStatus.ABORTED, {"termination": Termination.ABORTED.value, "detail": reason}
        )

    def _end(self, number: int, status: GameStatus, values: dict[str, Any]) -> None:
        columns = ", ".join(f"{column} = ?" for column in values)
        with self._write() as db:
            cursor = db.execute(
                f"UPDATE games SET state = ?, ended = ?, {columns}"
                " WHERE id = ? AND state = 'playing'",
                (status.value, self._clock(), *values.values(), number),
            )
        if cursor.rowcount != 1:
            raise ValueError(f"game {number} is not being played")

    def abort_interrupted(self) -> list[int]:
        """Abort the games left "playing" by a server that was stopped (killed) during them;
        their numbers. Only the server calls it, when it starts: no game is in progress."""
        with self._write() as db:
            numbers = [row[0] for row in db.execute("SELECT id FROM games WHERE state = 'playing'")]
            db.execute(
                "UPDATE games SET state = 'aborted', ended = ?, termination = ?, detail = ?"
                " WHERE state = 'playing'",
                (self._clock(), Termination.ABORTED.value, INTERRUPTED),
            )
        return numbers

    def keep_cut_transcript(self, number: int, transcript: str, plies: int) -> None:
        """Record the transcript of game ``number`` (its name in the transcripts folder)
        and the plies it holds: a game aborted by :meth:`abort_interrupted`, whose server
        was killed before it could say so."""
        with self._write() as db:
            db.execute(
                "UPDATE games SET transcript = ?, plies = ? WHERE id = ? AND state = 'aborted'",
                (transcript, plies, number),
            )

    def owed_return_legs(self) -> list[Pairing]:
        """Pairings whose first game finished and whose return game has not begun, between
        players who still play; oldest first."""
        rows = self._db.execute(
            "SELECT p.id FROM pairings p"
            " JOIN games one ON one.pairing = p.id AND one.leg = 1 AND one.state = 'finished'"
            " JOIN players f ON f.id = p.first JOIN players s ON s.id = p.second"
            " WHERE f.removed IS NULL AND s.removed IS NULL"
            " AND NOT EXISTS (SELECT 1 FROM games two WHERE two.pairing = p.id AND two.leg = 2)"
            " ORDER BY p.id"
        )
        return [self.pairing(number) for (number,) in rows.fetchall()]

    def recent_opponents(self, name: str, count: int) -> list[str]:
        """The opponents of ``name``'s last ``count`` games, the latest first."""
        id_ = self._id_of(name)
        rows = self._db.execute(
            "SELECT CASE WHEN g.vampires = ? THEN w.name ELSE v.name END FROM games g"
            " JOIN players v ON v.id = g.vampires JOIN players w ON w.id = g.werewolves"
            " WHERE g.vampires = ? OR g.werewolves = ? ORDER BY g.id DESC LIMIT ?",
            (id_, id_, id_, count),
        )
        return [opponent for (opponent,) in rows]


@contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: committed whole, or rolled back whole."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
