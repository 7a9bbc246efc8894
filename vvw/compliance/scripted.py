"""check-bot's scripted server: the connection, and one game played as our referee plays it.

The connection is a :class:`server.player.Player` (its reader task decodes what the bot
sends), greeted by :func:`server.lobby.greet`; the game is a
:class:`protocol.referee.RefereeSession` (the turn choreography our server performs) in
which the scripted opponent walks. Whatever the bot does wrong raises :class:`StepFailed`.
"""

import contextlib
import random
import time
from collections.abc import Callable
from typing import NoReturn

import attrs
import trio

from engine import Game, GameState, IllegalPly, Kind, Move, Ply, Rules, find_violation
from engine.drawing import draw_board, window_around
from engine.mapfile import GameMap
from engine.movegen import random_ply
from protocol.codec import Message, Mov, describe, encode, message_name
from protocol.referee import Fault, Heard, RefereeSession, hear, moves
from server.lobby import greet
from server.player import Closed, Garbled, Player, Received, SendFailed
from vvw.wording import plural

LATE_WATCH = 2.0
"""Seconds a MOV that did not come in time is still waited for, to say how late it was."""
LONG = 160
"""Characters of a message, a ply or a line of the bot's output shown; the rest is cut."""
BOARD_WINDOW = 12
"""Columns and rows of a board drawn with a failure (a larger one is drawn around the move)."""


def cut(text: str, limit: int = LONG) -> str:
    """``text`` on one line, at most ``limit`` characters (``…`` where it was cut)."""
    text = " ".join(text.split("\n"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


class StepFailed(Exception):
    """A step failed: what was expected, what came instead (text and bytes), and the fault
    in a few words (the same fault at a later step is reported by them alone)."""

    def __init__(self, expected: str, got: str, data: bytes = b"", fault: str = "") -> None:
        super().__init__(got)
        self.expected = expected
        self.got = got
        self.data = data
        self.fault = fault or got


class Connection:
    """The scripted server's end of the connection: a :class:`Player` (its reader task
    decodes what the bot sends), whose ending is kept once seen."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.ended: Closed | Garbled | None = None

    async def send(self, *messages: Message) -> None:
        try:
            await self.player.send_together(messages)
        except SendFailed:
            raise StepFailed("the connection open", "the bot closed its connection") from None

    async def greet(self, game_map: GameMap, species: Kind) -> None:
        try:
            await greet(self.player, game_map, species)
        except SendFailed:
            raise StepFailed("the connection open", "the bot closed its connection") from None

    async def receive(self, within: float, expected: str) -> tuple[Message, bytes] | None:
        """The next message within ``within`` seconds, or ``None``; StepFailed on garbage or
        a closed connection."""
        with trio.move_on_after(within):
            while self.ended is None:
                event = await self.player.next_event()
                if isinstance(event, Received):
                    return event.message, encode(event.message)
                self.ended = event
            self._fail(self.ended, expected)
        return None

    def drop_stale(self) -> None:
        """Forget what arrived unasked (late MOVs, NMEs), as our referee does before the next
        UPD (:func:`protocol.referee.hear`); the connection's ending is kept for later."""
        for event in self.player.stale_events():
            if not isinstance(event, Received):
                self.ended = self.ended or event
                continue
            heard = hear(event.message, in_turn=False)
            if isinstance(heard, Fault):
                raise StepFailed("a MOV or NME", heard.detail, encode(event.message))

    @staticmethod
    def _fail(event: Closed | Garbled, expected: str) -> NoReturn:
        if isinstance(event, Garbled):
            got = f"bytes that are no message: {event.error}"
            raise StepFailed(expected, got, event.error.data, "bytes that are no message")
        raise StepFailed(expected, "the bot closed its connection")

    async def hang_up(self) -> None:
        """Close the connection at once (no END, no waiting for the bot)."""
        await self.player.stream.aclose()


def _walk(state: GameState, rng: random.Random) -> Ply:
    """The opponent's ply: its largest group, whole, to an empty neighbouring cell (so the
    cell it leaves is listed empty in the next UPD); any legal ply if it cannot."""
    species = state.to_move
    groups = sorted(state.groups(species), key=lambda g: -g[2])
    if groups:
        x, y, n = groups[0]
        targets = [
            (x + dx, y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy)
            and 0 <= x + dx < state.cols
            and 0 <= y + dy < state.rows
            and state.at(x + dx, y + dy)[1] == 0
        ]
        if targets:
            tx, ty = rng.choice(targets)
            return (Move(x, y, n, tx, ty),)
    return tuple(random_ply(state, rng))


def _board(state: GameState, move: Move | None) -> str:
    """The board the bot was told of; a large one around ``move``'s source."""
    window = None
    if move is not None and max(state.rows, state.cols) > BOARD_WINDOW:
        window = window_around(state.rows, state.cols, move.x, move.y, BOARD_WINDOW)
    lines = draw_board(state.rows, state.cols, state.board_cells(), indent=" " * 8, window=window)
    if window is not None:
        xs, ys = window
        lines.insert(
            0,
            f"        (around the move: columns {xs[0]}-{xs[-1]} and rows {ys[0]}-{ys[-1]}"
            f" of {state.rows} rows × {state.cols} columns)",
        )
    return "\n".join(lines)


@attrs.define
class ScriptedGame:
    """One game with the bot on ``species``' side, played as our referee plays it (a
    :class:`~protocol.referee.RefereeSession`); the opponent walks."""

    connection: Connection
    map: GameMap
    species: Kind
    move_time: float
    fallbacks: Callable[[], list[str]] = list
    """The fallback plies the bot's client library has noted so far (why each)."""
    session: RefereeSession = attrs.field(init=False)
    rng: random.Random = attrs.field(init=False, factory=lambda: random.Random(7))
    emptied: int = attrs.field(init=False, default=0)
    """UPDs sent that listed a cell now empty."""
    slowest: float = attrs.field(init=False, default=0.0)

    def __attrs_post_init__(self) -> None:
        names = ("the bot", "the opponent")
        game = Game(
            self.map.initial_state(),
            names=names if self.species is Kind.VAMPIRES else names[::-1],
            rules=Rules(max_plies=10**6),  # the game ends when the step has seen enough
            seed=7,
        )
        self.session = RefereeSession(game)

    @property
    def over(self) -> bool:
        return self.session.result is not None

    @property
    def plies(self) -> int:
        return self.session.game.state.ply

    async def greet(self) -> None:
        await self.connection.greet(self.map, self.species)

    def _play(self, ply: Ply) -> str | None:
        """Tell the game; why it lost, if the ply lost it."""
        if self.session.reply(ply, 0.0, 0.0) is None:
            assert self.session.result is not None
            return self.session.result.detail
        return None

    def _opponent_moves(self) -> None:
        if not self.over and self.session.to_move != self.species:
            self._play(_walk(self.session.game.state, self.rng))

    async def _late(self, sent: float) -> str:
        """What a bot that did not answer in time did: a late MOV, or nothing at all."""
        got = f"no MOV in {self.move_time:g} s"
        with contextlib.suppress(StepFailed):
            late = await self.connection.receive(max(2 * self.move_time, LATE_WATCH), "")
            if late is not None:
                after = time.monotonic() - sent
                return f"{got}: `{cut(describe(late[0]))}` came {after:.3f} s after the UPD"
        return got

    async def turn(self) -> None:
        """One UPD to the bot and its MOV, judged; then the opponent's ply."""
        self._opponent_moves()
        if self.over:
            return
        state = self.session.game.state
        upd = self.session.update()
        if any(h == v == w == 0 for _, _, h, v, w in upd.cells):
            self.emptied += 1
        self.connection.drop_stale()
        await self.connection.send(upd)
        sent = time.monotonic()
        expected = f"a MOV within {self.move_time:g} s of `{cut(describe(upd), 120)}`"
        message, raw = await self._move(expected, sent)
        self.slowest = max(self.slowest, time.monotonic() - sent)
        self._judge(state, tuple(moves(message)), message, raw)
        self._own_ply(expected, message)
        self._opponent_moves()

    async def _move(self, expected: str, sent: float) -> tuple[Mov, bytes]:
        """The bot's MOV (an NME meanwhile is ignored, as our referee ignores it)."""
        while True:
            received = await self.connection.receive(self.move_time, expected)
            if received is None:
                got = await self._late(sent)
                raise StepFailed(expected, got, fault=f"no MOV in {self.move_time:g} s")
            message, raw = received
            heard = hear(message, in_turn=True)
            if isinstance(heard, Fault):
                got = f"`{cut(describe(message))}`"
                raise StepFailed(expected, got, raw, fault=message_name(message))
            if heard is Heard.MOVE:
                assert isinstance(message, Mov)
                return message, raw

    def _own_ply(self, expected: str, message: Mov) -> None:
        """Fail if the MOV was not the bot's own: its client library (vvw's) noted it sent
        a fallback, a random legal ply, since the bot was late, failed or was illegal."""
        noted = self.fallbacks()
        if noted:
            raise StepFailed(
                f"{expected}, the bot's own ply",
                f"`{cut(describe(message))}`, a fallback: its client library sent a random"
                f" legal ply as {cut(noted[-1], 100)} ({plural(len(noted), 'fallback')} so far)",
                fault="a fallback ply (the bot was late, failed or illegal)",
            )

    def _judge(self, state: GameState, ply: Ply, message: Mov, raw: bytes) -> None:
        side = self.species.name.lower()
        expected = f"a legal ply for the {side} on the board it was told of"
        violation: IllegalPly | str | None = find_violation(state, ply)
        if violation is None:
            violation = self._play(ply)  # a rule of the server's game (the UPD's size)
        if violation is None:
            return
        move, fault = None, "an illegal ply (a UPD too long)"
        if isinstance(violation, IllegalPly):
            move, rule = violation.move, violation.rule
            fault = f"an illegal ply, rule {rule.number}"
        raise StepFailed(
            f"{expected}:\n{_board(state, move)}",
            f"`{cut(describe(message))}`: {cut(str(violation))}",
            raw,
            fault,
        )
