"""Our packages found under their own names beside a user's modules of the same names.

A student's bot sits in a folder of its own, first on ``sys.path``, where an ``engine.py``
(or ``protocol.py``, ``server.py``, ``agents.py``) is found before our package of that
name: the client library would import the student's file (``cannot import name
'GameState' from 'engine'``). :func:`import_ours` imports our modules with our root first
on the path and the user's modules of those names set aside, then gives the names back:
the user's ``import engine`` still finds their own file, and our modules keep ours (bound
when they were imported). Only the standard library is used here, so that it works
whatever the user's files are called (``vvw.client`` loads this file by its path when an
``agents.py`` hides our package).
"""

import importlib
import importlib.machinery
import pkgutil
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The folder that holds our packages (the clone, or ``site-packages``)."""
PACKAGES = ("engine", "protocol", "server", "agents")
"""Our top-level packages, whose names a user's files may take."""


def _is_ours(name: str) -> bool:
    """Whether ``name`` means our package, as imported or as ``import`` would find it (no
    file on the path: an editable install's finder, which finds ours)."""
    module = sys.modules.get(name)
    if module is not None:
        origin = getattr(module, "__file__", None)
    else:
        spec = importlib.machinery.PathFinder.find_spec(name)
        if spec is None:
            return True
        origin = spec.origin
    return origin is not None and Path(origin).resolve() == ROOT / name / "__init__.py"


def shadowed(names: Iterable[str] = PACKAGES) -> list[str]:
    """Those of our packages' ``names`` that mean something else here (a user's file)."""
    return [name for name in names if not _is_ours(name)]


def all_agents() -> list[str]:
    """Every module of our ``agents`` package (the client library, the bots)."""
    folder = ROOT / "agents"
    return [f"agents.{module.name}" for module in pkgutil.iter_modules([str(folder)])]


def import_ours(modules: Iterable[str], names: Iterable[str]) -> None:
    """Import our ``modules`` with our packages ``names`` meaning ours meanwhile (a user's
    modules of those names set aside); then each name is given back to the user's module
    (or file, when next imported)."""
    names = list(names)
    theirs = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    sys.path.insert(0, str(ROOT))
    try:
        for module in modules:
            importlib.import_module(module)
    finally:
        sys.path.remove(str(ROOT))
        for name in names:
            sys.modules.pop(name, None)
            if name in theirs:
                sys.modules[name] = theirs[name]
