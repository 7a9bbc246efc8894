"""``vvw log show``: a readable rendering of a game transcript, optionally with the boards.

The file is read with :mod:`protocol.reading`'s typed reader, so a file that is not a
transcript is one line on standard error (exit 2), never a traceback; the boards are the one
replay reader's (:mod:`protocol.replay`).
"""

import argparse
from collections.abc import Iterable
from pathlib import Path

from engine import Kind, ply_text
from engine.drawing import draw_board
from protocol.codec import ALL
from protocol.printable import printable
from protocol.records import (
    Command,
    Direction,
    Frame,
    Header,
    Note,
    Player,
    Ply,
    Record,
    Result,
    Skip,
)
from protocol.replay import Replayer
from vvw.command_parser import add_actions
from vvw.errors import UsageError
from vvw.transcripts import follow_transcript, iter_transcript
from vvw.wording import plies


def _side(kind: Kind | None) -> str:
    return "-" if kind is None else kind.wire_name


class Renderer:
    """Turns records into text lines, one record at a time (so a followed file can stream)."""

    def __init__(
        self,
        show_hex: bool = False,
        boards: bool = False,
        side: Kind | None = None,
        commands: frozenset[Command | None] | None = None,
    ) -> None:
        self.show_hex = show_hex
        self.boards = boards
        self.side = side
        self.commands = commands
        """The frames shown, by command (``None``: bytes that are no message); all if ``None``."""
        self._replayer = Replayer()

    def _wanted(self, side: Kind | None) -> bool:
        return self.side is None or side is None or side == self.side

    def lines(self, record: Record) -> list[str]:
        t = f"{record.t:9.3f}"
        self._replayer.feed(record)
        match record:
            case Header():
                where = f" on {record.map}" if record.map else ""
                seed = f" (seed {record.seed})" if record.seed is not None else ""
                peer = f", peer {record.peer}" if record.peer else ""
                out = [
                    f"game{where}{seed}: {record.source.value} transcript v{record.version}{peer}"
                ]
                if record.settings:
                    out.append(f"settings: {dict(record.settings)}")
                return out
            case Player():
                if not self._wanted(record.side):
                    return []
                peer = f" ({record.peer})" if record.peer else ""
                return [f"player {_side(record.side)}: {printable(record.name)}{peer}"]
            case Frame():
                if not self._wanted(record.side):
                    return []
                if self.commands is not None and record.command not in self.commands:
                    return []
                arrow = "->" if record.direction is Direction.IN else "<-"
                out = [f"{t} {_side(record.side):10} {arrow} {record.text}"]
                if self.show_hex or record.command is None:
                    out.append(f"{'':21}hex {record.raw.hex(' ')}")
                return out
            case Ply():
                return self._ply(record, t) if self._wanted(record.side) else []
            case Skip():
                if not self._wanted(record.side):
                    return []
                return [f"{t} ply {record.ply_number} {_side(record.side)}: skipped"]
            case Note():
                return (
                    [f"{t} !! {_side(record.side)}: {record.text}"]
                    if self._wanted(record.side)
                    else []
                )
            case Result():
                winner = (
                    f"{_side(record.winner)} win" if record.winner is not None else "nobody wins"
                )
                why = record.detail if record.detail != record.termination.value else ""
                return [
                    f"result: {winner} by {record.termination.value} after {plies(record.plies)}"
                    + (f": {printable(why)}" if why else "")
                ]
        return []

    def _ply(self, ply: Ply, t: str) -> list[str]:
        think = f" [{ply.think:.3f} s]" if ply.think is not None else ""
        out = [f"{t} ply {ply.ply_number} {_side(ply.side)}: {ply_text(ply.moves)}{think}"]
        if ply.violation:
            out.append(f"{'':10}!! illegal: {ply.violation}")
        for battle in ply.battles:
            outcome = (
                f"{battle.winner.wire_name} {battle.survivors} left"
                if battle.winner is not None
                else "outcome not seen here"
            )
            out.append(
                f"{'':10}battle at {battle.cell}: {battle.attackers}"
                f" {battle.attacker.wire_name} vs {battle.defenders}"
                f" {battle.defender.wire_name}"
                f" (p={battle.attacker_win_probability:.3f}) -> {outcome}"
            )
        if self.boards:
            if ply.board is None:
                out.append(f"{'':10}board after: decided by a random battle (see the next UPD)")
            elif self._replayer.size is None:
                out.append(f"{'':10}board after: grid size unknown (no SET in this transcript)")
            else:
                out.extend(draw_board(*self._replayer.size, ply.board, indent=" " * 10))
        return out


def render(records: Iterable[Record], show_hex: bool = False, boards: bool = False) -> list[str]:
    """The records as text: header, players, frames, plies, result."""
    renderer = Renderer(show_hex, boards)
    return [text for record in records for text in renderer.lines(record)]


def _commands(text: str) -> frozenset[Command | None]:
    """The frames wanted, by command; ``BAD`` (``None``) for bytes that are no message."""
    names = frozenset(word.strip().upper() for word in text.split(",") if word.strip())
    unknown = names - ALL - {"BAD"}
    if unknown or not names:
        known = ", ".join(sorted(ALL))
        raise argparse.ArgumentTypeError(
            f"unknown message {', '.join(sorted(unknown)) or text!r} (one of {known}, BAD)"
        )
    return frozenset(None if name == "BAD" else Command(name) for name in names)


def _species(text: str) -> Kind:
    kind = Kind.__members__.get(text.upper())
    if kind is None or not kind.is_species:
        raise argparse.ArgumentTypeError(f"{text!r} is not a side (vampires or werewolves)")
    return kind


def show(args: argparse.Namespace) -> int:
    path = Path(args.file)
    renderer = Renderer(args.hex, args.boards, args.side, args.message)
    try:
        records = follow_transcript(path) if args.follow else iter_transcript(path)
        for record in records:
            for text in renderer.lines(record):
                print(text, flush=args.follow)
    except BrokenPipeError:
        raise  # the reader of our output left: vvw.cli ends quietly
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    commands = add_actions(subparsers, "log", help="read game transcripts")
    show_parser = commands.add_parser(
        "show",
        help="render a transcript readably",
        description="Render a transcript written by vvw serve, match, proxy or agent.",
    )
    show_parser.add_argument("file", help="a transcript (.jsonl)")
    show_parser.add_argument("--hex", action="store_true", help="also show each frame's bytes")
    show_parser.add_argument("--boards", action="store_true", help="draw the board after each ply")
    show_parser.add_argument(
        "--follow",
        action="store_true",
        help="follow a game being written: wait for new lines until its result (or END)",
    )
    show_parser.add_argument(
        "--side", type=_species, default=None, help="only vampires' or werewolves' lines"
    )
    show_parser.add_argument(
        "--message",
        type=_commands,
        default=None,
        metavar="CMD[,CMD]",
        help="only frames of these messages (MOV,UPD…; BAD: bytes that are no message)",
    )
    show_parser.set_defaults(func=show)
