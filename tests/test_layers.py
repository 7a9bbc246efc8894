"""The layers of docs/architecture.md hold: no room imports a higher one, server/ and
agents/ never import each other, nothing imports benchmarks/ or training/ (nor either the
other); inside vvw/ no wing imports a higher one; no module anywhere in the tree imports
itself back through others; and the checks catch a planted import that breaks them."""

from pathlib import Path

import pytest

from tests.helpers.layers import (
    RANKS,
    WINGS,
    allowed,
    circles,
    module_imports,
    wrong_doors,
    wrong_wing_doors,
)

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_of_the_package_goes_through_a_door():
    assert wrong_doors(ROOT) == []


def test_every_import_inside_vvw_goes_through_a_door_between_its_wings():
    assert wrong_wing_doors(ROOT) == []


def test_no_module_imports_itself_back_through_others():
    assert circles(module_imports(ROOT)) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_planted_upward_import_is_found_wherever_it_hides(tmp_path):
    root = _tree(
        tmp_path,
        {
            "engine/rules.py": "import engine.kinds\nfrom . import kinds\n",
            "engine/state.py": "def draw():\n    from vvw.commands import log\n",
            "protocol/codec.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    import server.player\n",
            "server/referee.py": "from agents.base import Agent\nimport protocol.codec\n",
            "agents/client.py": "import server\n",
            "vvw/cli.py": "import benchmarks.engine, engine, agents, server\n",
            "vvw/analysis/learned.py": "def f():\n    from training.learn import train\n",
            "benchmarks/engine.py": "import vvw.cli\n",
            "benchmarks/strength.py": "from training.corpus import game_map\n",
            "training/learn.py": "import agents.judge, vvw.cli, training.corpus\n",
            "training/corpus.py": "from benchmarks.strength import playable\n",
        },
    )
    assert wrong_doors(root) == [
        "engine/state.py:2: engine imports vvw.commands",
        "protocol/codec.py:3: protocol imports server.player",
        "server/referee.py:1: server imports agents.base",
        "agents/client.py:1: agents imports server",
        "vvw/analysis/learned.py:2: vvw imports training.learn",
        "vvw/cli.py:1: vvw imports benchmarks.engine",
        "benchmarks/strength.py:1: benchmarks imports training.corpus",
        "training/corpus.py:1: training imports benchmarks.strength",
    ]


@pytest.mark.parametrize(
    ("importer", "imported", "expected"),
    [
        ("protocol", "engine", True),
        ("engine", "protocol", False),
        ("server", "agents", False),
        ("agents", "server", False),
        ("vvw", "server", True),
        ("vvw", "benchmarks", False),
        ("benchmarks", "vvw", True),
        ("training", "vvw", True),
        ("training", "agents", True),
        ("agents", "training", False),
        ("vvw", "training", False),
        ("training", "benchmarks", False),
        ("benchmarks", "training", False),
    ],
)
def test_a_door_opens_one_way_only(importer, imported, expected):
    assert allowed(importer, imported) is expected


def test_a_planted_import_between_wings_is_found(tmp_path):
    root = _tree(
        tmp_path,
        {
            "vvw/records/results.py": "from vvw.running.runner import play_one\n",
            "vvw/web/live.py": "def f():\n    import vvw.analysis.files\n",
            "vvw/errors.py": "from vvw.records import results\n",
            "vvw/running/runner.py": "from vvw.records import results\nimport vvw.errors\n",
            "vvw/commands/match.py": "from vvw.ladder.store import LadderStore\n",
            "vvw/ladder/store.py": "from vvw.commands import match\n",
        },
    )
    assert wrong_wing_doors(root) == [
        "vvw/errors.py:1: vvw imports vvw.records",
        "vvw/ladder/store.py:1: ladder imports vvw.commands",
        "vvw/records/results.py:1: records imports vvw.running.runner",
        "vvw/web/live.py:2: web imports vvw.analysis.files",
    ]


def test_a_planted_circle_is_found_and_a_line_is_not(tmp_path):
    root = _tree(
        tmp_path,
        {
            "engine/a.py": "from engine import b\n",
            "engine/b.py": "def f():\n    from . import c\n",
            "engine/c.py": "import engine.a\n",
            "engine/d.py": "import engine.a\n",
            "vvw/x.py": "from vvw.y import thing\n",
            "vvw/y.py": "thing = 1\n",
            "benchmarks/strength.py": "def f():\n    from benchmarks.target_maps import big\n",
            "benchmarks/target_maps.py": "from benchmarks.strength import playable\n",
            "training/learn.py": "from training.corpus import read_corpus\n",
            "training/corpus.py": "import agents.judge\n",
            "tests/helpers/a.py": "from tests.helpers import b\n",
            "tests/helpers/b.py": "import tests.helpers.a\n",
        },
    )
    assert circles(module_imports(root)) == [
        ["benchmarks.strength", "benchmarks.target_maps"],
        ["engine.a", "engine.b", "engine.c"],
        ["tests.helpers.a", "tests.helpers.b"],
    ]


def test_every_wing_of_vvw_has_a_rank():
    wings = {path.name for path in (ROOT / "vvw").iterdir() if (path / "__init__.py").exists()}
    assert wings - {"docs", "maps"} == set(WINGS) - {""}


def test_every_package_of_the_tree_has_a_rank():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert packages - {"tests", "maps", "docs"} == set(RANKS)  # maps, docs: data (vvw.maps…)
