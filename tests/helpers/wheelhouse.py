"""vvw as a user installs it: its wheel built from the sources, installed into a fresh venv.

Offline and quick: the wheel is built with the setuptools of the test environment (no
build isolation, no download), from a copy of the sources (a build leaves ``build/`` and
``*.egg-info`` behind); its dependencies come from a wheelhouse of the distributions
already installed here, each packed again as a wheel from the files its ``RECORD`` lists.
"""

import re
import shutil
import subprocess
import sys
import venv
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "engine", "protocol", "server", "agents")
SOURCES += ("vvw", "maps", "docs", "benchmarks")  # benchmarks too: the wheel leaves it out
NOT_PACKED = frozenset({"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"})
"""Files of an installed distribution's ``.dist-info`` that pip writes itself."""


def build_wheel(folder: Path) -> Path:
    """The project's wheel, built into ``folder`` from a copy of its sources."""
    copy = folder / "sources"
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            copy.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    wheels = folder / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", wheels, copy],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("vvw-*.whl")
    return wheel


def _dependencies(name: str, extras: frozenset[str] = frozenset()) -> set[str]:
    """The distributions ``name`` (with ``extras``) needs here, itself included."""
    found: set[str] = set()
    todo = [(name, extras)]
    while todo:
        current, wanted = todo.pop()
        key = re.sub(r"[-_.]+", "-", current).lower()
        if key in found:
            continue
        found.add(key)
        for text in metadata.requires(current) or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": extra}) for extra in (*wanted, "")):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return found


def _repack(distribution: metadata.Distribution, folder: Path) -> Path:
    """An installed distribution packed again as a wheel in ``folder``."""
    files = [path for path in distribution.files or [] if path.parts[0] != ".."]
    info = next(
        path for path in files if path.name == "WHEEL" and path.parent.suffix == ".dist-info"
    )
    tags = [
        line.split(":", 1)[1].strip().split("-")
        for line in Path(str(distribution.locate_file(info))).read_text().splitlines()
        if line.startswith("Tag:")
    ]
    tag = "-".join(".".join(sorted({tag[part] for tag in tags})) for part in range(3))
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"]).lower()
    wheel = folder / f"{name}-{distribution.version}-{tag}.whl"
    with zipfile.ZipFile(wheel, "w") as packed:
        for path in files:
            located = Path(str(distribution.locate_file(path)))
            if "__pycache__" in path.parts or path.name in NOT_PACKED or not located.is_file():
                continue
            packed.write(located, path.as_posix())
        record = f"{info.parent.as_posix()}/RECORD"
        packed.writestr(record, "".join(f"{name},,\n" for name in [*packed.namelist(), record]))
    return wheel


def wheelhouse(folder: Path, extras: frozenset[str]) -> Path:
    """``folder`` holding a wheel of every installed dependency of vvw with ``extras``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in sorted(_dependencies("vvw", extras) - {"vvw"}):
        _repack(metadata.distribution(name), folder)
    return folder


def fresh_venv(folder: Path, wheel: Path, extras: str, house: Path) -> Path:
    """A new venv at ``folder`` with ``wheel[extras]`` installed from ``house`` alone (no
    index); its ``bin`` folder."""
    venv.create(folder, with_pip=False)
    python = folder / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"),
            *("--quiet", "--python", python, "install", "--no-index", "--find-links", house),
            f"{wheel}[{extras}]",
        ],
        check=True,
        capture_output=True,
    )
    return python.parent
