"""What the game viewer shows, built from a transcript's records one at a time.

A :class:`ViewBuilder` turns transcript records (:mod:`protocol.transcript`) into *view
events*, small JSON-ready dicts the page in ``page.html`` understands:

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
from protocol.codec import FROM_BOT, FROM_SERVER, Decoder, End, Mov, ProtocolError
from protocol.session import ClientSession, GameStarted, SessionError, YourTurn
from protocol.transcript import IN, OUT, Frame, Header, Player, Ply, Record, Result, Skip

ViewEvent = dict[str, Any]
Board = dict[tuple[int, int], tuple[int, int]]
"""A board as the builder keeps it: ``(x, y) → (kind, count)`` for non-empty cells."""

SHOWN_BYTES = 64
"""Bytes of a refused frame the page shows (a bot may send kilobytes of garbage)."""
RECEIVED_FRAMES = 4
"""Frames of the refused turn the page shows, the last ones."""

_FAULTS = frozenset(
    termination.value
    for termination in (
        Termination.ILLEGAL_PLY,
        Termination.PROTOCOL_ERROR,
        Termination.TIME_FORFEIT,
        Termination.DISCONNECT,
        Termination.CRASH,
    )
)
"""Terminations where the loser's own turn lost the game (what it sent, if anything, shows)."""


def _name(kind: Kind | None) -> str | None:
    return None if kind is None else kind.name.lower()


def _messages(raw: bytes, direction: str) -> list[Any]:
    """The messages in one frame's bytes (none if they are not valid)."""
    try:
        return Decoder(FROM_SERVER if direction == OUT else FROM_BOT).feed(raw)
    except ProtocolError:
        return []


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
        self._session = ClientSession()
        """The board as the server told it (the first side's frames only)."""
        self._side: Kind | None = None
        self._started = False
        self._board: Board = {}
        """The board after the last ply shown: what the next ply's changes are taken from."""
        self._waiting: tuple[ViewEvent, Board] | None = None
        """A ply whose board the writer could not see (a proxy's), and the board before it:
        it waits for the UPD."""
        self._one_sided = False
        """A proxy's or an agent's transcript: one bot's side, no result line."""
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
        made = self._events_of(record)
        self.events.extend(made)
        return made

    def _events_of(self, record: Record) -> list[ViewEvent]:
        match record:
            case Header():
                self._map = record.map or ""
                self._one_sided = record.source != "server"
            case Player(side=Kind() as side) if side.name.lower() not in self._named:
                self.names[side.name.lower()] = record.name
                if self._started:
                    return [{"type": "names", "names": dict(self.names)}]
            case Frame(direction="in", side=Kind() as side):
                self._turn_frames.setdefault(side, []).append(record)
                if record.command == "MOV":
                    self._moved_at[side] = record.t
            case Frame(direction="out"):
                if record.side is not None and record.command == "UPD":
                    self._asked_at[record.side] = record.t
                elif record.side is not None and record.command == "MAP":
                    self._turn_frames.pop(record.side, None)  # its NME is no turn of the game
                return self._server_frame(record)
            case Ply() if self._started:
                self._turn_frames.pop(record.side, None)
                return self._ply(record)
            case Skip() if self._started:
                self._turn_frames.pop(record.side, None)
                return [{"type": "skip", "ply": record.ply_number, "side": _name(record.side)}]
            case Result():
                return [self._result(record)]
        return []

    def _server_frame(self, frame: Frame) -> list[ViewEvent]:
        if self._side is None:
            self._side = frame.side
        if frame.side != self._side:  # the other side was told the same board
            return []
        made: list[ViewEvent] = []
        for message in _messages(frame.raw, OUT):
            try:
                event = self._session.receive(message)
            except SessionError:  # a server that contradicted the game: show what came before
                return made
            if isinstance(event, GameStarted) and not self._started:
                self._started = True
                self._board = _board(event.state)
                made.append(
                    {
                        "type": "start",
                        "map": self._map,
                        "rows": event.state.rows,
                        "cols": event.state.cols,
                        "board": _cells(self._board),
                        "names": dict(self.names),
                    }
                )
            elif isinstance(event, YourTurn) and self._waiting is not None:
                # The UPD after a ply the writer could not see the end of: its board.
                waiting, before = self._waiting
                self._board = _board(event.state)
                waiting["changes"] = _changes(before, self._board)
                made.append(waiting)
                self._waiting = None
            elif isinstance(message, End) and self._one_sided and self._started:
                made.append(_ended())
        return made

    def _think(self, ply: Ply) -> float | None:
        """The ply's think time: as the writer measured it, else from the frames' times."""
        if ply.think is not None:
            return round(ply.think, 4)
        asked, moved = self._asked_at.get(ply.side), self._moved_at.get(ply.side)
        if asked is None or moved is None or moved < asked:
            return None
        return round(moved - asked, 4)

    def _ply(self, ply: Ply) -> list[ViewEvent]:
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
            "violation": ply.violation,
            "changes": None,
        }
        if ply.board is None:
            self._waiting = (event, self._board)
            return []
        after = {(x, y): (int(kind), count) for x, y, kind, count in ply.board}
        event["changes"] = _changes(self._board, after)
        self._board = after
        return [event]

    def _result(self, result: Result) -> ViewEvent:
        winner = _name(result.winner)
        if winner is None:
            text = f"draw ({result.termination}) after {result.plies} plies"
        else:
            text = f"{winner} win by {result.termination} after {result.plies} plies"
        loser = None if result.winner is None else opponent(result.winner)
        return {
            "type": "result",
            "winner": winner,
            "loser": _name(loser),
            "termination": result.termination,
            "detail": result.detail,
            "plies": result.plies,
            "text": text,
            "refused": self._refused(loser) if result.termination in _FAULTS else None,
        }

    def _refused(self, loser: Kind | None) -> ViewEvent | None:
        """The turn that lost the game, as the loser sent it; ``None`` if it sent nothing."""
        sent = self._turn_frames.get(loser) if loser is not None else None
        if not sent:
            return None
        messages = [message for frame in sent for message in _messages(frame.raw, IN)]
        last = [message for message in messages if isinstance(message, Mov)][-1:]
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
