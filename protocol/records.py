"""A transcript's typed records: what each line of a game's transcript says, meaning as types.

:mod:`protocol.transcript` makes these records and writes each as one JSON line;
:mod:`protocol.reading` reads the lines back as the same records; :mod:`protocol.replay`
rebuilds the game's boards from them. The enums are written as their values (``"in"``,
``"server"``, ``"MOV"``, ``"illegal ply"``), as every version of the format wrote them.
"""

import re
from collections.abc import Mapping
from enum import Enum
from typing import Any

import attrs

from engine import GameState, Kind, Move, Rules, Termination, Variant
from engine.drawing import BoardCell
from engine.legality import Rule


class Source(Enum):
    """What wrote a transcript: our server (both sides, the result), or one bot's side of a
    game seen by ``vvw proxy`` or ``vvw agent --transcript`` (no result)."""

    SERVER = "server"
    PROXY = "proxy"
    AGENT = "agent"


class Direction(Enum):
    """Which way a frame went, seen from the server whoever wrote the file."""

    IN = "in"
    """Bot → server."""
    OUT = "out"
    """Server → bot."""


class Command(Enum):
    """A message's 3-letter command."""

    NME = "NME"
    MOV = "MOV"
    SET = "SET"
    HUM = "HUM"
    HME = "HME"
    MAP = "MAP"
    UPD = "UPD"
    END = "END"
    BYE = "BYE"


_RULE = re.compile(r"rule (\d+) \((.*?)\): ")


@attrs.frozen
class Violation:
    """The rule a ply breaks as our referee judged it; ``str()`` is the line as written
    (``rule 3 (…): (2,2) holds 8, …``)."""

    rule: Rule | None
    """``None`` for a wording this version does not know."""
    text: str

    @classmethod
    def read(cls, text: str) -> "Violation":
        """The violation a transcript line states."""
        found = _RULE.match(text)
        wanted = None if found is None else (int(found[1]), found[2])
        rule = next((rule for rule in Rule if (rule.number, rule.text) == wanted), None)
        return cls(rule, text)

    def __str__(self) -> str:
        return self.text


@attrs.frozen
class Header:
    """The first line: what wrote the file, for which game."""

    t: float
    version: int
    source: Source
    """:attr:`Source.SERVER` for version 0."""
    map: str | None
    seed: int | None
    rows: int | None
    """The grid size, when the writer knew it (the proxy and the agent take it from SET)."""
    cols: int | None
    settings: Mapping[str, Any]
    peer: str | None
    """The other end of the connection, for a proxy or agent transcript."""
    board: tuple[BoardCell, ...] | None = None
    """The board before the first ply, when the writer wrote it (our server since the
    header carried it; earlier transcripts tell it in the MAP frame only)."""

    @property
    def start(self) -> GameState | None:
        """The board before the first ply, if the header holds it."""
        if self.board is None or not self.rows or not self.cols:
            return None
        cells = {(x, y): (kind, count) for x, y, kind, count in self.board}
        return GameState.from_cells(self.rows, self.cols, cells)

    @property
    def rules(self) -> Rules | None:
        """The rules the game was played under, if the header says (a server's settings)."""
        given = self.settings.get("rules")
        if not isinstance(given, dict):
            return None
        try:
            return Rules(Variant(given.get("variant", "server")), int(given.get("max_plies", 200)))
        except (ValueError, TypeError):
            return None


@attrs.frozen
class Player:
    """A side's name (as sent in NME) and where it connected from."""

    t: float
    side: Kind | None
    name: str
    peer: str | None


@attrs.frozen
class Frame:
    """One message on the wire, as the bytes went (``raw``) and decoded (``text``)."""

    t: float
    side: Kind | None
    """Whose connection; ``None`` before a side was known."""
    direction: Direction
    command: Command | None
    """``None`` for bytes that are not a valid message."""
    text: str
    raw: bytes


@attrs.frozen
class BattleRecord:
    """A random battle of a ply: who, how many, the odds, and the outcome if known."""

    cell: tuple[int, int]
    attacker: Kind
    attackers: int
    defender: Kind
    defenders: int
    attacker_win_probability: float
    winner: Kind | None
    """``None`` when the writer could not see the draw (a proxy or agent transcript)."""
    survivors: int | None
    outcome_probability: float | None


@attrs.frozen
class Ply:
    """One player's turn: the moves, and the board after them when known."""

    t: float
    side: Kind
    ply_number: int
    moves: tuple[Move, ...]
    board: tuple[BoardCell, ...] | None
    """The board after the ply; ``None`` when a random battle the writer could not see
    decides it (the next UPD tells the outcome)."""
    battles: tuple[BattleRecord, ...]
    think: float | None
    """Seconds from the UPD sent to the MOV received, when the writer measured it."""
    violation: Violation | None
    """The rule the ply breaks as our referee judges it, else ``None``."""


@attrs.frozen
class Skip:
    """A turn the mover did not answer in time (the turn was skipped)."""

    t: float
    side: Kind
    ply_number: int


@attrs.frozen
class Note:
    """Something the writer flagged: a malformed message, a message out of place…"""

    t: float
    side: Kind | None
    text: str


@attrs.frozen
class Result:
    """How the game ended (our server's :class:`~engine.GameResult`, field by field)."""

    t: float
    winner: Kind | None
    termination: Termination
    detail: str
    plies: int
    fields: Mapping[str, Any]
    """Every field of the line but ``type`` and ``t``, for what the typed ones leave out
    (the players' records…)."""

    @property
    def sentence(self) -> str:
        """The end in words: ``vampires win by elimination after 31 plies``, ``draw (ply
        limit) after 200 plies``."""
        how = self.termination.value
        if self.winner is None:
            return f"draw ({how}) after {self.plies} plies"
        return f"{self.winner.wire_name} win by {how} after {self.plies} plies"


Record = Header | Player | Frame | Ply | Skip | Note | Result
