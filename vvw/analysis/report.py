"""The analysis as a terminal report (drawn by ``rich``): who lost what, by play and by dice.

In order: the game and the settings; a table per side (accuracy, inaccuracies, mistakes,
blunders, points lost by play, luck); a sentence per side; the vampires' winning chances
over the game as a line of bars; the turning points; the plies labelled, each with the
better ply; every random battle with its luck; each side's biggest swings with the board
before them.
"""

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine import Kind, ply_text
from engine.drawing import draw_board, window_around
from engine.kinds import VAMPIRES, WEREWOLVES
from vvw.analysis.game_analysis import GameAnalysis
from vvw.analysis.judging import Label
from vvw.analysis.ledger import TurnAnalysis
from vvw.analysis.sentences import battle_words, chances_text
from vvw.analysis.sides import SideSummary

BARS = "▁▂▃▄▅▆▇█"
BOARD_WINDOW = 11
"""Columns and rows of a swing's board shown at most (around the first move)."""
STYLE = {VAMPIRES: "bold red", WEREWOLVES: "bold blue"}
LABEL_STYLE = {Label.INACCURACY: "yellow", Label.MISTAKE: "dark_orange", Label.BLUNDER: "bold red"}


def side_text(side: Kind, name: str = "") -> Text:
    text = Text(side.name.lower(), style=STYLE[side])
    if name:
        text.append(f" ({name})", style="default")
    return text


def sparkline(chances: list[float | None], width: int = 100) -> str:
    """The chances (0 to 1) as bars, one per ply (every few plies on a long game)."""
    step = max(1, -(-len(chances) // width))
    picked = chances[::step]
    if (len(chances) - 1) % step:
        picked.append(chances[-1])  # the end, always
    shown = [c for c in picked if c is not None]
    return "".join(BARS[min(len(BARS) - 1, int(c * len(BARS)))] for c in shown)


def summary_table(analysis: GameAnalysis) -> Table:
    table = Table(title="per side", title_justify="left", show_edge=False)
    for column in ("side", "accuracy", "inaccuracies", "mistakes", "blunders", "play", "luck"):
        table.add_column(column, justify="left" if column == "side" else "right")
    for side in (VAMPIRES, WEREWOLVES):
        s = analysis.summary(side)
        table.add_row(
            side_text(side, s.name),
            "–" if s.accuracy is None else f"{s.accuracy:.0f} %",
            str(s.counts[Label.INACCURACY]),
            str(s.counts[Label.MISTAKE]),
            str(s.counts[Label.BLUNDER]),
            _signed(-s.play),
            _signed(s.luck),
        )
    return table


def labelled_table(analysis: GameAnalysis) -> Table | Text:
    rows = [(t, analysis.label(t)) for t in analysis.turns]
    marked = [(t, label) for t, label in rows if label is not None]
    if not marked:
        return Text("no inaccuracy, mistake or blunder")
    table = Table(title="plies labelled", title_justify="left", show_edge=False)
    for column in ("ply", "side", "played", "chances", "lost", "", "better"):
        table.add_column(column, justify="right" if column in ("ply", "lost") else "left")
    for turn, label in marked:
        table.add_row(
            str(turn.number),
            side_text(turn.side),
            _played(turn),
            chances_text(turn),
            f"{turn.drop:.0f}",
            Text(f"{label.value} {label.symbol}", style=LABEL_STYLE[label]),
            ply_text(turn.best),
        )
    return table


def turning_lines(analysis: GameAnalysis) -> list[RenderableType]:
    """The turning points, one paragraph each (none: nothing)."""
    points = analysis.turning_points()
    if not points:
        return []
    lines: list[RenderableType] = [Text("turning points (no single ply to blame)")]
    lines += [Text("  • " + point.text) for point in points]
    return [*lines, Text("")]


def battles_table(analysis: GameAnalysis) -> Table | Text:
    battles = analysis.battles
    if not battles:
        return Text("no random battle")
    table = Table(title="random battles (luck for the side that struck)", title_justify="left")
    table.show_edge = False
    for column in ("ply", "side", "cell", "battle", "expected", "happened", "luck"):
        table.add_column(column, justify="left" if column in ("side", "battle") else "right")
    for b in battles:
        table.add_row(
            str(b.ply),
            side_text(b.side),
            f"({b.cell[0]},{b.cell[1]})",
            f"{battle_words(b)} vs {b.defender.name.lower()}",
            f"{100 * b.expected:.0f}",
            f"{100 * b.happened:.0f}",
            Text(f"{100 * b.luck:+.0f}", style="green" if b.luck >= 0 else "red"),
        )
    return table


def _signed(points: float) -> str:
    """``−12``, ``+3``, ``0``: points rounded, with their sign."""
    rounded = round(points)
    return "0" if rounded == 0 else f"{rounded:+d}".replace("-", "−")


def _played(turn: TurnAnalysis) -> str:
    return "(turn skipped)" if turn.played is None else ply_text(turn.played)


def swing_board(turn: TurnAnalysis) -> str:
    """The board before a swing (a window of it on a large board)."""
    state = turn.before
    window = None
    if state.rows > BOARD_WINDOW or state.cols > BOARD_WINDOW:
        move = (turn.played or turn.best)[0]
        window = window_around(state.rows, state.cols, move.x, move.y, BOARD_WINDOW)
    cells = state.board_cells()
    return "\n".join(draw_board(state.rows, state.cols, cells, indent="    ", window=window))


def swings(summary: SideSummary) -> list[RenderableType]:
    if not summary.swings:
        return []
    parts: list[RenderableType] = [
        Text.assemble("biggest swings of ", side_text(summary.side, summary.name))
    ]
    for swing in summary.swings:
        parts.append(Text("  " + swing.text))
        parts.append(Text(swing_board(swing.turn), style="dim"))
    return parts


def report(analysis: GameAnalysis) -> Group:
    """The whole report, for a ``rich`` console."""
    game = analysis.game
    settings = analysis.settings
    how = (
        f"depth {settings.depth}"
        if settings.seconds is None
        else f"{settings.seconds:g} s per position"
    )
    t = analysis.thresholds
    head = Text.assemble(
        side_text(VAMPIRES, game.names.get(VAMPIRES, "")),
        " vs ",
        side_text(WEREWOLVES, game.names.get(WEREWOLVES, "")),
        f" on {game.map or 'a map'}: {game.result or 'result not known'}",
    )
    parts: list[RenderableType] = [
        head,
        Text(
            f"{len(analysis.turns)} plies analysed, {how}; inaccuracy, mistake, blunder from"
            f" {t.inaccuracy:g}, {t.mistake:g}, {t.blunder:g} points lost (of 100)",
            style="dim",
        ),
        Text(""),
        summary_table(analysis),
        Text(""),
    ]
    for side in (VAMPIRES, WEREWOLVES):
        parts.append(Text("• " + analysis.summary(side).sentence))
    parts += [
        Text(""),
        Text.assemble(("vampires' winning chances", STYLE[VAMPIRES]), " ply by ply (▁ 0 … █ 100):"),
        Text("  " + sparkline(analysis.chances())),
        Text(""),
        *turning_lines(analysis),
        labelled_table(analysis),
        Text(""),
        battles_table(analysis),
    ]
    for side in (VAMPIRES, WEREWOLVES):
        found = swings(analysis.summary(side))
        if found:
            parts += [Text(""), *found]
    return Group(*parts)


def print_report(analysis: GameAnalysis, console: Console) -> None:
    console.print(report(analysis))
