"""``vvw analyse FILE`` (or ``analyze``): where a game was won or lost, by play or by dice.

Reads a transcript, analyses every turn (:mod:`vvw.analysis`) with a progress bar on
standard error, prints the report (or ``--json``) and writes the analysis file beside the
transcript (``GAME.analysis.json``), which ``vvw replay`` shows on the replay page.
"""

import argparse
import json
from pathlib import Path

from vvw.analysis.files import SUFFIX, analysis_json, analysis_path, transcript_identity
from vvw.analysis.game import game_from_file
from vvw.analysis.judging import DEFAULT_THRESHOLDS, Thresholds
from vvw.analysis.progress import analyse_showing_progress
from vvw.analysis.report import print_report
from vvw.analysis.search import DEFAULT_DEPTH, Settings
from vvw.analysis.workers import default_jobs
from vvw.documents import guide
from vvw.errors import UsageError
from vvw.paths import write_file
from vvw.running.terminal import plain_console


def _positive(kind: type, text: str) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return float(value)


def _thresholds(text: str) -> Thresholds:
    try:
        return Thresholds.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    try:
        game = game_from_file(source)
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror or error}") from None
    settings = Settings(depth=args.depth, seconds=args.time)
    analysis = analyse_showing_progress(game, settings, args.thresholds, args.jobs)
    data = analysis_json(analysis, transcript_identity(source))
    target = Path(args.output) if args.output else analysis_path(source)
    if not args.no_file:
        write_file(target, (json.dumps(data, ensure_ascii=False) + "\n").encode())
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        console = plain_console()
        print_report(analysis, console)
        if not args.no_file:
            console.print(f"\nwritten {target} (vvw replay {source} shows it)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="where a game was won or lost, by play or by the dice",
        description="Analyse a game's transcript (.jsonl from vvw serve, match, tournament, "
        "proxy or agent --transcript): the winning chances before every ply, each ply judged "
        "against the best one found (inaccuracy, mistake, blunder, with the better ply), the "
        "luck of every random battle, and a summary per side. Prints the report and writes "
        "GAME.analysis.json beside the transcript, which vvw replay then shows."
        f" {guide('analysis.md')} explains how to read it.",
    )
    parser.add_argument("file", help="a transcript (.jsonl)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help=f"plies searched from each position (default {DEFAULT_DEPTH}; the same analysis "
        "every time)",
    )
    how.add_argument(
        "--time",
        type=lambda text: _positive(float, text),
        default=None,
        metavar="SECONDS",
        help="search each position as deep as this allows instead (varies with the machine)",
    )
    parser.add_argument(
        "--jobs",
        type=lambda text: int(_positive(int, text)),
        default=default_jobs(),
        help=f"processes to analyse with (default: one per core, {default_jobs()} here)",
    )
    parser.add_argument(
        "--thresholds",
        type=_thresholds,
        default=DEFAULT_THRESHOLDS,
        metavar="I,M,B",
        help="points of winning chances (of 100) a ply must lose to be an inaccuracy, a "
        "mistake, a blunder (default 10,20,30, as lichess)",
    )
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help=f"where to write the analysis file (default: FILE{SUFFIX} beside the transcript)",
    )
    parser.add_argument("--no-file", action="store_true", help="write no analysis file, only print")
    parser.set_defaults(func=run)
