"""benchmarks.flips' letters, depths and gaps; benchmarks.versions' participant for an old ref."""

from pathlib import Path

import pytest

from agents.evaluation import WIN
from agents.registry import make_agent
from benchmarks import versions
from benchmarks.agents import positions
from benchmarks.flips import depth_range, gap, letters
from engine import Move


def test_each_distinct_ply_is_a_letter_in_order_of_first_appearance() -> None:
    a, b, c = ((Move(0, 0, 1, 1, i),) for i in range(3))
    assert letters([a, a, b, a, c]) == "AABAC"
    assert letters([b, b]) == "AA"


def test_depths_are_a_range_of_two_or_more() -> None:
    assert depth_range("2-5") == [2, 3, 4, 5]
    for text in ("3", "0-2", "5-2"):
        with pytest.raises(ValueError, match="--depths"):
            depth_range(text)


def test_a_flips_gap_is_how_much_more_the_deeper_choice_is_worth_at_the_deeper_depth() -> None:
    [(_, state)] = list(positions(["testmap2"], [6]))
    deeper = make_agent("alphabeta", depth=3).analyse(state, 3)[1]
    values = make_agent("alphabeta", depth=3).root_values(state, depth=3)
    worst, worst_value = values[-1]
    best_value = dict(values)[deeper]
    assert best_value == values[0][1]
    assert gap("alphabeta", state, 3, deeper, deeper) == 0
    weighed = gap("alphabeta", state, 3, worst, deeper)
    assert weighed > 0
    assert weighed == pytest.approx((best_value - worst_value) / WIN * 1000)
    assert gap("alphabeta", state, 3, deeper, worst) == -weighed


@pytest.mark.parametrize(("layout", "package"), [("vvw", "vvw"), ("server", "server")])
def test_an_old_refs_bot_is_a_tournament_participant_of_its_own_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str, package: str
) -> None:
    if layout == "vvw":
        (tmp_path / "vvw" / "commands").mkdir(parents=True)
        (tmp_path / "vvw" / "commands" / "agent.py").write_text("")
    monkeypatch.setattr(versions, "kept_tree", lambda ref: tmp_path)
    words = ["--depth", "4", "--time-budget", "9"]
    text = versions.participant("b65a12a", "expectiminimax", words)
    assert text.startswith('name=expectiminimax@b65a12a cmd="env PYTHONPATH=')
    # Before vvw/, the old command line took a bot's options as -o KEY=VALUE only.
    options = "--depth 4" if package == "vvw" else "-o depth=4"
    command = f"-m {package} agent expectiminimax {{host}} {{port}} {options} --time-budget 9"
    assert text.endswith(f'{command}"')
    assert str(tmp_path) in text


def test_an_unknown_ref_is_refused_before_any_worktree_is_made() -> None:
    with pytest.raises(ValueError, match="git knows no commit 'no-such-ref'"):
        versions.kept_tree("no-such-ref")
