"""The analysis in words, as the report, the analysis file and the replay page say it:
chances in points, a battle, a swing, a side's sentence on dice and play."""

from engine import Kind, ply_text
from vvw.analysis.judging import chance_text
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.luck import BattleLuck
from vvw.wording import plural


def points(value: float) -> str:
    """``1 point``, ``25 points``: a number of points as the report rounds it."""
    return plural(round(value), "point")


def chances_text(turn: TurnAnalysis) -> str:
    """The mover's chances before its ply and its ply's expected chance, in points:
    ``80 → 62``; with a decimal where whole points would show no change (``80.3 → 79.7``)."""
    before, after = turn.score, turn.expected or 0.0
    if chance_text(before) == chance_text(after) and before != after:
        return f"{100 * before:.1f} → {100 * after:.1f}"
    return f"{chance_text(before)} → {chance_text(after)}"


def battle_words(b: BattleLuck) -> str:
    """``8 against 7 at 64 %, lost``, from the side that struck."""
    outcome = "won" if b.won else "lost"
    return f"{b.attackers} against {b.defenders} at {100 * b.win_probability:.0f} %, {outcome}"


def swing_text(t: TurnAnalysis) -> str:
    """``ply 12: (1,1)->(2,2) x5 lost 25 points (80 → 55); better (1,1)->(1,2) x5``."""
    played = ply_text(t.played) if t.played is not None else "(turn skipped)"
    return (
        f"ply {t.number}: {played} lost {points(t.drop)}"
        f" ({chances_text(t)}); better {ply_text(t.best)}"
    )


def side_sentence(side: Kind, luck: float, play: float, luckiest: BattleLuck | None) -> str:
    """``vampires lost 31 points to the dice (ply 37: 8 against 7 at 64 %, lost) and 12
    by play``: ``luck`` and ``play`` in points (see :class:`vvw.analysis.sides.SideSummary`)."""
    who = side.name.lower()
    if abs(luck) < 0.5 or luckiest is None:
        dice = "had even dice"
    else:
        verb = "gained" if luck > 0 else "lost"
        word = "from" if luck > 0 else "to"
        b = luckiest
        whose = "" if b.side == side else f"{b.side.name.lower()}' "
        dice = f"{verb} {points(abs(luck))} {word} the dice (ply {b.ply}: {whose}{battle_words(b)})"
    if play <= -0.5:
        return f"{who} {dice} and gained {-play:.0f} by play"
    return f"{who} {dice} and lost {max(0.0, play):.0f} by play"
