"""The ``vvw`` command's entry point (the console script, ``python -m vvw``).

Its start-up is the import of the command line and all it stands on (trio, the engine,
the commands: a second or two on a busy machine). A Ctrl-C meanwhile ends it as a stop
signal ends any command (:mod:`vvw.cli`): one line, ``vvw COMMAND: stopped by SIGINT``,
and the exit status 130, never an import's traceback. So this module imports nothing
until it runs.

That exit is ``os._exit``, at once: had the Ctrl-C come inside code that ``exec`` runs from
a string (``dataclasses`` and ``attrs`` make their classes' methods so, at import),
CPython would have marked it unhandled, whoever caught it, and then ended the process by
SIGINT instead of the status 130 (about one Ctrl-C in twenty a third of a second in).
"""

import os
import signal
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (:func:`vvw.cli.main`) on ``argv`` (default: ``sys.argv``); a
    Ctrl-C during its start-up ends the process there (see the module docstring)."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        from vvw.cli import main as command_line  # the start-up: imports only

        return command_line(words)
    except KeyboardInterrupt:  # before the command watches for signals itself
        named = next((word for word in words if not word.startswith("-")), None)
        command = f"vvw {named}" if named else "vvw"
        print(f"{command}: stopped by SIGINT during its start-up", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(128 + signal.SIGINT)
