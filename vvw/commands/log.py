"""``vvw log show``: a readable rendering of a game transcript (JSON Lines)."""

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine import Kind
from server.transcript import read_transcript


def _side(value: Any) -> str:
    """A side as a word, whether the file holds its name or its number."""
    if value is None:
        return "-"
    if isinstance(value, int):
        try:
            return Kind(value).name.lower()
        except ValueError:
            return str(value)
    return str(value)


def render(lines: Iterable[dict[str, Any]], show_hex: bool = False) -> list[str]:
    """The transcript's lines as text: header, players, frames, plies, result."""
    out: list[str] = []
    for line in lines:
        kind = line.get("type")
        t = f"{line.get('t', 0.0):9.3f}"
        if kind == "header":
            out.append(f"game on {line.get('map')} (seed {line.get('seed')})")
            out.append(f"settings: {line.get('settings')}")
        elif kind == "player":
            out.append(f"player {_side(line.get('side'))}: {line.get('name')} ({line.get('peer')})")
        elif kind == "frame":
            arrow = "->" if line.get("dir") == "in" else "<-"
            text = f"{t} {_side(line.get('side')):10} {arrow} {line.get('text')}"
            out.append(text)
            if show_hex:
                out.append(f"{'':21}hex {line.get('hex', '')}")
        elif kind == "ply":
            moves = " ".join("({0},{1})->({3},{4}) x{2}".format(*m) for m in line.get("moves", []))
            out.append(f"{t} ply {line.get('ply_number')} {_side(line.get('side'))}: {moves}")
            for battle in line.get("battles", []):
                out.append(
                    f"{'':10}battle at {tuple(battle['cell'])}: {battle['attackers']}"
                    f" {battle['attacker']} vs {battle['defenders']} {battle['defender']}"
                    f" (p={battle['attacker_win_probability']:.3f}) -> {battle['winner']}"
                    f" {battle['survivors']} left"
                )
        elif kind == "skip":
            out.append(f"{t} ply {line.get('ply_number')} {_side(line.get('side'))}: skipped")
        elif kind == "result":
            winner = _side(line.get("winner")) if line.get("winner") is not None else "nobody"
            out.append(
                f"result: {winner} wins by {line.get('termination')} after"
                f" {line.get('plies')} plies: {line.get('detail')}"
            )
    return out


def show(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        lines = read_transcript(path)
    except OSError as error:
        print(f"vvw log show: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    for text in render(lines, show_hex=args.hex):
        print(text)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("log", help="read game transcripts")
    commands = parser.add_subparsers(dest="log_command", metavar="ACTION", required=True)
    show_parser = commands.add_parser("show", help="render a transcript readably")
    show_parser.add_argument("file", help="a transcript (.jsonl) written by serve or match")
    show_parser.add_argument("--hex", action="store_true", help="also show each frame's bytes")
    show_parser.set_defaults(func=show)
