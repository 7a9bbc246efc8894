"""The analysis file: ``GAME.analysis.json`` beside the transcript ``GAME.jsonl``.

``vvw analyse`` writes it (:meth:`vvw.analysis.analysis.GameAnalysis.to_json`, with the
transcript's name and SHA-256); ``vvw replay`` reads it back (:func:`read_analysis`) and
refuses one made from other bytes than the transcript's.
"""

import hashlib
import json
from pathlib import Path
from typing import Any

from vvw.analysis.analysis import FORMAT, VERSION

SUFFIX = ".analysis.json"


class AnalysisFileError(Exception):
    """An analysis file that cannot be used: ``str()`` says which and why, in one line."""


def analysis_path(transcript: Path) -> Path:
    """Where a transcript's analysis file goes: ``game.jsonl`` → ``game.analysis.json``."""
    return transcript.with_suffix(SUFFIX)


def transcript_identity(transcript: Path) -> dict[str, str]:
    """What ties an analysis file to its transcript: the name and the bytes' SHA-256."""
    digest = hashlib.sha256(transcript.read_bytes()).hexdigest()
    return {"name": transcript.name, "sha256": digest}


def read_analysis(path: Path, transcript: Path) -> dict[str, Any]:
    """The analysis in ``path`` of the game in ``transcript``; :class:`AnalysisFileError`
    if it is no analysis file of this version, or the analysis of other bytes."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise AnalysisFileError(f"cannot read {path}: {error}") from None
    except json.JSONDecodeError:
        raise AnalysisFileError(f"{path} is not JSON, not an analysis file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AnalysisFileError(f"{path} is not an analysis file (vvw analyse writes them)")
    if data.get("version") != VERSION:
        raise AnalysisFileError(
            f"{path} is an analysis file of version {data.get('version')}, this vvw reads"
            f" {VERSION}: analyse the game again"
        )
    made_from = (data.get("transcript") or {}).get("sha256")
    if made_from != transcript_identity(transcript)["sha256"]:
        raise AnalysisFileError(
            f"{path} is the analysis of another game than {transcript.name}: analyse it again"
        )
    return data
