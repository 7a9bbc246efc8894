"""``vvw replay FILE``: a game's transcript as one self-contained HTML page."""

import argparse
import sys
import webbrowser
from pathlib import Path
from typing import Any

from vvw.analysis.files import AnalysisFileError, analysis_path, read_analysis
from vvw.errors import UsageError
from vvw.paths import write_file
from vvw.web.viewer import replay_page
from vvw.wording import plies


def write_replay(transcript: Path, target: Path, analysis: dict[str, Any] | None = None) -> int:
    """Write the replay page of ``transcript`` to ``target``, with its ``analysis`` (the
    analysis file's content) if given; the number of plies in it.

    ``TranscriptError`` when the file is not a transcript or holds no board to draw,
    ``OSError`` when it cannot be read, :class:`PathError` when ``target`` cannot be written.
    """
    html, events = replay_page(transcript, analysis=analysis)
    write_file(target, html.encode())
    return sum(1 for event in events if event["type"] in ("ply", "skip"))


def _analysis(source: Path, args: argparse.Namespace) -> dict[str, Any] | None:
    """The analysis to show: ``--analysis FILE``'s, else the one beside the transcript if
    there is one (a stale one is left out, with a word why)."""
    if args.no_analysis:
        return None
    path = Path(args.analysis) if args.analysis else analysis_path(source)
    if not args.analysis and not path.exists():
        return None
    try:
        return read_analysis(path, source)
    except AnalysisFileError as error:
        if args.analysis:
            raise UsageError(str(error)) from None
        print(f"note: {error}; the page is made without it", file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    target = Path(args.output) if args.output else source.with_suffix(".html")
    try:
        played = write_replay(source, target, _analysis(source, args))
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
        "ended, the counts over the game, and the transcript to download; with the game's "
        "analysis (vvw analyse), its winning chances under the board, the marks on the plies, "
        "the better ply as a dashed arrow and the luck of each battle. Opens from disk; "
        "no network, no server.",
    )
    parser.add_argument("file", help="a transcript (.jsonl)")
    parser.add_argument(
        "-o", "--output", default=None, metavar="HTML", help="where to write (default: FILE.html)"
    )
    parser.add_argument("--open", action="store_true", help="open it in the web browser")
    parser.add_argument(
        "--analysis",
        default=None,
        metavar="FILE",
        help="the game's analysis file (default: FILE.analysis.json beside it, if there)",
    )
    parser.add_argument(
        "--no-analysis", action="store_true", help="leave the analysis out even if there is one"
    )
    parser.set_defaults(func=run)
