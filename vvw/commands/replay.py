"""``vvw replay FILE``: a game's transcript as one self-contained HTML page."""

import argparse
import webbrowser
from pathlib import Path

from vvw.errors import UsageError
from vvw.paths import write_file
from vvw.view.page import replay_page
from vvw.wording import plies


def write_replay(transcript: Path, target: Path) -> int:
    """Write the replay page of ``transcript`` to ``target``; the number of plies in it.

    ``TranscriptError`` when the file is not a transcript or holds no board to draw,
    ``OSError`` when it cannot be read, :class:`PathError` when ``target`` cannot be written.
    """
    html, events = replay_page(transcript)
    write_file(target, html.encode())
    return sum(1 for event in events if event["type"] in ("ply", "skip"))


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    target = Path(args.output) if args.output else source.with_suffix(".html")
    try:
        played = write_replay(source, target)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise UsageError(f"cannot read {source}: {reason}") from None
    print(f"{target} ({plies(played)})")
    if args.open:
        webbrowser.open(target.resolve().as_uri())
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="write a game's replay as one HTML page",
        description="Turn a transcript (.jsonl from vvw serve/match --transcript) into one "
        "self-contained HTML page: the board ply by ply (zoom and pan on big maps), moves as "
        "arrows, battles with their odds, the move list with think times and how the game "
        "ended, the counts over the game, and the transcript to download. Opens from disk; "
        "no network, no server.",
    )
    parser.add_argument("file", help="a transcript (.jsonl)")
    parser.add_argument(
        "-o", "--output", default=None, metavar="HTML", help="where to write (default: FILE.html)"
    )
    parser.add_argument("--open", action="store_true", help="open it in the web browser")
    parser.set_defaults(func=run)
