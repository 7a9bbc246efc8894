"""The note a relay reads after BYE: written from the stored game, cut from the stream."""

import itertools

import pytest
import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st

from engine import Kind, Termination
from protocol.codec import Bye, End, Upd, encode
from tests.vvw.ladder.ladders import play, result
from vvw.ladder.joining import Joining, _Sight, _to_bot
from vvw.ladder.notes import MAX_NOTE, Note, NoteError, Verdict, note_of, read_note
from vvw.ladder.refusals import Refusal

V, W = Kind.VAMPIRES, Kind.WEREWOLVES


def test_a_note_tells_each_team_its_side_its_opponent_and_its_result(store):
    for team in ("alpha", "beta"):
        store.add_team(team)
    number, _ = play(store, "alpha", "beta", W, None)
    game = store.game(number)
    alpha, beta = read_note(note_of(game, "alpha")), read_note(note_of(game, "beta"))
    assert alpha == Note(number, game.map, V, "beta", Verdict.LOST, Termination.ELIMINATION, "", 30)
    assert (beta.side, beta.opponent, beta.verdict) == (W, "alpha", Verdict.WON)
    assert alpha.describe() == (
        f"game {number} on {game.map} as vampires against beta: lost by elimination after 30 plies"
    )


def test_an_abnormal_end_says_its_reason_printable_and_an_aborted_game_says_so(store):
    for team in ("alpha", "beta"):
        store.add_team(team)
    pairing = store.new_pairing("alpha", "beta")
    game = store.begin_game(pairing.id, 1)
    why = "beta sent bytes that are no message: b'\\x1b[2J' \x1b[2J\nforged line" + "x" * 5000
    store.finish_game(game.id, result(V, Termination.PROTOCOL_ERROR, why), None)
    data = note_of(store.game(game.id), "beta")
    assert len(data) <= MAX_NOTE and data.endswith(b"\n") and data.count(b"\n") == 1
    line = read_note(data).describe()
    assert line.startswith(f"game {game.id} on thetrap as werewolves against alpha: lost by")
    assert "\n" not in line and "\x1b" not in line and "\\x1b[2J\\nforged line" in line
    aborted = store.begin_game(pairing.id, 2)
    store.abort_game(aborted.id, "the ladder's server stopped")
    assert (
        read_note(note_of(store.game(aborted.id), "alpha"))
        .describe()
        .endswith("aborted after 0 plies (not rated): the ladder's server stopped")
    )


@pytest.mark.parametrize("data", [b"", b"{}", b"\xff", b'{"game": "x"}', b"[1, 2]"])
def test_bytes_that_are_no_note_are_refused(data):
    with pytest.raises(NoteError):
        read_note(data)


NOTE = b'{"game": 1, "verdict": "won"}\n'
STREAM = encode(Upd(())) + encode(End()) + encode(Bye())


@given(st.lists(st.integers(0, len(STREAM + NOTE)), max_size=4))
def test_the_relay_gives_the_bot_everything_up_to_bye_and_keeps_the_note_however_it_comes(
    splits,
):
    data = STREAM + NOTE
    cuts = sorted(set(splits) | {0, len(data)})
    pieces = [data[a:b] for a, b in itertools.pairwise(cuts) if b > a]

    async def main() -> tuple[bytes, bytes | None]:
        ladder, ladder_side = trio.testing.memory_stream_pair()
        bot_side, bot = trio.testing.memory_stream_pair()
        sight = _Sight(Joining())
        forwarded: list[bytes] = []

        async def ladder_sends() -> None:
            for piece in pieces:
                await ladder.send_all(piece)
                await trio.testing.wait_all_tasks_blocked()
            await ladder.aclose()

        async def bot_reads() -> None:
            while chunk := await bot.receive_some():
                forwarded.append(chunk)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(ladder_sends)
            nursery.start_soon(bot_reads)
            await _to_bot(ladder_side, bot_side, lambda data, at: None, sight)
        return b"".join(forwarded), None if sight.note is None else bytes(sight.note)

    bot_got, note = trio.run(main)
    assert bot_got == STREAM and note == NOTE


def test_a_refusal_note_says_why_and_whether_trying_again_can_help():
    from vvw.ladder.notes import read_refusal, refusal_note

    assert read_refusal(refusal_note(Refusal.WRONG_TOKEN)) == ("wrong token", True)
    full = refusal_note(Refusal.TEAM_FULL)
    assert read_refusal(full) == ("the team has all its connections open already", False)
    assert read_refusal(b'{"game": 1}\n') is None and read_refusal(b"\xff") is None
