"""The referee over memory streams, with fake bots that behave and misbehave.

Each test asserts the exact result (winner, termination, detail, plies) and, unless the bot
itself hung up, that both bots received END then BYE.
"""

import random
from functools import partial

import pytest
import trio
import trio.testing

from engine import Kind, Move, OnTimeout, Rules, Termination, apply_ply
from engine.mapfile import GameMap
from protocol.cells import ply_cells, update_cells
from protocol.codec import Bye, End, Upd, encode
from protocol.records import Command, Direction, Frame, Header, Ply, Result
from protocol.transcript import VERSION
from server.lobby import admit, connected, greet
from server.referee import play_game
from server.settings import Settings
from server.transcript import FrameRecorder, Transcript
from tests.helpers.maps import load
from tests.server.fakes import CLOSE, FakeBot, mov, random_policy, scripted
from vvw.transcripts import read_transcript

MAP = load("testmap")
"""5 rows × 6 columns: vampires 3 at (5,4), werewolves 3 at (2,3), humans at (2,2), (4,4)."""
V, W = Kind.VAMPIRES, Kind.WEREWOLVES


def shuffle(state, turn: int) -> bytes:
    """Werewolves step left and back: never a battle on MAP."""
    return mov((2, 3, 3, 1, 3)) if turn % 2 == 0 else mov((1, 3, 3, 2, 3))


def shuffle_back(state, turn: int) -> bytes:
    """Vampires step up and back."""
    return mov((5, 4, 3, 5, 3)) if turn % 2 == 0 else mov((5, 3, 3, 5, 4))


async def _game(
    vamp_policy,
    wolf_policy,
    settings=None,
    game_map=MAP,
    transcript=None,
    vamp_options=None,
    wolf_options=None,
    recorder=None,
    names=(b"vamp", b"wolf"),
    server_side=lambda stream: stream,
):
    settings = settings or Settings(seed=1)
    a_server, a_bot = trio.testing.memory_stream_pair()
    b_server, b_bot = trio.testing.memory_stream_pair()
    a_server, b_server = server_side(a_server), server_side(b_server)
    bots = [
        FakeBot(a_bot, names[0], vamp_policy, **(vamp_options or {})),
        FakeBot(b_bot, names[1], wolf_policy, **(wolf_options or {})),
    ]
    recorder = recorder or FrameRecorder()
    async with trio.open_nursery() as nursery:
        for bot in bots:
            nursery.start_soon(bot.run)
        async with (
            connected(a_server, "a", recorder) as vp,
            connected(b_server, "b", recorder) as wp,
        ):
            assert await admit(vp, 5) is None
            assert await admit(wp, 5) is None
            vp.species, wp.species = V, W
            await greet(vp, game_map, V)
            await greet(wp, game_map, W)
            recorder.attach(transcript, [vp, wp])
            result = await play_game(vp, wp, game_map, settings, transcript)
    return result, bots


def _core(result):
    """The result without the think times (which depend on the machine)."""
    return (
        result.winner,
        result.termination,
        result.detail,
        result.plies,
        result.vampires.creatures,
        result.werewolves.creatures,
        result.seed,
    )


def _said_goodbye(*bots: FakeBot) -> None:
    for bot in bots:
        assert bot.received[-2:] == [End(), Bye()]


async def test_full_random_game_ends_by_the_board():
    result, bots = await _game(random_policy(1), random_policy(2))
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)
    assert result.vampires.name == "vamp" and result.werewolves.name == "wolf"
    assert bots[0].received[4] == Upd(())
    assert result.seed == 1
    _said_goodbye(*bots)


async def test_same_seed_same_game():
    first, _ = await _game(random_policy(1), random_policy(2))
    second, _ = await _game(random_policy(1), random_policy(2))
    assert _core(first) == _core(second)


class Recording:
    """A policy wrapper that keeps every ply it sent."""

    def __init__(self, policy, plies: list):
        self.policy, self.plies = policy, plies

    def __call__(self, state, turn):
        data = self.policy(state, turn)
        self.plies.append(data)
        return data


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_every_upd_matches_the_engine_replay(seed):
    plies: list[bytes] = []
    result, bots = await _game(
        Recording(random_policy(seed), plies),
        Recording(random_policy(seed + 10), plies),
        Settings(seed=seed),
    )
    # Replay what the bots sent, in order, with the same seed.
    state, rng = MAP.initial_state(), random.Random(seed)
    last: dict[Kind, list] = {V: [], W: []}
    expected: dict[Kind, list[Upd]] = {V: [Upd(())], W: []}
    boards: dict[Kind, list] = {V: [state.cells], W: []}
    for data in plies:
        moves = [Move(*data[4 + 5 * i : 9 + 5 * i]) for i in range(data[3])]
        mover = state.to_move
        state = apply_ply(state, moves, rng, check=False).state
        last[mover] = ply_cells(moves)
        expected[state.to_move].append(Upd(update_cells(state, (last[V], last[W]))))
        boards[state.to_move].append(state.cells)
    assert result.plies == len(plies) == state.ply
    # No UPD follows the last ply: the game is over.
    expected[state.to_move].pop()
    boards[state.to_move].pop()
    for bot in bots:
        got = [m for m in bot.received if isinstance(m, Upd)]
        species = bot.session.species
        assert got == expected[species]
        # The bot's own board, built from MAP and the UPDs alone, is the engine's.
        assert bot.session.state.cells == boards[species][-1]
    _said_goodbye(*bots)


async def test_byte_by_byte_sends_play_normally():
    plain, _ = await _game(random_policy(1), random_policy(2))
    split, bots = await _game(
        random_policy(1), random_policy(2), vamp_options={"chunk": 1}, wolf_options={"chunk": 3}
    )
    assert _core(split) == _core(plain)
    _said_goodbye(*bots)


async def test_two_messages_in_one_write_and_the_late_one_discarded(autojump_clock):
    # Two MOVs in one write: the first is the reply, the second arrives "out of turn" and
    # must be thrown away before the next UPD (else the bot would move twice).
    double = mov((5, 4, 3, 5, 3)) + mov((5, 3, 3, 4, 3))
    settings = Settings(seed=1, rules=Rules(max_plies=4))
    result, bots = await _game(scripted({0: double}, shuffle_back), shuffle, settings)
    assert (result.winner, result.termination, result.plies) == (None, Termination.PLY_LIMIT, 4)
    # Second vampire ply is its own shuffle_back(turn 1): (5,3) -> (5,4), which is legal
    # only if the extra MOV was discarded.
    assert result.vampires.creatures == 3
    _said_goodbye(*bots)


ILLEGAL = [
    # rule, ply at the vampires' first turn, text the detail must contain
    ("1", b"MOV\x00", "rule 1 (a ply must contain at least one move)"),
    ("2", mov((5, 4, 0, 4, 3)), "rule 2 (every move must move at least one creature)"),
    ("3 own", mov((0, 0, 1, 1, 1)), "[move (0,0)->(1,1) x1]"),
    ("3 few", mov((5, 4, 4, 4, 3)), "[move (5,4)->(4,3) x4]"),
    ("4 off", mov((5, 4, 1, 6, 4)), "[move (5,4)->(6,4) x1]"),
    ("4 far", mov((5, 4, 1, 3, 4)), "[move (5,4)->(3,4) x1]"),
    ("6", mov((5, 4, 2, 4, 3), (5, 4, 2, 5, 3)), "[move (5,4)->(4,3) x2]"),
]


@pytest.mark.parametrize(("rule", "ply", "text"), ILLEGAL, ids=[r for r, _, _ in ILLEGAL])
async def test_illegal_first_ply_loses(rule, ply, text):
    result, bots = await _game(scripted({0: ply}), shuffle)
    assert (result.winner, result.termination, result.plies) == (W, Termination.ILLEGAL_PLY, 0)
    assert result.detail.startswith(f"vamp (a): rule {rule.split()[0]} (")
    assert text in result.detail
    _said_goodbye(*bots)


async def test_source_is_target_loses():
    split = mov((5, 4, 1, 4, 3), (5, 4, 2, 5, 3))
    chain = mov((4, 3, 1, 5, 3), (5, 3, 1, 5, 2))
    result, bots = await _game(scripted({0: split, 1: chain}), shuffle)
    assert (result.winner, result.termination, result.plies) == (W, Termination.ILLEGAL_PLY, 2)
    assert result.detail.startswith("vamp (a): rule 5 (no cell may be both")
    assert "[move (4,3)->(5,3) x1]" in result.detail
    _said_goodbye(*bots)


async def test_target_overflow_loses():
    big = GameMap(5, 5, ((1, 0, 100),), (0, 0, 255), (4, 4, 1), name="big")
    eat = mov((0, 0, 200, 1, 0))
    pile = mov((0, 0, 55, 1, 1), (1, 0, 201, 1, 1))
    wolf = lambda s, t: mov((4, 4, 1, 4, 3)) if t % 2 == 0 else mov((4, 3, 1, 4, 4))  # noqa: E731
    result, bots = await _game(scripted({0: eat, 1: pile}), wolf, game_map=big)
    assert (result.winner, result.termination, result.plies) == (W, Termination.ILLEGAL_PLY, 2)
    assert result.detail.startswith("vamp (a): rule 7 (more than 255 creatures")
    assert "256 creatures arrive on (1,1)" in result.detail
    # 300 would stand on (1,0) after the first ply: the cell holds 255 (the excess is lost).
    assert bots[1].received[4] == Upd(((1, 0, 0, 255, 0), (0, 0, 0, 55, 0)))
    _said_goodbye(*bots)


async def test_garbage_mid_game_is_a_protocol_error():
    result, bots = await _game(random_policy(1), scripted({2: b"XYZ\x01"}, shuffle))
    assert (result.winner, result.termination, result.plies) == (V, Termination.PROTOCOL_ERROR, 5)
    assert result.detail.startswith("wolf (b): ")
    assert "XYZ" in result.detail or "58595a" in result.detail
    _said_goodbye(*bots)


async def test_garbage_out_of_turn_is_a_protocol_error_at_its_next_turn(autojump_clock):
    # The werewolves send garbage 1 s after their first reply, while the vampires think.
    result, bots = await _game(
        shuffle_back,
        shuffle,
        Settings(seed=1, move_time=100),
        vamp_options={"delay": 2.0},
        wolf_options={"chaser": (1.0, b"XYZ")},
    )
    assert (result.winner, result.termination, result.plies) == (V, Termination.PROTOCOL_ERROR, 3)
    assert result.detail.startswith("wolf (b): unknown command")
    assert trio.current_time() < 100  # not mistaken for a silent bot
    _said_goodbye(*bots)


async def test_a_whole_mov_before_garbage_is_played_and_the_garbage_loses_next_turn():
    # One write: the werewolves' first MOV, then bytes that are no message. The MOV is
    # their ply 2; the garbage costs them the game at their next turn, not before.
    result, bots = await _game(shuffle_back, scripted({0: mov((2, 3, 3, 1, 3)) + b"XYZ"}))
    assert (result.winner, result.termination, result.plies) == (V, Termination.PROTOCOL_ERROR, 3)
    assert result.detail.startswith("wolf (b): unknown command")
    both_plies = ((5, 3, 0, 3, 0), (5, 4, 0, 0, 0), (1, 3, 0, 0, 3), (2, 3, 0, 0, 0))
    assert Upd(both_plies) in bots[0].received
    _said_goodbye(*bots)


def spread(state, turn: int) -> bytes:
    """Every vampire group scatters over its empty neighbours (a group per creature at most)."""
    free = {(x, y) for y in range(state.rows) for x in range(state.cols)}
    free -= {(x, y) for x, y, _ in state.groups(V) + state.groups(W)}
    moves = []
    for x, y, count in state.groups(V):
        near = sorted(c for c in free if max(abs(c[0] - x), abs(c[1] - y)) == 1)[:count]
        shares = [count // len(near) + (i < count % len(near)) for i in range(len(near))]
        for (tx, ty), share in zip(near, shares, strict=True):
            moves.append((x, y, share, tx, ty))
            free.discard((tx, ty))
    return mov(*moves)


async def test_a_ply_whose_update_cannot_be_sent_loses():
    # UPD counts its cells in one byte. Scattering 200 vampires soon touches more than
    # 255 cells in one ply (sources and targets): that ply loses, and the game ends cleanly.
    wide = GameMap(30, 30, (), (15, 15, 200), (0, 0, 3), name="wide")
    wolf = lambda s, t: mov((0, 0, 3, 0, 1)) if t % 2 == 0 else mov((0, 1, 3, 0, 0))  # noqa: E731
    result, bots = await _game(spread, wolf, game_map=wide)
    assert (result.winner, result.termination) == (W, Termination.ILLEGAL_PLY)
    assert result.detail.startswith("vamp (a): the UPD after this ply would list ")
    assert "cells, and UPD counts them in one byte (at most 255)" in result.detail
    listed = int(result.detail.split("would list ")[1].split()[0])
    assert listed > 255
    assert all(len(m.cells) <= 255 for m in bots[1].received if isinstance(m, Upd))
    _said_goodbye(*bots)


async def test_server_message_from_a_bot_is_a_protocol_error():
    result, bots = await _game(scripted({0: encode(End())}), shuffle)
    assert (result.winner, result.termination, result.plies) == (W, Termination.PROTOCOL_ERROR, 0)
    _said_goodbye(*bots)


async def test_disconnect_mid_game_loses():
    result, bots = await _game(scripted({1: CLOSE}, shuffle_back), shuffle)
    assert (result.winner, result.termination, result.plies) == (W, Termination.DISCONNECT, 2)
    assert result.detail == "vamp (a): the bot closed its connection"
    _said_goodbye(bots[1])


async def test_disconnect_while_the_other_thinks_is_seen_on_its_turn(autojump_clock):
    # The werewolves hang up right after their first reply: the server notices at their
    # next turn, and says why (not a failed UPD, not a move-time-out).
    result, bots = await _game(
        shuffle_back, shuffle, Settings(seed=1, move_time=100), wolf_options={"close_after": 0}
    )
    assert (result.winner, result.termination, result.plies) == (V, Termination.DISCONNECT, 3)
    assert result.detail == "wolf (b): the bot closed its connection"
    assert trio.current_time() < 100
    _said_goodbye(bots[0])


async def test_stall_skips_turns_and_a_late_mov_is_not_applied(autojump_clock):
    # Vampires answer their first UPD 2.5 s late with an illegal MOV 0: discarded, not
    # applied on their next turn (else they would lose by rule 1).
    settings = Settings(seed=1, move_time=2.0, rules=Rules(max_plies=6))
    late = scripted({0: b"MOV\x00"}, shuffle_back)
    result, bots = await _game(
        late, shuffle, settings, vamp_options={"delay": 2.5}, wolf_options={"delay": 1.0}
    )
    assert (result.winner, result.termination, result.plies) == (None, Termination.PLY_LIMIT, 6)
    assert (result.vampires.skipped_turns, result.werewolves.skipped_turns) == (3, 0)
    _said_goodbye(*bots)


async def test_stall_forfeits_when_set(autojump_clock):
    settings = Settings(seed=1, on_timeout=OnTimeout.FORFEIT, move_time=2.0)
    result, bots = await _game(random_policy(1), lambda s, t: None, settings)
    assert (result.winner, result.termination, result.plies) == (V, Termination.TIME_FORFEIT, 1)
    assert result.detail == "wolf (b): no MOV within 2 s"
    assert trio.current_time() == pytest.approx(2.0)
    _said_goodbye(*bots)


async def test_stray_nme_mid_game_and_nme_after_end_are_ignored():
    nme_then_move = b"NME\x03abc" + mov((5, 4, 3, 5, 3))
    settings = Settings(seed=1, rules=Rules(max_plies=4))
    result, bots = await _game(
        scripted({0: nme_then_move}, shuffle_back),
        shuffle,
        settings,
        vamp_options={"after_end": b"NME\x03abc"},
        wolf_options={"after_end": b"\xff garbage after the end"},
    )
    assert (result.winner, result.termination, result.plies) == (None, Termination.PLY_LIMIT, 4)
    _said_goodbye(*bots)


async def test_ply_limit_winner_by_count():
    # The vampires eat the human at (4,4) (1 ≤ 3: a sure win), then shuffle.
    eat = scripted(
        {0: mov((5, 4, 3, 4, 4)), 1: mov((4, 4, 4, 5, 4))},
        lambda s, t: mov((5, 4, 4, 4, 4)) if t % 2 == 0 else mov((4, 4, 4, 5, 4)),
    )
    result, bots = await _game(eat, shuffle, Settings(seed=1, rules=Rules(max_plies=4)))
    assert (result.winner, result.termination, result.plies) == (V, Termination.PLY_LIMIT, 4)
    assert (result.vampires.creatures, result.werewolves.creatures) == (4, 3)
    assert result.detail == "ply limit"
    _said_goodbye(*bots)


async def test_ply_limit_draw():
    result, bots = await _game(shuffle_back, shuffle, Settings(seed=1, rules=Rules(max_plies=3)))
    assert (result.winner, result.termination, result.plies) == (None, Termination.PLY_LIMIT, 3)
    assert result.summary().startswith("draw by ply limit after 3 plies")
    _said_goodbye(*bots)


async def test_game_time_limit(autojump_clock):
    # Each reply takes 1 s of the mocked clock; the limit is checked after the werewolves.
    settings = Settings(seed=1, game_time=5.0)
    result, bots = await _game(
        shuffle_back, shuffle, settings, vamp_options={"delay": 1.0}, wolf_options={"delay": 1.0}
    )
    assert (result.winner, result.termination, result.plies) == (None, Termination.TIME_LIMIT, 6)
    assert result.detail == "5 s passed"
    _said_goodbye(*bots)


async def test_elimination():
    duel = GameMap(3, 3, (), (0, 0, 5), (1, 1, 1), name="duel")
    result, bots = await _game(scripted({0: mov((0, 0, 5, 1, 1))}), shuffle, game_map=duel)
    # 5 ≥ 1.5 × 1: a sure win for the attackers.
    assert (result.winner, result.termination, result.plies) == (V, Termination.ELIMINATION, 1)
    assert (result.vampires.creatures, result.werewolves.creatures) == (5, 0)
    _said_goodbye(*bots)


async def test_transcript_holds_every_frame_each_ply_and_the_result(tmp_path):
    transcript = Transcript(tmp_path / "game.jsonl")
    settings = Settings(seed=1, rules=Rules(max_plies=3))
    result, bots = await _game(shuffle_back, shuffle, settings, transcript=transcript)
    transcript.close()
    lines = read_transcript(tmp_path / "game.jsonl")
    assert isinstance(lines[0], Header) and lines[0].seed == 1 and lines[0].version == VERSION
    assert lines[0].start == MAP.initial_state() and lines[0].rules == settings.rules
    frames = [line for line in lines if isinstance(line, Frame)]
    for side, bot in ((V, bots[0]), (W, bots[1])):
        out = [f for f in frames if f.side == side and f.direction is Direction.OUT]
        into = [f for f in frames if f.side == side and f.direction is Direction.IN]
        assert b"".join(f.raw for f in out) == b"".join(encode(m) for m in bot.received)
        assert [f.command for f in out][:4] == [Command.SET, Command.HUM, Command.HME, Command.MAP]
        assert into[0].command is Command.NME and into[0].raw == b"NME\x04" + bot.name
        assert [f.command for f in into[1:]] == [Command.MOV] * len(into[1:])
    assert [f.t for f in frames] == sorted(f.t for f in frames)
    plies = [line for line in lines if isinstance(line, Ply)]
    assert [p.ply_number for p in plies] == [1, 2, 3]
    assert plies[0].moves == (Move(5, 4, 3, 5, 3),) and plies[0].side == V
    assert plies[0].board is not None and (5, 3, V, 3) in plies[0].board
    *_, last_ply, final, end_v, end_w, bye_v, bye_w = lines
    assert isinstance(last_ply, Ply) and isinstance(final, Result)
    assert [(f.side, f.command) for f in (end_v, end_w, bye_v, bye_w)] == [  # type: ignore[union-attr]
        (V, Command.END),
        (W, Command.END),
        (V, Command.BYE),
        (W, Command.BYE),
    ]
    assert (final.termination, final.plies, final.winner) == (Termination.PLY_LIMIT, 3, None)
    assert result.plies == 3


async def test_one_recorder_writes_games_played_side_by_side_each_to_its_own_transcript(
    tmp_path,
):
    recorder = FrameRecorder()
    settings = Settings(seed=1, rules=Rules(max_plies=6))
    names = {1: (b"anna", b"bert"), 2: (b"cleo", b"dora")}
    transcripts = {game: Transcript(tmp_path / f"game{game}.jsonl") for game in names}
    async with trio.open_nursery() as nursery:
        for game, transcript in transcripts.items():
            nursery.start_soon(
                partial(
                    _game,
                    shuffle_back,
                    shuffle,
                    settings,
                    transcript=transcript,
                    recorder=recorder,
                    names=names[game],
                )
            )
    for game, transcript in transcripts.items():
        transcript.close()
        frames = [r for r in read_transcript(transcript.path) if isinstance(r, Frame)]
        nmes = {f.side: f.raw for f in frames if f.command is Command.NME}
        assert nmes == {V: b"NME\x04" + names[game][0], W: b"NME\x04" + names[game][1]}
        assert [f.command for f in frames].count(Command.MOV) == 6
        end, bye = Command.END, Command.BYE
        assert [f.command for f in frames][-4:] == [end, end, bye, bye]


class TickingClock(trio.abc.Clock):
    """A clock that moves on by a microsecond each time it is read: two readings are never
    equal, so their order shows which came first."""

    def __init__(self) -> None:
        self.now = 0.0

    def start_clock(self) -> None:
        pass

    def current_time(self) -> float:
        self.now += 1e-6
        return self.now

    def deadline_to_sleep_time(self, deadline: float) -> float:
        return max(0.0, deadline - self.now)


@pytest.fixture
def ticking_clock():
    return TickingClock()


def slow_to_return(stream: trio.StapledStream) -> trio.StapledStream:
    """``stream`` (the server's side), its sends returning only once everything else has
    run, as a socket's can: the bot has read the UPD and answered by then."""
    deliver = stream.send_stream.send_all_hook

    async def deliver_then_let_all_run() -> None:
        await deliver()
        await trio.testing.wait_all_tasks_blocked()

    stream.send_stream.send_all_hook = deliver_then_let_all_run
    return stream


async def test_the_move_clock_starts_before_the_upd_goes_so_no_think_is_negative(ticking_clock):
    # The MOV is read, and its arrival stamped, before the UPD's send has returned. The
    # move clock starts when the UPD goes, so the reply came after it: no think time is
    # negative (it showed as "-0.00s" in the standings).
    settings = Settings(seed=1, rules=Rules(max_plies=40))
    result, _ = await _game(
        random_policy(1), random_policy(2), settings, server_side=slow_to_return
    )
    thinks = result.vampires.thinks + result.werewolves.thinks
    assert len(thinks) == result.plies > 10
    assert min(thinks) > 0
