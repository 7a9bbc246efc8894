"""The proxy's live trace: one line per message, ply and flag of a watched connection
(:class:`protocol.watch.ConnectionWatch`'s events), each prefixed by its connection: the
board after each ply, a ply our referee would rule illegal, bytes that are no message."""

import time
from pathlib import Path
from typing import TextIO

from engine import GameState, ply_text
from protocol.codec import describe
from protocol.records import Direction
from protocol.watch import Began, Ended, Event, Garbled, Odd, Played, Said, Told


class Trace:
    """The live trace: one line per message, ply and flag, each prefixed by its connection."""

    def __init__(
        self, out: TextIO, boards: bool = True, show_hex: bool = False, quiet: bool = False
    ) -> None:
        self.out = out
        self.boards = boards
        self.show_hex = show_hex
        self.quiet = quiet
        self._wall = time.time() - time.monotonic()
        self._shown: dict[str, tuple[tuple[int, int, int], ...]] = {}
        """The last board drawn per connection: an UPD that says nothing new draws none."""

    def _clock(self, at: float) -> str:
        moment = at + self._wall
        millis = int(moment * 1000) % 1000
        return time.strftime("%H:%M:%S", time.localtime(moment)) + f".{millis:03d}"

    def lines(self, label: str, event: Event, transcript: Path | None = None) -> list[str]:
        """The text of one event (the proxy prints it; tests read it); ``transcript`` is
        the file the event's game is written to."""
        head = f"{self._clock(event.at)} [{label}]"
        match event:
            case Said(_, direction, message, raw):
                if self.quiet:
                    return []
                arrow = "->" if direction is Direction.IN else "<-"
                out = [f"{head} {arrow} {describe(message)}"]
                if self.show_hex:
                    out.append(f"{'':8}{raw.hex(' ')}")
                return out
            case Garbled(_, direction, raw, reason):
                who = "the bot" if direction is Direction.IN else "the server"
                return [
                    f"{head} !! MALFORMED from {who} (forwarded as is): {reason}",
                    f"{'':8}bytes: {raw[:64].hex(' ')}{' …' if len(raw) > 64 else ''}",
                ]
            case Odd(_, _, text):
                return [f"{head} !! {text}"]
            case Began(_, species, state):
                where = f"; transcript {transcript}" if transcript else ""
                out = [
                    f"{head} game begins: the bot plays {species.wire_name}"
                    f" on {state.rows} × {state.cols}{where}"
                ]
                if not self.quiet:
                    out += self._board(label, state)
                return out
            case Told(_, species, state):
                if self.quiet:
                    return []
                board = self._board(label, state)
                return [f"{'':8}board the {species.wire_name} play on:", *board] if board else []
            case Played():
                return self._played(label, head, event)
            case Ended():
                return [f"{head} game over (END)"] if self.quiet else []
        return []

    def _played(self, label: str, head: str, played: Played) -> list[str]:
        side = played.species.wire_name
        think = f" after {played.think:.3f} s" if played.think is not None else ""
        if played.violation is not None:
            move = played.violation.move
            return [
                f"{head} !! ILLEGAL ply {played.ply_number} by the {side}{think}:"
                f" {played.violation}",
                f"{'':8}move {move if move is not None else '(none)'}; the ply:"
                f" {ply_text(played.moves)}",
            ]
        if self.quiet:
            return []
        out = [f"{head} ply {played.ply_number} {side}{think}: {ply_text(played.moves)}"]
        for battle in played.battles:
            out.append(
                f"{'':8}random battle at ({battle.x},{battle.y}): {battle.attackers}"
                f" {battle.attacker.wire_name} vs {battle.defenders}"
                f" {battle.defender.wire_name}: the next UPD tells the outcome"
            )
        if played.after is not None:
            board = self._board(label, played.after)
            out += [f"{'':8}board after it:", *board] if board else []
        return out

    def _board(self, label: str, state: GameState) -> list[str]:
        if not self.boards or self._shown.get(label) == state.cells:
            return []
        self._shown[label] = state.cells
        return state.draw(coordinates=True, indent=" " * 8).splitlines()

    def show(self, label: str, events: list[Event], transcript: Path | None = None) -> None:
        for event in events:
            for text in self.lines(label, event, transcript):
                print(text, file=self.out)
        self.out.flush()

    def say(self, label: str, text: str) -> None:
        print(f"{self._clock(time.monotonic())} [{label}] {text}", file=self.out, flush=True)
