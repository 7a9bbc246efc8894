"""Play one game between two admitted, greeted players, and say how it ended.

The flow of the game (turns, skipped turns, the limits, the end and its reason) is
:class:`engine.game.Game`'s; the referee carries it over the two byte streams: it sends
each UPD, waits for the MOV with the move-time clock, and tells the game what came back.
What each message means, and what is sent when, is :mod:`protocol.referee`'s (a stray NME
during the game is ignored, a late MOV discarded, both logged). Whatever a bot does, both
get END then BYE (:func:`say_goodbye`, also used by :mod:`server.table`).
"""

import logging
import random
from collections.abc import Awaitable, Callable, Iterable

import trio

from engine import Game, GameResult, Kind, Move, Termination, Turn
from engine.mapfile import GameMap
from protocol.codec import Mov
from protocol.referee import (
    GONE,
    GOODBYE,
    Fault,
    Heard,
    RefereeSession,
    disconnected,
    garbled,
    hear,
    moves,
)
from server.player import Closed, Event, Garbled, Player
from server.settings import Settings
from server.transcript import Transcript

log = logging.getLogger(__name__)


ABORT_GOODBYE = 2.0
"""Seconds to say END/BYE when the server is stopped (a bot may not be reading)."""


HangUpJudge = Callable[[Kind, str], Awaitable[tuple[Termination, str]]]
"""Given the side whose connection closed mid-game and how, the termination and detail its
loss is recorded with: whoever started the bot's process knows whether it crashed (its exit
code, its last words on standard error), the connection alone does not."""


class _Fault(Exception):
    """The player to move lost the game for something only the connection shows."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.detail)
        self.fault = fault


async def play_game(
    vampires: Player,
    werewolves: Player,
    game_map: GameMap,
    settings: Settings,
    transcript: Transcript | None = None,
    on_abort: Callable[[GameResult], None] | None = None,
    hung_up: HangUpJudge | None = None,
) -> GameResult:
    """Play from the first (empty) UPD to END/BYE; never raises for anything a bot does.

    Cancelled (the server is stopped), it records the game as aborted, says END/BYE, gives
    that result to ``on_abort`` and lets the cancellation go on. A bot whose connection
    closes loses by disconnect, or as ``hung_up`` judges it (a crash), before the result
    is written.
    """
    seed = settings.seed if settings.seed is not None else random.randrange(2**32)
    players = {Kind.VAMPIRES: vampires, Kind.WEREWOLVES: werewolves}
    game = Game(
        game_map.initial_state(),
        names=(vampires.name, werewolves.name),
        labels=(vampires.label, werewolves.label),
        rules=settings.rules,
        limits=settings.limits,
        seed=seed,
        map_name=game_map.name,
    )
    if transcript is not None:
        transcript.header(game_map.name, game.state, settings, seed)
        for kind, player in players.items():
            transcript.player(kind, player.name, player.peer)
    session = RefereeSession(game)
    try:
        await _play(session, players, settings.move_time, transcript, hung_up)
    except BaseException:
        with trio.CancelScope(shield=True):
            if game.result is None:
                game.abort("the server was stopped")
            if transcript is not None and game.result is not None:
                transcript.result(game.result)
            if on_abort is not None and game.result is not None:
                on_abort(game.result)
            with trio.move_on_after(ABORT_GOODBYE):
                await say_goodbye(players.values())
        raise
    result = game.result
    assert result is not None  # the loop ends when the game does
    if transcript is not None:
        transcript.result(result)
    await say_goodbye(players.values())
    return result


async def _play(
    session: RefereeSession,
    players: dict[Kind, Player],
    move_time: float,
    transcript: Transcript | None,
    hung_up: HangUpJudge | None,
) -> None:
    """The turns, from the first UPD until the game is over."""
    start = trio.current_time()
    while session.result is None:
        mover = session.to_move
        player = players[mover]
        try:
            _check_stale(player)
            upd = session.update()
            # The move clock starts as the UPD goes: the reply can be read (and stamped)
            # before the send returns.
            sent = trio.current_time()
            if not await player.send_quietly(upd):
                raise _Fault(GONE)
            reply = await _await_move(player, sent, move_time)
        except _Fault as error:
            fault = error.fault
            if fault.termination is Termination.DISCONNECT and hung_up is not None:
                fault = Fault(*await hung_up(mover, fault.detail))
            session.lose(mover, fault)
            return
        if reply is None:
            turn = session.no_reply(trio.current_time() - start)
        else:
            ply, at = reply
            turn = session.reply(ply, at - sent, trio.current_time() - start)
        if turn is not None and transcript is not None:  # else the reply lost the game
            _write_turn(transcript, turn)


def _write_turn(transcript: Transcript, turn: Turn) -> None:
    if turn.ply is None:
        transcript.skip(turn.species, turn.number)
    else:
        transcript.ply(turn.species, turn.ply, turn.state, turn.battles)


def _judge(event: Event, player: Player, *, in_turn: bool) -> Mov | None:
    """The MOV an event from the player brings in its turn, ``None`` for what is let go
    (an NME, a MOV out of turn); raise _Fault for garbage, a closed connection or any other
    message (see :func:`protocol.referee.hear`)."""
    if isinstance(event, Garbled):
        raise _Fault(garbled(event.error))
    if isinstance(event, Closed):
        raise _Fault(disconnected(event.reason))
    heard = hear(event.message, in_turn=in_turn)
    if isinstance(heard, Fault):
        raise _Fault(heard)
    if heard is Heard.MOVE:
        assert isinstance(event.message, Mov)
        return event.message
    log.info("%s: %s", player.label, _LET_GO[heard])
    return None


_LET_GO = {Heard.LATE: "late MOV discarded", Heard.IGNORED: "NME during the game ignored"}


def _check_stale(player: Player) -> None:
    """Drop what the player sent out of turn (late moves, a stray NME); raise _Fault if its
    connection broke or turned to garbage meanwhile."""
    for event in player.stale_events():
        _judge(event, player, in_turn=False)


async def say_goodbye(players: Iterable[Player]) -> None:
    """END to each player, then BYE to each (:data:`protocol.referee.GOODBYE`), as far as
    their connections still work."""
    for message in GOODBYE:
        for player in players:
            await player.send_quietly(message)


async def _await_move(
    player: Player, sent: float, move_time: float
) -> tuple[list[Move], float] | None:
    """The ply and its arrival time, or ``None`` on time-out; raises _Fault otherwise."""
    with trio.move_on_at(sent + move_time):
        while True:
            event = await player.next_event()
            move = _judge(event, player, in_turn=True)
            if move is not None:
                return moves(move), event.time
    return None
