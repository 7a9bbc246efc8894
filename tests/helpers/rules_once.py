"""Copies of the game's rules, the distance, a ply's text and the logistic, found in the code.

Each is defined in one module, its home (:data:`HOMES`), and used everywhere else. A copy is
found by its shape in the syntax tree, whatever its names:

* the distance: ``max(abs(a - b), abs(c - d))``;
* the sure-win rule: a comparison of ``2 · a`` with ``3 · b`` (either way round), of
  ``1.5 · b``, or of ``a / b`` with ``1.5``;
* the battle odds: ``a / (2 · b)`` or ``a / b − ½``;
* the logistic: ``… / (1 + exp(…))``, ``… / (1 + 10 ** …)`` or ``log1p(exp(…))``;
* a ply's text: an f-string that writes a move's target (``tx``, or ``….tx``) with its count
  (``count``, ``n``, or ``….count``);
* and a function of one of the homes' names (or of the copies' names of before), defined
  anywhere but in its home.

The modules of the compiled build (``dev.py``'s ``COMPILED``: the search's hot paths) may
write the distance, the sure-win rule and the odds inline on their packed positions: a
call from compiled code into the interpreted engine is what that build exists to avoid, and
their tests check them against the engine.
"""

import ast
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

SCANNED = ("engine", "protocol", "server", "agents", "vvw", "benchmarks", "training")
"""The packages scanned: the product, the benchmarks and the lab (the tests aside)."""

HOMES = {
    "distance": "engine/state.py",
    "sure win": "engine/battle.py",
    "battle odds": "engine/battle.py",
    "logistic": "agents/judge/logistic.py",
    "ply text": "engine/state.py",
}
"""Where each lives."""

INLINE_IN_COMPILED = ("distance", "sure win", "battle odds")
"""What the compiled modules may write inline."""

NAMES = {
    "distance": "distance",
    "chebyshev": "distance",
    "apart": "distance",
    "is_certain_win": "sure win",
    "beats_for_sure": "sure win",
    "sure": "sure win",
    "win_probability": "battle odds",
    "win_chance": "battle odds",
    "sigmoid": "logistic",
    "logit": "logistic",
    "log_sigmoid": "logistic",
    "logistic": "logistic",
    "ply_text": "ply text",
    "moves_text": "ply text",
    "show_ply": "ply text",
}
"""Function names that define one of them (the homes' names and the copies' of before)."""


def _number(node: ast.expr, *values: float) -> bool:
    return (
        isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        and (node.value in values)
    )


def _times(node: ast.expr, factor: float) -> bool:
    """Whether ``node`` is ``factor · something`` (or ``something · factor``)."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mult)
        and (_number(node.left, factor) or _number(node.right, factor))
    )


def _called(node: ast.AST, name: str) -> bool:
    """Whether ``node`` is a call of ``name`` (``name(…)`` or ``module.name(…)``)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


def _is_distance(node: ast.AST) -> bool:
    return (
        _called(node, "max")
        and isinstance(node, ast.Call)
        and len(node.args) >= 2
        and all(
            _called(arg, "abs")
            and isinstance(arg, ast.Call)
            and len(arg.args) == 1
            and isinstance(arg.args[0], ast.BinOp)
            and isinstance(arg.args[0].op, ast.Sub)
            for arg in node.args
        )
    )


def _is_sure_win(node: ast.AST) -> bool:
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    for pair in map(set, pairwise(sides)):
        if any(_times(a, 2) for a in pair) and any(_times(b, 3) for b in pair):
            return True
        if any(_times(side, 1.5) for side in pair):
            return True
        divided = any(isinstance(s, ast.BinOp) and isinstance(s.op, ast.Div) for s in pair)
        if divided and any(_number(s, 1.5) for s in pair):
            return True
    return False


def _is_odds(node: ast.AST) -> bool:
    if not isinstance(node, ast.BinOp):
        return False
    if isinstance(node.op, ast.Div) and _times(node.right, 2):
        return True
    return (
        isinstance(node.op, ast.Sub)
        and isinstance(node.left, ast.BinOp)
        and isinstance(node.left.op, ast.Div)
        and _number(node.right, 0.5)
    )


def _grows(node: ast.AST) -> bool:
    """Whether ``node`` holds an exponential: ``exp(…)`` or ``number ** …``."""
    return any(
        _called(inner, "exp")
        or (
            isinstance(inner, ast.BinOp)
            and isinstance(inner.op, ast.Pow)
            and isinstance(inner.left, ast.Constant)
        )
        for inner in ast.walk(node)
    )


def _is_logistic(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and _called(node, "log1p"):
        return any(_grows(arg) for arg in node.args)
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
        return False
    below = node.right
    return (
        isinstance(below, ast.BinOp)
        and isinstance(below.op, ast.Add)
        and (
            (_number(below.left, 1) and _grows(below.right))
            or (_number(below.right, 1) and _grows(below.left))
        )
    )


def _formatted_names(node: ast.JoinedStr) -> set[str]:
    """The names and attribute names an f-string formats (``{tx}``, ``{m.tx}``: ``tx``)."""
    names = set()
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            value = part.value
            if isinstance(value, ast.Name):
                names.add(value.id)
            elif isinstance(value, ast.Attribute):
                names.add(value.attr)
    return names


def _is_ply_text(node: ast.AST) -> bool:
    if not isinstance(node, ast.JoinedStr):
        return False
    names = _formatted_names(node)
    return "tx" in names and bool(names & {"count", "n"})


SHAPES = (
    ("distance", _is_distance),
    ("sure win", _is_sure_win),
    ("battle odds", _is_odds),
    ("logistic", _is_logistic),
    ("ply text", _is_ply_text),
)


def copies_in(source: str, filename: str = "<module>") -> Iterator[tuple[str, int]]:
    """Each copy in ``source`` (of what, and its line), wherever it is: a function of a
    home's name, or a formula of one's shape."""
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in NAMES:
            yield NAMES[node.name], node.lineno
        for what, shape in SHAPES:
            if shape(node):
                yield what, getattr(node, "lineno", 0)


def compiled_modules(root: Path) -> set[str]:
    """The modules of the compiled build, as ``dev.py`` lists them (``COMPILED``)."""
    tree = ast.parse((root / "dev.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            return set(value)
    raise AssertionError("dev.py lists no COMPILED modules")


def copies(root: Path) -> list[str]:
    """Every copy outside its home in the tree at ``root``: ``FILE:LINE: what``."""
    compiled = compiled_modules(root)
    found = []
    for package in SCANNED:
        for path in sorted((root / package).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            for what, line in copies_in(path.read_text(encoding="utf-8"), where):
                if where == HOMES[what]:
                    continue
                if where in compiled and what in INLINE_IN_COMPILED:
                    continue
                found.append(f"{where}:{line}: {what}")
    return sorted(set(found), key=lambda text: (text.split(":")[0], int(text.split(":")[1])))
