"""The analysis's worker processes: a game's turns searched over ``jobs`` processes.

Turns are searched independently (:func:`vvw.analysis.ledger.search_turn`), so they are
shared among the processes and the result is the same for any number of them. A Ctrl-C
stops the command, not its workers: they start deaf to it and are ended at once.
"""

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from engine.rules import Rules
from vvw.analysis.game import PlayedGame, PlayedTurn
from vvw.analysis.ledger import TurnSearch, next_known, search_turn
from vvw.analysis.search import PositionSearch, Settings


def default_jobs() -> int:
    """The processes to use by default: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_worker: PositionSearch | None = None


def _start_worker(settings: Settings, rules: Rules) -> None:
    global _worker
    _worker = PositionSearch(settings, rules)


def _work(job: tuple[PlayedTurn, bool]) -> TurnSearch:
    assert _worker is not None
    return search_turn(_worker, *job)


def searched_turns(game: PlayedGame, settings: Settings, jobs: int = 1) -> Iterator[TurnSearch]:
    """Each turn of ``game`` searched, in order, with ``jobs`` processes."""
    work = [(turn, next_known(game, i)) for i, turn in enumerate(game.turns)]
    if jobs <= 1 or len(game.turns) < 2:
        search = PositionSearch(settings, game.rules)
        for job in work:
            yield search_turn(search, *job)
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        jobs, context, initializer=_start_worker, initargs=(settings, game.rules)
    )
    finished = False
    try:
        with _interrupts_held():  # the workers start (on the first turns) deaf to Ctrl-C
            futures = [pool.submit(_work, job) for job in work]
        futures.reverse()
        while futures:
            yield futures.pop().result()
        finished = True
    finally:
        _stop(pool, finished)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C back while worker processes start, from them and from us: a Ctrl-C
    in a terminal reaches every process of the command, but only the command answers it
    (its workers then stopped, no traceback of theirs). The processes started meanwhile
    keep SIGINT blocked; one that came meanwhile is raised here once they have started."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are the main thread's: nothing to hold back
        return
    came: list[int] = []
    handler = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler)
    if came:
        signal.raise_signal(signal.SIGINT)


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Shut the worker processes down: at once (their turns left undone) unless every
    turn was analysed. No turn's future is cancelled (``Executor.map`` would, on the way
    out): on Python 3.11 the pool's thread then fails to mark it broken, with a traceback
    (CPython gh-107219); the ended workers make it fail every future left instead."""
    if finished:
        pool.shutdown()
        return
    workers = list((pool._processes or {}).values())  # no public way to end them at once
    pool.shutdown(wait=False)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
