"""docs/testing-your-rules.md stays true: its code runs and prints what the page shows."""

import re
import sys
import types
from pathlib import Path

import pytest
from hypothesis import settings

from engine import find_violation
from vvw.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "testing-your-rules.md"
FENCE = re.compile(r"^```(\w+) ([^\n]+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks() -> dict[str, str]:
    """The page's tagged code blocks (```python student_rules.py …) by tag."""
    return {tag: code for _, tag, code in FENCE.findall(DOC.read_text(encoding="utf-8"))}


def run_property_test(student_code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the page's property test on ``student_code``, as pytest would, reproducibly."""
    student = types.ModuleType("student_rules")
    exec(compile(student_code, "student_rules.py", "exec"), student.__dict__)
    monkeypatch.setitem(sys.modules, "student_rules", student)
    namespace: dict = {}
    exec(compile(blocks()["test_student_rules.py"], "test_student_rules.py", "exec"), namespace)
    settings(database=None, derandomize=True)(namespace["test_battle_matches_the_engine"])()


def test_the_students_mistake_shrinks_to_the_counterexample_shown(monkeypatch) -> None:
    with pytest.raises(AssertionError) as raised:
        run_property_test(blocks()["student_rules.py"], monkeypatch)
    error = raised.value
    printed = [f"AssertionError: {error}", *error.__notes__[:1]]
    assert "\n".join(printed) + "\n" == blocks()["hypothesis-output"]


def test_the_one_line_fix_passes(monkeypatch) -> None:
    fix = blocks()["fix"]
    wrong = next(
        line
        for line in blocks()["student_rules.py"].splitlines()
        if line.strip().startswith("outcomes[(False, j)]")
    )
    fixed = blocks()["student_rules.py"].replace(wrong + "\n", fix)
    assert fixed != blocks()["student_rules.py"]
    run_property_test(fixed, monkeypatch)


def test_the_legality_example_runs() -> None:
    namespace: dict = {"my_is_legal": lambda state, ply: find_violation(state, ply) is None}
    exec(compile(blocks()["legality-test"], "legality-test", "exec"), namespace)
    settings(max_examples=50)(namespace["test_legality_matches_the_engine"])()


def test_the_battle_table_shown_is_what_vvw_prints(capsys) -> None:
    shown = blocks()["vvw rules battle 3V 4W"]
    assert main(["rules", "battle", "3V", "4W"]) == 0
    assert capsys.readouterr().out == shown
