"""The game to analyse: each turn's board before it, the ply played, the board after.

Read from a transcript's typed records through the one replay reader
(:func:`game_from_records`, :mod:`protocol.replay`: what a server's, a proxy's or an
agent's transcript tells; :func:`game_from_file` reads the transcript first) or from the
turns an in-process game reports (:func:`game_from_turns`, the calibration benchmark's way).
"""

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from engine import GameState, Kind, Ply, Rules, Turn, find_violation
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.rules import DEFAULT_RULES
from protocol.reading import TranscriptError
from protocol.records import Ply as PlyRecord
from protocol.records import Record
from protocol.replay import ReplayedTurn, replay
from vvw.transcripts import read_transcript


@attrs.frozen
class PlayedTurn:
    """One turn as it was played: ``ply`` ``None`` for a skipped turn."""

    number: int
    """Plies played after it, as transcripts and the replay page count (1 for the vampires'
    first turn); the board before it has ``number - 1`` plies played."""
    side: Kind
    before: GameState
    ply: Ply | None
    after: GameState | None
    """The board after the turn; ``None`` when the transcript does not show it."""
    think: float | None = None
    illegal: bool = False
    """Whether the ply breaks a rule (it lost the game; it is not judged)."""


@attrs.frozen
class PlayedGame:
    """A whole game as :mod:`vvw.analysis` reads it."""

    start: GameState
    turns: tuple[PlayedTurn, ...]
    rules: Rules = DEFAULT_RULES
    map: str = ""
    names: Mapping[Kind, str] = attrs.field(factory=dict)
    winner: Kind | None = None
    finished: bool = False
    """Whether the result is known (``winner`` ``None`` is then a draw)."""
    result: str = ""
    """How the game ended, in words (empty when not known)."""

    @property
    def final(self) -> GameState | None:
        """The last board known."""
        if not self.turns:
            return self.start
        return self.turns[-1].after

    def score(self, side: Kind) -> float | None:
        """What ``side`` scored: 1 for a win, ½ for a draw, 0 for a loss; ``None`` if not known."""
        if not self.finished:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == side else 0.0


def game_from_records(records: Iterable[Record]) -> PlayedGame:
    """The game of a transcript's records (:func:`protocol.replay.replay`); ``ValueError``
    if it holds no board (no MAP)."""
    game = replay(records)
    turns = tuple(_played(turn) for turn in game.turns)
    result = game.result
    return PlayedGame(
        game.start,
        turns,
        game.rules,
        (game.header.map if game.header is not None else None) or "",
        dict(game.names),
        None if result is None else result.winner,
        result is not None,
        "" if result is None else result.sentence,
    )


def game_from_file(source: Path) -> PlayedGame:
    """The game of the transcript file ``source``, with a ply to analyse: a one-line
    :class:`~protocol.reading.TranscriptError` if it holds none, ``OSError`` if the file
    cannot be read."""
    records = read_transcript(source)
    try:
        game = game_from_records(records)
    except ValueError as error:
        raise TranscriptError(f"{source}: {error}") from None
    if not game.turns:
        raise TranscriptError(f"{source}: no ply to analyse")
    return game


def _played(turn: ReplayedTurn) -> PlayedTurn:
    """A replayed turn as the analysis reads it: a ply that breaks a rule is not judged."""
    if not isinstance(turn.record, PlyRecord):
        return PlayedTurn(turn.number, turn.side, turn.before, None, turn.after)
    ply = tuple(turn.record.moves)
    illegal = turn.record.violation is not None or find_violation(turn.before, ply) is not None
    return PlayedTurn(
        turn.number, turn.side, turn.before, ply, turn.after, turn.record.think, illegal=illegal
    )


def game_from_turns(
    start: GameState,
    turns: Sequence[Turn],
    *,
    rules: Rules = DEFAULT_RULES,
    map_name: str = "",
    names: tuple[str, str] = ("", ""),
    winner: Kind | None = None,
    finished: bool = True,
) -> PlayedGame:
    """The game of an in-process game's turns (:class:`engine.Turn`, as :class:`engine.Game`
    reports them), ``start`` its first board."""
    played = []
    before = start
    for turn in turns:
        played.append(PlayedTurn(turn.number + 1, turn.species, before, turn.ply, turn.state))
        before = turn.state
    return PlayedGame(
        start,
        tuple(played),
        rules,
        map_name,
        {VAMPIRES: names[0], WEREWOLVES: names[1]},
        winner,
        finished,
    )
