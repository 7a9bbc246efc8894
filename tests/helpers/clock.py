"""A clock for deadline tests that is the same on any machine, however loaded."""

import time

import pytest


class TickingClock:
    """A stand-in for ``time.monotonic`` that moves on by ``tick`` seconds at every reading.

    Code under test sees time pass as it works (one tick per look at the clock), so a test
    states "it stops once its clock passes the deadline" without measuring real time.
    """

    def __init__(self, tick: float, start: float = 1000.0) -> None:
        self.tick = tick
        self.now = start
        """The time of the last reading."""

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def ticking_clock(monkeypatch: pytest.MonkeyPatch, tick: float) -> TickingClock:
    """Make ``time.monotonic`` a :class:`TickingClock` for the rest of the test."""
    clock = TickingClock(tick)
    monkeypatch.setattr(time, "monotonic", clock)
    return clock
