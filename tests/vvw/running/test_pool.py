"""The one pool: work done in worker processes, from plain code or from trio; a fresh
process per task when asked; the workers gone when the pool's block ends, a cancelled
task's too."""

import multiprocessing
import os
import time

import trio

from vvw.running.pool import WorkerPool


def pid_plus(number: int) -> tuple[int, int]:
    return os.getpid(), number + 1


def sleep_long(seconds: float) -> None:
    time.sleep(seconds)


def test_work_is_done_in_the_workers_from_plain_code():
    with WorkerPool(2) as pool:
        pid, answer = pool.call(pid_plus, 1)
        answers = sorted(number for _, number in pool.each(pid_plus, [1, 2, 3]))
    assert pid != os.getpid() and answer == 2
    assert answers == [2, 3, 4]
    assert multiprocessing.active_children() == []


def test_a_fresh_pool_gives_each_task_a_process_of_its_own():
    with WorkerPool(1, fresh=True) as pool:
        first, _ = pool.call(pid_plus, 1)
        second, _ = pool.call(pid_plus, 1)
    assert first != second


def test_from_trio_a_task_is_awaited_and_a_cancelled_one_ends_with_the_pool():
    async def main(pool: WorkerPool) -> tuple[tuple[int, int], bool]:
        answer = await pool.run(pid_plus, 41)
        with trio.move_on_after(0.2) as scope:
            await pool.run(sleep_long, 60)
        return answer, scope.cancelled_caught

    began = time.monotonic()
    with WorkerPool(1) as pool:
        (pid, answer), cancelled = trio.run(main, pool)
    assert pid != os.getpid() and answer == 42 and cancelled
    assert multiprocessing.active_children() == []
    assert time.monotonic() - began < 30  # the sleeping worker did not hold the pool's end
