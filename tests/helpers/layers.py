"""The house's rooms and their one-way doors (docs/architecture.md), read from the code.

Each top-level package has a rank: engine ← protocol ← {server, agents} ← vvw ←
{benchmarks, training}. A module may import its own package and any package of a lower
rank; so ``server/`` and ``agents/`` (one rank) never import each other, and nothing imports
``benchmarks/`` or ``training/``, nor either of them the other: what both need lives in a
shipped package. Every ``import`` and ``from … import`` counts, inside functions and
``TYPE_CHECKING`` blocks too.

Inside ``vvw/`` the wings have ranks the same way: the modules beside them (``vvw/*.py``) ←
records ← {analysis, web} ← running ← {ladder, compliance} ← commands. And no module
imports itself back through others: the imports between the modules of the tree, every
package of it (the tests too), form no circle.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

RANKS = {
    "engine": 0,
    "protocol": 1,
    "server": 2,
    "agents": 2,
    "vvw": 3,
    "benchmarks": 4,
    "training": 4,
}
WINGS = {
    "": 0,
    "records": 1,
    "analysis": 2,
    "web": 2,
    "running": 3,
    "ladder": 4,
    "compliance": 4,
    "commands": 5,
}
"""The wings of ``vvw/`` and their ranks; ``""`` is the modules beside them (``vvw/*.py``)."""


def imports_in(source: str, filename: str = "<module>") -> Iterator[tuple[str, int]]:
    """Each absolute module name the code imports, with its line (relative imports stay in
    their package and are left out)."""
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno


def allowed(importer: str, imported: str, ranks: dict[str, int] = RANKS) -> bool:
    """Whether package (or wing) ``importer`` may import ``imported``."""
    return importer == imported or ranks[imported] < ranks[importer]


def wing_of(root: Path, module: str) -> str | None:
    """The wing of ``vvw/`` a module name is in (``""`` beside them), ``None`` outside vvw."""
    parts = module.split(".")
    if parts[0] != "vvw":
        return None
    if len(parts) == 1:
        return ""
    return parts[1] if len(parts) > 2 or (root / "vvw" / parts[1]).is_dir() else ""


def wrong_wing_doors(root: Path) -> list[str]:
    """Every import inside ``vvw/`` from a wing to a higher or an equal other one:
    ``FILE:LINE: wing imports module`` (``vvw`` for the modules beside the wings)."""
    found = []
    for path in sorted((root / "vvw").rglob("*.py")):
        where = path.relative_to(root)
        importer = wing_of(root, ".".join(where.with_suffix("").parts))
        assert importer is not None
        for name, line in imports_in(path.read_text(encoding="utf-8"), str(path)):
            imported = wing_of(root, name)
            if imported is not None and not allowed(importer, imported, WINGS):
                found.append(f"{where}:{line}: {importer or 'vvw'} imports {name}")
    return found


TREE = (*RANKS, "tests")
"""Every package of the tree: the ranked ones and the tests."""


def module_imports(root: Path, packages: tuple[str, ...] = TREE) -> dict[str, set[str]]:
    """Each module of ``packages`` and the modules of theirs it imports (relative imports
    resolved; ``from p import m`` counts ``p.m`` when it is a module)."""
    paths = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        graph[module] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            graph[module] |= {name for name in names if name in paths and name != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


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
