"""What the optional compiled build (``python3 dev.py compile``: mypyc) needs said in the
source, and nothing at all in plain Python.

:func:`mypyc_attr` is mypy's own decorator when mypy is installed (the compiled build's
tools), and otherwise one that leaves the class as it is: the plain package needs no more
than its declared dependencies. The build reads it for the search classes that other
modules subclass (``allow_interpreted_subclasses``: the reference bots, the analysis's
search and tests subclass them in plain Python).
"""

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # plain Python without mypy's tools: the decorator does nothing

    def mypyc_attr(*_: Any, **__: Any) -> Callable[[T], T]:  # type: ignore[misc]
        """Leaves the class it decorates as it is."""
        return lambda cls: cls


def let_others_run() -> None:
    """Let the interpreter hand its lock to another thread that waits for it.

    The interpreter does so at the start of each function it runs. Compiled code runs
    none, so without this a compiled search would hold the lock to its end: the client
    library's thread could not send a fallback at the deadline. The search calls it now
    and then; this module is never compiled. Letting the lock go for a moment
    (``os.sched_yield``) is no help: the search takes it back before the other thread
    wakes; ``time.sleep(0)`` works but costs some 90 µs.
    """
