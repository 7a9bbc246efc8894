"""Referee throughput and overhead: many games between two instant in-process bots.

    python -m benchmarks.referee [--games N] [--map FILE] [--seed N]

The bots answer each UPD at once with a random legal ply, over memory streams (no
sockets), through the real lobby and referee. Prints games per second and the referee's
own overhead per ply: the time from a complete MOV received (decoded by the player's
reader) to the next UPD sent, median and 99th percentile. The times come from the
``on_frame`` hook the server already has, so the referee is measured as it always runs.
"""

import argparse
import random
import statistics
import time
from pathlib import Path

import trio
import trio.testing

from engine import Kind
from engine.mapfile import GameMap, load_map
from engine.movegen import random_ply
from protocol.codec import FROM_SERVER, Decoder, Mov, Nme, Upd, encode
from protocol.records import Direction
from protocol.session import ClientSession, Goodbye, YourTurn
from server.lobby import admit, connected, greet
from server.referee import play_game
from server.settings import Settings

DEFAULT_MAP = Path(__file__).resolve().parent.parent / "maps" / "testmap2.xml"


async def instant_bot(stream: trio.abc.Stream, name: bytes, seed: int) -> None:
    """Send NME, then answer every UPD at once with a random legal ply; stop at BYE."""
    rng = random.Random(seed)
    decoder, session = Decoder(FROM_SERVER), ClientSession()
    await stream.send_all(encode(Nme(name)))
    while data := await stream.receive_some():
        for message in decoder.feed(data):
            match session.receive(message):
                case YourTurn(state):
                    moves = random_ply(state, rng)
                    await stream.send_all(encode(Mov(tuple((*m,) for m in moves))))
                case Goodbye():
                    await stream.aclose()
                    return


class Overhead:
    """``on_frame`` hook: the time from each complete MOV in to the next UPD out."""

    def __init__(self) -> None:
        self.samples: list[int] = []
        self._mov_at: int | None = None

    def __call__(self, player, direction: Direction, message, raw: bytes) -> None:
        now = time.perf_counter_ns()
        if direction is Direction.IN and isinstance(message, Mov):
            self._mov_at = now
        elif direction is Direction.OUT and isinstance(message, Upd) and self._mov_at is not None:
            self.samples.append(now - self._mov_at)
            self._mov_at = None


async def one_game(game_map: GameMap, seed: int, hook: Overhead) -> int:
    """Play one game; the number of plies."""
    v_server, v_bot = trio.testing.memory_stream_pair()
    w_server, w_bot = trio.testing.memory_stream_pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(instant_bot, v_bot, b"vampires", seed)
        nursery.start_soon(instant_bot, w_bot, b"werewolves", seed + 1)
        async with (
            connected(v_server, "v", hook) as vampires,
            connected(w_server, "w", hook) as werewolves,
        ):
            for player, species in ((vampires, Kind.VAMPIRES), (werewolves, Kind.WEREWOLVES)):
                why = await admit(player, 5.0)
                assert why is None, why
                await greet(player, game_map, species)
            hook._mov_at = None
            result = await play_game(vampires, werewolves, game_map, Settings(seed=seed))
    return result.plies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.referee",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game_map = load_map(args.map)
    hook = Overhead()

    async def run() -> int:
        plies = 0
        for number in range(args.games):
            plies += await one_game(game_map, args.seed + 2 * number, hook)
        return plies

    began = time.perf_counter()
    plies = trio.run(run)
    elapsed = time.perf_counter() - began
    samples = sorted(hook.samples)
    median = statistics.median(samples) / 1000
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] / 1000
    print(f"map {game_map.name}: {args.games} games, {plies} plies in {elapsed:.2f} s")
    print(f"  {args.games / elapsed:.1f} games/s, {plies / elapsed:.0f} plies/s (bots included)")
    print(
        f"  referee overhead per ply (complete MOV in -> next UPD out), {len(samples)} plies:"
        f" median {median:.1f} µs, p99 {p99:.1f} µs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
