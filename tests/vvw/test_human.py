"""A person at the board without a browser: the seat judges what the page proposes, the
page's requests, the agent's clock, a bot that never plays, and vvw play's refusals."""

import json
import sys
import time
from pathlib import Path

import pytest
import trio

from engine import Kind, Move
from engine.mapfile import load_map
from server.settings import Settings
from tests.helpers.http import fetch
from vvw.cli import main
from vvw.running.human import BotDidNotPlay, PageAgent, Seat, play_handler, play_person
from vvw.running.participants import Participant
from vvw.web.live import LiveHub, view_handler
from vvw.web.server import serve_http

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
TOKEN = "secret-of-the-page"


def _first_turn(seat: Seat):
    """The vampires' first turn on testmap, offered as the agent offers it."""
    state = load_map(MAPS / "testmap.xml").initial_state()
    return state, seat.offer(state, time.monotonic() + 60)


def _group(state) -> tuple[int, int, int]:
    """The vampires' group: x, y, count."""
    [(pos, _, count)] = [cell for cell in state.cells if cell[1] == Kind.VAMPIRES]
    return pos % state.cols, pos // state.cols, count


async def test_the_seat_judges_the_page_s_moves_by_the_engine_s_rules_and_sends_a_legal_ply():
    hub = LiveHub()
    seat = Seat(hub, Kind.VAMPIRES)
    assert seat.propose([[0, 0, 1, 1, 1]], send=True)["error"] == "it is not your turn"
    state, turn = _first_turn(seat)
    x, y, count = _group(state)
    tx = x + 1 if x + 1 < state.cols else x - 1
    far = x + 2 if x + 2 < state.cols else x - 2
    checked = seat.propose([[x, y, count, tx, y]], send=False)
    assert checked == {"ok": True, "error": None, "sent": False} and turn.reply.empty()
    refused = seat.propose([[x, y, count, far, y]], send=True)
    assert refused["error"].startswith("rule 4 (the target must be one of the 8 neighbours")
    assert not refused["sent"] and turn.reply.empty()
    assert seat.propose([[x, y, count + 1, tx, y]], send=False)["error"].startswith("rule 3")
    assert seat.propose([[x, y, 1.5, tx, y]], send=False)["error"].startswith("a move is")
    assert seat.propose([[x, y, count, tx, y]], send=True)["sent"]
    assert turn.reply.get_nowait() == (Move(x, y, count, tx, y),)
    assert seat.propose([[x, y, count, tx, y]], send=True)["error"] == "it is not your turn"
    snapshot, viewer = hub.subscribe(None)
    assert ("turn", {"side": "vampires", "late": None, "ply": None}) in snapshot
    hub.leave(viewer)


async def test_a_page_opened_during_a_turn_gets_the_seconds_then_left():
    hub = LiveHub()
    seat = Seat(hub, Kind.WEREWOLVES)
    state = load_map(MAPS / "testmap.xml").initial_state()
    seat.offer(state, time.monotonic() + 30)
    snapshot, viewer = hub.subscribe(None)
    [note] = [data for name, data in snapshot if name == "turn"]
    assert note["ply"] == 1 and 0 < note["seconds"] <= 30
    hub.leave(viewer)


async def test_the_agent_waits_for_the_page_and_gives_up_at_its_deadline():
    hub = LiveHub()
    seat = Seat(hub, Kind.VAMPIRES)
    agent = PageAgent("ann", seat)
    state = load_map(MAPS / "testmap.xml").initial_state()
    x, y, count = _group(state)
    tx = x + 1 if x + 1 < state.cols else x - 1

    async def page_sends() -> None:
        snapshot, viewer = hub.subscribe(None)  # as the page hears it: the turn offered
        heard = [data for name, data in snapshot if name == "turn"]
        while not heard or heard[-1]["ply"] != 1:
            name, data = await viewer.receive.receive()
            heard += [data] if name == "turn" else []
        hub.leave(viewer)
        assert seat.propose([[x, y, count, tx, y]], send=True)["sent"]

    async with trio.open_nursery() as nursery:
        nursery.start_soon(page_sends)
        deadline = time.monotonic() + 30
        ply = await trio.to_thread.run_sync(agent.choose_ply, state, deadline)
    assert ply == (Move(x, y, count, tx, y),)
    with pytest.raises(TimeoutError):  # nobody at the page: the deadline passes
        await trio.to_thread.run_sync(agent.choose_ply, state, time.monotonic() + 0.01)
    assert seat.late == 1 and seat.turn is None


async def test_only_the_page_vvw_play_opened_may_play_and_it_must_send_moves():
    hub = LiveHub()
    seat = Seat(hub, Kind.VAMPIRES)
    state, _ = _first_turn(seat)
    x, y, count = _group(state)
    handler = play_handler(seat, TOKEN, view_handler(hub))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve_http(
                handler, 0, methods=("GET", "HEAD", "POST"), task_status=task_status
            )
        )
        body = json.dumps({"moves": [[x, y, count, x, y + 1]], "send": False}).encode()
        stranger = await fetch(port, "/move", "POST", body, "X-VVW-Token: guess\r\n")
        garbled = await fetch(port, "/move", "POST", b"[1, 2", f"X-VVW-Token: {TOKEN}\r\n")
        judged = await fetch(port, "/move", "POST", body, f"X-VVW-Token: {TOKEN}\r\n")
        page = await fetch(port, "/", "GET")
        nursery.cancel_scope.cancel()
    assert stranger.startswith(b"HTTP/1.1 403")
    assert garbled.startswith(b"HTTP/1.1 400") and b"expected" in garbled
    assert judged.startswith(b"HTTP/1.1 200")
    assert json.loads(judged.partition(b"\r\n\r\n")[2])["sent"] is False
    assert page.startswith(b"HTTP/1.1 200") and b"<html" in page


async def test_a_bot_that_never_plays_is_said_and_no_game_is_played(tmp_path):
    hub = LiveHub()
    seat = Seat(hub, Kind.WEREWOLVES)
    gone = Participant("gone", f"{sys.executable} {BOT} exit {{host}} {{port}}")
    with pytest.raises(BotDidNotPlay, match="vampires-gone exited with code 4 before its NME"):
        await play_person(
            load_map(MAPS / "testmap.xml"),
            Settings(),
            PageAgent("ann", seat),
            gone,
            tmp_path,
            person_time=1.0,
            bot_time=1.0,
        )
    assert seat.turn is None


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["greedy", "random"], "one bot plays you, got 2"),
        (["name=you", "greedy"], "you and the bot are both called 'you'"),
        (["greedy", "--map", "thetrap", "testmap"], "one map only, got 2"),
        (["nosuchbot"], "cannot start nosuchbot"),
    ],
)
def test_vvw_play_refuses_what_it_cannot_play(words, says, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    if "--map" not in words:
        words = [*words, "--map", "thetrap"]
    assert main(["play", *words, "--port", "0", "--no-open"]) == 2
    assert says in capsys.readouterr().err
