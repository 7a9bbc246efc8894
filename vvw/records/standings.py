"""The tables of a run, computed from its results file alone: per participant, per pair of
participants, the SPRT when one was asked for, and the games that ended abnormally."""

import csv
import io
import math
from collections import Counter
from typing import Any

import attrs

from vvw.records.results import GameLine, Header
from vvw.records.stats import PAIR_SCORES, EloEstimate, Sprt, Thinks
from vvw.records.tally import Tally


@attrs.frozen
class Row:
    """A row of the tables: the games of one participant (or of the first of a pair), from
    its view."""

    name: str
    opponent: str | None
    tally: Tally
    estimate: EloEstimate
    abnormal: int = 0
    """Games it lost abnormally (crash, illegal ply, time forfeit, protocol error…)."""
    pairs: tuple[int, ...] = ()
    """Complete pairs of games by pair score: LL, LD, WL+DD, WD, WW."""
    late: int = 0
    """Turns it answered too late (skipped, as on the course server), over all its games."""
    slowest: float | None = None
    """Its longest think over all its games, in seconds (``None``: none recorded)."""
    thinks: Thinks | None = None
    """Its think times over all its games (``None``: none recorded, as in files of
    version 1, which kept only the longest)."""
    fallbacks: int = 0
    """Its plies that were its client library's fallbacks (late, failed or illegal: a
    random ply sent for it), over all its games; bots on vvw's client library only."""


@attrs.frozen
class Standings:
    header: Header
    played: int
    participants: list[Row]
    """Best score first."""
    pairs: list[Row]
    abnormal: list[GameLine]
    sprt: Sprt | None
    llr: float | None
    runs: tuple[Header, ...] = ()
    """The runs whose games these are, when read from results files (several when
    combined by ``combine_runs``)."""


def unique(games: list[GameLine]) -> list[GameLine]:
    """The games, each key once (the first line of it)."""
    seen: set[str] = set()
    kept = []
    for game in games:
        if game.key not in seen:
            seen.add(game.key)
            kept.append(game)
    return kept


def _row(name: str, opponent: str | None, games: list[GameLine]) -> Row:
    scores = [game.score_of(name) for game in games]
    tally = Tally.of(scores)
    abnormal = sum(
        1 for game in games if game.abnormal and (loser := game.loser()) and loser.name == name
    )
    by_pair: dict[str, list[float]] = {}
    for game, score in zip(games, scores, strict=True):
        by_pair.setdefault(game.pair, []).append(score)
    counts = Counter(sum(pair) / 2 for pair in by_pair.values() if len(pair) == 2)
    pairs = tuple(counts[score] for score in PAIR_SCORES)
    sides = [
        side for game in games for side in (game.vampires, game.werewolves) if side.name == name
    ]
    late = sum(side.skipped_turns for side in sides)
    slowest = max((s.longest_think for s in sides if s.longest_think is not None), default=None)
    thinks = Thinks.of([think for side in sides for think in side.thinks])
    fallbacks = sum(side.fallbacks for side in sides)
    return Row(
        name,
        opponent,
        tally,
        tally.estimate(),
        abnormal,
        pairs,
        late,
        slowest,
        thinks,
        fallbacks,
    )


def standings(header: Header, games: list[GameLine], runs: tuple[Header, ...] = ()) -> Standings:
    """Every table of the run from its header and its game lines (of ``runs``, when the
    header and games are several runs' combined)."""
    games = unique(games)
    names = [name for name, _ in header.participants]
    rows = [_row(name, None, [g for g in games if name in g.names]) for name in names]
    rows.sort(key=lambda row: (-row.tally.score, names.index(row.name)))
    pairs = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            mine = [g for g in games if set(g.names) == {first, second}]
            if mine:
                pairs.append(_row(first, second, mine))
    sprt = Sprt(**header.sprt) if header.sprt else None
    llr = None
    if sprt is not None and len(names) == 2:
        first_pairs = pairs[0].pairs if pairs else (0,) * len(PAIR_SCORES)
        llr = sprt.llr(first_pairs, PAIR_SCORES)
    abnormal = [g for g in games if g.abnormal]
    return Standings(header, len(games), rows, pairs, abnormal, sprt, llr, runs)


def _percent(value: float) -> str:
    return f"{value:.1%}"


def _los(estimate: EloEstimate) -> str:
    return f"{estimate.los:.1%}" if estimate.samples else "-"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


PARTICIPANT_COLUMNS = (
    "#",
    "participant",
    "games",
    "W",
    "D",
    "L",
    "score",
    "Elo ± 95 %",
    "LOS",
    "abnormal",
    "late",
    "fallback",
    "think",
    "p95",
    "max",
)
"""The columns of the participants' table, as the terminal and the dashboard show it."""
PAIR_COLUMNS = ("pair", "games", "W-D-L", "score", "Elo ± 95 %", "LOS", "pairs LL/LD/½/WD/WW")
"""The columns of the pairs' table."""
_Layout = tuple[tuple[int, str, int | None], ...]


def _layout(gaps: tuple[int, ...], aligns: str, widths: tuple[int | None, ...]) -> _Layout:
    """In the terminal, each column's gap before it, its alignment (``<`` or ``>``) and its
    width (a text aligned left is cut to it; ``None``: as wide as it is)."""
    return tuple(zip(gaps, aligns, widths, strict=True))


_PARTICIPANT_LAYOUT = _layout(
    gaps=(0, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1),
    aligns="><>>>>>>>>>>>>>",
    widths=(2, 24, 5, 4, 4, 4, 6, 16, 6, 8, 5, 8, 6, 6, 6),
)
_PAIR_LAYOUT = _layout(
    gaps=(0, 1, 1, 1, 2, 1, 2),
    aligns="<>>>>><",
    widths=(40, 5, 11, 6, 16, 6, None),
)


def plan_text(table: Standings) -> str:
    """``3 of 4 games played (round-robin, 1 map, 1 round, seed 5)``."""
    head = table.header
    maps = f"{len(head.maps)} map{'s' * (len(head.maps) != 1)}"
    if len(table.runs) > 1:
        seeds = ", ".join(str(run.seed) for run in table.runs)
        plan = f"in {len(table.runs)} runs ({head.format}, {maps}, seeds {seeds})"
    else:
        plan = f"({head.format}, {maps}, {head.rounds} round{'s' * (head.rounds != 1)},"
        plan += f" seed {head.seed})"
    return f"{table.played} of {head.games} games played {plan}"


def participant_rows(table: Standings) -> list[tuple[str, ...]]:
    """The participants' table, best first: one row of :data:`PARTICIPANT_COLUMNS` each."""
    return [
        (
            str(place),
            row.name,
            str(row.tally.games),
            str(row.tally.wins),
            str(row.tally.draws),
            str(row.tally.losses),
            _percent(row.estimate.score) if row.tally.games else "-",
            row.estimate.format(),
            _los(row.estimate),
            str(row.abnormal),
            str(row.late),
            str(row.fallbacks),
            _seconds(row.thinks.mean if row.thinks else None),
            _seconds(row.thinks.p95 if row.thinks else None),
            _seconds(row.slowest),
        )
        for place, row in enumerate(table.participants, 1)
    ]


def pair_rows(table: Standings) -> list[tuple[str, ...]]:
    """The pairs' table: one row of :data:`PAIR_COLUMNS` each."""
    return [
        (
            f"{pair.name} vs {pair.opponent}",
            str(pair.tally.games),
            pair.tally.wdl,
            _percent(pair.estimate.score),
            pair.estimate.format(),
            _los(pair.estimate),
            "/".join(str(n) for n in pair.pairs),
        )
        for pair in table.pairs
    ]


def abnormal_text(game: GameLine) -> str:
    """``KEY on MAP: NAME loses by TERMINATION: REASON [where its files are]``."""
    loser = game.loser()
    who = f"{loser.name} loses" if loser else "no winner"
    where = game.logs or game.transcript or "no files kept"
    return f"{game.key} on {game.map}: {who} by {game.termination.value}: {game.reason} [{where}]"


def _aligned(cells: tuple[str, ...], layout: _Layout) -> str:
    line = ""
    for cell, (gap, align, width) in zip(cells, layout, strict=True):
        if width is None:
            line += " " * gap + cell
        else:
            shown = cell[:width] if align == "<" else cell
            line += " " * gap + f"{shown:{align}{width}}"
    return line


def format_text(table: Standings) -> str:
    """The standings as a user reads them at the end of a run (and from ``report``)."""
    lines = [
        plan_text(table),
        "",
        _aligned(PARTICIPANT_COLUMNS, _PARTICIPANT_LAYOUT),
        *(_aligned(row, _PARTICIPANT_LAYOUT) for row in participant_rows(table)),
    ]
    if table.pairs:
        lines += [
            "",
            _aligned(PAIR_COLUMNS, _PAIR_LAYOUT),
            *(_aligned(row, _PAIR_LAYOUT) for row in pair_rows(table)),
        ]
    if table.sprt is not None and table.llr is not None:
        lines += ["", table.sprt.describe(table.llr)]
    if table.abnormal:
        lines += ["", f"abnormal games ({len(table.abnormal)}):"]
        lines += [f"  {abnormal_text(game)}" for game in table.abnormal]
    return "\n".join(lines)


def _finite(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else round(value, 2)


def _jsonable(row: Row) -> dict[str, Any]:
    estimate, tally = row.estimate, row.tally
    return {
        "participant": row.name,
        "opponent": row.opponent,
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": round(estimate.score, 4),
        "elo": _finite(estimate.elo),
        "elo_error": _finite(estimate.error),
        "elo_low": _finite(estimate.low),
        "elo_high": _finite(estimate.high),
        "los": round(estimate.los, 4),
        "abnormal_losses": row.abnormal,
        "late_turns": row.late,
        "fallback_plies": row.fallbacks,
        "think_mean": None if row.thinks is None else round(row.thinks.mean, 4),
        "think_p95": None if row.thinks is None else round(row.thinks.p95, 4),
        "slowest_think": None if row.slowest is None else round(row.slowest, 3),
        "pairs_ll_ld_half_wd_ww": list(row.pairs),
    }


def to_json(table: Standings) -> dict[str, Any]:
    """The tables as one JSON object (infinite Elo as ``null``)."""
    return {
        "played": table.played,
        "scheduled": table.header.games,
        "runs": [
            {"seed": run.seed, "games": run.games, "command": run.command}
            for run in table.runs or (table.header,)
        ],
        "participants": [_jsonable(row) for row in table.participants],
        "pairs": [_jsonable(pair) for pair in table.pairs],
        "sprt": None
        if table.sprt is None or table.llr is None
        else {
            **attrs.asdict(table.sprt),
            "llr": round(table.llr, 4),
            "lower": round(table.sprt.lower, 4),
            "upper": round(table.sprt.upper, 4),
            "decision": table.sprt.decision(table.llr),
        },
        "abnormal": [
            {
                "key": g.key,
                "map": g.map,
                "termination": g.termination.value,
                "reason": g.reason,
                "logs": g.logs,
                "transcript": g.transcript,
            }
            for g in table.abnormal
        ],
    }


def to_csv(table: Standings) -> str:
    """The participants' rows then the pairs' rows (``opponent`` empty for a participant)."""
    out = io.StringIO()
    rows = [_jsonable(row) for row in [*table.participants, *table.pairs]]
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["participant"])
    writer.writeheader()
    for row in rows:
        row["pairs_ll_ld_half_wd_ww"] = "/".join(map(str, row["pairs_ll_ld_half_wd_ww"]))
        writer.writerow(row)
    return out.getvalue()
