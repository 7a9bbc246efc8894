"""The house's rooms and their one-way doors (docs/architecture.md), read from the code.

Each top-level package has a rank: engine ← protocol ← {server, agents} ← vvw ← benchmarks.
A module may import its own package and any package of a lower rank; so ``server/`` and
``agents/`` (one rank) never import each other, and nothing imports ``benchmarks/``. Every
``import`` and ``from … import`` counts, inside functions and ``TYPE_CHECKING`` blocks too.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

RANKS = {"engine": 0, "protocol": 1, "server": 2, "agents": 2, "vvw": 3, "benchmarks": 4}


def imports_in(source: str, filename: str = "<module>") -> Iterator[tuple[str, int]]:
    """Each absolute module name the code imports, with its line (relative imports stay in
    their package and are left out)."""
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno


def allowed(importer: str, imported: str) -> bool:
    """Whether package ``importer`` may import package ``imported``."""
    return importer == imported or RANKS[imported] < RANKS[importer]


def wrong_doors(root: Path) -> list[str]:
    """Every import under ``root`` that goes through no door: ``FILE:LINE: a imports b``."""
    found = []
    for package in RANKS:
        for path in sorted((root / package).rglob("*.py")):
            for name, line in imports_in(path.read_text(encoding="utf-8"), str(path)):
                top = name.split(".")[0]
                if top in RANKS and not allowed(package, top):
                    where = path.relative_to(root)
                    found.append(f"{where}:{line}: {package} imports {name}")
    return found
