"""The packages the wheel holds, found as setuptools finds them, and ``maps/`` beside them.

Everything else about the project is in ``pyproject.toml``. This file exists for one thing
that file cannot say: the maps stay in ``maps/`` at the top of a clone (``--map
maps/thetrap.xml``), and are installed as the package ``vvw.maps``, read with
``importlib.resources`` (``--map thetrap`` works wherever vvw is installed); the guides
of ``docs/`` likewise, as ``vvw.docs`` (the commands' help names them where they are).
``benchmarks/``, ``training/`` and ``tests/`` are not shipped.
"""

import os

from setuptools import find_packages, setup

SHIPPED = ["engine", "protocol", "server", "agents", "vvw"]


def compiled_modules() -> list:
    """With ``VVW_COMPILE=1`` (``python3 dev.py compile``), the search's hot modules built
    by mypyc from the same typed source; otherwise none: plain Python."""
    if not os.environ.get("VVW_COMPILE"):
        return []
    from mypyc.build import mypycify

    from dev import COMPILED

    # The modules' shared library inside the agents package (agents/compiled__mypyc), so
    # that it is found wherever the packages are, as they are.
    return mypycify(COMPILED, opt_level="3", group_name="agents.compiled")


setup(
    ext_modules=compiled_modules(),
    packages=[
        *find_packages(include=[pattern for name in SHIPPED for pattern in (name, f"{name}.*")]),
        "vvw.maps",
        "vvw.docs",
    ],
    package_dir={"vvw.maps": "maps", "vvw.docs": "docs"},
)
