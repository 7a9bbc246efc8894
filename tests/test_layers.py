"""The layers of docs/architecture.md hold: no room imports a higher one, server/ and
agents/ never import each other, nothing imports benchmarks/; and the check catches a
planted import that breaks them."""

from pathlib import Path

import pytest

from tests.helpers.layers import allowed, wrong_doors

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_of_the_package_goes_through_a_door():
    assert wrong_doors(ROOT) == []


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
            "benchmarks/engine.py": "import vvw.cli\n",
        },
    )
    assert wrong_doors(root) == [
        "engine/state.py:2: engine imports vvw.commands",
        "protocol/codec.py:3: protocol imports server.player",
        "server/referee.py:1: server imports agents.base",
        "agents/client.py:1: agents imports server",
        "vvw/cli.py:1: vvw imports benchmarks.engine",
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
    ],
)
def test_a_door_opens_one_way_only(importer, imported, expected):
    assert allowed(importer, imported) is expected
