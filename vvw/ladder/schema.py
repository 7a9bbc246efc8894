"""The ladder's file itself: one SQLite database (WAL), its tables, and how it is opened.

The schema is versioned (``PRAGMA user_version``) and the file marked as a ladder's
(``PRAGMA application_id``), so a file that is missing, not SQLite, not a ladder, or made
by a newer vvw is refused in one line (:class:`StoreError`). Transcripts live in a folder
beside the file (:func:`transcripts_folder`); the games name theirs relative to it.
:mod:`vvw.ladder.queries` reads the file, :mod:`vvw.ladder.store` writes it.
"""

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA_VERSION = 1
APPLICATION_ID = 0x76767731
"""``vvw1``: marks the file as a vvw ladder's."""
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


class StoreError(Exception):
    """The ladder's file cannot be used; ``str()`` says why in one line, naming it."""


def transcripts_folder(path: Path) -> Path:
    """Where a ladder's transcripts go: ``ladder-transcripts/`` beside ``ladder.db``."""
    return path.with_name(f"{path.stem}-transcripts")


def connect(path: Path, failure: str) -> sqlite3.Connection:
    """A connection to ``path`` in autocommit mode (transactions begun by hand), waiting
    up to 5 s for another writer; :class:`StoreError` (``failure: why``) if none. It may
    be used from any thread, one at a time (the server's calls are made in a worker
    thread: :mod:`vvw.ladder.diskthread`)."""
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise StoreError(f"{failure}: {error}") from None
    connection.execute("PRAGMA busy_timeout = 5000")
    return connection


def check_path(path: Path) -> None:
    """:class:`StoreError` unless ``path`` is a file that may hold a ladder."""
    if not path.exists():
        raise StoreError(f"no ladder {path}: make one with `vvw ladder new {path}`")
    if not path.is_file():
        raise StoreError(f"{path} is not a file")
    if path.stat().st_size == 0:
        raise StoreError(f"{path} is empty, not a ladder")


def check_file(path: Path, connection: sqlite3.Connection) -> None:
    """:class:`StoreError` unless ``connection`` is to a ladder this vvw reads."""
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


def make_tables(connection: sqlite3.Connection) -> None:
    """The tables of a new ladder, and the marks of its file (in the caller's transaction)."""
    for statement in SCHEMA:
        connection.execute(statement)
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def remove_file(path: Path) -> None:
    """Remove the ladder's file at ``path`` and its WAL's files, if any."""
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: committed whole, or rolled back whole."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
