"""The latency ``vvw proxy`` adds to each message, over loopback TCP.

    python -m benchmarks.proxy [--rounds N] [--quiet] [--no-transcript]

A scripted server and a scripted bot (both in this process) play a game of ``--rounds``
turns: the server sends an UPD, the bot answers at once with a legal MOV (one group walks
back and forth, so the proxy judges, resolves and draws a real ply each time), the server
sends the next UPD as soon as the MOV is in. Each round trip (UPD sent → MOV received) is
timed once directly and once through a ``vvw proxy`` process started as users run it (its
trace going to /dev/null, transcripts written unless ``--no-transcript``). A round trip
holds two messages, so the added latency per message is half the difference; printed for
the median and the 99th percentile.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from protocol.codec import FROM_BOT, FROM_SERVER, Decoder, Hme, Hum, Map, Mov, Nme, Set, Upd, encode

ROWS, COLS = 10, 10
GROUP = 10


def _cells(x: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """The UPD after the group moved to column ``x`` (from the other column)."""
    return ((x, 0, 0, GROUP, 0), (1 - x, 0, 0, 0, 0))


async def _server(listener: trio.SocketListener, rounds: int, times: list[float]) -> None:
    stream = await listener.accept()
    decoder = Decoder(FROM_BOT)
    async with stream:
        while not decoder.feed(await stream.receive_some()):
            pass  # NME
        await stream.send_all(encode(Set(ROWS, COLS)) + encode(Hum(((9, 9),))) + encode(Hme(0, 0)))
        await stream.send_all(encode(Map(((0, 0, 0, GROUP, 0), (9, 9, 1, 0, 0), (5, 5, 0, 0, 3)))))
        update = Upd(())
        for turn in range(rounds):
            sent = time.perf_counter()
            await stream.send_all(encode(update))
            while not decoder.feed(await stream.receive_some()):
                pass
            times.append(time.perf_counter() - sent)
            # The group is now in column (turn + 1) % 2; werewolves do not move: a skipped turn.
            update = Upd(_cells((turn + 1) % 2))


async def _bot(port: int) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    decoder = Decoder(FROM_SERVER)
    column = 0
    async with stream:
        await stream.send_all(encode(Nme(b"bench")))
        while data := await stream.receive_some():
            for message in decoder.feed(data):
                if isinstance(message, Upd):
                    target = 1 - column
                    await stream.send_all(encode(Mov(((column, 0, GROUP, target, 0),))))
                    column = target


async def _measure(rounds: int, proxy_args: list[str] | None) -> list[float]:
    times: list[float] = []
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    server_port = listeners[0].socket.getsockname()[1]
    proxy = None
    port = server_port
    if proxy_args is not None:
        with trio.socket.socket() as probe:
            await probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [
            sys.executable,
            "-m",
            "vvw",
            "proxy",
            "--listen",
            str(port),
            "--upstream",
            f"127.0.0.1:{server_port}",
            *proxy_args,
        ]
        proxy = await trio.lowlevel.open_process(command, stdout=subprocess.DEVNULL)
        for _ in range(200):  # until it listens
            try:
                probe_stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                await trio.sleep(0.05)
                continue
            await probe_stream.aclose()  # the proxy relays it and the server's accept takes it
            break
    try:
        async with trio.open_nursery() as nursery:
            if proxy is not None:  # the probe connection took the first accept: drop it
                await (await listeners[0].accept()).aclose()
            nursery.start_soon(_server, listeners[0], rounds, times)
            nursery.start_soon(_bot, port)
    finally:
        if proxy is not None:
            proxy.terminate()
            await proxy.wait()
    return times


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="round trips (default 2000)")
    parser.add_argument("--quiet", action="store_true", help="run the proxy with --quiet")
    parser.add_argument("--no-transcript", action="store_true", help="proxy writes none")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proxy_args = ["--transcript", str(Path(folder))]
        if args.no_transcript:
            proxy_args = ["--no-transcript"]
        if args.quiet:
            proxy_args.append("--quiet")
        direct = trio.run(_measure, args.rounds, None)
        proxied = trio.run(_measure, args.rounds, proxy_args)
    print(f"round trips (UPD → MOV), {args.rounds} each, proxy {' '.join(proxy_args[:1])}…")
    for name, fraction in (("median", 0.5), ("p99", 0.99)):
        d, p = _percentile(direct, fraction), _percentile(proxied, fraction)
        print(
            f"{name:>6}: direct {d * 1e6:8.0f} µs, through the proxy {p * 1e6:8.0f} µs,"
            f" added per message {(p - d) / 2 * 1e6:8.0f} µs"
        )
    print(
        f"  mean: direct {statistics.fmean(direct) * 1e6:.0f} µs,"
        f" proxy {statistics.fmean(proxied) * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
