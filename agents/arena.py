"""The in-process arena: two bots play one game by direct calls, no protocol, no threads.

The game's flow is :class:`engine.game.Game`'s, the same the referee drives over sockets:
the arena asks the bot to move with a real deadline (``monotonic() + move_time``), measures
its reply and tells the game. So an arena game is the server's game: a late reply skips
the turn (or loses, with :attr:`OnTimeout.FORFEIT`), a ply whose UPD could not be sent
loses, the game clock runs. Only what a socket would show differs: a bot that raises
loses by :attr:`Termination.CRASH`, a reply that is no ply (read by :func:`engine.as_ply`,
as everywhere) by :attr:`Termination.ILLEGAL_PLY`. Used by the tests and by the strength
benchmarks.
"""

import logging
import time
from collections.abc import Callable

from agents.base import Agent
from engine import (
    Game,
    GameResult,
    GameState,
    Limits,
    MalformedPly,
    OnTimeout,
    Rules,
    Termination,
    Turn,
    as_ply,
)
from engine.game import DEFAULT_LIMITS
from engine.kinds import VAMPIRES, WEREWOLVES
from engine.mapfile import GameMap
from engine.rules import DEFAULT_RULES
from protocol.printable import printable

log = logging.getLogger(__name__)

StopWhen = Callable[[GameState], bool]
OnTurn = Callable[[Turn], None]


def play_game(
    vampires: Agent,
    werewolves: Agent,
    start: GameMap | GameState,
    *,
    move_time: float,
    rules: Rules = DEFAULT_RULES,
    seed: int = 0,
    stop_when: StopWhen | None = None,
    game_time: float = DEFAULT_LIMITS.game_time,
    on_timeout: OnTimeout = OnTimeout.SKIP,
    on_turn: OnTurn | None = None,
) -> GameResult:
    """Play one game between ``vampires`` (moves first) and ``werewolves`` from ``start``.

    With ``stop_when``, the game stops (:attr:`Termination.ABORTED`, no winner) at the
    first position, before either bot is asked, for which it is true and the game is not
    over: to measure one phase of a game, say. ``on_turn`` is told each turn played (the
    game analysis's benchmark keeps them).
    """
    game = new_game(
        vampires,
        werewolves,
        start,
        limits=Limits(move_time, game_time, on_timeout),
        rules=rules,
        seed=seed,
    )
    return drive(game, vampires, werewolves, stop_when=stop_when, on_turn=on_turn)


def new_game(
    vampires: Agent,
    werewolves: Agent,
    start: GameMap | GameState,
    *,
    limits: Limits,
    rules: Rules = DEFAULT_RULES,
    seed: int = 0,
) -> Game:
    """The game of these two bots from ``start`` (not yet played: see :func:`drive`)."""
    map_name = start.name if isinstance(start, GameMap) else ""
    state = start.initial_state() if isinstance(start, GameMap) else start
    return Game(
        state,
        names=(vampires.name, werewolves.name),
        rules=rules,
        limits=limits,
        seed=seed,
        map_name=map_name,
    )


def drive(
    game: Game,
    vampires: Agent,
    werewolves: Agent,
    *,
    stop_when: StopWhen | None = None,
    on_turn: OnTurn | None = None,
) -> GameResult:
    """Play ``game`` to its end by asking the bots in turn; ``game.state`` is then the
    final board. See :func:`play_game` for ``stop_when`` and ``on_turn``."""
    agents = {VAMPIRES: vampires, WEREWOLVES: werewolves}
    for species, agent in agents.items():
        agent.new_game(species, game.state)
    move_time = game.limits.move_time
    began = time.monotonic()
    while game.result is None:
        if stop_when is not None and stop_when(game.state):
            return game.abort(f"stopped at ply {game.state.ply}, as the caller asked")
        species = game.to_move
        asked = time.monotonic()
        try:
            reply = agents[species].choose_ply(game.state, asked + move_time)
        except Exception as error:  # a crashing bot loses, whatever it raised
            game.lose(species, Termination.CRASH, f"raised {error!r}")
            break
        answered = time.monotonic()
        try:
            ply = as_ply(reply)
        except MalformedPly as error:
            game.lose(species, Termination.ILLEGAL_PLY, f"malformed ply: {error}")
            break
        turn = game.reply(ply, answered - asked, answered - began)
        if turn is not None and on_turn is not None:
            on_turn(turn)
    result = game.result
    assert result is not None
    log.info("%s", printable(result.summary()))
    return result
