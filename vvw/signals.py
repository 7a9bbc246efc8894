"""Ending a run cleanly on SIGINT, SIGTERM or SIGHUP: cancel the work, let it clean up.

Bots run in sessions of their own (see :mod:`server.processes`), so neither Ctrl-C nor a
closing terminal reaches them: the run must end them itself. :func:`run_until_signal`
turns the first such signal into a cancellation of the work, whose cleanup (shielded
``finally`` blocks that stop the bots) then runs; later signals are absorbed meanwhile.
"""

import signal
from collections.abc import Awaitable, Callable

import trio

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def exit_code(signum: int) -> int:
    """The shell's exit code for a run ended by ``signum``: 130, 143, 129."""
    return 128 + signum


async def run_until_signal(work: Callable[[], Awaitable[object]]) -> int | None:
    """Run ``work()``; on a stop signal cancel it and return that signal's number.

    ``None`` when the work finished by itself. Must run in the main thread.
    """
    received: int | None = None
    with trio.open_signal_receiver(*STOP_SIGNALS) as signals:
        async with trio.open_nursery() as nursery:
            work_scope = trio.CancelScope()

            async def watch() -> None:
                nonlocal received
                async for signum in signals:
                    if received is None:
                        received = signum
                        work_scope.cancel()

            nursery.start_soon(watch)
            with work_scope:
                await work()
            nursery.cancel_scope.cancel()
    return received
