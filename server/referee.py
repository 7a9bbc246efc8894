"""Play one game between two admitted, greeted players, and say how it ended.

A stray NME during the game is ignored (logged); any other non-MOV message is a
protocol error. Whatever a bot does, both get END then BYE.
"""

import logging
import random

import trio

from engine import GameState, IllegalPly, Kind, Move, apply_ply, check_ply, end_of_game
from engine.ending import winner_by_count
from engine.mapfile import GameMap
from protocol.cells import ply_cells, update_cells
from protocol.codec import Bye, End, Mov, Nme, Upd, message_name
from server.player import Closed, Garbled, Player, Received
from server.result import GameResult, PlayerRecord, Termination
from server.settings import OnTimeout, Settings
from server.transcript import Transcript

log = logging.getLogger(__name__)


MAX_UPDATE_CELLS = 255
"""Cells one UPD can list (its count is one byte): a ply that would need more loses."""

ABORT_GOODBYE = 2.0
"""Seconds to say END/BYE when the server is stopped (a bot may not be reading)."""


class _Over(Exception):
    def __init__(self, winner: Kind | None, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.winner, self.termination, self.detail = winner, termination, detail


def _other(kind: Kind) -> Kind:
    return Kind.WEREWOLVES if kind == Kind.VAMPIRES else Kind.VAMPIRES


async def play_game(
    vampires: Player,
    werewolves: Player,
    game_map: GameMap,
    settings: Settings,
    transcript: Transcript | None = None,
) -> GameResult:
    """Play from the first (empty) UPD to END/BYE; never raises for anything a bot does."""
    seed = settings.seed if settings.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    players = {Kind.VAMPIRES: vampires, Kind.WEREWOLVES: werewolves}
    think: dict[Kind, float | None] = {Kind.VAMPIRES: None, Kind.WEREWOLVES: None}
    skipped = {Kind.VAMPIRES: 0, Kind.WEREWOLVES: 0}
    state = game_map.initial_state()
    if transcript is not None:
        transcript.header(game_map.name, settings, seed)
        for kind, player in players.items():
            transcript.player(kind, player.name, player.peer)
    last_cells: dict[Kind, list[tuple[int, int]]] = {Kind.VAMPIRES: [], Kind.WEREWOLVES: []}
    start = trio.current_time()
    winner: Kind | None
    try:
        try:
            while True:
                mover = state.to_move
                player = players[mover]
                _check_stale(player, mover)
                upd = update_cells(state, (last_cells[Kind.VAMPIRES], last_cells[Kind.WEREWOLVES]))
                if not await player.send_quietly(Upd(upd)):
                    raise _Over(_other(mover), Termination.DISCONNECT, f"{player.label}: gone")
                sent = trio.current_time()
                ply = await _await_move(player, mover, sent, settings)
                if ply is None:
                    skipped[mover] += 1
                    if settings.on_timeout is OnTimeout.FORFEIT:
                        raise _Over(_other(mover), Termination.TIME_FORFEIT,
                                    f"{player.label}: no MOV within {settings.move_time:g} s")
                    if transcript is not None:
                        transcript.skip(mover, state.ply)
                    state = state.with_ply(state.ply + 1)
                    last_cells[mover] = []
                else:
                    moves, at = ply
                    took = at - sent
                    think[mover] = max(took, think[mover] or 0.0)
                    try:
                        check_ply(state, moves)
                    except IllegalPly as error:
                        raise _Over(_other(mover), Termination.ILLEGAL_PLY,
                                    f"{player.label}: {_illegal_text(error)}") from None
                    touched = ply_cells(moves)
                    listed = len(set(touched).union(last_cells[_other(mover)]))
                    if listed > MAX_UPDATE_CELLS:
                        raise _Over(_other(mover), Termination.ILLEGAL_PLY,
                                    f"{player.label}: the UPD after this ply would list {listed}"
                                    f" cells, and UPD counts them in one byte (at most"
                                    f" {MAX_UPDATE_CELLS}); a ply may touch fewer cells")
                    result = apply_ply(state, moves, rng, settings.rules, check=False)
                    state = result[0]
                    if transcript is not None:
                        transcript.ply(mover, moves, state, result[1])
                    last_cells[mover] = touched
                end = end_of_game(state, settings.rules)
                if end is not None:
                    raise _Over(end.winner, Termination(end.reason.value), end.reason.value)
                if mover == Kind.WEREWOLVES and trio.current_time() - start >= settings.game_time:
                    raise _Over(winner_by_count(state), Termination.TIME_LIMIT,
                                f"{settings.game_time:g} s passed")
        except _Over as over:
            winner, termination, detail = over.winner, over.termination, over.detail
    except BaseException:
        with trio.CancelScope(shield=True):
            result_ = _result(None, Termination.ABORTED, "the server was stopped", state,
                              players, think, skipped, game_map, seed)
            if transcript is not None:
                transcript.result(result_)
            with trio.move_on_after(ABORT_GOODBYE):
                await _goodbye(players, 0.0)
        raise
    game = _result(winner, termination, detail, state, players, think, skipped, game_map, seed)
    if transcript is not None:
        transcript.result(game)
    await _goodbye(players, settings.end_pause)
    return game


def _illegal_text(error: IllegalPly) -> str:
    """The rule broken and the move that broke it."""
    if error.move is None:
        return str(error)
    x, y, count, tx, ty = error.move
    return f"{error} [move ({x},{y}) {count} -> ({tx},{ty})]"


def _judge(event: object, player: Player, mover: Kind) -> Mov | None:
    """The MOV an event from ``player`` (playing ``mover``) brings, ``None`` for an NME
    (ignored during the game); raise _Over for garbage, a closed connection or any other
    message."""
    if isinstance(event, Garbled):
        raise _Over(_other(mover), Termination.PROTOCOL_ERROR, f"{player.label}: {event.error}")
    if isinstance(event, Closed):
        raise _Over(_other(mover), Termination.DISCONNECT, f"{player.label}: {event.reason}")
    assert isinstance(event, Received)
    if isinstance(event.message, Mov):
        return event.message
    if isinstance(event.message, Nme):
        log.info("%s: NME during the game ignored", player.label)
        return None
    raise _Over(_other(mover), Termination.PROTOCOL_ERROR,
                f"{player.label}: sent {message_name(event.message)} during the game")


def _check_stale(player: Player, mover: Kind) -> None:
    """Drop what the player sent out of turn (late moves, a stray NME); raise _Over if its
    connection broke or turned to garbage meanwhile."""
    for event in player.stale_events():
        if _judge(event, player, mover) is not None:
            log.info("%s: late MOV discarded", player.label)


async def _goodbye(players: dict[Kind, Player], pause: float) -> None:
    if pause:
        await trio.sleep(pause)
    for message in (End(), Bye()):
        for player in players.values():
            await player.send_quietly(message)


async def _await_move(
    player: Player, mover: Kind, sent: float, settings: Settings
) -> tuple[list[Move], float] | None:
    """The ply and its arrival time, or ``None`` on time-out; raises _Over otherwise."""
    with trio.move_on_at(sent + settings.move_time):
        while True:
            event = await player.next_event()
            move = _judge(event, player, mover)
            if move is not None:
                return [Move(*m) for m in move.moves], event.time
    return None


def _result(winner, termination, detail, state: GameState, players, think, skipped,
            game_map: GameMap, seed: int) -> GameResult:
    def record(kind: Kind) -> PlayerRecord:
        return PlayerRecord(kind, players[kind].name, state.total(kind), think[kind], skipped[kind])

    return GameResult(winner, termination, detail, state.ply, record(Kind.VAMPIRES),
                      record(Kind.WEREWOLVES), game_map.name, seed)
