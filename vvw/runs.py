"""The ``runs/`` folder: a new folder for each run's files, removed again if left empty."""

import contextlib
from datetime import UTC, datetime
from pathlib import Path


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
