"""``vvw check-bot "python mybot.py {host} {port}"``: a compliance check of a bot, step by step.

The command parses its options, runs :class:`vvw.compliance.checker.Checker` (the engine:
a scripted server walks the bot through numbered steps in four sessions, see
:mod:`vvw.compliance.checker`) and prints Passed, Failed or Skipped for each step as it
ends; a failure shows what was expected, what came instead (cut when long), the offending
bytes and the bot's last output, once: the same fault at a later step is one line. Exit
status 0 when every step run passed, 1 otherwise (2: bad usage).
"""

import argparse
import shlex
import tempfile
from pathlib import Path

from vvw import signals
from vvw.argtypes import positive_float, positive_int
from vvw.compliance.checker import STEPS, TEXTS, Checker, CheckOptions, Outcome, Status
from vvw.compliance.scripted import cut
from vvw.errors import Stopped, UsageError, system_refusal
from vvw.running.bots import BUILTIN, bot_command


def parse_steps(text: str) -> frozenset[int]:
    """An argparse type: ``1,3-5`` → {1, 3, 4, 5}."""
    steps: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            steps.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of steps like 1,3-5") from None
    unknown = steps - TEXTS.keys()
    if unknown or not steps:
        raise argparse.ArgumentTypeError(f"steps are 1..{len(STEPS)}, got {text!r}")
    return frozenset(steps)


def format_outcome(outcome: Outcome) -> list[str]:
    title = f"{outcome.number}. {TEXTS[outcome.number]}: {outcome.status.value}"
    failure = outcome.failure
    if failure is None:
        return [title + (f" ({outcome.detail})" if outcome.detail else "")]
    if outcome.same_as is not None:
        return [f"{title} (the same fault as step {outcome.same_as}: {cut(failure.fault, 80)})"]
    lines = [title, f"     expected: {failure.expected}", f"     got: {failure.got}"]
    if failure.data:
        more = " …" if len(failure.data) > 64 else ""
        lines.append(f"     bytes: {failure.data[:64].hex(' ')}{more}")
    if outcome.output:
        lines.append("     the bot's last output:")
        lines += ["       " + line for line in outcome.output.splitlines()]
    return lines


def summary(outcomes: list[Outcome]) -> str:
    """``4 passed, 3 failed, 2 skipped``."""
    counts = {status: 0 for status in Status}
    for outcome in outcomes:
        counts[outcome.status] += 1
    return ", ".join(f"{count} {status.value.lower()}" for status, count in counts.items())


def run(args: argparse.Namespace) -> int:
    try:
        bot_command(args.bot, "127.0.0.1", 0)
    except ValueError as error:
        raise UsageError(str(error)) from None
    shown = args.bot if args.bot.split()[0] in BUILTIN else shlex.join(shlex.split(args.bot))
    print(f"checking {shown} (move time {args.move_time:g} s)", flush=True)

    def report(outcome: Outcome) -> None:
        print("\n".join(format_outcome(outcome)), flush=True)

    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="vvw-check-") as folder:
        log_dir = Path(args.logs) if args.logs else Path(folder)
        options = CheckOptions(
            args.bot, args.move_time, args.steps, args.long_plies, args.connect_time
        )
        checker = Checker(options, log_dir, report)

        async def checking() -> None:
            try:
                outcomes.extend(await checker.run())
            except OSError as error:  # the bot cannot be started
                raise UsageError(system_refusal(error)) from None

        signum = signals.run(checking)
    if signum is not None:
        raise Stopped(signum)
    print(summary(outcomes))
    return 1 if any(outcome.status is Status.FAILED for outcome in outcomes) else 0


DESCRIPTION = (
    "Start a bot against a scripted server and check it step by step: "
    + "; ".join(f"{step.number}. {step.text}" for step in STEPS)
    + ". Exit status 1 if a step failed."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    help = "check a bot's protocol compliance, step by step"
    parser = subparsers.add_parser("check-bot", help=help, description=DESCRIPTION)
    parser.add_argument(
        "bot", help='a built-in name or a command, e.g. "python mybot.py {host} {port}"'
    )
    parser.add_argument(
        "--move-time",
        type=positive_float,
        default=2.0,
        metavar="S",
        help="seconds the bot has for each MOV (default 2, the course's)",
    )
    parser.add_argument(
        "--steps",
        type=parse_steps,
        default=frozenset(TEXTS),
        help="which steps to run, e.g. 1-3,9 (default all; a step's session runs the steps"
        " before it too)",
    )
    parser.add_argument(
        "--long-plies",
        type=positive_int,
        default=100,
        metavar="N",
        help="plies of the long game of step 8 (default 100)",
    )
    parser.add_argument(
        "--connect-time",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="seconds the bot has to connect and send NME (default 10)",
    )
    parser.add_argument(
        "--logs", default=None, metavar="DIR", help="keep the bot's output files in DIR"
    )
    parser.epilog = 'example: vvw check-bot "python mybot.py {host} {port}" --steps 1-5'
    parser.set_defaults(func=run)
