"""Worker processes for work that holds a core (games in the in-process arena, a bot's
memory measured over a game): the one process pool of the house.

The workers ignore Ctrl-C: a terminal's Ctrl-C reaches the whole process group, and the
parent, which hears it, ends them (the pool's block ends them at once, whatever they were
doing). ``fresh`` gives each task a new process of its own, started afresh rather
than forked, so that what a task measures of its process (its peak memory) is its own.
From trio, :meth:`WorkerPool.run` waits for a task's answer in a thread; from plain code,
:meth:`WorkerPool.call` and :meth:`WorkerPool.each`.

Make the pool before ``trio.run``: its workers are forked from a process with no other
thread yet.
"""

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, Self, TypeVar

Job = TypeVar("Job")
Answer = TypeVar("Answer")


def cores() -> int:
    """The processor cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the parent, which ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerPool:
    """``workers`` processes, ended at once when the pool's ``with`` block ends."""

    def __init__(self, workers: int, *, fresh: bool = False) -> None:
        context = multiprocessing.get_context("spawn" if fresh else None)
        self.pool = context.Pool(workers, _ignore_interrupts, maxtasksperchild=1 if fresh else None)

    def call(self, work: Callable[..., Answer], *args: Any) -> Answer:
        """``work(*args)`` in a worker, waited for."""
        return self.pool.apply(work, args)

    def each(self, work: Callable[[Job], Answer], jobs: Iterable[Job]) -> Iterator[Answer]:
        """``work`` of each of ``jobs`` in the workers, answers as they come."""
        return self.pool.imap_unordered(work, jobs)

    async def run(self, work: Callable[..., Answer], *args: Any) -> Answer:
        """``work(*args)`` in a worker, waited for without blocking trio; cancelled, the
        task is left to the end of the pool."""
        import trio  # here: a worker, which imports this module, measures its own memory

        pending = self.pool.apply_async(work, args)
        answer: Answer = await trio.to_thread.run_sync(pending.get, abandon_on_cancel=True)
        return answer

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.pool.terminate()
        self.pool.join()
