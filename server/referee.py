"""Play one game between two admitted, greeted players, and say how it ended.

The flow of the game (turns, skipped turns, the limits, the end and its reason) is
:class:`engine.game.Game`'s; the referee carries it over the two byte streams: it sends
each UPD, waits for the MOV with the move-time clock, and tells the game what came back.
A stray NME during the game is ignored (logged); any other non-MOV message is a protocol
error. Whatever a bot does, both get END then BYE.
"""

import logging
import random
from collections.abc import Awaitable, Callable

import trio

from engine import Game, GameResult, Kind, Move, Termination, Turn
from engine.mapfile import GameMap
from protocol.cells import ply_cells, update_cells
from protocol.codec import Bye, End, Mov, Nme, Upd, message_name
from server.player import Closed, Garbled, Player, Received
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

    def __init__(self, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.termination, self.detail = termination, detail


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
    # The cells of each side's last turn, in the order the next UPD lists them.
    changed: dict[Kind, list[tuple[int, int]]] = {Kind.VAMPIRES: [], Kind.WEREWOLVES: []}
    start = trio.current_time()
    try:
        while game.result is None:
            mover = game.to_move
            player = players[mover]
            try:
                _check_stale(player)
                upd = update_cells(game.state, (changed[Kind.VAMPIRES], changed[Kind.WEREWOLVES]))
                # The move clock starts as the UPD goes: the reply can be read (and stamped)
                # before the send returns.
                sent = trio.current_time()
                if not await player.send_quietly(Upd(upd)):
                    raise _Fault(Termination.DISCONNECT, "gone")
                reply = await _await_move(player, sent, settings.move_time)
            except _Fault as fault:
                termination, detail = fault.termination, fault.detail
                if termination is Termination.DISCONNECT and hung_up is not None:
                    termination, detail = await hung_up(mover, detail)
                game.lose(mover, termination, detail)
                break
            if reply is None:
                turn = game.no_reply(trio.current_time() - start)
            else:
                moves, at = reply
                turn = game.reply(moves, at - sent, trio.current_time() - start)
            if turn is not None:  # else the reply lost the game
                changed[turn.species] = ply_cells(turn.ply or ())
                if transcript is not None:
                    _write_turn(transcript, turn)
    except BaseException:
        with trio.CancelScope(shield=True):
            if game.result is None:
                game.abort("the server was stopped")
            if transcript is not None and game.result is not None:
                transcript.result(game.result)
            if on_abort is not None and game.result is not None:
                on_abort(game.result)
            with trio.move_on_after(ABORT_GOODBYE):
                await _goodbye(players)
        raise
    result = game.result
    assert result is not None  # the loop ends when the game does
    if transcript is not None:
        transcript.result(result)
    await _goodbye(players)
    return result


def _write_turn(transcript: Transcript, turn: Turn) -> None:
    if turn.ply is None:
        transcript.skip(turn.species, turn.number)
    else:
        transcript.ply(turn.species, turn.ply, turn.state, turn.battles)


def _judge(event: object, player: Player) -> Mov | None:
    """The MOV an event from the player to move brings, ``None`` for an NME (ignored during
    the game); raise _Fault for garbage, a closed connection or any other message."""
    if isinstance(event, Garbled):
        raise _Fault(Termination.PROTOCOL_ERROR, str(event.error))
    if isinstance(event, Closed):
        raise _Fault(Termination.DISCONNECT, event.reason)
    assert isinstance(event, Received)
    if isinstance(event.message, Mov):
        return event.message
    if isinstance(event.message, Nme):
        log.info("%s: NME during the game ignored", player.label)
        return None
    raise _Fault(Termination.PROTOCOL_ERROR, f"sent {message_name(event.message)} during the game")


def _check_stale(player: Player) -> None:
    """Drop what the player sent out of turn (late moves, a stray NME); raise _Fault if its
    connection broke or turned to garbage meanwhile."""
    for event in player.stale_events():
        if _judge(event, player) is not None:
            log.info("%s: late MOV discarded", player.label)


async def _goodbye(players: dict[Kind, Player]) -> None:
    for message in (End(), Bye()):
        for player in players.values():
            await player.send_quietly(message)


async def _await_move(
    player: Player, sent: float, move_time: float
) -> tuple[list[Move], float] | None:
    """The ply and its arrival time, or ``None`` on time-out; raises _Fault otherwise."""
    with trio.move_on_at(sent + move_time):
        while True:
            event = await player.next_event()
            move = _judge(event, player)
            if move is not None:
                return [Move(*m) for m in move.moves], event.time
    return None
