"""The ladder's file read: :class:`LadderReader`, on a connection of its own.

A page or a rating table reads a consistent :class:`~vvw.ladder.snapshot.Snapshot` while
games go on being written (WAL: readers and the writer never wait for each other). The
pairing rounds read the return games owed and each team's latest opponents.
"""

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from engine import Kind, Termination
from vvw.ladder.credentials import name_key
from vvw.ladder.schema import StoreError, check_file, check_path, connect, transcripts_folder
from vvw.ladder.settings import LadderSettings
from vvw.ladder.snapshot import GameStatus, Pairing, Player, Snapshot, StoredGame

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


class TeamError(ValueError):
    """A team command that cannot be done (a name taken, a team unknown); one line."""


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
        """The ladder at ``path``; :class:`~vvw.ladder.schema.StoreError` if there is none
        there."""
        check_path(path)
        connection = connect(path, f"cannot open {path}")
        try:
            check_file(path, connection)
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

    def _id_of(self, name: str) -> int:
        return self._player_row(name)[0]

    def snapshot(self) -> Snapshot:
        """Players and every game, read in one transaction (one moment's state)."""
        self._db.execute("BEGIN")
        try:
            players = self.players()
            games = tuple(_game(row) for row in self._db.execute(GAME_QUERY + " ORDER BY g.id"))
        finally:
            self._db.execute("COMMIT")
        return Snapshot(self.settings, players, games, self._clock())

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
