"""benchmarks.versions: an old ref's bot as a tournament participant of its own tree."""

from pathlib import Path

import pytest

from benchmarks import versions


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
