"""Finding the processes a test started, to check none outlives its run."""

from pathlib import Path


def processes_mentioning(marker: str) -> list[int]:
    """The pids whose command line mentions ``marker`` (say a test's temporary folder,
    which its bots were given)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
