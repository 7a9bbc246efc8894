"""The sans-I/O codec: round trips, any split of the bytes, and garbage never crashing it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.codec import (
    FROM_BOT,
    Bye,
    Decoder,
    End,
    Hme,
    Hum,
    Map,
    Message,
    Mov,
    Nme,
    ProtocolError,
    Set,
    Upd,
    encode,
)

byte = st.integers(0, 255)
five = st.tuples(byte, byte, byte, byte, byte)
messages = st.one_of(
    st.binary(max_size=255).map(Nme),
    st.lists(five, max_size=20).map(lambda m: Mov(tuple(m))),
    st.builds(Set, byte, byte),
    st.lists(st.tuples(byte, byte), max_size=20).map(lambda h: Hum(tuple(h))),
    st.builds(Hme, byte, byte),
    st.lists(five, max_size=20).map(lambda c: Map(tuple(c))),
    st.lists(five, max_size=20).map(lambda c: Upd(tuple(c))),
    st.just(End()),
    st.just(Bye()),
)


def decode_in_pieces(data: bytes, cuts: list[int]) -> list[Message]:
    decoder = Decoder()
    out: list[Message] = []
    start = 0
    for cut in [*sorted(set(cuts)), len(data)]:
        out += decoder.feed(data[start:cut])
        start = cut
    decoder.close()
    return out


@given(st.lists(messages, max_size=8), st.lists(st.integers(0, 2000), max_size=10))
def test_messages_round_trip_however_the_bytes_are_split(messages, cuts) -> None:
    data = b"".join(encode(m) for m in messages)
    cuts = [c for c in cuts if c <= len(data)]
    assert decode_in_pieces(data, cuts) == messages


@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=6))
def test_any_bytes_decode_the_same_split_or_whole_or_raise_protocol_error(data, cuts) -> None:
    def outcome(pieces: list[int]) -> tuple[str, object]:
        try:
            return ("ok", decode_in_pieces(data, pieces))
        except ProtocolError as error:
            return ("error", (error.offset, error.reason))

    assert outcome([c for c in cuts if c <= len(data)]) == outcome([])


def test_an_unknown_command_is_reported_with_its_offset() -> None:
    decoder = Decoder(FROM_BOT)
    with pytest.raises(ProtocolError) as caught:
        decoder.feed(encode(Mov(((4, 3, 4, 3, 2),))) + b"XYZ")
    assert caught.value.offset == 9
    assert "XYZ" in caught.value.reason


def test_the_messages_before_garbage_come_with_the_error() -> None:
    move = Mov(((4, 3, 4, 3, 2),))
    with pytest.raises(ProtocolError) as caught:
        Decoder(FROM_BOT).feed(encode(Nme(b"a")) + encode(move) + b"XYZ")
    assert caught.value.decoded == (Nme(b"a"), move)


def test_a_stream_cut_inside_the_command_says_so_plainly() -> None:
    decoder = Decoder(FROM_BOT)
    assert decoder.feed(b"MO") == []
    with pytest.raises(ProtocolError, match=r"^connection closed in the middle of a message \(2 "):
        decoder.close()


def test_a_server_command_from_a_bot_is_unexpected() -> None:
    with pytest.raises(ProtocolError, match="unexpected command"):
        Decoder(FROM_BOT).feed(encode(End()))


def test_a_message_cut_off_by_the_close_is_named() -> None:
    decoder = Decoder(FROM_BOT)
    assert decoder.feed(b"MOV\x02\x04\x03") == []
    with pytest.raises(ProtocolError, match="middle of a MOV"):
        decoder.close()


def test_mov_0_and_nme_0_decode_at_once() -> None:
    assert Decoder(FROM_BOT).feed(b"MOV\x00NME\x00") == [Mov(()), Nme(b"")]


@pytest.mark.parametrize(
    "message", [Set(256, 1), Hme(0, -1), Mov(((1, 2, 300, 1, 1),)), Nme(b"x" * 256)]
)
def test_values_that_do_not_fit_a_byte_are_refused(message) -> None:
    with pytest.raises(ValueError):
        encode(message)
