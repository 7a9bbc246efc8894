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

from engine import GameState, Kind
from protocol.codec import FROM_SERVER, Decoder, End, ProtocolError
from protocol.session import ClientSession, GameStarted, SessionError, YourTurn
from protocol.transcript import Frame, Header, Player, Ply, Record, Result, Skip

ViewEvent = dict[str, Any]


def _name(kind: Kind | None) -> str | None:
    return None if kind is None else kind.name.lower()


def _server_messages(raw: bytes) -> list[Any]:
    """The server messages in one frame's bytes (none if they are not valid)."""
    try:
        return Decoder(FROM_SERVER).feed(raw)
    except ProtocolError:
        return []


def _cells(state: GameState) -> list[list[int]]:
    cols = state.cols
    return sorted([pos % cols, pos // cols, int(kind), count] for pos, kind, count in state.cells)


class ViewBuilder:
    """Transcript records in, view events out; keeps the game so far for late viewers."""

    def __init__(self) -> None:
        self.events: list[ViewEvent] = []
        self.names: dict[str, str] = {}
        self._map = ""
        self._session = ClientSession()
        """The board as the server told it (the first side's frames only)."""
        self._side: Kind | None = None
        self._started = False
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
            case Player(side=Kind() as side):
                self.names[side.name.lower()] = record.name
                if self._started:
                    return [{"type": "names", "names": dict(self.names)}]
            case Frame(direction="out"):
                return self._server_frame(record)
            case Ply() if self._started:
                return self._ply(record)
            case Skip() if self._started:
                return [{"type": "skip", "ply": record.ply_number, "side": _name(record.side)}]
            case Result():
                return [_result(record)]
        return []

    def _server_frame(self, frame: Frame) -> list[ViewEvent]:
        if self._side is None:
            self._side = frame.side
        if frame.side != self._side:  # the other side was told the same board
            return []
        made: list[ViewEvent] = []
        for message in _server_messages(frame.raw):
            try:
                event = self._session.receive(message)
            except SessionError:  # a server that contradicted the game: show what came before
                return made
            if isinstance(event, GameStarted) and not self._started:
                self._started = True
                state = event.state
                made.append(
                    {
                        "type": "start",
                        "map": self._map,
                        "rows": state.rows,
                        "cols": state.cols,
                        "board": _cells(state),
                        "names": dict(self.names),
                    }
                )
            elif isinstance(event, YourTurn) and self._waiting is not None:
                # The UPD after a ply the writer could not see the end of: its board.
                self._waiting["board"] = _cells(event.state)
                made.append(self._waiting)
                self._waiting = None
            elif isinstance(message, End) and self._one_sided and self._started:
                made.append(_ended())
        return made

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
            "board": None,
        }
        if ply.board is None:
            self._waiting = event
            return []
        event["board"] = sorted([x, y, int(kind), count] for x, y, kind, count in ply.board)
        return [event]


def _ended() -> ViewEvent:
    """The end of a game seen from one bot's side: END came, the result is not known."""
    return {
        "type": "result",
        "winner": None,
        "termination": "end",
        "detail": "",
        "plies": None,
        "text": "game over (END received; the result is the server's)",
    }


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
