"""The short thetrap game of protocol.md as the course server played it: its bytes and plies."""

from engine import Move
from protocol.codec import End, Mov, Nme, encode
from protocol.watch import ConnectionWatch, Event

GREETING_VAMPIRES = bytes.fromhex("53455405 0a48554d04 02020900 09020904484d45 0403")
MAP_BYTES = bytes.fromhex(
    "4d415006 0900020000 0401000004 0202040000 0902010000 0403000400 0904020000"
)
UPD_VAMPIRES = [
    "55504400",
    "555044040302000400040300000005000000040401000000",
    "5550440502020008000302000000060000000205000000000601000002",
]
UPD_WEREWOLVES = [
    "5550440203020004000403000000",
    "555044040202000800030200000005000000040401000000",
]
PLIES = [
    (Move(4, 3, 4, 3, 2),),
    (Move(4, 1, 4, 5, 0),),
    (Move(3, 2, 4, 2, 2),),
    (Move(5, 0, 2, 6, 0), Move(5, 0, 2, 6, 1)),
]


WATCHED_PLIES = [((4, 3, 4, 3, 2),), ((3, 2, 4, 2, 2),), ((2, 2, 9, 3, 2),)]
"""The vampires' plies of the game as a watch is fed it: the course's two, then an illegal
one (9 sent from a cell of 8)."""


def watch_course_game(watch: ConnectionWatch, start: float) -> list[Event]:
    """The vampires' side of the course game fed to ``watch`` from the moment ``start``
    (MOVs in two pieces, as bots send them); the events it reported."""
    events = list(watch.from_bot(encode(Nme(b"alice")), start))
    events += watch.from_server(GREETING_VAMPIRES, start + 0.1)
    events += watch.from_server(MAP_BYTES, start + 0.2)
    for turn, (update, ply) in enumerate(zip(UPD_VAMPIRES, WATCHED_PLIES, strict=True)):
        at = start + 1 + turn
        events += watch.from_server(bytes.fromhex(update), at)
        mov = encode(Mov(ply))
        events += watch.from_bot(mov[:4], at + 0.1)
        events += watch.from_bot(mov[4:], at + 0.25)
    events += watch.from_server(encode(End()), start + 9)
    return events
