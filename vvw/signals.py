"""Ending a run cleanly on SIGINT, SIGTERM or SIGHUP: cancel the work, let it clean up.

Bots run in sessions of their own (see :mod:`server.processes`), so neither Ctrl-C nor a
closing terminal reaches them: the run must end them itself. :func:`run` turns the first
such signal into a cancellation of the work, whose cleanup (shielded ``finally`` blocks
that stop the bots) then runs; later signals are absorbed meanwhile.

Outside such a run (a file followed, a browser opened, the moments before and after),
:func:`handled` sends SIGTERM and SIGHUP the way of Ctrl-C: a ``KeyboardInterrupt``,
raised where Python (or trio, which defers it to a safe point) raises it, while
:func:`interrupted_by` remembers which signal it was. A signal ignored when ``vvw``
started stays ignored (``nohup vvw …``, a script's background job).
"""

import contextlib
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType

import trio

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_ignored: set[int] = set()
"""Stop signals that were ignored when :func:`handled` began."""
_received: int | None = None
"""The SIGTERM or SIGHUP turned into a ``KeyboardInterrupt``, if one was."""
_at_once = False
"""Whether :func:`end_at_once` was called."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    global _received
    _received = signum
    on_interrupt = signal.getsignal(signal.SIGINT)
    if callable(on_interrupt):  # Python's default_int_handler, or trio's while it runs
        on_interrupt(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """While inside: SIGTERM and SIGHUP interrupt as Ctrl-C does; the handlers before are
    put back on leaving. Does nothing outside the main thread (signals go to it only)."""
    global _received, _at_once
    if not _in_main_thread():
        yield
        return
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    _ignored.clear()
    _ignored.update(signum for signum, handler in before.items() if handler is signal.SIG_IGN)
    _received = None
    _at_once = False
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signum not in _ignored:
                signal.signal(signum, _as_interrupt)
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def end_at_once() -> None:
    """From now on a stop signal ends the process at once and without a word, as it ends
    most programs: for a bot whose runner ends it after each game (its log stays clean)."""
    global _at_once
    _at_once = True
    for signum in STOP_SIGNALS:
        if signum not in _ignored:
            signal.signal(signum, signal.SIG_DFL)


def interrupted_by() -> int:
    """The signal a ``KeyboardInterrupt`` stands for: SIGINT, or the SIGTERM or SIGHUP
    :func:`handled` turned into one."""
    return _received if _received is not None else signal.SIGINT


async def run_until_signal(work: Callable[[], Awaitable[object]]) -> int | None:
    """Run ``work()``; on a stop signal cancel it and return that signal's number.

    ``None`` when the work finished by itself. Must run in the main thread.
    """
    received: int | None = None
    listened = [signum for signum in STOP_SIGNALS if signum not in _ignored]
    with trio.open_signal_receiver(*listened) as signals:
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


def run(work: Callable[[], Awaitable[object]]) -> int | None:
    """``trio.run`` of ``work()`` until it ends or a stop signal cancels it: the signal's
    number, or ``None`` when the work finished by itself (always after :func:`end_at_once`,
    and outside the main thread: signals go to that thread alone)."""
    if _at_once or not _in_main_thread():
        trio.run(work)
        return None
    return trio.run(run_until_signal, work)
