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
