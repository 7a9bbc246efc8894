"""The games a killed ladder server left playing, recorded when it starts again.

:meth:`~vvw.ladder.store.LadderStore.abort_interrupted` marks them aborted (never rated);
:func:`recover_interrupted` also gives each the transcript its game left in the
transcripts folder (``…-game012-alpha-beta.jsonl``, as :func:`server.serving.
transcript_name` named it) and the plies in it, so its pages show how far it went and
link its replay.
"""

from pathlib import Path

from protocol.reading import TranscriptError
from protocol.records import Ply
from vvw.ladder.store import LadderStore
from vvw.transcripts import iter_transcript


def recover_interrupted(store: LadderStore) -> list[int]:
    """Abort the games left playing, each with its cut transcript if there is one; their
    numbers."""
    numbers = store.abort_interrupted()
    for number in numbers:
        found = cut_transcript(store.transcripts, number)
        if found is not None:
            store.keep_cut_transcript(number, found.name, plies_in(found))
    return numbers


def cut_transcript(folder: Path, number: int) -> Path | None:
    """The transcript game ``number`` was writing in ``folder`` (the latest, should a
    name repeat), if any."""
    found = sorted(folder.glob(f"*-game{number:03d}-*.jsonl")) if folder.is_dir() else []
    return found[-1] if found else None


def plies_in(transcript: Path) -> int:
    """The plies a transcript holds, up to a damaged line (a cut last one is left out)."""
    plies = 0
    try:
        for record in iter_transcript(transcript):
            plies += isinstance(record, Ply)
    except (OSError, TranscriptError):
        pass
    return plies
