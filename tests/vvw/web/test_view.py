"""The game viewer without a browser: its events, the replay file, the live hub and HTTP."""

import base64
import gzip
import io
import json
import re
import sys
from functools import partial
from pathlib import Path

import pytest
import trio

from engine import Rules, Termination
from engine.mapfile import GameMap, load_map
from protocol.records import Frame, Header, Ply, Record, Result, Source
from server.events import Seated, TranscriptLine, fan_out
from server.serving import Transcripts, serve
from server.settings import Settings
from tests.helpers.serving import Seats, results_into
from tests.server.fakes import FakeBot, Policy, mov, random_policy, scripted
from vvw.cli import main
from vvw.ports import Listening
from vvw.proxy_trace import Trace
from vvw.proxying import run_proxy
from vvw.transcripts import read_transcript
from vvw.web.live import QUEUE, LiveHub, live_view, serve_view
from vvw.web.model import SHOWN_BYTES, view_events
from vvw.web.viewer import page

MAPS = Path(__file__).resolve().parents[3] / "maps"
BOT = Path(__file__).resolve().parents[2] / "server" / "bots" / "bot.py"
"""A bot process of the tests (see its docstring): ``play`` plays at random."""


@pytest.fixture(scope="module")
def transcript(tmp_path_factory) -> Path:
    """A real game's transcript: greedy against random on thetrap, through our server."""
    folder = tmp_path_factory.mktemp("transcripts")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)  # the bots' output goes to runs/ here
        code = main(
            [
                "match",
                "--map",
                str(MAPS / "thetrap.xml"),
                "greedy",
                "random",
                "--games",
                "1",
                "--seed",
                "7",
                "--transcript",
                str(folder),
                "--keep-transcripts",
            ]
        )
    assert code == 0
    [path] = folder.glob("*.jsonl")
    return path


def served_game(
    folder: Path,
    game_map: GameMap,
    alice: Policy,
    bob: Policy,
    *,
    bob_delay: float = 0.0,
    max_plies: int = 40,
) -> Path:
    """One game on our server between two fake bots, ``alice`` the vampires and ``bob`` the
    werewolves (``bob_delay`` seconds of thinking each turn); its transcript, kept."""

    async def play() -> None:
        settings = Settings(seed=3, rules=Rules(max_plies=max_plies))
        seats = Seats()
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(
                    serve,
                    game_map,
                    settings,
                    port=0,
                    transcripts=Transcripts(folder, keep_all=True),
                    events=lambda event: seats(event) if isinstance(event, Seated) else None,
                )
            )
            for seat, (name, policy, delay) in enumerate(
                ((b"alice", alice, 0.0), (b"bob", bob, bob_delay))
            ):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                nursery.start_soon(FakeBot(stream, name, policy, delay=delay).run)
                await seats.events[seat].wait()

    folder.mkdir(parents=True, exist_ok=True)
    before = set(folder.glob("*.jsonl"))
    trio.run(play)
    [path] = set(folder.glob("*.jsonl")) - before
    return path


ILLEGAL = mov((0, 0, 99, 1, 1))
"""A ply that breaks rule 3 on testmap: the werewolves hold no (0,0)."""
GARBAGE = b"MOX\x01junk"
"""Bytes that are no message (an unknown command)."""


def faulty_game(folder: Path, sent: bytes) -> Path:
    """A game on testmap that bob (the werewolves) loses on his third turn by sending ``sent``."""
    bob = scripted({2: sent}, random_policy(2))
    return served_game(folder, load_map(MAPS / "testmap.xml"), random_policy(1), bob)


def boards_after_each_ply(events: list[dict]) -> list[set[tuple[int, int, int, int]]]:
    """The board after each ply event, rebuilt from the start and the plies' changes."""
    board = {(x, y): (kind, n) for x, y, kind, n in events[0]["board"]}
    boards = []
    for event in events:
        if event["type"] == "ply":
            for x, y, kind, n in event["changes"]:
                if kind:
                    board[x, y] = (kind, n)
                else:
                    del board[x, y]
            boards.append({(x, y, kind, n) for (x, y), (kind, n) in board.items()})
    return boards


def _embedded(html: str) -> dict:
    found = re.search(r'<script id="vvw-config" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_events_start_from_the_map_and_follow_every_ply_to_the_result(transcript) -> None:
    records = read_transcript(transcript)
    events = view_events(records)
    start = events[0]
    initial = load_map(MAPS / "thetrap.xml").initial_state()
    assert start["type"] == "start" and (start["rows"], start["cols"]) == (5, 10)
    assert sorted(map(tuple, start["board"])) == sorted(
        (pos % 10, pos // 10, kind, count) for pos, kind, count in initial.cells
    )
    plies = [r for r in records if isinstance(r, Ply)]
    shown = [e for e in events if e["type"] == "ply"]
    assert len(shown) == len(plies) > 0
    for record, event, board in zip(plies, shown, boards_after_each_ply(events), strict=True):
        assert event["moves"] == [list(move) for move in record.moves]
        assert board == {(x, y, int(kind), n) for x, y, kind, n in record.board or ()}
    [result] = [r for r in records if isinstance(r, Result)]
    assert events[-1]["type"] == "result" and events[-1]["plies"] == result.plies
    assert events[-1]["refused"] is None  # an elimination or the ply limit: no turn refused


def test_a_ply_s_changes_list_only_the_cells_it_changed(transcript) -> None:
    events = view_events(read_transcript(transcript))
    before = {(x, y, kind, n) for x, y, kind, n in events[0]["board"]}
    for event, after in zip(
        [e for e in events if e["type"] == "ply"], boards_after_each_ply(events), strict=True
    ):
        changed = {(x, y) for x, y, _, _ in event["changes"]}
        assert changed == {(x, y) for x, y, _, _ in before ^ after}
        before = after


def test_each_ply_carries_its_think_time_from_the_upd_sent_to_the_mov_received(
    tmp_path,
) -> None:
    delay = 0.05
    path = served_game(
        tmp_path,
        load_map(MAPS / "testmap.xml"),
        random_policy(1),
        random_policy(2),
        bob_delay=delay,
        max_plies=6,
    )
    plies = [e for e in view_events(read_transcript(path)) if e["type"] == "ply"]
    assert [e["side"] for e in plies] == ["vampires", "werewolves"] * 3
    assert all(e["think"] is not None and e["think"] >= 0 for e in plies)
    assert all(e["think"] >= delay for e in plies if e["side"] == "werewolves")


def test_an_illegal_ply_ends_the_game_with_the_turn_refused_and_the_rule_broken(tmp_path):
    path = faulty_game(tmp_path, ILLEGAL)
    result = view_events(read_transcript(path))[-1]
    assert result["termination"] == Termination.ILLEGAL_PLY.value
    assert result["loser"] == "werewolves"
    assert "rule 3" in result["detail"]
    refused = result["refused"]
    assert refused["side"] == "werewolves" and refused["moves"] == [[0, 0, 99, 1, 1]]
    assert [frame["hex"] for frame in refused["received"]] == [ILLEGAL.hex(" ")]


def test_a_protocol_error_ends_the_game_with_the_bytes_received(tmp_path) -> None:
    path = faulty_game(tmp_path, GARBAGE)
    records = read_transcript(path)
    [garbled] = [r for r in records if isinstance(r, Frame) and r.command is None]
    result = view_events(records)[-1]
    assert result["termination"] == Termination.PROTOCOL_ERROR.value
    assert result["loser"] == "werewolves"
    refused = result["refused"]
    assert refused["side"] == "werewolves" and refused["moves"] == []
    assert refused["received"] == [
        {"text": garbled.text, "hex": garbled.raw.hex(" "), "bytes": len(garbled.raw)}
    ]
    assert GARBAGE.startswith(garbled.raw)


def test_a_refused_frame_shows_at_most_its_first_bytes(tmp_path) -> None:
    long = mov(*[(0, 0, 1, 1, 1)] * 100)  # 504 bytes, and illegal
    path = faulty_game(tmp_path, long)
    [received] = view_events(read_transcript(path))[-1]["refused"]["received"]
    assert received["bytes"] == len(long) > SHOWN_BYTES
    assert received["hex"] == long[:SHOWN_BYTES].hex(" ")


def test_vvw_replay_writes_one_page_holding_every_event(transcript, tmp_path, capsys) -> None:
    target = tmp_path / "game.html"
    assert main(["replay", str(transcript), "-o", str(target)]) == 0
    html = target.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=|@import|url\(", html)  # nothing to fetch
    embedded = _embedded(html)
    assert embedded["events"] == view_events(read_transcript(transcript))
    assert embedded["transcript"]["name"] == transcript.name
    packed = base64.b64decode(embedded["transcript"]["gzip"])
    assert gzip.decompress(packed) == transcript.read_bytes()  # to download, byte for byte
    assert str(target) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ('<?xml version="1.0"?><map/>\n', "not JSON"),
        ("[1, 2]\n", "JSON list"),
        ('{"type": "header", "t": 0, "format": "vvw-transcript", "version": 1}\n', "no game"),
    ],
)
def test_a_file_that_is_no_game_is_one_line_and_exit_code_2(content, says, tmp_path, capsys):
    source = tmp_path / "x.jsonl"
    source.write_text(content)
    assert main(["replay", str(source)]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize(
    ("output", "says"), [("missing/x.html", "no folder"), ("adir", "it is a folder")]
)
def test_a_replay_it_cannot_write_is_one_line_naming_the_path(
    output, says, transcript, tmp_path, capsys
) -> None:
    (tmp_path / "adir").mkdir()
    target = tmp_path / output
    assert main(["replay", str(transcript), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"vvw replay: cannot write {target}: ") and says in err


def test_a_bot_name_cannot_break_out_of_the_page() -> None:
    name = "</script><script>alert(1)</script>\u2028"
    html = page({"events": [{"type": "names", "names": {"vampires": name}}]})
    assert "<script>alert" not in html
    assert _embedded(html)["events"][0]["names"]["vampires"] == name


def _lines(transcript: Path) -> list[Record]:
    """The transcript's records, as a running game gives them to the live view."""
    return read_transcript(transcript)


async def test_a_viewer_joining_mid_game_sees_the_game_so_far_then_follows(transcript) -> None:
    hub = LiveHub()
    lines = _lines(transcript)
    half = len(lines) // 2
    sink = hub.record_sink("1", "game 1")
    for line in lines[:half]:
        sink(line)
    snapshot, viewer = hub.subscribe(None)
    assert snapshot[0][0] == "games"
    so_far = [data for name, data in snapshot if name == "view"]
    everything = view_events(read_transcript(transcript))
    assert so_far == everything[: len(so_far)] and so_far[0]["type"] == "start"
    for line in lines[half:]:
        sink(line)
    followed = []
    while True:
        try:
            name, data = viewer.receive.receive_nowait()
        except trio.WouldBlock:
            break
        if name == "view":
            followed.append(data)
    assert so_far + followed == everything
    hub.leave(viewer)


async def test_a_viewer_that_does_not_read_is_dropped_and_never_blocks_the_game() -> None:
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1")
    snapshot, slow = hub.subscribe("1")
    for number in range(QUEUE + 10):  # each a game-list change: one event per viewer
        hub.record_sink(str(number + 2), f"game {number + 2}")
    header = Header(0.0, 1, Source.SERVER, None, None, None, None, {}, None)
    sink(header)  # publishing goes on without waiting for anyone
    received = 0
    with pytest.raises(trio.EndOfChannel):
        while True:
            await slow.receive.receive()
            received += 1
    assert received == QUEUE
    assert snapshot[0][0] == "games"


async def test_serve_gives_the_live_view_each_game_s_lines_without_a_transcript_folder() -> None:
    hub = LiveHub()
    settings = Settings(seed=3, rules=Rules(max_plies=12))
    game_map = load_map(MAPS / "testmap.xml")
    results = []
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve(
                game_map,
                settings,
                port=0,
                transcripts=Transcripts(lines=True),
                events=fan_out(hub.listener(), results_into(results)),
                task_status=task_status,
            )
        )
        for name, seed in ((b"alice", 1), (b"bob", 2)):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            nursery.start_soon(FakeBot(stream, name, random_policy(seed)).run)
    [listed] = hub.game_list()
    assert listed["title"] == "game 1: alice vs bob"
    events = hub.games["1"].events
    assert events[0]["type"] == "start" and events[-1]["type"] == "result"
    assert events[-1]["plies"] == results[0].plies


async def test_the_live_view_is_given_the_records_the_file_reads_back(tmp_path) -> None:
    heard: list[Record] = []

    def hear(event: object) -> None:
        if isinstance(event, TranscriptLine):
            heard.append(event.record)

    settings = Settings(seed=3, rules=Rules(max_plies=12))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve(
                load_map(MAPS / "testmap.xml"),
                settings,
                port=0,
                transcripts=Transcripts(tmp_path, keep_all=True, lines=True),
                events=fan_out(hear, results_into([])),
                task_status=task_status,
            )
        )
        for name, seed in ((b"alice", 1), (b"bob", 2)):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            nursery.start_soon(FakeBot(stream, name, random_policy(seed)).run)
    [path] = tmp_path.glob("*.jsonl")
    assert heard == read_transcript(path)  # typed as written: no JSON read back on the way


async def _get(port: int, target: str, until: bytes) -> bytes:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    with trio.fail_after(5):
        while until not in data:
            chunk = await stream.receive_some()
            if not chunk:
                break
            data += chunk
    await stream.aclose()
    return data


async def test_the_live_view_serves_the_page_the_event_stream_and_the_game_list(transcript):
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1")
    for line in _lines(transcript):
        sink(line)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve_view, hub, 0)
        home = await _get(port, "/", b"</html>")
        assert home.startswith(b"HTTP/1.1 200") and b'"live":true' in home
        stream = await _get(port, "/events?game=1", b'"type":"result"')
        assert b"text/event-stream" in stream and b"event: games" in stream
        assert stream.count(b"event: view") == len(view_events(read_transcript(transcript)))
        listing = await _get(port, "/games", b"]")
        assert b'"game 1: greedy vs random"' in listing
        assert (await _get(port, "/nothing", b"\r\n\r\n")).startswith(b"HTTP/1.1 404")
        nursery.cancel_scope.cancel()


async def test_the_proxy_shows_each_game_it_relays_in_the_live_view(tmp_path) -> None:
    hub = LiveHub()
    settings = Settings(seed=3, rules=Rules(max_plies=12))
    game_map = load_map(MAPS / "testmap.xml")
    seated = trio.Event()
    async with trio.open_nursery() as nursery:

        async def one_game(task_status) -> None:
            await serve(
                game_map,
                settings,
                port=0,
                task_status=task_status,
                events=lambda event: seated.set() if isinstance(event, Seated) else None,
            )
            nursery.cancel_scope.cancel()

        upstream = await nursery.start(one_game)
        relay = await nursery.start(
            partial(run_proxy, hub=hub),
            ("127.0.0.1", 0),
            ("127.0.0.1", upstream),
            Trace(io.StringIO()),
            tmp_path,
        )
        for name, seed, port in ((b"relayed", 1, relay), (b"direct", 2, upstream)):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            nursery.start_soon(FakeBot(stream, name, random_policy(seed)).run)
            await seated.wait()  # the relayed bot takes the vampires' seat, through the proxy
    [game] = hub.games.values()
    assert game.summary()["title"] == "bot 1, game 1: relayed vs ?"
    events = game.events
    assert events[0]["type"] == "start" and events[-1]["type"] == "result"
    [transcript] = tmp_path.glob("*relayed*.jsonl")
    assert events == view_events(read_transcript(transcript))


def test_a_tournament_lists_its_games_in_the_live_view(tmp_path, monkeypatch) -> None:
    opened: list[tuple[str, str]] = []
    record_sink = LiveHub.record_sink

    def spy(hub: LiveHub, game_id: str, label: str, names=None):
        opened.append((game_id, label))
        assert hub.tournament
        return record_sink(hub, game_id, label, names)

    monkeypatch.setattr(LiveHub, "record_sink", spy)
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "tournament",
            "random",
            "greedy",
            "--maps",
            "testmap",
            "--seed",
            "2",
            "--results",
            str(tmp_path / "r.jsonl"),
            "--view",
            "--view-port",
            "0",
        ]
    )
    assert code == 0
    assert opened == [("1", "game 1 (testmap)"), ("2", "game 2 (testmap)")]


def test_a_hub_that_keeps_a_few_games_forgets_the_oldest_finished_ones(transcript) -> None:
    hub = LiveHub(keep=2)
    lines = _lines(transcript)
    for number in range(1, 5):
        sink = hub.record_sink(str(number), f"game {number}")
        for line in lines if number != 2 else lines[:5]:  # game 2 is still being played
            sink(line)
    hub.record_sink("5", "game 5")
    assert list(hub.games) == ["2", "3", "4", "5"]
    assert [game["id"] for game in hub.game_list()] == ["2", "3", "4", "5"]


def _drain(viewer) -> list[tuple[str, object]]:
    received = []
    while True:
        try:
            received.append(viewer.receive.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            return received


async def test_the_list_of_games_follows_every_ply_of_every_game(transcript) -> None:
    hub = LiveHub(tournament=True)
    watched = hub.record_sink("1", "game 1")
    other = hub.record_sink("2", "game 2")
    _, viewer = hub.subscribe("1")
    for line in _lines(transcript):
        other(line)  # a game the viewer does not watch: its line in the list moves all the same
    lines = [data for name, data in _drain(viewer) if name == "game"]
    plies = [line["plies"] for line in lines if not line["finished"]]
    assert plies == sorted(plies) and plies[-1] == hub.games["2"].summary()["plies"]
    assert {line["id"] for line in lines} == {"2"}
    assert lines[-1]["finished"] and lines[-1]["status"].endswith(
        f"after {hub.games['2'].events[-1]['plies']} plies"
    )
    assert hub.game_list()[0]["plies"] == 0
    watched("")  # a line that is no record: logged, nothing shown
    hub.leave(viewer)


async def test_the_participants_names_are_shown_not_those_the_bots_send(transcript) -> None:
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1", {"vampires": "slow", "werewolves": "tiny"})
    for line in _lines(transcript):
        sink(line)
    [listed] = hub.game_list()
    assert listed["title"] == "game 1: slow vs tiny"
    events = hub.games["1"].events
    assert events[0]["names"] == {"vampires": "slow", "werewolves": "tiny"}
    assert not [event for event in events if event["type"] == "names"]


async def test_a_finished_command_tells_every_viewer_and_every_late_one(transcript) -> None:
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1")
    for line in _lines(transcript):
        sink(line)
    _, viewer = hub.subscribe(None)
    with trio.fail_after(5):  # nobody reads the stream: close gives up after its grace
        await hub.close(grace=0.01)
    assert _drain(viewer)[-1] == ("finished", {})
    snapshot, late = hub.subscribe(None)
    views = [data for name, data in snapshot if name == "view"]
    assert views == hub.games["1"].events and views[-1]["type"] == "result"
    assert snapshot[-1] == ("finished", {})
    with pytest.raises(trio.EndOfChannel):
        await late.receive.receive()


async def test_the_live_view_says_finished_to_open_pages_however_its_command_ends(
    transcript,
) -> None:
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1")
    for line in _lines(transcript):
        sink(line)
    place = Listening("127.0.0.1", 0, "the live view")
    received = b""
    with trio.CancelScope() as command:  # Ctrl-C: the command's work is cancelled
        async with live_view(hub, place, lambda _: None) as port:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            await stream.send_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            while b'"type":"result"' not in received:
                received += await stream.receive_some()
            command.cancel()
            await trio.sleep_forever()
    with trio.fail_after(5):
        while chunk := await stream.receive_some():
            received += chunk
    # The last event, then the end of the response (its last chunk).
    assert received.endswith(b"event: finished\ndata: {}\n\n\r\n0\r\n\r\n")
    await stream.aclose()


async def test_a_page_opened_after_its_game_ended_shows_that_game(transcript) -> None:
    hub = LiveHub()
    sink = hub.record_sink("1", "game 1")
    for line in _lines(transcript):
        sink(line)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve_view, hub, 0)
        stream = await _get(port, "/events", b'"type":"result"')
        assert stream.count(b"event: view") == len(view_events(read_transcript(transcript)))
        nursery.cancel_scope.cancel()


def test_a_match_shows_its_games_live_under_the_participants_names(tmp_path, monkeypatch):
    hubs: list[LiveHub] = []
    made = LiveHub.__init__

    def spy(hub: LiveHub, *args, **kwargs) -> None:
        made(hub, *args, **kwargs)
        hubs.append(hub)

    monkeypatch.setattr(LiveHub, "__init__", spy)
    monkeypatch.chdir(tmp_path)
    bot = f"{sys.executable} {BOT} play {{host}} {{port}}"  # sends NME "play", whoever it is
    code = main(
        [
            "match",
            "--map",
            "testmap",
            "name=slow",
            bot,
            "name=tiny",
            bot,
            "--games",
            "2",
            "--seed",
            "1",
            "--view",
            "--view-port",
            "0",
        ]
    )
    assert code == 0
    [hub] = hubs
    assert [game["title"] for game in hub.game_list()] == [
        "game 1 (testmap): slow vs tiny",
        "game 2 (testmap): tiny vs slow",
    ]
    assert all(game["finished"] for game in hub.game_list()) and hub.finished


async def test_a_dashboard_viewer_follows_the_board_and_the_list_not_the_plies(transcript):
    hub = LiveHub(tournament=True)
    hub.show_board("<p>no game yet</p>")
    snapshot, viewer = hub.subscribe(None, board=True)
    assert snapshot == [("games", []), ("board", "<p>no game yet</p>")]
    sink = hub.record_sink("1", "game 1")
    for line in _lines(transcript):
        sink(line)
    hub.show_board("<p>one game</p>")
    received = _drain(viewer)
    assert {name for name, _ in received} == {"games", "game", "board"}
    assert received[-1] == ("board", "<p>one game</p>")
    hub.leave(viewer)


async def test_the_view_serves_the_dashboard_and_each_kept_game_s_replay(transcript) -> None:
    hub = LiveHub(tournament=True)
    sink = hub.record_sink("7", "game 7")
    for line in _lines(transcript):
        sink(line)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve_view, hub, 0)
        assert b'id="move-list"' in await _get(port, "/", b"</html>")  # no board: a game
        hub.show_board('<table id="standings"></table>')
        dashboard = await _get(port, "/", b"</html>")
        assert b'<table id="standings">' in dashboard and b"events?board=1" in dashboard
        assert b'"live":true' in await _get(port, "/?game=7", b"</html>")  # one game's page
        replay = (await _get(port, "/replay?game=7", b"</html>")).decode()
        assert _embedded(replay)["events"] == view_events(read_transcript(transcript))
        missing = await _get(port, "/replay?game=8", b"kept")
        assert missing.startswith(b"HTTP/1.1 404") and b"game 8 is not kept here" in missing
        nursery.cancel_scope.cancel()
