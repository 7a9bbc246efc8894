"""A person at the board: one side of a game played from a web page, over the protocol.

The person's side is a real protocol client, :func:`agents.client.play_on` with a
:class:`PageAgent`: the client does for the person what it does for any bot (NME, the
board kept from MAP and UPD, one MOV per UPD, a legal ply of its own when the reply is
late). Asked for a ply (in the client's worker thread), the agent hands the turn to the
:class:`Seat`, which offers it to the page (the live view's ``turn`` note: the ply, the
seconds left) and judges each ply the page proposes as our referee would
(:func:`engine.find_violation`: the broken rule, in words); a legal one, when the page
sends it, goes back to the agent and so to the server.

:func:`play_person` plays one game of a person against a bot over our server as ``vvw
match`` plays two bots (:func:`vvw.running.local_game.play_one`): the person a
:class:`~vvw.running.local_game.Person`, the bot a process (built-in or a command), the
transcript kept, one :class:`~vvw.running.local_game.Played`; ``vvw play``'s venue
(:mod:`vvw.running.person_game`) calls it.
"""

import json
import queue
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

from engine import GameState, Kind, MalformedPly, Ply, as_ply, find_violation
from engine.mapfile import GameMap
from server.events import EventSink
from server.settings import Settings
from vvw.errors import CommandError
from vvw.running.local_game import Person, Played, play_one
from vvw.running.participants import Participant
from vvw.web.live import LiveHub
from vvw.web.server import Exchange, Handler


class BotDidNotPlay(CommandError):
    """The bot could not start, or left before the game began (``str()`` says how)."""


@attrs.define(eq=False)
class Turn:
    """The person's turn: the board to play on, until when, and where the ply goes."""

    state: GameState
    deadline: float
    """``time.monotonic()`` by which the ply must be sent."""
    reply: "queue.Queue[Ply]" = attrs.field(factory=lambda: queue.Queue(maxsize=1))

    @property
    def ply_number(self) -> int:
        return self.state.ply + 1


class Seat:
    """Where the page and the person's agent meet (on trio's side): the turn offered to
    the page through ``hub`` (its ``turn`` note), each proposed ply judged."""

    def __init__(self, hub: LiveHub, side: Kind) -> None:
        self.hub = hub
        self.side = side
        self.turn: Turn | None = None
        self.late = 0
        """Turns the person let pass (the client then played a legal ply of its own)."""
        self._late_ply: int | None = None
        """The ply last played for the person (the clock ran out), said on the page."""
        hub.tell("turn", self._note)

    def _note(self) -> dict[str, Any]:
        """The page's ``turn`` event: whose turn (``ply`` is ``None`` but on the person's),
        the seconds left, the ply last played for the person."""
        note: dict[str, Any] = {"side": self.side.name.lower(), "late": self._late_ply}
        turn = self.turn
        if turn is None:
            return note | {"ply": None}
        seconds = round(max(0.0, turn.deadline - time.monotonic()), 3)
        return note | {"ply": turn.ply_number, "seconds": seconds}

    def offer(self, state: GameState, deadline: float) -> Turn:
        """The person's turn begins: shown on the page."""
        self.turn = Turn(state, deadline)
        self.hub.tell("turn", self._note)
        return self.turn

    def missed(self, turn: Turn) -> None:
        """No ply came in time for ``turn``."""
        if self.turn is turn:
            self.turn = None
            self.late += 1
            self._late_ply = turn.ply_number
            self.hub.tell("turn", self._note)

    def judge(self, moves: object) -> tuple[Ply | None, str | None]:
        """The page's moves as a legal ply for the turn, or why not (the engine's rule)."""
        if self.turn is None:
            return None, "it is not your turn"
        try:
            ply = as_ply(moves)
        except MalformedPly as error:
            return None, str(error)
        violation = find_violation(self.turn.state, ply)
        if violation is not None:
            return None, str(violation)
        return ply, None

    def propose(self, moves: object, send: bool) -> dict[str, Any]:
        """Judge the page's moves; with ``send``, a legal ply is played. The answer to the
        page: ``{"ok", "error", "sent"}``."""
        ply, error = self.judge(moves)
        if ply is None or not send or self.turn is None:
            return {"ok": ply is not None, "error": error, "sent": False}
        try:
            self.turn.reply.put_nowait(ply)
        except queue.Full:  # sent twice (a double click): the first stands
            return {"ok": False, "error": "this turn's ply is already sent", "sent": False}
        self.turn = None
        self.hub.tell("turn", self._note)
        return {"ok": True, "error": None, "sent": True}


class PageAgent:
    """The person as the bots' client sees a bot: ``choose_ply`` waits for the page."""

    def __init__(self, name: str, seat: Seat) -> None:
        self.name = name
        self.seat = seat

    def new_game(self, species: Kind, state: GameState) -> None:
        """Nothing to forget: the page shows the game."""

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        """The ply the person sends from the page by ``deadline`` (in the client's worker
        thread); ``TimeoutError`` if none comes (the client then plays one of its own)."""
        turn = trio.from_thread.run_sync(self.seat.offer, state, deadline)
        try:
            return turn.reply.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            trio.from_thread.run_sync(self.seat.missed, turn)
            raise TimeoutError(f"no ply from the page within {deadline:.1f}") from None


async def play_person(
    game_map: GameMap,
    settings: Settings,
    agent: PageAgent,
    bot: Participant,
    game_dir: Path,
    *,
    person_time: float,
    bot_time: float,
    bot_seed: int | None = None,
    events: EventSink | None = None,
    on_abort: Callable[[Played], None] | None = None,
) -> Played:
    """One game on our server between the person at ``agent``'s seat (thinking up to
    ``person_time`` seconds a ply) and ``bot`` (a built-in bot thinks ``bot_time``), played
    as any game played here (:func:`vvw.running.local_game.play_one`).

    The bot's output and the transcript go to ``game_dir``; ``events`` hears the server's
    events (the live view). :class:`BotDidNotPlay` if the bot did not get to play.
    Cancelled mid-game (Ctrl-C), the game ends as aborted, ``on_abort`` is given it (its
    transcript kept), and the cancellation goes on.
    """
    person = Person(agent, person_time)
    first = agent.seat.side == Kind.VAMPIRES
    played = await play_one(
        game_map,
        settings,
        (person, bot) if first else (bot, person),
        game_dir,
        seeds=(None, bot_seed) if first else (bot_seed, None),
        bot_time=bot_time,
        transcript_dir=game_dir,
        keep_transcript=True,
        events=events,
        on_abort=on_abort,
    )
    if not played.began:
        raise BotDidNotPlay(played.result.detail)
    return played


def play_handler(seat: Seat, token: str, view: Handler) -> Handler:
    """The live view (``view``) and ``POST /move``: the page's moves as JSON,
    ``{"moves": [[x, y, count, tx, ty], …], "send": true|false}``, judged (and played when
    ``send``), answered ``{"ok", "error", "sent"}``. Only the page ``vvw play`` opened may
    play: it sends ``token`` in its ``X-VVW-Token`` header (a page of another site cannot
    send that header here without asking first, and is not answered when it asks)."""

    async def handle(exchange: Exchange) -> None:
        request = exchange.request
        if request.method != "POST":
            await view(exchange)
            return
        if request.path != "/move":
            await exchange.respond(404, "text/plain", b"not found\n")
            return
        if not secrets.compare_digest(request.headers.get("x-vvw-token", ""), token):
            await exchange.respond(403, "text/plain", b"not the page vvw play opened\n")
            return
        try:
            payload = json.loads(request.body)
            moves, send = payload["moves"], payload.get("send") is True
        except (ValueError, KeyError, TypeError):
            answer = {"ok": False, "error": 'expected {"moves": [[x, y, count, tx, ty], …]}'}
            await exchange.respond(400, "application/json", json.dumps(answer).encode())
            return
        answer = seat.propose(moves, send)
        await exchange.respond(200, "application/json", json.dumps(answer).encode())

    return handle
