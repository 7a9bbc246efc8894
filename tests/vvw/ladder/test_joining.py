"""``vvw ladder join``'s relay: real bot processes, a ladder served in the test's trio run."""

import shlex
import sys

import pytest
import trio

from engine import Rules
from protocol.records import Command, Direction, Frame
from server.settings import Settings
from tests.vvw.ladder.ladders import ladder_settings, serving, team_bot
from vvw.ladder.credentials import Credentials
from vvw.ladder.events import Joined
from vvw.ladder.joining import BotFailed, GameSeen, Joining, JoinRefused, NoGame, join
from vvw.ladder.notes import Verdict
from vvw.ladder.store import LadderStore
from vvw.running.participants import Participant
from vvw.transcripts import read_transcript

FAST = Settings(rules=Rules(max_plies=30), move_time=0.5)


@pytest.fixture
def ladder(tmp_path, clock):
    settings = ladder_settings(seed=4, game=FAST, patience=3600)
    store = LadderStore.create(tmp_path / "ladder.db", settings, clock)
    tokens = {team: store.add_team(team) for team in ("alpha", "beta")}
    yield store, tokens
    store.close()


async def test_two_teams_joining_play_a_pairing_and_each_hears_the_ladder_s_result(
    ladder, tmp_path
):
    store, tokens = ladder
    heard: dict[str, list[GameSeen | NoGame]] = {"alpha": [], "beta": []}
    seen = tmp_path / "seen"
    bots = {"alpha": f"greedy --transcript {seen}", "beta": "random"}
    with trio.fail_after(120):
        async with serving(store) as (port, _, _), trio.open_nursery() as nursery:
            for team, spec in bots.items():
                nursery.start_soon(
                    join,
                    Participant(team, spec),
                    ("127.0.0.1", port),
                    Credentials(team, tokens[team]),
                    tmp_path / team,
                    lambda outcome, _wait, team=team: heard[team].append(outcome),
                    Joining(),
                    2,
                )
    games = list(reversed(store.games()))
    assert [game.leg for game in games] == [1, 2]
    for team, outcomes in heard.items():
        assert all(isinstance(outcome, GameSeen) for outcome in outcomes)
        notes = [outcome.note for outcome in outcomes if isinstance(outcome, GameSeen)]
        assert [note.game for note in notes if note] == [1, 2]
        for note, game in zip(notes, games, strict=True):
            assert note is not None
            assert (note.map, note.side, note.opponent) == (
                game.map,
                game.side_of(team),
                game.opponent_of(team),
            )
            expected = (
                Verdict.DRAW
                if game.winner is None
                else (Verdict.WON if game.winner is game.side_of(team) else Verdict.LOST)
            )
            assert (note.verdict, note.termination, note.plies) == (
                expected,
                game.termination,
                game.plies,
            )
    # The bot saw its own NME, the games to their BYE, and not a byte of the notes (a
    # reply late on a loaded machine may cross the END: only what the server sent counts).
    for transcript in sorted(seen.glob("*.jsonl")):
        frames = [r for r in read_transcript(transcript) if isinstance(r, Frame)]
        assert frames[0].command is Command.NME and frames[0].raw == b"NME\x05alpha"
        sent = [frame.command for frame in frames if frame.direction is Direction.OUT]
        assert sent[-2:] == [Command.END, Command.BYE]


@pytest.mark.parametrize(("team", "says"), [("alpha", "wrong token"), ("nobody", "no such team")])
async def test_wrong_credentials_are_refused_saying_which_and_not_tried_again(
    ladder, tmp_path, team, says
):
    store, _ = ladder
    heard: list[tuple[GameSeen | NoGame, float]] = []
    with trio.fail_after(60):
        async with serving(store) as (port, _, _):
            with pytest.raises(JoinRefused, match=f"^the ladder refused the connection: {says}$"):
                await join(
                    Participant(team, "random"),
                    ("127.0.0.1", port),
                    Credentials(team, "A" * 32),
                    tmp_path,
                    lambda outcome, wait: heard.append((outcome, wait)),
                    Joining(),
                )
    assert heard == [] and store.games() == ()


async def test_a_team_with_all_its_connections_open_is_told_so_and_tried_again(ladder, tmp_path):
    store, tokens = ladder
    heard: list[tuple[GameSeen | NoGame, float]] = []
    with trio.fail_after(60):
        async with serving(store) as (port, events, _), trio.open_nursery() as nursery:
            for _ in range(store.settings.team_connections):  # waiting for an opponent
                await team_bot(nursery, port, "alpha", tokens["alpha"])
            await events.until(lambda heard: len(heard.of(Joined)) == 2)

            def hear(outcome: GameSeen | NoGame, wait: float) -> None:
                heard.append((outcome, wait))
                nursery.cancel_scope.cancel()

            credentials = Credentials("alpha", tokens["alpha"])
            nursery.start_soon(
                join,
                Participant("alpha", "random"),
                ("127.0.0.1", port),
                credentials,
                tmp_path,
                hear,
                Joining(),
            )
    ((outcome, wait),) = heard
    assert isinstance(outcome, NoGame) and wait == 1.0
    assert outcome.reason == (
        "the ladder refused the connection: the team has all its connections open already"
    )


async def test_a_ladder_out_of_reach_is_tried_again_later(tmp_path):
    heard: list[GameSeen | NoGame] = []
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))  # a port nobody listens on
    port = listener.getsockname()[1]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:

            def hear(outcome: GameSeen | NoGame, wait: float) -> None:
                heard.append(outcome)
                nursery.cancel_scope.cancel()

            nursery.start_soon(
                join,
                Participant("alpha", "random"),
                ("127.0.0.1", port),
                Credentials("alpha", "A" * 32),
                tmp_path,
                hear,
                Joining(),
            )
    listener.close()
    (outcome,) = heard
    assert isinstance(outcome, NoGame)
    assert outcome.reason.startswith(f"cannot reach the ladder at 127.0.0.1:{port}")


@pytest.mark.parametrize(
    ("script", "says"),
    [
        ("import sys; sys.exit(3)", "the bot exited with code 3 before connecting"),
        (
            "import socket, sys; s = socket.create_connection((sys.argv[1], int(sys.argv[2])));"
            " s.sendall(b'MOV\\x00'); s.recv(1)",
            "the bot's first message is MOV, not NME",
        ),
    ],
    ids=["exits at once", "sends no NME"],
)
async def test_a_bot_that_cannot_begin_stops_the_join_saying_why(tmp_path, script, says):
    spec = shlex.join([sys.executable, "-c", script, "{host}", "{port}"])
    with trio.fail_after(30), pytest.raises(BotFailed, match=says):
        await join(
            Participant("alpha", spec),
            ("127.0.0.1", 9),
            Credentials("alpha", "A" * 32),
            tmp_path,
            lambda outcome, wait: None,
            Joining(),
        )
