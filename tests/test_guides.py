"""The guides hold together: every link of README.md and docs/ names a file that is there
and, after its ``#``, a heading that is in it (as GitHub names headings); and the bots'
guide stays a guide, its dated results kept on docs/results.md."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> list[str]:
    """The lines of a Markdown text outside its fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file (a repeated heading gets ``-1``, ``-2``…)."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(path.read_text(encoding="utf-8")):
        if match := re.match(r"#{1,6} (.*)", line):
            name = anchor(match.group(1))
            found.add(f"{name}-{seen[name]}" if name in seen else name)
            seen[name] = seen.get(name, 0) + 1
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """``FILE: TARGET`` (``FILE`` relative to ``root``) for each link of ``path`` to a file or
    heading that is not there."""
    broken = []
    for line in prose(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            file, _, heading = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            if not linked.exists() or (
                heading and linked.suffix == ".md" and heading not in anchors(linked)
            ):
                broken.append(f"{path.relative_to(root)}: {target}")
    return broken


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: path.name)
def test_every_link_of_a_guide_leads_somewhere(guide: Path) -> None:
    assert broken_links(guide) == []


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A guide\n\n## Its part (`x.py`), again\n")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#its-part-xpy-again) [ok](#b) [web](https://example.org/#x)\n"
        "[no file](c.md) [no heading](a.md#its-part) [nor here](#nothing)\n"
        "```\n[in code](d.md)\n```\n# B\n"
    )
    assert broken_links(page, tmp_path) == ["b.md: c.md", "b.md: a.md#its-part", "b.md: #nothing"]


def test_the_bots_guide_stays_a_guide() -> None:
    lines = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 450, "dated results go to docs/results.md"
