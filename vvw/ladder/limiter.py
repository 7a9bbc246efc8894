"""Failed logins slowed down per address: a few free, then waits that double up to a cap.

Pure: the clock is injected, nothing sleeps here. The server asks :meth:`FailureLimiter.wait`
before it checks a connection's credentials and refuses (or delays) the connection while it
is above zero; it reports each check with :meth:`~FailureLimiter.failed` or
:meth:`~FailureLimiter.succeeded`. Memory is bounded: an address is forgotten once it has
not failed for a while, and the oldest is dropped when too many are tracked.
"""

from collections import OrderedDict
from collections.abc import Callable

import attrs


@attrs.frozen
class _Record:
    failures: int
    last: float
    """When it last failed."""


@attrs.define
class FailureLimiter:
    """Per address: ``free`` failures cost nothing; the next waits ``first_wait`` seconds
    after the last failure, doubling with each further one, up to ``longest_wait``."""

    clock: Callable[[], float]
    free: int = 5
    first_wait: float = 1.0
    longest_wait: float = 60.0
    memory: float = 600.0
    """Seconds without a failure after which an address starts afresh."""
    capacity: int = 10_000
    """Addresses tracked at most (the least recently failed is dropped first)."""
    _records: OrderedDict[str, _Record] = attrs.field(factory=OrderedDict, init=False)

    def _current(self, address: str) -> _Record | None:
        record = self._records.get(address)
        if record is not None and self.clock() - record.last >= self.memory:
            del self._records[address]
            return None
        return record

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try is checked (0: now)."""
        record = self._current(address)
        if record is None or record.failures < self.free:
            return 0.0
        penalty = min(self.longest_wait, self.first_wait * 2.0 ** (record.failures - self.free))
        return max(0.0, record.last + penalty - self.clock())

    def failed(self, address: str) -> None:
        """``address`` presented wrong or missing credentials."""
        record = self._current(address)
        failures = 1 if record is None else record.failures + 1
        self._records.pop(address, None)
        self._records[address] = _Record(failures, self.clock())
        while len(self._records) > self.capacity:
            self._records.popitem(last=False)

    def succeeded(self, address: str) -> None:
        """``address`` presented a team's credentials: its failures are forgotten."""
        self._records.pop(address, None)

    def __len__(self) -> int:
        """Addresses tracked now."""
        return len(self._records)
