"""A game replayed from its transcript: the one reader of the boards a transcript tells, sans I/O.

Every tool that shows or judges a past or running game reads it through here: ``vvw log
show``, the replay page and the live view (:mod:`vvw.web.model`), the analysis
(:mod:`vvw.analysis.game`). A :class:`Replayer` is fed a transcript's typed records
(:mod:`protocol.records`) one at a time, as a followed file or a running game gives them,
and answers what each tells of the game: :class:`Started` (the first board), a
:class:`ReplayedTurn` (a ply or a skipped turn, with the board before and after it),
:class:`Told` (a board the server sent a watched bot), :class:`Ended`. :func:`replay` reads a
whole transcript into a :class:`Replay`.

Where the boards come from:

- a server's transcript (``vvw serve``, ``match``, ``tournament``) holds every turn of both
  sides with the board after it, and its header the first board (transcripts of before the
  header held it tell it in the first MAP frame, decoded here);
- a proxy's or an agent's transcript holds one bot's side: the boards come from the server's
  frames to it (MAP, each UPD); the board after a ply with a random battle is not seen (the
  next UPD comes after the other side's ply too), and the other side's turns are not there.
"""

from collections.abc import Iterable, Mapping

import attrs

from engine import GameState, Kind, Move, Rules
from engine.rules import DEFAULT_RULES
from protocol.codec import FROM_SERVER, Decoder, ProtocolError
from protocol.records import (
    Command,
    Direction,
    Frame,
    Header,
    Player,
    Ply,
    Record,
    Result,
    Skip,
    Source,
)
from protocol.session import ClientSession, GameStarted, SessionError, YourTurn


@attrs.frozen
class Started:
    """The board is known: the game's first board (no ply played)."""

    state: GameState


@attrs.frozen
class ReplayedTurn:
    """One turn as it was played: a ply, or a skipped turn."""

    number: int
    """Plies played after it (1 for the vampires' first turn); the board before it has
    ``number - 1`` plies played."""
    side: Kind
    before: GameState
    after: GameState | None
    """The board after the turn; ``None`` when the transcript does not show it (a random
    battle a proxy or an agent did not see)."""
    record: Ply | Skip
    """The transcript's record of the turn: the moves, battles, think time, violation."""

    @property
    def ply(self) -> tuple[Move, ...] | None:
        """The moves played; ``None`` for a skipped turn."""
        return self.record.moves if isinstance(self.record, Ply) else None


@attrs.frozen
class Told:
    """A board the server told the watched bot (an UPD's): in a one-sided transcript, what
    a ply whose board was not seen led to, the other side's ply included."""

    state: GameState


@attrs.frozen
class Ended:
    """The game is over: its result; ``None`` when the transcript is one bot's side, which
    sees END but not how the game was judged."""

    result: Result | None


ReplayEvent = Started | ReplayedTurn | Told | Ended


class Replayer:
    """Transcript records in, the game they tell out, one record at a time."""

    def __init__(self) -> None:
        self.header: Header | None = None
        self.names: dict[Kind, str] = {}
        """Each side's name, as its bot sent it."""
        self.start: GameState | None = None
        """The first board, once known."""
        self.board: GameState | None = None
        """The last board known: the next turn's before (``None`` after a ply whose board
        was not seen, until the next UPD)."""
        self.turns: list[ReplayedTurn] = []
        self.ended: Ended | None = None
        self._session = ClientSession()
        """The watched side's view of the game, from the server's frames to it."""
        self._watched: Kind | None = None
        self._watching = False
        self._first: GameState | None = None
        """A server's header's first board: then every board is in the records."""

    @property
    def one_sided(self) -> bool:
        """Whether the transcript is one bot's side (a proxy's, an agent's)."""
        return self.header is not None and self.header.source is not Source.SERVER

    @property
    def rules(self) -> Rules:
        """The rules the game was played under (the course's if the header does not say)."""
        rules = None if self.header is None else self.header.rules
        return rules or DEFAULT_RULES

    @property
    def size(self) -> tuple[int, int] | None:
        """The grid's ``(rows, cols)``, once known (the header, else SET)."""
        if self.header is not None and self.header.rows and self.header.cols:
            return self.header.rows, self.header.cols
        if self._session.rows and self._session.cols:
            return self._session.rows, self._session.cols
        return None

    def feed(self, record: Record) -> list[ReplayEvent]:
        """Take the transcript's next record; return what it tells of the game (often
        nothing)."""
        match record:
            case Header():
                self.header = record
                self._first = None if self.one_sided else record.start
            case Player(side=Kind() as side):
                self.names[side] = record.name
            case Frame(direction=Direction.OUT):
                return self._server_frame(record)
            case Ply() | Skip() if self.board is not None:
                turn = _turn(self.board, record)
                self.turns.append(turn)
                self.board = turn.after
                return [turn]
            case Result():
                self.ended = Ended(record)
                return [self.ended]
        return []

    def _server_frame(self, frame: Frame) -> list[ReplayEvent]:
        """What the server told the side whose frames are read (the first one seen): the
        other side was told the same game."""
        if not self._watching:
            self._watched, self._watching = frame.side, True
        if frame.side != self._watched:
            return []
        if self._first is not None:  # nothing to decode: every board is in the records
            if frame.command is Command.MAP and self.start is None:
                return self._begin(self._first)
            return []
        made: list[ReplayEvent] = []
        for state in _boards(self._session, frame.raw):
            if self.start is None:
                made.extend(self._begin(state))
            elif self.one_sided:  # a server's plies hold their boards
                self.board = state
                made.append(Told(state))
        if frame.command is Command.END and self.one_sided and self.start is not None:
            self.ended = Ended(None)
            made.append(self.ended)
        return made

    def _begin(self, state: GameState) -> list[ReplayEvent]:
        self.start = self.board = state.with_ply(0)
        return [Started(self.start)]


def _turn(before: GameState, record: Ply | Skip) -> ReplayedTurn:
    """The turn ``record`` tells, played from ``before``."""
    if isinstance(record, Skip):  # a skip's ply_number is the turn's own (plies before it)
        start = before.with_ply(record.ply_number)
        after = start.with_ply(record.ply_number + 1)
        return ReplayedTurn(record.ply_number + 1, record.side, start, after, record)
    number = record.ply_number
    start = before.with_ply(number - 1)
    played = None
    if record.board is not None:
        cells = {(x, y): (kind, n) for x, y, kind, n in record.board}
        played = GameState.from_cells(start.rows, start.cols, cells, number)
    return ReplayedTurn(number, record.side, start, played, record)


def _boards(session: ClientSession, raw: bytes) -> list[GameState]:
    """The boards the server's message(s) in ``raw`` tell: the start, then each UPD's; none
    for bytes that are no message, none from a server that contradicted the game."""
    try:
        messages = Decoder(FROM_SERVER).feed(raw)
    except ProtocolError:
        return []
    boards: list[GameState] = []
    for message in messages:
        try:
            event = session.receive(message)
        except SessionError:
            return boards
        if isinstance(event, GameStarted | YourTurn):
            boards.append(event.state)
    return boards


@attrs.frozen
class Replay:
    """A whole transcript's game."""

    header: Header | None
    start: GameState
    turns: tuple[ReplayedTurn, ...]
    rules: Rules = DEFAULT_RULES
    names: Mapping[Kind, str] = attrs.field(factory=dict)
    ended: Ended | None = None
    """``None`` when the transcript stops before the end."""

    @property
    def result(self) -> Result | None:
        """How the game ended, when the transcript says."""
        return None if self.ended is None else self.ended.result


def replay(records: Iterable[Record]) -> Replay:
    """The game of a whole transcript's records; ``ValueError`` if they hold no board."""
    replayer = Replayer()
    for record in records:
        replayer.feed(record)
    if replayer.start is None:
        raise ValueError("no game in it (no MAP message)")
    return Replay(
        replayer.header,
        replayer.start,
        tuple(replayer.turns),
        replayer.rules,
        replayer.names,
        replayer.ended,
    )
