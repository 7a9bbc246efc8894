"""The analysis file: ``GAME.analysis.json`` beside the transcript ``GAME.jsonl``.

``vvw analyse`` writes it (:func:`analysis_json`, the analysis as plain JSON data with the
transcript's name and SHA-256); ``vvw replay`` reads it back (:func:`read_analysis`) and
refuses one made from other bytes than the transcript's.
"""

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from engine.kinds import VAMPIRES, WEREWOLVES
from vvw.analysis.game_analysis import GameAnalysis
from vvw.analysis.judging import Label, chance_points
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import BattleLuck
from vvw.analysis.sentences import battle_words
from vvw.analysis.sides import SideSummary

FORMAT = "vvw-analysis"
VERSION = 2
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


def analysis_json(
    analysis: GameAnalysis, transcript: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The analysis as plain JSON data: the analysis file's content, tied to the transcript
    ``transcript`` (:func:`transcript_identity`) names."""
    game = analysis.game
    settings = analysis.settings
    return {
        "format": FORMAT,
        "version": VERSION,
        "transcript": dict(transcript or {}),
        "map": game.map,
        "names": {side.name.lower(): name for side, name in game.names.items()},
        "result": game.result,
        "winner": None if game.winner is None else game.winner.name.lower(),
        "settings": {
            "depth": settings.depth,
            "seconds": settings.seconds,
            "widths": list(settings.widths),
            "thresholds": attrs.asdict(analysis.thresholds),
            "curve": attrs.asdict(analysis.curve),
            "judge": dict(analysis.judge),
        },
        "vampires": [None if c is None else chance_points(c) for c in analysis.chances()],
        "plies": [_turn_json(t, analysis.label(t)) for t in analysis.turns],
        "turning_points": [
            {
                "side": point.side.name.lower(),
                "first": point.first,
                "last": point.last,
                "from": chance_points(point.high),
                "to": chance_points(point.low),
                "text": point.text,
            }
            for point in analysis.turning_points()
        ],
        "sides": {
            side.name.lower(): _side_json(analysis.summary(side)) for side in (VAMPIRES, WEREWOLVES)
        },
    }


def _turn_json(t: TurnAnalysis, label: Label | None) -> dict[str, Any]:
    return {
        "ply": t.number,
        "side": t.side.name.lower(),
        "score": chance_points(t.score),
        "played": None if t.played is None else [list(m) for m in t.played],
        "best": [list(m) for m in t.best],
        "after": None if t.after is None else chance_points(t.after),
        "expected": None if t.expected is None else chance_points(t.expected),
        "play": round(100 * t.play, 2),
        "luck": round(100 * t.luck, 2),
        "drop": round(t.drop, 2),
        "label": None if label is None else label.value,
        "depth": t.depth,
        "how": t.how,
        "think": t.think,
        "battles": [_battle_json(b) for b in t.battles],
    }


def _side_json(s: SideSummary) -> dict[str, Any]:
    return {
        "name": s.name,
        # As computed: the page rounds them as the terminal does (rounded twice, 97.46
        # would show as 98 there and 97 here).
        "accuracy": s.accuracy,
        **{label.plural: s.counts[label] for label in Label},
        "luck": s.luck,
        "play": s.play,
        "sentence": s.sentence,
        "swings": [
            {"ply": w.turn.number, "drop": round(w.turn.drop, 2), "text": w.text} for w in s.swings
        ],
    }


def _battle_json(b: BattleLuck) -> dict[str, Any]:
    return {
        "cell": list(b.cell),
        "side": b.side.name.lower(),
        "attackers": b.attackers,
        "defender": b.defender.name.lower(),
        "defenders": b.defenders,
        "p": round(b.win_probability, 6),
        "winner": None if b.winner is None else b.winner.name.lower(),
        "survivors": b.survivors,
        "expected": round(100 * b.expected, 2),
        "happened": round(100 * b.happened, 2),
        "luck": round(100 * b.luck, 2),
        "text": battle_words(b),
    }
