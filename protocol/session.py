"""The client side of a connection, sans-I/O: the board a bot knows, kept from MAP and UPD.

Every bot, proxy, test fake and benchmark that plays the client side feeds each message the
server sends (decoded with ``Decoder(FROM_SERVER)``) to one :class:`ClientSession`, in order.
The session keeps what the server said — the grid size, the houses, the home cell, our
species and the board — and tells what each message means for the bot::

    session = ClientSession()
    for message in decoder.feed(data):
        match session.receive(message):
            case GameStarted(species, state): ...   # MAP: the game begins, we play `species`
            case YourTurn(state, turn): ...          # UPD: answer with a MOV for `state`
            case GameOver(state): ...                # END closed a game
            case Goodbye(): ...                      # BYE: the server closes the connection
            case None: ...                           # SET, HUM, HME, or END outside a game

The board given with :class:`YourTurn` is an engine :class:`~engine.GameState` whose
``to_move`` is always our species: its ply number is ``2 * turn`` for the vampires and
``2 * turn + 1`` for the werewolves, ``turn`` counting the UPDs of this game before this
one (a client cannot know how many turns the server skipped).

A message that contradicts the game (an UPD before MAP, a cell outside the grid, two kinds
on one cell, no creature of ours on the HME cell…) raises :class:`SessionError`. The session
then stays failed: every later :meth:`~ClientSession.receive` raises the same error. SET
starts a new game, on the same connection, whatever came before.
"""

from collections.abc import Iterable

import attrs

from engine import GameState, Kind
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from protocol.codec import Bye, CellBytes, End, Hme, Hum, Map, Message, Set, Upd, message_name


class SessionError(Exception):
    """The server sent a well-formed message that contradicts the game so far.

    ``command`` is the message's 3-letter command; ``str(error)`` says what is wrong.
    """

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(reason)
        self.command = command
        self.reason = reason


@attrs.frozen
class GameStarted:
    """MAP arrived: a game begins and we play ``species``; ``state`` is the starting board."""

    species: Kind
    state: GameState


@attrs.frozen
class YourTurn:
    """UPD arrived: the board as it is now; the server waits for our MOV."""

    state: GameState
    turn: int
    """UPDs of this game before this one (0 for the first)."""


@attrs.frozen
class GameOver:
    """END closed a game; ``state`` is the last board we were told of."""

    state: GameState


@attrs.frozen
class Goodbye:
    """BYE: the server closes the connection."""


Event = GameStarted | YourTurn | GameOver | Goodbye


class ClientSession:
    """The board and the game as one client sees them, from the server's messages alone."""

    def __init__(self) -> None:
        self._failed: SessionError | None = None
        self._new_game(0, 0)
        self.in_game = False

    def _new_game(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.houses: tuple[tuple[int, int], ...] = ()
        """The human houses HUM listed at the start of the game."""
        self.home: tuple[int, int] | None = None
        """Our starting cell (HME)."""
        self.species: Kind | None = None
        """The species we play in the current (or last) game; ``None`` before its MAP."""
        self.turn = 0
        """UPDs received in the current game."""
        self.in_game = True
        """True from SET to END."""
        self._cells: dict[tuple[int, int], tuple[Kind, int]] = {}

    @property
    def state(self) -> GameState | None:
        """The board as we know it now (``to_move`` our species); ``None`` before MAP.

        After END it stays the game's last board until the next SET."""
        if self.species is None:
            return None
        ply = 2 * self.turn + (self.species == WEREWOLVES)
        return GameState.from_cells(self.rows, self.cols, self._cells, ply)

    def receive(self, message: Message) -> Event | None:
        """Take the server's next message: what it means for the bot, or ``None``.

        Raises :class:`SessionError` if the message contradicts the game; a message a
        server never sends (NME, MOV) is a :class:`TypeError`, a bug of the caller.
        """
        if self._failed is not None:
            raise self._failed
        try:
            return self._receive(message)
        except SessionError as error:
            self._failed = error
            raise

    def _receive(self, message: Message) -> Event | None:
        match message:
            case Set(rows, cols):
                if rows < 1 or cols < 1:
                    raise SessionError("SET", f"SET {rows} {cols}: an empty grid")
                self._new_game(rows, cols)
            case Hum(houses):
                self._expect_set("HUM")
                self.houses = tuple(houses)
            case Hme(x, y):
                self._expect_set("HME")
                self.home = (x, y)
            case Map(cells):
                return self._start(cells)
            case Upd(cells):
                self._expect_set("UPD")
                if self.species is None:
                    raise SessionError("UPD", "UPD before MAP")
                self._apply("UPD", cells)
                state = self.state
                assert state is not None
                self.turn += 1
                return YourTurn(state, self.turn - 1)
            case End():
                state = self.state if self.in_game else None
                self.in_game = False
                return GameOver(state) if state is not None else None
            case Bye():
                return Goodbye()
            case _:
                raise TypeError(f"a server never sends {message_name(message)}")
        return None

    def _expect_set(self, command: str) -> None:
        if not self.in_game:
            after = "after END" if self.rows else "before SET"
            raise SessionError(command, f"{command} {after}")

    def _start(self, cells: tuple[CellBytes, ...]) -> GameStarted:
        self._expect_set("MAP")
        if self.species is not None:
            raise SessionError("MAP", "a second MAP in the same game")
        if self.home is None:
            raise SessionError("MAP", "MAP before HME: cannot tell our species")
        self._apply("MAP", cells)
        kind, _ = self._cells.get(self.home, (HUMANS, 0))
        if kind not in (VAMPIRES, WEREWOLVES):
            x, y = self.home
            raise SessionError("MAP", f"MAP has no vampires or werewolves at HME ({x},{y})")
        self.species = kind
        state = self.state
        assert state is not None
        return GameStarted(kind, state)

    def _apply(self, command: str, cells: Iterable[CellBytes]) -> None:
        for x, y, humans, vampires, werewolves in cells:
            if not (x < self.cols and y < self.rows):
                where = f"the {self.rows} × {self.cols} grid"
                raise SessionError(command, f"{command}: cell ({x},{y}) is outside {where}")
            if sum(1 for n in (humans, vampires, werewolves) if n) > 1:
                counts = f"H{humans} V{vampires} W{werewolves}"
                raise SessionError(command, f"{command}: cell ({x},{y}) holds two kinds: {counts}")
            if humans:
                self._cells[(x, y)] = (HUMANS, humans)
            elif vampires:
                self._cells[(x, y)] = (VAMPIRES, vampires)
            elif werewolves:
                self._cells[(x, y)] = (WEREWOLVES, werewolves)
            else:
                self._cells.pop((x, y), None)
