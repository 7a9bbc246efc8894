"""What the game viewer shows, built from a transcript's records one at a time.

A :class:`ViewBuilder` turns transcript records (:mod:`protocol.transcript`) into *view
events*, small JSON-ready dicts the page in ``page.html`` understands:

- ``{"type": "start", "map", "rows", "cols", "board", "names"}`` once the board is known
  (from the first ``MAP`` sent); ``board`` holds ``[x, y, kind, count]`` cells, kind 1 for
  humans, 2 vampires, 3 werewolves;
- ``{"type": "names", "names"}`` when a player's name arrives after the start;
- ``{"type": "ply", "ply", "side", "moves", "battles", "board"}`` after each ply
  (``moves`` as ``[x, y, count, tx, ty]``; ``board`` the whole board after it);
- ``{"type": "skip", "ply", "side"}`` for a turn without a reply;
- ``{"type": "result", "winner", "termination", "detail", "plies", "text"}`` at the end.

A replay file embeds all of a game's events; the live view pushes them as they come. Both
draw the same page, so they show the same thing.
"""

from collections.abc import Iterable
from typing import Any

from engine import Kind
from protocol.codec import FROM_SERVER, Decoder, End, Map, ProtocolError, Set, Upd
from protocol.transcript import Frame, Header, Player, Ply, Record, Result, Skip

ViewEvent = dict[str, Any]
Board = dict[tuple[int, int], tuple[int, int]]


def _name(kind: Kind | None) -> str | None:
    return None if kind is None else kind.name.lower()


def _server_messages(raw: bytes) -> list[Any]:
    """The server messages in one frame's bytes (none if they are not valid)."""
    try:
        return Decoder(FROM_SERVER).feed(raw)
    except ProtocolError:
        return []


def _cells(board: Board) -> list[list[int]]:
    return [[x, y, kind, count] for (x, y), (kind, count) in sorted(board.items())]


def _apply_cells(board: Board, cells: Iterable[tuple[int, int, int, int, int]]) -> None:
    """Write MAP/UPD cells (``x, y, humans, vampires, werewolves``) onto ``board``."""
    for x, y, h, v, w in cells:
        board.pop((x, y), None)
        for kind, count in ((Kind.HUMANS, h), (Kind.VAMPIRES, v), (Kind.WEREWOLVES, w)):
            if count:
                board[(x, y)] = (int(kind), count)


class ViewBuilder:
    """Transcript records in, view events out; keeps the game so far for late viewers."""

    def __init__(self) -> None:
        self.events: list[ViewEvent] = []
        self.names: dict[str, str] = {}
        self._map = ""
        self._size: tuple[int, int] | None = None
        self._board: Board | None = None
        self._waiting: ViewEvent | None = None
        """A ply whose board the writer could not see (a proxy's): it waits for the UPD."""
        self._one_sided = False
        """A proxy's or an agent's transcript: one bot's side, no result line."""

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
                if record.rows is not None and record.cols is not None:
                    self._size = (record.rows, record.cols)
            case Player(side=Kind() as side):
                self.names[side.name.lower()] = record.name
                if self._board is not None:
                    return [{"type": "names", "names": dict(self.names)}]
            case Frame(direction="out"):
                return self._server_frame(record)
            case Ply() if self._board is not None:
                return self._ply(record)
            case Skip() if self._board is not None:
                return [{"type": "skip", "ply": record.ply_number, "side": _name(record.side)}]
            case Result():
                return [_result(record)]
        return []

    def _server_frame(self, frame: Frame) -> list[ViewEvent]:
        made: list[ViewEvent] = []
        for message in _server_messages(frame.raw):
            if isinstance(message, Set):
                self._size = (message.rows, message.cols)
            elif isinstance(message, Map) and self._board is None and self._size is not None:
                self._board = {}
                _apply_cells(self._board, message.cells)
                rows, cols = self._size
                made.append(
                    {
                        "type": "start",
                        "map": self._map,
                        "rows": rows,
                        "cols": cols,
                        "board": _cells(self._board),
                        "names": dict(self.names),
                    }
                )
            elif isinstance(message, End) and self._one_sided and self._board is not None:
                return [*made, _ended()]
            elif isinstance(message, Upd) and self._waiting is not None:
                # The UPD after a ply the writer could not see the end of: its board.
                assert self._board is not None
                _apply_cells(self._board, message.cells)
                self._waiting["board"] = _cells(self._board)
                made.append(self._waiting)
                self._waiting = None
        return made

    def _ply(self, ply: Ply) -> list[ViewEvent]:
        assert self._board is not None
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
            "board": None,
        }
        if ply.board is None:
            self._waiting = event
            return []
        self._board = {(x, y): (int(kind), count) for x, y, kind, count in ply.board}
        event["board"] = _cells(self._board)
        return [event]


def _ended() -> ViewEvent:
    """The end of a game seen from one bot's side: END came, the result is not known."""
    return {"type": "result", "winner": None, "termination": "end", "detail": "",
            "plies": None, "text": "game over (END received; the result is the server's)"}


def _result(result: Result) -> ViewEvent:
    winner = _name(result.winner)
    if winner is None:
        text = f"draw ({result.termination}) after {result.plies} plies"
    else:
        text = f"{winner} win by {result.termination} after {result.plies} plies"
    return {
        "type": "result",
        "winner": winner,
        "termination": result.termination,
        "detail": result.detail,
        "plies": result.plies,
        "text": text,
    }


def view_events(records: Iterable[Record]) -> list[ViewEvent]:
    """Every view event of a whole transcript."""
    builder = ViewBuilder()
    for record in records:
        builder.feed(record)
    return builder.events
