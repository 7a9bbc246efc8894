"""The bots' trio client against scripted fake servers: memory streams, one loopback socket,
and one real match with bot processes."""

import contextlib
import json
import random
import socket
import struct
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import attrs
import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.client import ConnectionLost, Summary, TurnedAway, _Thinker, play, play_on
from agents.random_bot import RandomAgent
from engine import (
    VAMPIRES,
    WEREWOLVES,
    GameState,
    Kind,
    Move,
    Ply,
    apply_ply,
    check_ply,
    end_of_game,
    find_violation,
)
from engine.mapfile import GameMap, load_map
from engine.movegen import random_ply
from protocol.cells import map_cells, ply_cells, update_cells
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
from protocol.session import SessionError
from server.race import wait_unless
from tests.helpers.course import (
    GREETING_VAMPIRES,
    MAP_BYTES,
    PLIES,
    UPD_VAMPIRES,
    UPD_WEREWOLVES,
)
from vvw.cli import main as vvw
from vvw.running.bots import extra_options

MAPS = Path(__file__).resolve().parents[2] / "maps"
THETRAP = load_map(MAPS / "thetrap.xml")


class Recorder:
    """An agent that records what it is shown and plays random legal plies (or a script)."""

    def __init__(self, script: list[Ply] | None = None, name: str = "recorder") -> None:
        self.name = name
        self.script = list(script or [])
        self.rng = random.Random(0)
        self.games: list[tuple[Kind, GameState]] = []
        self.seen: list[GameState] = []

    def new_game(self, species: Kind, state: GameState) -> None:
        self.games.append((species, state))

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        self.seen.append(state)
        if self.script:
            return self.script.pop(0)
        return random_ply(state, self.rng)


class FakeServer:
    """The server side of a memory stream: send messages, receive the bot's ones."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.decoder = Decoder(FROM_BOT)
        self.pending: list[Message] = []

    async def send(self, *messages: Message) -> None:
        await self.stream.send_all(b"".join(encode(m) for m in messages))

    async def receive(self) -> Message:
        while not self.pending:
            data = await self.stream.receive_some()
            assert data, "the client closed the connection"
            self.pending.extend(self.decoder.feed(data))
        return self.pending.pop(0)

    async def greet(self, game_map: GameMap, species: Kind) -> GameState:
        x, y, _ = game_map.start(species == VAMPIRES)
        state = game_map.initial_state()
        houses = tuple((hx, hy) for hx, hy, _ in game_map.humans)
        await self.send(Set(game_map.rows, game_map.cols), Hum(houses), Hme(x, y))
        await self.send(Map(map_cells(state)))
        return state


async def run_client(nursery: trio.Nursery, agent, **options) -> tuple[FakeServer, list]:
    """Start ``play_on`` on a memory stream; the list gets its summary or its error."""
    client_stream, server_stream = trio.testing.memory_stream_pair()
    outcome: list = []

    async def client() -> None:
        try:
            outcome.append(await play_on(client_stream, agent, **options))
        except (ProtocolError, SessionError) as error:
            outcome.append(error)

    nursery.start_soon(client)
    return FakeServer(server_stream), outcome


async def referee(
    server: FakeServer, species: Kind, seed: int, bye: bool = True
) -> list[GameState]:
    """Play a whole thetrap game with the engine against the client; the states it moved in.

    The game ends with END, then BYE unless ``bye`` is false (another game follows).
    """
    rng = random.Random(seed)
    state = await server.greet(THETRAP, species)
    last: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    asked: list[GameState] = []
    while end_of_game(state) is None:
        mover = state.ply & 1
        if state.to_move == species:
            await server.send(Upd(update_cells(state, (last[0], last[1]))))
            message = await server.receive()
            assert isinstance(message, Mov)
            ply = tuple(Move(*move) for move in message.moves)
            check_ply(state, ply)
            asked.append(state)
        else:
            ply = random_ply(state, rng)
        state = apply_ply(state, ply, rng).state
        last[mover] = ply_cells(ply)
    await server.send(End(), *([Bye()] if bye else []))
    return asked


async def test_the_client_sends_nme_first_with_the_agents_name_or_the_given_one() -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, Recorder(name="probe"))
        assert await server.receive() == Nme(b"probe")
        await server.send(Bye())
        other, _ = await run_client(nursery, Recorder(), name="Zoë")
        assert await other.receive() == Nme("Zoë".encode())
        await other.send(Bye())
    assert outcome == [Summary()]


@pytest.mark.parametrize("species", [VAMPIRES, WEREWOLVES])
async def test_the_species_is_the_kind_on_the_hme_cell_of_map(species: Kind) -> None:
    agent = Recorder()
    async with trio.open_nursery() as nursery:
        server, _ = await run_client(nursery, agent)
        await server.receive()
        initial = await server.greet(THETRAP, species)
        await server.send(End(), Bye())
    [(seen_species, state)] = agent.games
    assert seen_species == species
    assert state.to_move == species
    assert state.with_ply(0) == initial


@pytest.mark.parametrize(("species", "seed"), [(VAMPIRES, 1), (WEREWOLVES, 2), (VAMPIRES, 3)])
async def test_the_board_follows_map_and_upd_and_every_reply_is_legal_and_in_time(
    species: Kind, seed: int
) -> None:
    agent = Recorder()
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, agent, time_budget=5.0)
        await server.receive()
        asked = await referee(server, species, seed)
    assert len(asked) >= 2
    assert [(s.ply & 1, s.cells) for s in agent.seen] == [(s.ply & 1, s.cells) for s in asked]
    assert all(s.to_move == species for s in agent.seen)
    [summary] = outcome
    assert (summary.games, summary.replies, summary.fallbacks) == (1, len(asked), 0)


class Blocked:
    """An agent that thinks until the test lets it go."""

    name = "blocked"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.thinking = threading.Event()
        self.finished = threading.Event()
        self.calls = 0

    def new_game(self, species: Kind, state: GameState) -> None:
        pass

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        self.calls += 1
        self.thinking.set()
        self.release.wait()
        self.finished.set()
        return ((0, 0, 0, 0, 0),)  # illegal: it must never be sent


async def test_a_slow_agent_gets_a_legal_fallback_ply_before_the_deadline(
    autojump_clock: trio.testing.MockClock,
) -> None:
    agent = Blocked()
    try:
        async with trio.open_nursery() as nursery:
            server, outcome = await run_client(nursery, agent, time_budget=1.5)
            await server.receive()
            state = await server.greet(THETRAP, VAMPIRES)
            for _ in range(2):  # the second time, the first computation is still running
                sent = trio.current_time()
                await server.send(Upd(()))
                message = await server.receive()
                assert trio.current_time() - sent <= 1.5
                assert find_violation(state, tuple(Move(*m) for m in message.moves)) is None
            await server.send(End(), Bye())
    finally:
        agent.release.set()
    assert agent.finished.wait(10)
    assert agent.calls == 1  # not asked again while the abandoned computation ran
    assert outcome[0].fallbacks == 2


async def test_a_reply_overtaken_by_the_server_s_next_upd_is_never_sent() -> None:
    # The server skipped the bot's turn (it was too slow) and sent the next UPD: a MOV for
    # the first UPD would be taken as the answer to the second, on another board.
    agent = Blocked()
    try:
        async with trio.open_nursery() as nursery:
            server, outcome = await run_client(nursery, agent, time_budget=1000.0)
            await server.receive()
            state = await server.greet(THETRAP, VAMPIRES)
            await server.send(Upd(()))
            await trio.to_thread.run_sync(agent.thinking.wait)  # about the first UPD
            await server.send(Upd(()))
            await trio.testing.wait_all_tasks_blocked()  # the client has read the second
            agent.release.set()
            message = await server.receive()  # the one reply: to the second UPD
            assert find_violation(state, tuple(Move(*m) for m in message.moves)) is None
            await server.send(End(), Bye())
    finally:
        agent.release.set()
    summary = outcome[0]
    assert (summary.replies, summary.overtaken, agent.calls) == (1, 1, 2)
    assert server.pending == []


class Faulty(Recorder):
    def __init__(self, answer: object) -> None:
        super().__init__()
        self.answer = answer

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize(
    "answer",
    [
        RuntimeError("bug in the bot"),
        ((4, 3, 9, 4, 2),),  # more creatures than the cell holds
        (),
        None,
        "not a ply",
        ((4, 3, 3.9, 4, 2),),  # read as engine.as_ply reads it: refused, never truncated to 3
    ],
    ids=["raises", "illegal", "empty", "none", "garbage", "a float"],
)
async def test_an_agent_that_fails_gets_a_legal_fallback_ply(answer: object) -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, Faulty(answer))
        await server.receive()
        state = await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(()))
        message = await server.receive()
        assert message.moves
        assert find_violation(state, tuple(Move(*m) for m in message.moves)) is None
        await server.send(End(), Bye())
    assert outcome[0].fallbacks == 1


class FaultyStart(Recorder):
    def new_game(self, species: Kind, state: GameState) -> None:
        raise RuntimeError("bug in new_game")


async def test_an_agent_whose_new_game_fails_still_plays_the_game() -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, FaultyStart())
        await server.receive()
        state = await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(()))
        message = await server.receive()
        assert find_violation(state, tuple(Move(*m) for m in message.moves)) is None
        await server.send(End(), Bye())
    assert outcome[0].fallbacks == 0


async def test_no_mov_is_sent_when_the_bot_has_no_creature_left() -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, Recorder())
        await server.receive()
        await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(((4, 3, 0, 0, 0),)))  # our only group is gone
        await server.send(End(), Bye())
    assert outcome[0].skipped == 1
    assert outcome[0].replies == 0
    assert server.pending == [] and not server.decoder.buffered


async def test_end_then_bye_ends_the_connection_cleanly_while_the_stream_stays_open() -> None:
    with trio.fail_after(10):  # the server side never closes: only BYE can end the client
        async with trio.open_nursery() as nursery:
            server, outcome = await run_client(nursery, Recorder())
            await server.receive()
            await server.greet(THETRAP, WEREWOLVES)
            await server.send(End(), Bye())
    assert outcome[0].games == 1


async def test_a_second_game_on_the_same_connection_calls_new_game_again() -> None:
    agent = Recorder()
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, agent, time_budget=5.0)
        await server.receive()
        await referee(server, VAMPIRES, 4, bye=False)
        await referee(server, WEREWOLVES, 5)
    assert [species for species, _ in agent.games] == [VAMPIRES, WEREWOLVES]
    assert outcome[0].games == 2


async def test_the_server_closing_mid_game_ends_the_client_without_an_error() -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, Recorder())
        await server.receive()
        await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(()))
        await server.receive()
        await server.stream.aclose()
    assert outcome == [Summary(games=0, replies=1, slowest=outcome[0].slowest)]


@pytest.mark.parametrize(
    ("data", "error_type", "reason"),
    [
        (b"XYZ", ProtocolError, "unknown command"),
        (b"MOV\x00", ProtocolError, "unexpected command"),
        (encode(Upd(())), SessionError, "UPD before SET"),
        (
            encode(Set(5, 10)) + encode(Hme(4, 3)) + encode(Map(((4, 3, 4, 0, 0),))),
            SessionError,
            "at HME",
        ),
        (
            encode(Set(5, 10)) + encode(Hme(4, 3)) + encode(Map(((11, 3, 0, 4, 0),))),
            SessionError,
            "outside",
        ),
    ],
)
async def test_bad_bytes_are_a_protocol_error_and_a_contradiction_a_session_error(
    data: bytes, error_type: type[Exception], reason: str
) -> None:
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, Recorder())
        await server.receive()
        await server.stream.send_all(data)
    [error] = outcome
    assert isinstance(error, error_type)
    assert reason in str(error)


@pytest.mark.parametrize("side", ["vampires", "werewolves"])
async def test_the_protocol_md_thetrap_bytes_are_understood(side: str) -> None:
    """The course server's bytes, fed as sent; the board seen matches the engine's replay."""
    vampires = side == "vampires"
    greeting = GREETING_VAMPIRES if vampires else GREETING_VAMPIRES[:-2] + bytes([4, 1])
    updates = [bytes.fromhex(u) for u in (UPD_VAMPIRES if vampires else UPD_WEREWOLVES)]
    ours = PLIES[0::2] if vampires else PLIES[1::2]
    agent = Recorder(script=[*ours, ((2, 2, 9, 3, 2),)])  # the last one is illegal
    replay = [THETRAP.initial_state()]
    for ply in PLIES:
        replay.append(apply_ply(replay[-1], ply, random.Random(0)).state)
    async with trio.open_nursery() as nursery:
        server, outcome = await run_client(nursery, agent)
        assert await server.receive() == Nme(b"recorder")
        await server.stream.send_all(greeting)
        await server.stream.send_all(MAP_BYTES)
        sent = []
        for update in updates:
            await server.stream.send_all(update)
            sent.append(await server.receive())
        await server.stream.send_all(bytes.fromhex("45 4e 44 42 59 45"))
    assert [species for species, _ in agent.games] == [VAMPIRES if vampires else WEREWOLVES]
    expected = replay[0::2] if vampires else replay[1::2]
    assert [s.cells for s in agent.seen] == [s.cells for s in expected]
    assert [tuple(Move(*m) for m in mov.moves) for mov in sent[:2]] == ours[: len(sent[:2])]
    if vampires:  # the transcript's third vampire ply is illegal: a fallback goes instead
        assert find_violation(replay[4], tuple(Move(*m) for m in sent[2].moves)) is None
        assert outcome[0].fallbacks == 1
    assert outcome[0].games == 1


async def test_play_connects_over_loopback_tcp_and_plays_a_game() -> None:
    moves: list[Mov] = []

    async def handler(stream: trio.SocketStream) -> None:
        server = FakeServer(stream)
        assert isinstance(await server.receive(), Nme)
        await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(()))
        moves.append(await server.receive())  # type: ignore[arg-type]
        await server.send(End(), Bye())
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        summary = await play(RandomAgent(1), "127.0.0.1", port, games=2)
        nursery.cancel_scope.cancel()
    assert summary.games == 2  # the second game on a new connection, as after a restart
    assert len(moves) == 2
    state = THETRAP.initial_state()
    assert all(find_violation(state, tuple(Move(*m) for m in mov.moves)) is None for mov in moves)


async def test_a_connection_turned_away_while_the_server_ends_a_game_is_tried_again() -> None:
    """Our server closes a connection at once while it is still ending the last game: the
    next game's connection, made too early, is turned away and made again."""
    connections = 0

    async def handler(stream: trio.SocketStream) -> None:
        nonlocal connections
        connections += 1
        if connections == 2:  # too early: the last game is still being ended
            await stream.aclose()
            return
        server = FakeServer(stream)
        assert isinstance(await server.receive(), Nme)
        await server.greet(THETRAP, VAMPIRES)
        await server.send(Upd(()))
        await server.receive()
        await server.send(End(), Bye())
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        summary = await play(RandomAgent(1), "127.0.0.1", port, games=2)
        nursery.cancel_scope.cancel()
    assert (summary.games, connections) == (2, 3)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_vvw_agent_says_in_one_line_that_the_connection_was_refused(capsys) -> None:
    code = vvw(["agent", "random", "127.0.0.1", str(free_port())])
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip().splitlines() == [err.strip()]
    assert "cannot connect to 127.0.0.1" in err and "refused" in err


def test_vvw_agent_names_the_built_in_bots_for_an_unknown_one(capsys) -> None:
    code = vvw(["agent", "nosuchbot"])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown bot 'nosuchbot'" in err
    assert "greedy" in err and "random" in err


def _agent_against(serve: Callable[[socket.socket], None], capsys) -> tuple[int, str]:
    """``vvw agent random`` against a one-connection server run by ``serve`` in a thread:
    its exit code and standard error."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept() -> None:
        connection, _ = listener.accept()
        with connection:
            serve(connection)

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        code = vvw(["agent", "random", "127.0.0.1", str(port)])
    finally:
        thread.join(10)
        listener.close()
    return code, capsys.readouterr().err


def test_a_server_sending_garbage_is_one_error_line_and_exit_code_1(capsys) -> None:
    def serve_garbage(connection: socket.socket) -> None:
        connection.recv(64)
        connection.sendall(b"HELLO")
        connection.recv(64)  # until the client hangs up

    code, err = _agent_against(serve_garbage, capsys)
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert "sent bad data" in err and "unknown command" in err


def test_a_connection_reset_mid_game_is_one_error_line_and_exit_code_1(capsys) -> None:
    def serve_then_reset(connection: socket.socket) -> None:
        connection.recv(64)  # NME
        connection.sendall(GREETING_VAMPIRES + MAP_BYTES + bytes.fromhex(UPD_VAMPIRES[0]))
        connection.recv(64)  # MOV
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.close()  # a reset, not a close

    code, err = _agent_against(serve_then_reset, capsys)
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "the connection broke" in err


def test_extra_bot_options_are_read_as_keyword_arguments() -> None:
    assert extra_options(["--depth", "4", "--mode=fast", "--max-time", "0.5"]) == {
        "depth": 4,
        "mode": "fast",
        "max_time": 0.5,
    }
    with pytest.raises(ValueError, match="needs a value"):
        extra_options(["--depth"])


def test_our_server_plays_a_whole_game_between_greedy_and_random_processes(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results.json"
    code = vvw(
        [
            "match",
            "--map",
            str(MAPS / "thetrap.xml"),
            "greedy",
            "random --seed 1",
            "--games",
            "1",
            "--seed",
            "3",
            "--json",
            str(results),
        ]
    )
    capsys.readouterr()
    assert code == 0
    [game] = json.loads(results.read_text())
    assert game["termination"] in ("elimination", "ply limit")
    assert game["winner"] == "vampires"  # greedy


async def test_a_deadline_passing_as_the_abandoned_computation_ends_leaves_the_thinker_usable(
    mock_clock,
):
    # A computation abandoned at its deadline is still running (``idle`` unset). The next
    # reply waits for it, and it ends at the very moment that reply's own deadline passes:
    # that reply gives up, and the one after must still get the agent.
    thinker = _Thinker(RandomAgent())
    abandoned = trio.Event()
    thinker.idle = abandoned
    answers = []

    async def reply(work, until):
        answers.append(await thinker.run(work, until))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reply, lambda: "late", trio.current_time() + 1)
        await trio.testing.wait_all_tasks_blocked()
        abandoned.set()  # the old computation ends...
        mock_clock.jump(2)  # ...as the deadline passes, with no checkpoint in between
    assert answers == [(False, None)]
    assert thinker.idle.is_set()  # nothing runs, so nothing would ever set it again
    assert await thinker.run(lambda: "next", trio.current_time() + 10) == (True, "next")


class BreakableStream(trio.abc.Stream):
    """The client's end of a memory stream that can break as a reset does (every later send
    and receive raises ``BrokenResourceError``) or whose server can hang up, at any moment:
    when told, or as the client's ``at_send``-th write goes out. It keeps what was sent."""

    def __init__(
        self, stream: trio.abc.Stream, server: trio.abc.Stream, how: str, at_send: int | None
    ) -> None:
        self.stream, self.server = stream, server
        self.how, self.at_send = how, at_send
        self.broken = False
        self.sends = 0
        self.sent = b""
        self.wrote = trio.Event()
        """Set as the client's next write begins."""

    async def end(self) -> None:
        """The server's end: the connection breaks, or the server closes its side."""
        self.broken = self.how == "break"
        await self.server.aclose()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sends += 1
        self.wrote.set()
        self.wrote = trio.Event()
        if self.sends == self.at_send:
            await self.end()
        if self.broken:
            raise trio.BrokenResourceError("connection reset by peer")
        await self.stream.send_all(data)
        self.sent += bytes(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.stream.receive_some(max_bytes)
        if self.broken:
            raise trio.BrokenResourceError("connection reset by peer")
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


COURSE_GAME = [
    GREETING_VAMPIRES,
    MAP_BYTES,
    *(bytes.fromhex(update) for update in UPD_VAMPIRES),
    encode(End()),
    encode(Bye()),
]
"""The course game for the vampires, message by message (the client answers each UPD)."""


@attrs.frozen
class BrokenServer:
    """The course game from a server that fails: ``garbage`` sent before message
    ``garbage_at``, the bytes cut after ``cut`` of them, then the connection ends ``how``
    (``close`` or ``break``): after what is sent, or as the client's ``at_send``-th write
    goes out. With ``waits`` it waits for the client's MOV after each UPD, else it rushes
    on; ``checkpoints`` after each piece sent let the client act meanwhile."""

    garbage: bytes
    garbage_at: int
    cut: int
    how: str
    at_send: int | None
    waits: bool
    checkpoints: int

    def pieces(self) -> list[tuple[bytes, bool]]:
        """The bytes as sent, one message (or the garbage) a piece, cut; each with whether
        it is an UPD the client answers (whole, and no garbage before it)."""
        messages = list(COURSE_GAME)
        messages.insert(self.garbage_at, self.garbage)
        pieces, left = [], self.cut
        for number, message in enumerate(messages):
            piece = message[:left]
            if piece:
                clean = not self.garbage or number < self.garbage_at
                pieces.append((piece, clean and piece == message and piece.startswith(b"UPD")))
                left -= len(piece)
        return pieces


broken_servers = st.builds(
    BrokenServer,
    garbage=st.binary(max_size=6),
    garbage_at=st.integers(0, len(COURSE_GAME)),
    cut=st.just(1000) | st.integers(0, sum(map(len, COURSE_GAME)) + 6),
    how=st.sampled_from(["close", "break"]),
    at_send=st.none() | st.integers(1, 5),
    waits=st.booleans(),
    checkpoints=st.integers(0, 20),
)
DOCUMENTED = (ProtocolError, SessionError, TurnedAway, ConnectionLost)
"""What play_on may raise (its docstring)."""


@settings(max_examples=200)
@given(broken_servers)
async def test_any_server_stream_broken_at_any_moment_ends_in_a_documented_way(
    server: BrokenServer,
) -> None:
    client_end, server_end = trio.testing.memory_stream_pair()
    stream = BreakableStream(client_end, server_end, server.how, server.at_send)
    outcome: list[object] = []
    ended = trio.Event()

    async def client() -> None:
        try:
            outcome.append(await play_on(stream, Recorder(), time_budget=5.0))
        except Exception as error:  # whatever it raises is looked at below
            outcome.append(error)
        ended.set()

    with trio.fail_after(30):  # a hang guard, never reached when all is well
        async with trio.open_nursery() as nursery:
            nursery.start_soon(client)
            with contextlib.suppress(trio.ClosedResourceError):  # hung up at a client's write
                for piece, answered in server.pieces():
                    await server_end.send_all(piece)
                    if server.waits and answered:
                        await wait_unless(stream.wrote.wait, ended.wait)
                    for _ in range(server.checkpoints):
                        await trio.lowlevel.checkpoint()
                await stream.end()
    [result] = outcome
    assert isinstance(result, (Summary, *DOCUMENTED)), repr(result)
    messages = Decoder(FROM_BOT).feed(stream.sent)  # every byte sent is a message
    assert messages[:1] == [Nme(b"recorder")] or isinstance(result, TurnedAway)
    assert all(isinstance(message, Mov) and message.moves for message in messages[1:])
