"""Settings for the whole test suite."""

from hypothesis import settings

# Speed is measured by the benchmarks, not by the tests: hypothesis's per-example deadline
# (200 ms) only makes laws fail on a loaded machine, so it is off everywhere.
settings.register_profile("vvw", deadline=None)
settings.load_profile("vvw")
