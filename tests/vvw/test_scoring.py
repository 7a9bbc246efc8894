"""A game is scored by typed reasons, never by the wording of a message (issue 44).

Every text the server's events carry (a drop's detail, a game's detail, names and peers)
is reworded on its way to :func:`vvw.running.local_game.play_one`, and so is every reason's enum
value: each way a bot can lose before or during its game must still be scored the same.
"""

import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

from engine import EndReason, Kind, Termination
from server.events import DropReason
from server.settings import Settings
from tests.helpers.maps import load
from vvw.running import local_game
from vvw.running.participants import Participant

BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
SETTINGS = Settings(seed=1, connect_time=10.0)


def _bot(mode: str) -> Participant:
    return Participant(mode, f"{sys.executable} {BOT} {mode} {{host}} {{port}}")


def _reworded(value: Any) -> Any:
    """``value`` with every text in it (in attrs classes, at any depth) reworded."""
    changes = {}
    for field in attrs.fields(type(value)):
        inner = getattr(value, field.name)
        if isinstance(inner, str):
            changes[field.name] = f"reworded {field.name}: closed? no NME? \x00"
        elif attrs.has(type(inner)):
            changes[field.name] = _reworded(inner)
    return attrs.evolve(value, **changes)


@pytest.fixture
def reworded(monkeypatch):
    """Every event's texts and every reason's enum value reworded for ``play_one``."""
    serve = local_game.serve

    async def serve_reworded(*args, events, **options):
        return await serve(*args, events=lambda event: events(_reworded(event)), **options)

    monkeypatch.setattr(local_game, "serve", serve_reworded)
    for reason in (*DropReason, *EndReason):
        monkeypatch.setattr(reason, "_value_", f"reworded {reason.name.lower()}")


@pytest.mark.parametrize(
    ("mode", "termination"),
    [
        ("hangup", Termination.DISCONNECT),  # closed before its NME
        ("garbage", Termination.PROTOCOL_ERROR),  # bytes that are no message
        ("notnme", Termination.PROTOCOL_ERROR),  # a MOV before its NME
        ("quit", Termination.DISCONNECT),  # seated, then gone before the game began
        ("crash", Termination.CRASH),  # its process exited during the game
        ("illegal", Termination.ILLEGAL_PLY),
    ],
)
async def test_rewording_every_message_scores_no_game_differently(
    mode, termination, reworded, tmp_path
):
    with trio.fail_after(30):
        played = await local_game.play_one(
            load("testmap"), SETTINGS, (_bot(mode), _bot("play")), tmp_path / "game"
        )
    result = played.result
    assert (result.termination, result.winner) == (termination, Kind.WEREWOLVES)
    assert (result.vampires.name, result.werewolves.name) == (mode, "play")
