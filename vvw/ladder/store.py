"""The ladder's file written: :class:`LadderStore`, the one writer.

It writes teams and their token hashes, a pairing's games as they begin, each game's end
in one transaction of its own (so a server killed at any moment loses only the games in
progress), and :meth:`LadderStore.abort_interrupted`, which the server calls when it
starts: the games a killed server left "playing" become aborted. It reads as
:class:`~vvw.ladder.queries.LadderReader` does, on the same connection; the server makes
all its calls off the event loop (:mod:`vvw.ladder.diskthread`). The file's schema is
:mod:`vvw.ladder.schema`'s, the records it returns :mod:`vvw.ladder.snapshot`'s.
"""

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from engine import GameResult, Termination
from vvw.ladder.credentials import (
    Credentials,
    check_team_name,
    hash_token,
    name_key,
    new_token,
    token_matches,
)
from vvw.ladder.queries import LadderReader, TeamError
from vvw.ladder.refusals import Refusal
from vvw.ladder.schema import StoreError, connect, make_tables, remove_file, transaction
from vvw.ladder.settings import LadderSettings
from vvw.ladder.snapshot import GameStatus, Pairing, StoredGame

INTERRUPTED = "the ladder's server stopped during the game"


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
        connection = connect(path, f"cannot make the ladder {path}")
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            with transaction(connection):
                make_tables(connection)
                connection.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?)",
                    [(key, json.dumps(value)) for key, value in settings.to_record().items()],
                )
                connection.executemany(
                    "INSERT INTO players (name, key, builtin, created) VALUES (?, ?, ?, ?)",
                    [(name, name_key(name), name, clock()) for name in settings.builtins],
                )
        except sqlite3.Error as error:
            connection.close()
            remove_file(path)
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
        with transaction(self._db):
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

    def authenticate(self, credentials: Credentials) -> Refusal | None:
        """``None`` if ``credentials`` are a team's (the team is then seen now), else why
        not: :attr:`~Refusal.NO_SUCH_TEAM` or :attr:`~Refusal.WRONG_TOKEN`."""
        row = self._db.execute(
            "SELECT id, token_hash FROM players WHERE key = ? AND token_hash IS NOT NULL",
            (name_key(credentials.team),),
        ).fetchone()
        if row is None:
            return Refusal.NO_SUCH_TEAM
        id_, stored = row
        if not token_matches(credentials.token, stored):
            return Refusal.WRONG_TOKEN
        with self._write() as db:
            db.execute("UPDATE players SET last_seen = ? WHERE id = ?", (self._clock(), id_))
        return None

    # -- pairings and games ---------------------------------------------------------------

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
