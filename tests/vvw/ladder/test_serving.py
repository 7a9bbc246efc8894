"""The ladder's server in the test's own trio run, over loopback, with fake bots."""

import threading

import pytest
import trio

from engine import Rules, Termination
from protocol.codec import Nme, Set, encode
from protocol.records import Command, Frame, Player
from server.events import Dropped, GameBegun, GameEnded, Seated, TranscriptLine
from server.settings import Settings
from tests.server.fakes import FakeBot, random_policy
from tests.vvw.ladder.ladders import ended, ladder_settings, serving, team_bot
from vvw.ladder.credentials import Credentials
from vvw.ladder.events import Joined, Left, Refused
from vvw.ladder.limiter import FailureLimiter
from vvw.ladder.queries import LadderReader
from vvw.ladder.refusals import Refusal
from vvw.ladder.snapshot import GameStatus
from vvw.ladder.store import LadderStore
from vvw.transcripts import read_transcript

GAME = Settings(rules=Rules(max_plies=20))


@pytest.fixture
def ladder(tmp_path, clock):
    """A ladder of two teams, alpha and beta; built-in bots only after an hour alone."""
    store = LadderStore.create(
        tmp_path / "ladder.db", ladder_settings(seed=5, game=GAME, patience=3600), clock
    )
    tokens = {team: store.add_team(team) for team in ("alpha", "beta")}
    yield store, tokens
    store.close()


async def test_two_teams_play_both_games_of_a_pairing_sides_swapped_on_one_map_and_seed(ladder):
    store, tokens = ladder
    with trio.fail_after(30):
        async with serving(store) as (port, heard, _), trio.open_nursery() as bots:
            for round_ in (1, 2):  # one game per connection, as real bots play
                await team_bot(bots, port, "alpha", tokens["alpha"], seed=round_)
                await team_bot(bots, port, "beta", tokens["beta"], seed=round_ + 10)
                await heard.until(ended(round_))
    first, second = reversed(store.games())
    assert (first.pairing, first.leg, second.pairing, second.leg) == (1, 1, 1, 2)
    assert second.names == tuple(reversed(first.names))
    assert (second.map, second.battle_seed) == (first.map, first.battle_seed)
    assert first.status is second.status is GameStatus.FINISHED
    assert [event.names for event in heard.of(GameBegun)] == [first.names, second.names]
    assert {event.name for event in heard.of(Seated)} == {"alpha", "beta"}
    assert [event.team for event in heard.of(Joined)].count("alpha") == 2
    for game in (first, second):
        assert game.transcript is not None
        records = read_transcript(store.transcripts / game.transcript)
        assert {r.name for r in records if isinstance(r, Player)} == {"alpha", "beta"}


async def test_the_token_is_never_written_in_a_transcript(ladder):
    store, tokens = ladder
    with trio.fail_after(30):
        async with serving(store) as (port, heard, _), trio.open_nursery() as bots:
            await team_bot(bots, port, "alpha", tokens["alpha"])
            await team_bot(bots, port, "beta", tokens["beta"])
            await heard.until(ended(1))
    (game,) = store.games()
    assert game.transcript is not None
    path = store.transcripts / game.transcript
    data = path.read_bytes()
    assert tokens["alpha"].encode() not in data and tokens["beta"].encode() not in data
    nmes = [r for r in read_transcript(path) if isinstance(r, Frame) and r.command is Command.NME]
    assert {frame.raw for frame in nmes} == {encode(Nme(b"alpha")), encode(Nme(b"beta"))}


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        (b"alpha", Refusal.NOT_CREDENTIALS),
        (b"ladder:alpha:" + b"A" * 32, Refusal.WRONG_TOKEN),
        (b"ladder:gamma:" + b"A" * 32, Refusal.NO_SUCH_TEAM),
    ],
    ids=["a bot's own name", "a wrong token", "no such team"],
)
async def test_a_connection_without_a_team_s_credentials_is_refused_and_never_seated(
    ladder, name, refusal
):
    store, _ = ladder
    with trio.fail_after(10):
        async with serving(store) as (port, heard, server):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            bot = FakeBot(stream, name, random_policy(1))
            await bot.run()  # returns when the ladder closes the connection
            await heard.until(lambda heard: bool(heard.of(Refused)))
            assert server.online == frozenset()
    assert not any(isinstance(message, Set) for message in bot.received)
    assert bot.received == []
    (refused,) = heard.of(Refused)
    assert refused.refusal is refusal
    assert heard.of(Seated) == [] and heard.of(Joined) == [] and store.games() == ()


async def test_repeated_failures_from_one_address_are_refused_unread(ladder):
    store, _ = ladder
    limiter = FailureLimiter(clock=trio.current_time, free=2, first_wait=600)
    with trio.fail_after(10):
        async with serving(store, limiter=limiter) as (port, heard, _):
            for _ in range(3):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await FakeBot(stream, b"ladder:alpha:" + b"B" * 32, random_policy(1)).run()
            await heard.until(lambda heard: len(heard.of(Refused)) == 3)
    assert [event.refusal for event in heard.of(Refused)] == [
        Refusal.WRONG_TOKEN,
        Refusal.WRONG_TOKEN,
        Refusal.SLOWED,
    ]


async def test_a_silent_connection_is_dropped_and_counts_as_a_failure(tmp_path, clock):
    settings = ladder_settings(game=Settings(connect_time=0.2))
    store = LadderStore.create(tmp_path / "ladder.db", settings, clock)
    limiter = FailureLimiter(clock=trio.current_time)
    with trio.fail_after(10):
        async with serving(store, limiter=limiter) as (port, heard, _):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            await heard.until(lambda heard: bool(heard.of(Dropped)))
            await stream.aclose()
    assert len(limiter) == 1
    store.close()


async def test_a_team_has_its_connections_and_no_more(ladder):
    store, tokens = ladder
    limiter = FailureLimiter(clock=trio.current_time)
    with trio.fail_after(10):
        async with (
            serving(store, limiter=limiter) as (port, heard, server),
            trio.open_nursery() as bots,
        ):
            for _ in range(store.settings.team_connections):
                await team_bot(bots, port, "alpha", tokens["alpha"])
            await heard.until(lambda heard: len(heard.of(Joined)) == 2)
            extra = await team_bot(bots, port, "alpha", tokens["alpha"])
            await heard.until(lambda heard: bool(heard.of(Refused)))
            assert server.online == {"alpha"} and server.waiting == ["alpha", "alpha"]
            bots.cancel_scope.cancel()
    assert heard.of(Refused) == [Refused(heard.of(Refused)[0].peer, Refusal.TEAM_FULL, "alpha")]
    assert extra.received == [] and store.games() == ()
    assert len(limiter) == 0  # its token was right: no failed login


async def test_a_bot_that_leaves_while_it_waits_loses_nothing(ladder):
    store, tokens = ladder
    with trio.fail_after(10):
        async with serving(store) as (port, heard, server):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            await stream.send_all(encode(Nme(b"ladder:alpha:" + tokens["alpha"].encode())))
            await heard.until(lambda heard: bool(heard.of(Joined)))
            await stream.aclose()
            await heard.until(lambda heard: bool(heard.of(Left)))
            assert server.online == frozenset() and server.waiting == []
    assert store.games() == ()


async def test_a_bot_alone_longer_than_the_patience_plays_the_built_in_bot_nearest_it(
    tmp_path, clock
):
    settings = ladder_settings(game=GAME, patience=0.2)  # random, greedy, alphabeta
    store = LadderStore.create(tmp_path / "ladder.db", settings, clock)
    token = store.add_team("alpha")
    with trio.fail_after(60):
        async with serving(store) as (port, heard, _), trio.open_nursery() as bots:
            await team_bot(bots, port, "alpha", token)
            await heard.until(ended(1))
    (game,) = store.games()
    assert game.names == ("alpha", "greedy")  # yet to play: as strong as the anchor, greedy
    assert game.status is GameStatus.FINISHED
    assert game.termination is not Termination.ABORTED
    store.close()


async def test_a_game_in_progress_when_the_server_stops_is_recorded_as_aborted(ladder):
    store, tokens = ladder
    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            async with serving(store) as (port, heard, _):
                for team in ("alpha", "beta"):
                    await team_bot(bots, port, team, tokens[team], delay=0.05)
                await heard.until(lambda heard: bool(heard.of(GameBegun)))
            bots.cancel_scope.cancel()
    (game,) = store.games()
    assert game.status is GameStatus.ABORTED and not game.rated
    assert game.transcript is not None and (store.transcripts / game.transcript).exists()
    (end,) = heard.of(GameEnded)
    assert end.result.termination is Termination.ABORTED
    with LadderReader.open(store.path) as reader:
        assert reader.game(game.id).status is GameStatus.ABORTED


HOLD_GUARD = 10.0
"""Seconds a held write waits to be let go at most: a loop stuck in it never lets it go."""


class HeldStore(LadderStore):
    """A ladder whose write of gamma's login is held, in the thread that makes it, until
    the test lets it go: a disk that is slow to commit."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.holding = threading.Event()
        self.release = threading.Event()
        self.released = False

    def authenticate(self, credentials: Credentials) -> Refusal | None:
        if credentials.team == "gamma":
            self.holding.set()
            self.released = self.release.wait(HOLD_GUARD)
        return super().authenticate(credentials)


async def test_a_slow_write_of_the_store_holds_up_no_game_in_progress(tmp_path, clock):
    settings = ladder_settings(seed=5, game=GAME, patience=3600)
    store = HeldStore.create(tmp_path / "ladder.db", settings, clock)
    tokens = {team: store.add_team(team) for team in ("alpha", "beta", "gamma")}
    with trio.fail_after(60):
        async with serving(store) as (port, heard, _), trio.open_nursery() as bots:
            for team in ("alpha", "beta"):
                await team_bot(bots, port, team, tokens[team], delay=0.05)
            await heard.until(lambda heard: bool(heard.of(GameBegun)))
            await team_bot(bots, port, "gamma", tokens["gamma"])
            await trio.to_thread.run_sync(store.holding.wait)  # gamma's login is being written
            lines = len(heard.of(TranscriptLine))
            await heard.until(lambda heard: len(heard.of(TranscriptLine)) >= lines + 2)
            store.release.set()  # the game went on meanwhile, its clock with it
            await heard.until(ended(1))
            await heard.until(lambda heard: len(heard.of(Joined)) == 3)
            bots.cancel_scope.cancel()  # gamma would wait for an opponent for ever
    assert store.released  # let go by the test, which ran while the write was held
    (game,) = store.games()
    assert game.names in (("alpha", "beta"), ("beta", "alpha"))
    assert game.status is GameStatus.FINISHED
    assert [event.team for event in heard.of(Joined)] == ["alpha", "beta", "gamma"]
    store.close()


async def _flood(port: int, count: int) -> None:
    """``count`` bad connections: silent, garbage, a message that is not NME, a wrong token,
    none of them closed before the flood is over."""
    kinds = [b"", b"\x00\xffGARBAGE" * 10, encode(Set(3, 3)), b"NME\x05alpha"]
    kinds.append(encode(Nme(b"ladder:alpha:" + b"C" * 32)))
    streams = []
    try:
        for number in range(count):
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await stream.send_all(kinds[number % len(kinds)])
            except OSError:  # refused unread, or reset: the flood goes on
                continue
            streams.append(stream)
    finally:
        for stream in streams:
            await trio.aclose_forcefully(stream)


async def test_a_flood_of_bad_connections_while_rated_games_run_stops_none_of_them(tmp_path, clock):
    settings = ladder_settings(game=Settings(rules=Rules(max_plies=30)), patience=3600)
    store = LadderStore.create(tmp_path / "ladder.db", settings, clock)
    teams = [f"team{number}" for number in range(6)]
    tokens = {team: store.add_team(team) for team in teams}
    with trio.fail_after(60):
        async with serving(store, concurrency=3) as (port, heard, _), trio.open_nursery() as bots:
            for number, team in enumerate(teams):
                await team_bot(bots, port, team, tokens[team], seed=number, delay=0.1)
            await heard.until(lambda heard: len(heard.of(GameBegun)) == 3)
            await _flood(port, 300)
            assert heard.of(GameEnded) == []  # the flood came while all three played
            await heard.until(ended(3))
    games = store.games()
    assert len(games) == 3
    assert all(game.status is GameStatus.FINISHED for game in games)
    assert {game.termination for game in games} <= {Termination.ELIMINATION, Termination.PLY_LIMIT}
    refused = heard.of(Refused) + heard.of(Dropped)
    assert len(refused) >= 100  # the others were let in only to give way, or refused unread
    assert any(event.refusal is Refusal.SLOWED for event in heard.of(Refused))
    store.close()
