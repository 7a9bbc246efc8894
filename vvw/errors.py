"""The command line's one error family: what a command cannot do, said in one line.

A command raises :class:`UsageError` when it cannot run as typed (exit status 2: a bad
argument, a file or a port that cannot be used), :class:`CommandError` when the run
itself failed (1), and :class:`Stopped` when a signal ended it (128 + the signal's
number: 130, 143, 129). :func:`vvw.cli.main` is the one place that prints them, as
``vvw COMMAND: message``; :func:`ending` says how any exception that reaches it ends the
command, inside exception groups too (what trio's nurseries raise).
"""

import signal
from collections.abc import Iterator

from engine.mapfile import MapFileError
from protocol.reading import TranscriptError

BROKEN_PIPE = 128 + signal.SIGPIPE
"""The exit status when the reader of our output went away (``vvw … | head``)."""


class InputFileError(ValueError):
    """A file the user named is not what it should be (a results file that is not one…);
    ``str()`` is one line naming the file and why. Each kind of file has its subclass."""


class CommandError(Exception):
    """The run failed; ``str()`` is one line saying why. Exit status 1."""

    code = 1


class UsageError(CommandError):
    """The command cannot run as typed: a bad argument, file or port. Exit status 2."""

    code = 2


class Stopped(CommandError):
    """A stop signal ended the run (after its cleanup); ``after`` says what was done."""

    def __init__(self, signum: int, after: str = "") -> None:
        name = signal.Signals(signum).name
        super().__init__(f"stopped by {name}" + (f" {after}" if after else ""))
        self.signum = signum
        self.code = 128 + signum


BAD_INPUT = (MapFileError, TranscriptError, InputFileError)
"""Errors of a file the user named, which say in one line which file and why: exit 2."""


def leaves(error: BaseException) -> Iterator[BaseException]:
    """``error`` itself, or the exceptions inside it if it is a (nested) exception group."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from leaves(inner)
    else:
        yield error


def ending(error: BaseException, interrupted_by: int) -> tuple[str | None, int] | None:
    """How ``error`` ends the command: the line to print (``None``: end quietly) and the
    exit status; ``None`` for an error that is a bug (its traceback is wanted).

    A ``KeyboardInterrupt`` is the signal ``interrupted_by`` (SIGTERM and SIGHUP take
    Ctrl-C's way out of code that is not watching for them, see :mod:`vvw.signals`). In
    a group, a stop wins over a closed pipe, which wins over an error of the family, which
    wins over an ``OSError`` (exit status 1).
    """
    found = list(leaves(error))
    for leaf in found:
        if isinstance(leaf, KeyboardInterrupt):
            stopped = Stopped(interrupted_by)
            return str(stopped), stopped.code
        if isinstance(leaf, Stopped):
            return str(leaf), leaf.code
    if any(isinstance(leaf, BrokenPipeError) for leaf in found):
        return None, BROKEN_PIPE
    for leaf in found:
        if isinstance(leaf, CommandError):
            return str(leaf), leaf.code
        if isinstance(leaf, BAD_INPUT):
            return str(leaf), UsageError.code
    for leaf in found:
        if isinstance(leaf, OSError):  # the system refused (a full disk…): not a bug of ours
            return system_refusal(leaf), CommandError.code
    return None


def system_refusal(error: OSError) -> str:
    """An ``OSError`` in words: ``No space left on device: runs/x.jsonl``."""
    reason = error.strerror or str(error)
    return f"{reason}: {error.filename}" if error.filename else reason
