"""The packages the wheel holds, found as setuptools finds them, and ``maps/`` beside them.

Everything else about the project is in ``pyproject.toml``. This file exists for one thing
that file cannot say: the maps stay in ``maps/`` at the top of a clone (``--map
maps/thetrap.xml``), and are installed as the package ``vvw.maps``, read with
``importlib.resources`` (``--map thetrap`` works wherever vvw is installed); the guides
of ``docs/`` likewise, as ``vvw.docs`` (the commands' help names them where they are).
``benchmarks/`` and ``tests/`` are not shipped.
"""

from setuptools import find_packages, setup

SHIPPED = ["engine", "protocol", "server", "agents", "vvw"]

setup(
    packages=[
        *find_packages(include=[pattern for name in SHIPPED for pattern in (name, f"{name}.*")]),
        "vvw.maps",
        "vvw.docs",
    ],
    package_dir={"vvw.maps": "maps", "vvw.docs": "docs"},
)
