"""What the game viewer shows, built from a transcript's records one at a time.

A :class:`ViewBuilder` turns transcript records (:mod:`protocol.transcript`) into *view
events*, small JSON-ready dicts the page's script (``viewer.js``) understands:

- ``{"type": "start", "map", "rows", "cols", "board", "names"}`` once the board is known
  (from the first ``MAP`` sent); ``board`` holds ``[x, y, kind, count]`` cells, kind 1 for
  humans, 2 vampires, 3 werewolves;
- ``{"type": "names", "names"}`` when a player's name arrives after the start;
- ``{"type": "ply", "ply", "side", "moves", "battles", "think", "violation", "changes"}``
  after each ply: ``moves`` as ``[x, y, count, tx, ty]``; ``think`` the seconds from the
  UPD sent to the MOV received (``None`` when unknown); ``violation`` the rule the ply
  breaks as our referee judges it (a proxy's game on another server), else ``None``;
  ``changes`` the cells the ply changed, ``[x, y, kind, count]`` with kind and count 0 for
  a cell it emptied (the page keeps the boards; a big map's replay stays small);
- ``{"type": "skip", "ply", "side"}`` for a turn without a reply;
- ``{"type": "result", "winner", "loser", "termination", "detail", "plies", "text",
  "refused"}`` at the end; ``refused`` is the turn that lost the game when the loser sent
  something in it (an illegal ply, bytes that are no message): ``{"side", "moves",
  "received"}``, ``received`` the frames as ``{"text", "hex", "bytes"}`` (``hex`` cut to
  :data:`SHOWN_BYTES`), else ``None``.

A replay file embeds all of a game's events; the live view pushes them as they come. Both
draw the same page, so they show the same thing.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from engine import GameState, Kind, Termination, opponent
from protocol.codec import FROM_BOT, Decoder, Mov, ProtocolError
from protocol.records import Command, Direction, Frame, Header, Player, Ply, Record, Result, Skip
from protocol.replay import Ended, ReplayedTurn, Replayer, ReplayEvent, Started, Told

ViewEvent = dict[str, Any]
Board = dict[tuple[int, int], tuple[int, int]]
"""A board as the builder keeps it: ``(x, y) → (kind, count)`` for non-empty cells."""

SHOWN_BYTES = 64
"""Bytes of a refused frame the page shows (a bot may send kilobytes of garbage)."""
RECEIVED_FRAMES = 4
"""Frames of the refused turn the page shows, the last ones."""

_FAULTS = frozenset(
    {
        Termination.ILLEGAL_PLY,
        Termination.PROTOCOL_ERROR,
        Termination.TIME_FORFEIT,
        Termination.DISCONNECT,
        Termination.CRASH,
    }
)
"""Terminations where the loser's own turn lost the game (what it sent, if anything, shows)."""


def _name(kind: Kind | None) -> str | None:
    return None if kind is None else kind.wire_name


def _moves(raw: bytes) -> list[Any]:
    """The moves of the MOVs a bot sent in one frame's bytes (none if they are not valid)."""
    try:
        messages = Decoder(FROM_BOT).feed(raw)
    except ProtocolError:
        return []
    return [message for message in messages if isinstance(message, Mov)]


def _board(state: GameState) -> Board:
    cols = state.cols
    return {(pos % cols, pos // cols): (int(kind), count) for pos, kind, count in state.cells}


def _cells(board: Board) -> list[list[int]]:
    return [[x, y, kind, count] for (x, y), (kind, count) in sorted(board.items())]


def _changes(before: Board, after: Board) -> list[list[int]]:
    """The cells that differ, ``[x, y, kind, count]``; kind and count 0 for an emptied cell."""
    changed = [
        [x, y, *after.get((x, y), (0, 0))]
        for (x, y) in before.keys() | after.keys()
        if before.get((x, y)) != after.get((x, y))
    ]
    return sorted(changed)


class ViewBuilder:
    """Transcript records in, view events out; keeps the game so far for late viewers.

    The boards are the one replay reader's (:class:`protocol.replay.Replayer`); the
    builder adds what the page shows besides: the names, the think times, the refused turn.
    ``names`` (``{"vampires": …, "werewolves": …}``) are the players' names to show, when
    the caller knows them (a match's or a tournament's participants); else the names the
    bots sent, as the transcript has them.
    """

    def __init__(self, names: Mapping[str, str] | None = None) -> None:
        self.events: list[ViewEvent] = []
        self.names: dict[str, str] = dict(names or {})
        self._named = frozenset(self.names)
        """The sides whose names were given: their bots' own are not shown."""
        self._map = ""
        self._replayer = Replayer()
        self._started = False
        self._board: Board = {}
        """The board after the last ply shown: what the next ply's changes are taken from."""
        self._waiting: tuple[ViewEvent, Board] | None = None
        """A ply whose board the writer could not see (a proxy's), and the board before it:
        it waits for the UPD."""
        self._asked_at: dict[Kind, float] = {}
        """When each side was last sent an UPD: its think time runs from there."""
        self._moved_at: dict[Kind, float] = {}
        """When each side's last MOV was received."""
        self._turn_frames: dict[Kind, list[Frame]] = {}
        """What each side sent since its last turn was played: the refused turn, if the
        game ends on it."""

    @property
    def finished(self) -> bool:
        """Whether the game's result has been seen."""
        return bool(self.events) and self.events[-1]["type"] == "result"

    @property
    def plies(self) -> int:
        """Plies (and skipped turns) seen so far."""
        return sum(1 for event in self.events if event["type"] in ("ply", "skip"))

    def feed(self, record: Record) -> list[ViewEvent]:
        """Take one record; return the view events it makes (often none)."""
        self._note(record)
        made = self._events_of(record)
        for replayed in self._replayer.feed(record):
            made.extend(self._replayed(replayed))
        self.events.extend(made)
        return made

    def _note(self, record: Record) -> None:
        """What the page shows beside the boards: the map, the times, the frames a side sent."""
        match record:
            case Header():
                self._map = record.map or ""
            case Frame(direction=Direction.IN, side=Kind() as side):
                self._turn_frames.setdefault(side, []).append(record)
                if record.command is Command.MOV:
                    self._moved_at[side] = record.t
            case Frame(direction=Direction.OUT, side=Kind() as side):
                if record.command is Command.UPD:
                    self._asked_at[side] = record.t
                elif record.command is Command.MAP:
                    self._turn_frames.pop(side, None)  # its NME is no turn of the game
            case Ply() | Skip():
                self._turn_frames.pop(record.side, None)

    def _events_of(self, record: Record) -> list[ViewEvent]:
        if isinstance(record, Player) and record.side is not None:
            side = record.side.wire_name
            if side not in self._named:
                self.names[side] = record.name
                if self._started:
                    return [{"type": "names", "names": dict(self.names)}]
        return []

    def _replayed(self, replayed: ReplayEvent) -> list[ViewEvent]:
        match replayed:
            case Started(state) if not self._started:
                self._started = True
                self._board = _board(state)
                return [
                    {
                        "type": "start",
                        "map": self._map,
                        "rows": state.rows,
                        "cols": state.cols,
                        "board": _cells(self._board),
                        "names": dict(self.names),
                    }
                ]
            case Told(state) if self._waiting is not None:
                # The UPD after a ply the writer could not see the end of: its board.
                waiting, before = self._waiting
                self._board = _board(state)
                waiting["changes"] = _changes(before, self._board)
                self._waiting = None
                return [waiting]
            case ReplayedTurn(record=Skip() as skip) if self._started:
                return [{"type": "skip", "ply": skip.ply_number, "side": _name(skip.side)}]
            case ReplayedTurn(record=Ply() as ply, after=after) if self._started:
                return self._ply(ply, after)
            case Ended(result=None) if self._started:
                return [_ended()]
            case Ended(result=Result() as result):
                return [self._result(result)]
        return []

    def _think(self, ply: Ply) -> float | None:
        """The ply's think time: as the writer measured it, else from the frames' times."""
        if ply.think is not None:
            return round(ply.think, 4)
        asked, moved = self._asked_at.get(ply.side), self._moved_at.get(ply.side)
        if asked is None or moved is None or moved < asked:
            return None
        return round(moved - asked, 4)

    def _ply(self, ply: Ply, after: GameState | None) -> list[ViewEvent]:
        event: ViewEvent = {
            "type": "ply",
            "ply": ply.ply_number,
            "side": _name(ply.side),
            "moves": [list(move) for move in ply.moves],
            "battles": [
                {
                    "cell": list(b.cell),
                    "attacker": _name(b.attacker),
                    "attackers": b.attackers,
                    "defender": _name(b.defender),
                    "defenders": b.defenders,
                    "p": b.attacker_win_probability,
                    "winner": _name(b.winner),
                    "survivors": b.survivors,
                }
                for b in ply.battles
            ],
            "think": self._think(ply),
            "violation": None if ply.violation is None else str(ply.violation),
            "changes": None,
        }
        if after is None:
            self._waiting = (event, self._board)
            return []
        board = _board(after)
        event["changes"] = _changes(self._board, board)
        self._board = board
        return [event]

    def _result(self, result: Result) -> ViewEvent:
        loser = None if result.winner is None else opponent(result.winner)
        return {
            "type": "result",
            "winner": _name(result.winner),
            "loser": _name(loser),
            "termination": result.termination.value,
            "detail": result.detail,
            "plies": result.plies,
            "text": result.sentence,
            "refused": self._refused(loser) if result.termination in _FAULTS else None,
        }

    def _refused(self, loser: Kind | None) -> ViewEvent | None:
        """The turn that lost the game, as the loser sent it; ``None`` if it sent nothing."""
        sent = self._turn_frames.get(loser) if loser is not None else None
        if not sent:
            return None
        last = [message for frame in sent for message in _moves(frame.raw)][-1:]
        moves = [list(move) for message in last for move in message.moves]
        return {
            "side": _name(loser),
            "moves": moves,
            "received": [
                {
                    "text": frame.text,
                    "hex": frame.raw[:SHOWN_BYTES].hex(" "),
                    "bytes": len(frame.raw),
                }
                for frame in sent[-RECEIVED_FRAMES:]
            ],
        }


def _ended() -> ViewEvent:
    """The end of a game seen from one bot's side: END came, the result is not known."""
    return {
        "type": "result",
        "winner": None,
        "loser": None,
        "termination": "end",
        "detail": "",
        "plies": None,
        "text": "game over (END received; the result is the server's)",
        "refused": None,
    }


def view_events(
    records: Iterable[Record], names: Mapping[str, str] | None = None
) -> list[ViewEvent]:
    """Every view event of a whole transcript (``names``: see :class:`ViewBuilder`)."""
    builder = ViewBuilder(names)
    for record in records:
        builder.feed(record)
    return builder.events
