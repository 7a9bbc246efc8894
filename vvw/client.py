"""The bots' client library (:mod:`agents.client`) under a name no file of a student's
hides: ``from vvw.client import play_blocking`` works even in a folder that holds an
``agents.py`` of its own (``from agents.client import …`` works beside an ``engine.py``,
a ``protocol.py`` or a ``server.py``, but an ``agents.py`` hides the package itself).

Our packages are imported with their names meaning ours (:mod:`agents.shield`, loaded by
its path since ``agents`` may mean the student's file), then the names are given back.
"""

import importlib.util
from pathlib import Path
from types import ModuleType


def _load_shield() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "agents" / "shield.py"
    spec = importlib.util.spec_from_file_location("vvw._agents_shield", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_shield = _load_shield()
if _hidden := _shield.shadowed(_shield.PACKAGES):
    _shield.import_ours(_shield.all_agents(), _hidden)

from agents.client import (  # noqa: E402  (once our packages are ours)
    ConnectionLost,
    Summary,
    TurnedAway,
    fallback_ply,
    play,
    play_blocking,
    play_on,
)

__all__ = [
    "ConnectionLost",
    "Summary",
    "TurnedAway",
    "fallback_ply",
    "play",
    "play_blocking",
    "play_on",
]
