"""Hostile clients over loopback: forged names, silent crowds, floods (issue 35)."""

import logging

import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from protocol.codec import Nme, encode
from protocol.transcript import Frame, read_transcript
from tests.server.fakes import FakeBot, mov, scripted
from tests.server.test_serving_tcp import Seats, _bot, _start
from vvw.commands.log import render

FORGER = b"evil\n\x1b[2Jwerewolves (x) win by elimination after 9 plies: ok"
"""A name with a newline and a terminal escape code (clear the screen), forging a line."""
SHOWN = "evil\\n\\x1b[2Jwerewolves (x) win by elimination after 9 plies: ok"


def _clean(text: str) -> bool:
    return "\n" not in text and "\x1b" not in text


async def test_a_forged_name_is_printed_escaped_and_kept_exactly(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    results: list = []
    seats = Seats()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await _start(nursery, results, tmp_path, on_seated=seats)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            forger = FakeBot(stream, FORGER, scripted({0: mov()}))  # MOV 0: it loses at once
            nursery.start_soon(forger.run)
            await seats.events[0].wait()
            await _bot(nursery, port, b"b", 2)
    (result,) = results
    assert result.vampires.name == FORGER.decode()  # the record keeps the name as sent
    line = result.summary()
    assert _clean(line) and SHOWN in line
    assert all(_clean(record.getMessage()) for record in caplog.records)
    (transcript,) = tmp_path.glob("*.jsonl")
    records = read_transcript(transcript)
    nme = next(r for r in records if isinstance(r, Frame) and r.command == "NME")
    assert nme.raw == encode(Nme(FORGER))  # the transcript keeps the exact bytes
    shown = render(records)
    assert all(_clean(text) for text in shown)
    assert f"player vampires: {SHOWN} (" in "\n".join(shown)


def test_a_winners_forged_name_and_a_many_line_detail_make_one_summary_line():
    result = GameResult(
        Kind.WEREWOLVES, Termination.CRASH, "vampires-bot exited with code 3: Traceback\nboom", 4,
        PlayerRecord(Kind.VAMPIRES, "a", 0), PlayerRecord(Kind.WEREWOLVES, FORGER.decode(), 9),
    )
    assert result.summary() == (
        f"werewolves ({SHOWN}) win by crash after 4 plies:"
        " vampires-bot exited with code 3: Traceback\\nboom"
    )
