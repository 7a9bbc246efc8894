"""The note the ladder sends ``vvw ladder join``'s relay after each game: how it ended.

The course protocol tells a bot no result (``END`` says nothing more). A connection whose
credentials say it is a relay (``ladder:TEAM:TOKEN:relay``) gets one line of JSON after
``BYE``: the game's number, map, side and opponent, and its result as the ladder recorded
it. The relay reads it and gives the bot none of it; a bot connected directly never gets
one. :func:`note_of` writes it from the stored game, :func:`read_note` reads it back.

A relay the ladder refuses before any game (a wrong token, no such team, the team's
connections all in use) gets ``BYE`` and a note that says why
(:func:`refusal_note`, :func:`read_refusal`).
"""

import contextlib
import json
from enum import Enum

import attrs
import trio

from engine import Kind, Termination
from protocol.printable import printable
from protocol.referee import TURNED_AWAY
from server.player import Player
from vvw.ladder.refusals import Refusal
from vvw.ladder.snapshot import GameStatus, StoredGame
from vvw.wording import plies

MAX_NOTE = 4096
"""Bytes a note has at most (a reason quoting a bot's bytes is cut to fit)."""
DETAIL = 1000
"""Characters of the reason a note keeps."""
NOTE_TIME = 2.0
"""Seconds to send a relay its note."""


class Verdict(Enum):
    """The game from the team's side."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"
    ABORTED = "aborted"


class NoteError(ValueError):
    """Bytes that are not a ladder's note."""


@attrs.frozen
class Note:
    """One game's result for one of its teams."""

    game: int
    map: str
    side: Kind
    opponent: str
    verdict: Verdict
    termination: Termination
    detail: str
    plies: int

    def describe(self) -> str:
        """One line: ``game 12 on thetrap as vampires against beta: won by elimination
        after 54 plies`` (and the exact reason of a game that ended abnormally). Every text
        that came from a bot is made printable."""
        head = (
            f"game {self.game} on {printable(self.map)} as {self.side.name.lower()}"
            f" against {printable(self.opponent)}"
        )
        if self.verdict is Verdict.ABORTED:
            return (
                f"{head}: aborted after {plies(self.plies)} (not rated): {printable(self.detail)}"
            )
        verdict = "a draw" if self.verdict is Verdict.DRAW else self.verdict.value
        line = f"{head}: {verdict} by {self.termination.value} after {plies(self.plies)}"
        if self.termination.is_abnormal and self.detail:
            line += f": {printable(self.detail)}"
        return line


def note_of(game: StoredGame, team: str) -> bytes:
    """The note of ``game`` (finished or aborted) for ``team``, one line of JSON."""
    side = game.side_of(team)
    if game.status is GameStatus.ABORTED:
        verdict = Verdict.ABORTED
    elif game.winner is None:
        verdict = Verdict.DRAW
    else:
        verdict = Verdict.WON if game.winner is side else Verdict.LOST
    record = {
        "game": game.id,
        "map": game.map,
        "side": side.name.lower(),
        "opponent": game.opponent_of(team),
        "verdict": verdict.value,
        "termination": (game.termination or Termination.ABORTED).value,
        "detail": game.detail[:DETAIL],
        "plies": game.plies,
    }
    data = json.dumps(record, ensure_ascii=True).encode() + b"\n"
    assert len(data) <= MAX_NOTE  # 1000 characters of 6 bytes at most, and the rest short
    return data


def read_note(data: bytes) -> Note:
    """The note in ``data``; :class:`NoteError` if it is not one."""
    try:
        record = json.loads(data.decode("ascii"))
        return Note(
            game=int(record["game"]),
            map=str(record["map"]),
            side=Kind[str(record["side"]).upper()],
            opponent=str(record["opponent"]),
            verdict=Verdict(record["verdict"]),
            termination=Termination(record["termination"]),
            detail=str(record["detail"]),
            plies=int(record["plies"]),
        )
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        raise NoteError(f"not a ladder's note: {error}") from None


def refusal_note(refusal: Refusal) -> bytes:
    """The note telling a relay why the ladder refused it, and whether trying again can
    help (``final``: it cannot, say a wrong token): ``{"refused": REASON, "final": …}``."""
    record = {"refused": refusal.value, "final": refusal.final}
    return json.dumps(record, ensure_ascii=True).encode() + b"\n"


def read_refusal(data: bytes) -> tuple[str, bool] | None:
    """The reason in a refusal note and whether it is final; ``None`` if ``data`` is not
    one."""
    try:
        record = json.loads(data.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    refused = record.get("refused") if isinstance(record, dict) else None
    if not isinstance(refused, str):
        return None
    return printable(refused), record.get("final") is True


async def send_note(player: Player, note: bytes, bye: bool = False) -> None:
    """Send a relay ``note`` after its game's ``BYE``, or after a ``BYE`` of its own
    (``bye``: a connection refused before any game). A note is no message of the course
    protocol: its bytes go past :class:`~server.player.Player`'s codec, after the last
    message. A connection gone, or stuck for :data:`NOTE_TIME`, gets none."""
    with trio.move_on_after(NOTE_TIME):
        for message in TURNED_AWAY if bye else ():
            if not await player.send_quietly(message):
                return
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await player.stream.send_all(note)
