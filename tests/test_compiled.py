"""The optional compiled build (``python3 dev.py compile``): mypyc builds the search's hot
modules from the same typed source, and the bots search the same trees with it as without
it. Skipped where the modules are not compiled (the default: plain Python)."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dev
from benchmarks.agents import played
from benchmarks.versions import Searcher
from engine.mapfile import load_map

ROOT = Path(__file__).resolve().parents[1]

compiled = pytest.mark.skipif(
    not dev.built_modules(), reason="not compiled (python3 dev.py compile builds them)"
)


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


@compiled
def test_the_compiled_modules_are_built_from_the_sources_as_they_are() -> None:
    stamp = dev.COMPILED_STAMP
    assert stamp.exists() and stamp.read_text() == dev.source_digests(), (
        "a compiled module is older than its source: run python3 dev.py compile again"
        " (or python3 dev.py compile --clean for plain Python)"
    )


@compiled
def test_the_compiled_modules_are_the_ones_imported() -> None:
    for path in dev.COMPILED:
        spec = importlib.util.find_spec(_module_name(path))
        assert spec is not None and spec.origin is not None
        assert spec.origin.endswith(".so"), f"{path} is imported as plain Python"


@compiled
@pytest.mark.parametrize("bot", ["alphabeta", "expectiminimax"])
def test_the_compiled_and_the_plain_bots_search_the_same_trees(tmp_path: Path, bot: str) -> None:
    plain = tmp_path / "plain"
    for package in ("engine", "agents", "protocol"):
        skip = shutil.ignore_patterns("*.so", "__pycache__")
        shutil.copytree(ROOT / package, plain / package, ignore=skip)
    positions = []
    for name, plies in (("thetrap", (0, 6)), ("gen-30x30", (0, 8, 20))):
        start = load_map(ROOT / "maps" / f"{name}.xml").initial_state()
        positions += [played(start, count) for count in plies]
    with Searcher(ROOT, "compiled") as fast, Searcher(plain, "plain") as reference:
        for state in positions:
            options = {"depth": 3}
            got = fast.choose(bot, state, None, options)
            expected = reference.choose(bot, state, None, options)
            assert (got.ply, got.depth, got.nodes) == (expected.ply, expected.depth, expected.nodes)


def test_without_mypys_tools_the_compiled_builds_decorator_leaves_classes_alone() -> None:
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"
        "from agents.compiling import mypyc_attr\n"
        "class Base: pass\n"
        "assert mypyc_attr(allow_interpreted_subclasses=True)(Base) is Base\n"
        "import agents.expectiminimax, agents.reference_search\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
