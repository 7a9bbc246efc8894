"""Each rule once: the battle odds, the sure-win rule, the distance, a ply's text and the
logistic are each defined in one module and used everywhere else; and the scan that says so
finds a planted copy, whatever its names."""

from pathlib import Path

import pytest

from tests.helpers.rules_once import HOMES, compiled_modules, copies, copies_in

ROOT = Path(__file__).resolve().parents[1]


def test_no_rule_distance_text_or_curve_is_defined_outside_its_home():
    assert copies(ROOT) == []


@pytest.mark.parametrize("what", sorted(HOMES))
def test_each_lives_in_its_home(what):
    home = HOMES[what]
    assert what in {found for found, _ in copies_in((ROOT / home).read_text(), home)}


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("def plies(a, b):\n    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))\n", "distance"),
        ("near = [g for g in gs if max(abs(g.x - x), abs(g.y - y)) <= 2]\n", "distance"),
        ("if 2 * mine >= 3 * theirs:\n    pass\n", "sure win"),
        ("safe = theirs * 3 < mine * 2\n", "sure win"),
        ("safe = mine >= 1.5 * theirs\n", "sure win"),
        ("safe = mine / theirs >= 1.5\n", "sure win"),
        ("p = a / (2 * d) if a < d else 0.5\n", "battle odds"),
        ("p = a / d - 0.5\n", "battle odds"),
        ("import math\np = 1 / (1 + math.exp(-z))\n", "logistic"),
        ("from math import exp\np = 1.0 / (1.0 + exp(-z))\n", "logistic"),
        ("p = 1 / (1 + 10 ** (-elo / 400))\n", "logistic"),
        ("import math\nq = -math.log1p(math.exp(-x))\n", "logistic"),
        ('text = " ".join(f"{m.x},{m.y}>{m.tx},{m.ty}({m.count})" for m in ply)\n', "ply text"),
        ('x, y, n, tx, ty = move\ntext = f"({x},{y}) {n} -> ({tx},{ty})"\n', "ply text"),
        ("def chebyshev(a, b):\n    return 0\n", "distance"),
        ("def win_chance(a, d):\n    return 0.5\n", "battle odds"),
        ("def sigmoid(z):\n    return z\n", "logistic"),
        ("def moves_text(moves):\n    return ''\n", "ply text"),
    ],
)
def test_a_planted_copy_is_found_whatever_its_names(source, what):
    assert what in {found for found, _ in copies_in(source)}


@pytest.mark.parametrize(
    "source",
    [
        "d = max(abs(a - b), 1)\n",
        "buckets = megabytes // (2 * ENTRY_BYTES)\n",
        "ok = 2 * n >= m\n",
        "p = 1 / (1 + n)\n",
        'text = f"target ({tx},{ty}) is outside the {rows} x {cols} grid"\n',
    ],
)
def test_what_only_looks_alike_is_no_copy(source):
    assert list(copies_in(source)) == []


def test_a_planted_copy_is_found_in_the_tree_but_not_in_its_home(tmp_path):
    (tmp_path / "dev.py").write_text('COMPILED = ["agents/candidates.py"]\n')
    kings = "    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))\n"
    files = {
        "engine/state.py": "def distance(a, b):\n" + kings,
        "agents/racer.py": "def apart(a, b):\n" + kings,
        "agents/candidates.py": "def near(a, b):\n"
        + kings
        + "def gone(a, b):\n    return 1 / (1 + exp(a - b))\n",
        "vvw/analysis/odds.py": "def f(a, d):\n    return a / d - 0.5\n",
        "benchmarks/agents.py": "def f(m):\n    return f'{m.x}>{m.tx} x{m.count}'\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert copies(tmp_path) == [
        "agents/candidates.py:4: logistic",
        "agents/racer.py:1: distance",
        "agents/racer.py:2: distance",
        "benchmarks/agents.py:2: ply text",
        "vvw/analysis/odds.py:2: battle odds",
    ]


def test_the_compiled_modules_are_read_from_the_build():
    assert "agents/candidates.py" in compiled_modules(ROOT)
