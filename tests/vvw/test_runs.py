"""``runs/transcripts/`` stays bounded: the oldest transcripts go first, never the newest."""

import os
from pathlib import Path

from vvw.runs import TranscriptFolder, prune


def _transcripts(folder: Path, sizes: list[int]) -> list[Path]:
    """Files of ``sizes`` bytes, oldest first (their times a minute apart)."""
    folder.mkdir()
    paths = []
    for age, size in enumerate(sizes):
        path = folder / f"game{age}.jsonl"
        with path.open("wb") as file:
            file.truncate(size)  # sparse: its size without its bytes
        os.utime(path, (1000.0 + 60 * age, 1000.0 + 60 * age))
        paths.append(path)
    return paths


def test_the_oldest_transcripts_go_until_the_rest_fit(tmp_path: Path) -> None:
    paths = _transcripts(tmp_path / "t", [40, 30, 20, 10])
    (tmp_path / "t" / "notes.txt").write_bytes(b"x" * 100)  # not a transcript: left alone
    assert prune(tmp_path / "t", budget=35) == 2
    assert [path.exists() for path in paths] == [False, False, True, True]
    assert (tmp_path / "t" / "notes.txt").exists()
    assert prune(tmp_path / "t", budget=35) == 0


def test_the_transcript_just_kept_stays_even_over_the_budget(tmp_path: Path) -> None:
    paths = _transcripts(tmp_path / "t", [10, 50])
    os.utime(paths[1], (1.0, 1.0))  # the newest game, with a clock gone backwards
    assert prune(tmp_path / "t", budget=20, keep=paths[1]) == 1
    assert [path.exists() for path in paths] == [False, True]


def test_only_the_default_folder_is_pruned_and_the_note_comes_once(tmp_path: Path) -> None:
    paths = _transcripts(tmp_path / "t", [300 * 2**20, 10, 10])  # 300 MB
    assert TranscriptFolder(tmp_path / "t").kept(paths[2]) is None
    assert paths[0].exists()
    bounded = TranscriptFolder(tmp_path / "t", bounded=True)
    note = bounded.kept(paths[2])
    assert note is not None and note.startswith(f"note: {tmp_path / 't'} keeps the newest 200 MB")
    assert not paths[0].exists() and bounded.pruned == 1
    assert bounded.kept(paths[2]) is None
