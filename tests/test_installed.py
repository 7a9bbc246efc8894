"""vvw installed from its wheel into a fresh venv works away from the clone (issue 45).

Built and installed offline (see :mod:`tests.helpers.wheelhouse`); about 15 s, most of
it the match. Every command runs from an empty folder outside the checkout, so nothing
of the clone (its ``maps/``, its packages) can stand in for what the wheel lacks.
"""

import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.helpers.wheelhouse import ROOT, build_wheel, fresh_venv, wheelhouse

SHIPPED = ("engine", "protocol", "server", "agents", "vvw")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("build"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv holding vvw[testing] from the wheel."""
    folder = tmp_path_factory.mktemp("installed")
    house = wheelhouse(folder / "house", frozenset({"testing"}))
    return fresh_venv(folder / "venv", wheel, "testing", house)


def run_there(bin_folder: Path, folder: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``command`` run in ``folder`` (empty, outside the checkout) with only the venv's
    programs and modules at hand."""
    folder.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_folder}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_wheel_holds_the_packages_and_the_maps_and_leaves_out_the_lab(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        path.relative_to(ROOT).as_posix()
        for package in SHIPPED
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert sources - names == set()
    maps = {path.name for path in (ROOT / "maps").glob("*.xml")}
    assert {name.removeprefix("vvw/maps/") for name in names if name.endswith(".xml")} == maps
    assert "agents/judge/learned.json" in names  # the learned chances' shipped trees
    tops = {name.split("/")[0] for name in names if not name.startswith("vvw-")}
    assert tops == set(SHIPPED)  # no benchmarks/, training/, tests/, maps/ at the top
    guides = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert {name.removeprefix("vvw/docs/") for name in names if name.endswith(".md")} == guides


def test_installed_help_sends_a_user_to_guides_that_are_there(
    installed: Path, tmp_path: Path
) -> None:
    for command in (["ladder"], ["analyse"], ["rules", "vectors"], ["tournament"]):
        wide = ("env", "COLUMNS=1000", "vvw")  # a path wrapped over lines is not a word
        shown = run_there(installed, tmp_path / "away", *wide, *command, "--help")
        assert shown.returncode == 0, shown.stderr
        guides = [word.strip("().,;:") for word in shown.stdout.split() if ".md" in word]
        assert guides, f"vvw {' '.join(command)} --help names no guide"
        for guide in guides:
            assert Path(guide).is_file() and "site-packages" in guide, guide


def test_installed_vvw_plays_draws_and_tests_from_an_empty_folder(
    installed: Path, tmp_path: Path
) -> None:
    away = tmp_path / "away"
    played = run_there(installed, away, "vvw", "match", "--map", "thetrap", "random", "greedy")
    assert played.returncode == 0, played.stderr
    assert "game 1 on thetrap: " in played.stdout
    drawn = run_there(installed, away, "vvw", "map", "show", "testmap")
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.startswith("testmap: ")
    imported = run_there(
        installed,
        away,
        "python",
        "-c",
        "import engine.testing.strategies as s, vvw; print(s.__file__); print(vvw.__file__)",
    )
    assert imported.returncode == 0, imported.stderr
    for path in imported.stdout.split():
        assert Path(path).is_relative_to(installed.parent)  # the venv's, not the clone's
    for lab in ("benchmarks", "training"):
        assert run_there(installed, away, "python", "-c", f"import {lab}").returncode == 1


def test_a_map_name_neither_a_file_nor_bundled_is_refused_naming_the_bundled_ones(
    installed: Path, tmp_path: Path
) -> None:
    refused = run_there(
        installed, tmp_path, "vvw", "match", "--map", "thetrapp", "random", "greedy"
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith("vvw match: unknown map 'thetrapp' (bundled: all_in, ")
    assert ", thetrap;" in refused.stderr
