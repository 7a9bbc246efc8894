"""A tiny bot process for the tests: ``python bot.py MODE HOST PORT [FILE]``.

Modes: ``play`` (random legal plies), ``crash`` (exit 3 with a message on stderr at its
first UPD), ``chatty`` (prints megabytes to stdout while playing), ``spin`` (plays, then
spins forever after BYE, deaf to SIGTERM; writes its pid to FILE), ``silent`` (connects,
never sends NME), ``stall`` (never answers an UPD; writes its pid to FILE at its first
UPD, then every later command it receives), ``garbage`` (sends bytes that are no message
instead of its NME, then waits), ``hangup`` (closes its connection before its NME, then
waits), ``notnme`` (sends a MOV instead of its NME, then waits), ``quit`` (closes its
connection once greeted, before the game, then waits), ``exit`` (prints to
stdout and exits 4 before connecting), ``illegal`` (at its second UPD, sends one creature
more than its largest group holds), ``garble`` (its first MOV is followed by ``XYZ`` in
the same write), ``late`` (sleeps 1 s before each MOV), ``linger`` (plays, then stays
after BYE), ``spinclose`` (plays; spins at 100 % CPU if the server closes without BYE),
``nomove`` (never answers an UPD).

Forking bots (each writes its child's pid to FILE): ``setsid`` (plays; its child left its
session with ``setsid()`` and sleeps), ``orphan`` (its child holds the socket and sleeps;
the bot exits 3 at its first UPD), ``detach`` (exits 0 at once; its child plays).
"""

import os
import random
import signal
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.movegen import random_ply
from protocol.codec import FROM_SERVER, Decoder, Map, Mov, Nme, Upd, encode
from protocol.session import ClientSession, Goodbye, YourTurn


def main() -> int:
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "spin":
        Path(sys.argv[4]).write_text(str(os.getpid()))
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "exit":
        print("my debugging print")
        print("cannot start: no model file", file=sys.stderr)
        return 4
    if mode in ("setsid", "detach"):
        child = os.fork()
        if child == 0 and mode == "setsid":
            os.setsid()
            time.sleep(3600)
            return 0
        if child:
            _write_pid(Path(sys.argv[4]), child)
            if mode == "detach":
                return 0
    sock = socket.create_connection((host, port))
    if mode == "silent":
        time.sleep(3600)
    if mode == "garbage":
        sock.sendall(b"HELLO?\n")
        time.sleep(3600)
    if mode == "hangup":
        sock.close()
        time.sleep(3600)
    if mode == "notnme":
        sock.sendall(encode(Mov(())))
        time.sleep(3600)
    sock.sendall(encode(Nme(mode.encode())))
    if mode == "orphan":
        child = os.fork()
        if child == 0:
            time.sleep(3600)
            return 0
        _write_pid(Path(sys.argv[4]), child)
    decoder, rng, session = Decoder(FROM_SERVER), random.Random(1), ClientSession()
    said_bye = False
    while True:
        data = sock.recv(65536)
        if not data:
            if mode == "spinclose" and not said_bye:
                while True:
                    pass
            if mode == "linger":
                time.sleep(3600)
            return 0
        for message in decoder.feed(data):
            event = session.receive(message)
            if mode == "quit" and isinstance(message, Map):
                sock.close()
                time.sleep(3600)
            if mode == "stall":
                record = Path(sys.argv[4])
                if record.exists():
                    with record.open("a") as file:
                        file.write(f"{type(message).__name__}\n")
                elif isinstance(message, Upd):  # appears at once with the pid in it
                    partial = record.with_suffix(".partial")
                    partial.write_text(f"{os.getpid()}\n")
                    partial.replace(record)
                continue
            said_bye = said_bye or isinstance(event, Goodbye)
            if isinstance(event, YourTurn) and mode != "nomove":
                if mode in ("crash", "orphan"):
                    print("Traceback (most recent call last):", file=sys.stderr)
                    print("boom: the bot broke", file=sys.stderr)
                    return 3
                if mode == "chatty":
                    sys.stdout.write("x" * 1_000_000 + "\n")
                    sys.stdout.flush()
                ply = [tuple(m) for m in random_ply(event.state, rng)]
                if mode == "illegal" and event.turn == 1:
                    state = event.state
                    x, y, n = max(state.groups(state.to_move), key=lambda group: group[2])
                    tx, ty = next(
                        (tx, ty)
                        for tx in (x - 1, x, x + 1)
                        for ty in (y - 1, y, y + 1)
                        if 0 <= tx < state.cols and 0 <= ty < state.rows and (tx, ty) != (x, y)
                    )
                    ply = [(x, y, n + 1, tx, ty)]
                if mode == "late":
                    time.sleep(1.0)
                extra = b"XYZ" if mode == "garble" and event.turn == 0 else b""
                sock.sendall(encode(Mov(tuple(ply))) + extra)
            if isinstance(event, Goodbye) and mode == "spin":
                while True:
                    pass


def _write_pid(path: Path, pid: int) -> None:
    """Write ``pid`` so that the file appears at once, complete."""
    partial = path.with_suffix(".partial")
    partial.write_text(f"{pid}\n")
    partial.replace(path)


if __name__ == "__main__":
    sys.exit(main())
