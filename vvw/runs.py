"""The ``runs/`` folder: a new folder for each run's files, removed again if left empty;
``runs/transcripts/``, where ``vvw match`` and ``vvw serve`` keep every game's transcript
unless told otherwise, bounded in size (the oldest go first)."""

import contextlib
from datetime import UTC, datetime
from pathlib import Path

import attrs

TRANSCRIPTS = Path("runs") / "transcripts"
"""Where match and serve keep each game's transcript by default."""
TRANSCRIPTS_BUDGET = 200 * 2**20
"""Bytes of transcripts :data:`TRANSCRIPTS` keeps (the newest); about 2000 games of 200
plies on the course's maps."""


def new_run_dir(kind: str, root: Path = Path("runs")) -> Path:
    """A new folder ``runs/KIND-STAMP`` (``-2``, ``-3``… when taken), created now."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    number = 1
    while True:
        path = root / (f"{kind}-{stamp}" + (f"-{number}" if number > 1 else ""))
        try:
            path.mkdir()
            return path
        except FileExistsError:
            number += 1


def remove_if_empty(folder: Path) -> None:
    """Remove ``folder`` if it is empty (a run that kept no files leaves none)."""
    with contextlib.suppress(OSError):
        folder.rmdir()


def prune(folder: Path, budget: int = TRANSCRIPTS_BUDGET, keep: Path | None = None) -> int:
    """Delete the oldest transcripts (``*.jsonl``) of ``folder`` until the rest hold at most
    ``budget`` bytes, never ``keep`` (the one just written); how many were deleted."""
    sized = []
    for path in folder.glob("*.jsonl"):
        with contextlib.suppress(OSError):  # gone meanwhile: another run pruned it
            stat = path.stat()
            sized.append((stat.st_mtime, path.name, path, stat.st_size))
    total = sum(size for *_, size in sized)
    deleted = 0
    for _, _, path, size in sorted(sized):
        if total <= budget:
            break
        if keep is not None and path.name == keep.name:
            continue
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            deleted += 1
        total -= size
    return deleted


@attrs.define
class TranscriptFolder:
    """Where a run keeps each game's transcript: ``folder`` (``None``: nowhere); the
    default one, :data:`TRANSCRIPTS`, is ``bounded`` to :data:`TRANSCRIPTS_BUDGET`."""

    folder: Path | None
    bounded: bool = False
    pruned: int = 0
    """Older transcripts deleted so far by this run."""

    def kept(self, path: Path | None) -> str | None:
        """A game's transcript was kept at ``path``: the oldest deleted past the budget;
        a note the first time any are (``None`` otherwise)."""
        if path is None or not self.bounded or self.folder is None:
            return None
        deleted = prune(self.folder, keep=path)
        first = deleted and not self.pruned
        self.pruned += deleted
        if not first:
            return None
        budget = TRANSCRIPTS_BUDGET // 2**20
        return (
            f"note: {self.folder} keeps the newest {budget} MB of transcripts: older ones are"
            " deleted (--transcript DIR keeps them all, --no-transcript none)"
        )
