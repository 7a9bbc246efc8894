"""A ladder on a real SQLite file, its clock in the test's hands."""

import pytest

from tests.vvw.ladder.ladders import ManualClock, ladder_settings
from vvw.ladder.store import LadderStore


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store(tmp_path, clock):
    ladder = LadderStore.create(tmp_path / "ladder.db", ladder_settings(seed=7), clock)
    yield ladder
    ladder.close()
