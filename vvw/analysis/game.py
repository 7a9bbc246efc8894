"""The game to analyse: each turn's board before it, the ply played, the board after.

Read from a transcript's typed records (:func:`game_from_records`) or from the turns an
in-process game reports (:func:`game_from_turns`, the calibration benchmark's way). A
server's transcript (``vvw serve``, ``match``, ``tournament``) holds every turn of both
sides with the board after it. A proxy's or an agent's transcript holds one bot's turns:
the board before each comes from the server's UPD, the board after a ply with a random
battle is not seen (the next UPD comes after the other side's ply too); the other side's
turns are not there at all.
"""

from collections.abc import Iterable, Mapping, Sequence

import attrs

from engine import GameState, Kind, Ply, Rules, Turn, Variant, find_violation
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.rules import DEFAULT_RULES
from protocol.codec import FROM_SERVER, Decoder, ProtocolError
from protocol.session import ClientSession, GameStarted, SessionError, YourTurn
from protocol.transcript import OUT, Frame, Header, Player, Record, Result, Skip
from protocol.transcript import Ply as PlyRecord


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


def rules_of(settings: Mapping[str, object]) -> Rules:
    """The rules a transcript's header says the game was played under (the course's if
    it does not say)."""
    given = settings.get("rules")
    if not isinstance(given, dict):
        return DEFAULT_RULES
    try:
        return Rules(Variant(given.get("variant", "server")), int(given.get("max_plies", 200)))
    except (ValueError, TypeError):
        return DEFAULT_RULES


def game_from_records(records: Iterable[Record]) -> PlayedGame:
    """The game of a transcript's records; ``ValueError`` if it holds no board (no MAP)."""
    session = ClientSession()
    watched: Kind | None = None
    """The side whose server frames give the boards (the first one seen)."""
    start: GameState | None = None
    current: GameState | None = None
    turns: list[PlayedTurn] = []
    names: dict[Kind, str] = {}
    rules, map_name = DEFAULT_RULES, ""
    winner: Kind | None = None
    finished, result = False, ""
    for record in records:
        match record:
            case Header():
                rules, map_name = rules_of(record.settings), record.map or ""
            case Player(side=Kind() as side):
                names[side] = record.name
            case Frame(direction=direction, side=Kind() as side) if direction == OUT:
                watched = watched or side
                if side != watched:
                    continue
                for state in _boards(session, record.raw):
                    if start is None:
                        start = current = state.with_ply(0)
                    else:
                        current = state
            case PlyRecord() if current is not None:
                number = record.ply_number
                before = current.with_ply(number - 1)
                ply = tuple(record.moves)
                after = None
                if record.board is not None:
                    cells = {(x, y): (kind, n) for x, y, kind, n in record.board}
                    after = GameState.from_cells(before.rows, before.cols, cells, number)
                illegal = record.violation is not None or find_violation(before, ply) is not None
                turns.append(
                    PlayedTurn(
                        number, record.side, before, ply, after, record.think, illegal=illegal
                    )
                )
                current = after
            case Skip() if current is not None:
                # A skip's ply_number is the turn's own (plies played before it).
                before = current.with_ply(record.ply_number)
                after = before.with_ply(record.ply_number + 1)
                turns.append(PlayedTurn(record.ply_number + 1, record.side, before, None, after))
                current = after
            case Result():
                winner, finished = record.winner, True
                if winner is None:
                    result = f"draw ({record.termination}) after {record.plies} plies"
                else:
                    side_name = winner.name.lower()
                    result = f"{side_name} win by {record.termination} after {record.plies} plies"
    if start is None:
        raise ValueError("no game in it (no MAP message)")
    return PlayedGame(start, tuple(turns), rules, map_name, names, winner, finished, result)


def _boards(session: ClientSession, raw: bytes) -> list[GameState]:
    """The boards the server's message(s) in ``raw`` tell: the start, then each UPD's."""
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
