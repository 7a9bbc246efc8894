"""Failed logins from one address: a few free, then waits that double up to a cap."""

from hypothesis import given
from hypothesis import strategies as st

from tests.vvw.ladder.ladders import ManualClock
from vvw.ladder.limiter import FailureLimiter


def limiter(clock: ManualClock, **changes) -> FailureLimiter:
    return FailureLimiter(clock, free=3, first_wait=1.0, longest_wait=8.0, memory=100.0, **changes)


def test_the_first_failures_cost_nothing():
    clock = ManualClock()
    limits = limiter(clock)
    for _ in range(3):
        assert limits.wait("10.0.0.1") == 0.0
        limits.failed("10.0.0.1")
    assert limits.wait("10.0.0.1") == 1.0


def test_each_further_failure_doubles_the_wait_up_to_the_cap():
    clock = ManualClock()
    limits = limiter(clock)
    waits = []
    for _ in range(9):
        limits.failed("10.0.0.1")
        waits.append(limits.wait("10.0.0.1"))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0]


def test_the_wait_runs_down_as_time_passes():
    clock = ManualClock()
    limits = limiter(clock)
    for _ in range(5):
        limits.failed("10.0.0.1")
    assert limits.wait("10.0.0.1") == 4.0
    clock.advance(2.5)
    assert limits.wait("10.0.0.1") == 1.5
    clock.advance(2.0)
    assert limits.wait("10.0.0.1") == 0.0


def test_other_addresses_are_not_slowed():
    clock = ManualClock()
    limits = limiter(clock)
    for _ in range(10):
        limits.failed("10.0.0.1")
    assert limits.wait("10.0.0.2") == 0.0


def test_an_address_quiet_for_a_while_starts_afresh():
    clock = ManualClock()
    limits = limiter(clock)
    for _ in range(10):
        limits.failed("10.0.0.1")
    clock.advance(100.0)
    assert limits.wait("10.0.0.1") == 0.0
    limits.failed("10.0.0.1")
    assert limits.wait("10.0.0.1") == 0.0
    assert len(limits) == 1


def test_a_success_forgets_the_failures():
    clock = ManualClock()
    limits = limiter(clock)
    for _ in range(5):
        limits.failed("10.0.0.1")
    limits.succeeded("10.0.0.1")
    assert limits.wait("10.0.0.1") == 0.0
    assert len(limits) == 0


def test_a_flood_from_many_addresses_keeps_memory_bounded():
    clock = ManualClock()
    limits = limiter(clock, capacity=50)
    for n in range(1000):
        limits.failed(f"10.0.{n // 256}.{n % 256}")
    assert len(limits) == 50
    for _ in range(3):
        limits.failed("10.0.3.231")  # the latest address is kept
    assert limits.wait("10.0.3.231") > 0


@given(st.lists(st.tuples(st.sampled_from("ab"), st.floats(0, 30)), max_size=40))
def test_a_wait_never_exceeds_the_cap_nor_grows_without_a_failure(events):
    clock = ManualClock()
    limits = limiter(clock)
    for address, pause in events:
        limits.failed(address)
        before = limits.wait(address)
        clock.advance(pause)
        after = limits.wait(address)
        assert 0.0 <= after <= before <= 8.0
