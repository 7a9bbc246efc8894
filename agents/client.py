"""A minimal blocking protocol client: connect, NME, keep the board from MAP/UPD, answer MOV.

The board is rebuilt from what the server sends, as a real bot must: the species comes from
looking up the HME cell in MAP, and the ply parity is kept so ``state.to_move`` is our own.
"""

import logging
import socket
import time

from agents.base import Agent
from engine import GameState, Kind
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from server.protocol import (
    FROM_SERVER,
    Bye,
    Decoder,
    End,
    Hme,
    Map,
    Mov,
    Nme,
    Set,
    Upd,
    encode,
)

log = logging.getLogger(__name__)


def _apply_cells(grid: dict[tuple[int, int], tuple[Kind, int]], cells) -> None:
    for x, y, humans, vampires, werewolves in cells:
        if humans:
            grid[(x, y)] = (HUMANS, humans)
        elif vampires:
            grid[(x, y)] = (VAMPIRES, vampires)
        elif werewolves:
            grid[(x, y)] = (WEREWOLVES, werewolves)
        else:
            grid.pop((x, y), None)


def play(agent: Agent, host: str, port: int, name: str | None = None, budget: float = 1.8) -> int:
    """Play games on one connection until the server says BYE or closes; games played."""
    games = 0
    with socket.create_connection((host, port)) as sock:
        sock.sendall(encode(Nme((name or agent.name).encode()[:255])))
        decoder = Decoder(FROM_SERVER)
        rows = cols = 0
        home: tuple[int, int] = (0, 0)
        grid: dict[tuple[int, int], tuple[Kind, int]] = {}
        species = VAMPIRES
        turns = 0
        while True:
            data = sock.recv(65536)
            if not data:
                decoder.close()
                return games
            received = time.monotonic()
            for message in decoder.feed(data):
                match message:
                    case Set(r, c):
                        rows, cols, grid, turns = r, c, {}, 0
                    case Hme(x, y):
                        home = (x, y)
                    case Map(cells):
                        _apply_cells(grid, cells)
                        species = grid.get(home, (VAMPIRES, 0))[0]
                        agent.new_game(species, GameState.from_cells(rows, cols, grid))
                    case Upd(cells):
                        _apply_cells(grid, cells)
                        ply = 2 * turns + (species == WEREWOLVES)
                        turns += 1
                        state = GameState.from_cells(rows, cols, grid, ply)
                        moves = agent.choose_ply(state, received + budget)
                        sock.sendall(encode(Mov(tuple(tuple(m) for m in moves))))
                    case End():
                        games += 1
                    case Bye():
                        return games
