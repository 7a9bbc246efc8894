"""``vvw rules battle|vectors``: the engine's exact answers, for bots in any language.

``battle 5V 3W`` prints one encounter's outcome distribution as a table; ``vectors``
writes JSON test vectors (:mod:`vvw.vectors`, documented in docs/testing-your-rules.md).
"""

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

from engine.battle import beats_for_sure, is_certain_win, win_probability
from engine.kinds import HUMANS, Kind
from engine.rules import Variant
from engine.state import MAX_COUNT
from engine.testing.oracles import Encounter, encounter_distribution, expected_survivors
from vvw.argtypes import positive_int
from vvw.command_parser import add_actions
from vvw.documents import guide
from vvw.errors import UsageError
from vvw.paths import write_file
from vvw.vectors import build_vectors

LETTERS = {"H": Kind.HUMANS, "V": Kind.VAMPIRES, "W": Kind.WEREWOLVES}
GROUP = re.compile(r"(\d+)([HVW])", re.IGNORECASE)


def group(text: str) -> tuple[int, Kind]:
    """An argparse type: a group such as ``5V``, ``3W`` or ``4H`` (count 1..255, then H/V/W)."""
    match = GROUP.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a group: a count and a letter, like 5V, 3W or 4H"
        )
    count = int(match.group(1))
    if not 1 <= count <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text!r}: a group holds 1..{MAX_COUNT} creatures")
    return count, LETTERS[match.group(2).upper()]


NAMES = {
    Kind.HUMANS: ("human", "humans"),
    Kind.VAMPIRES: ("vampire", "vampires"),
    Kind.WEREWOLVES: ("werewolf", "werewolves"),
}


def _name(kind: Kind, count: int = 2) -> str:
    return NAMES[kind][count != 1]


def _how(encounter: Encounter, variant: Variant) -> str:
    """Which case of the rule book applies."""
    a, d = encounter.attackers, encounter.defenders
    if is_certain_win(a, d, encounter.defender):
        if encounter.defender == HUMANS:
            return f"{a} ≥ {d}: the humans are converted, no battle"
        return f"2·{a} ≥ 3·{d}: the defenders are killed, no battle"
    if variant == Variant.SPEC and encounter.defender != HUMANS and beats_for_sure(d, a):
        return f"2·{d} ≥ 3·{a}: the attackers are killed (spec variant), no battle"
    p = win_probability(a, d, exact=True)
    return f"a random battle, the attackers win with P = {p} = {float(p):.6g}"


def _decimal(p: Fraction) -> str:
    return f"{float(p):.6f}" if p >= Fraction(1, 10**4) else f"{float(p):.3e}"


def battle_table(encounter: Encounter, variant: Variant) -> list[str]:
    """The lines ``vvw rules battle`` prints: the case, one row per outcome, expectations."""
    distribution = encounter_distribution(encounter, variant)
    rows = [("outcome", "decimal", "probability")]
    attacker_first = sorted(
        distribution.items(), key=lambda item: (item[0][0] != encounter.attacker, -item[0][1])
    )
    for (winner, survivors), p in attacker_first:
        verb = "win" if winner == encounter.attacker else "hold"
        left = f"{survivors} left" if survivors else "none left, the cell is empty"
        rows.append((f"{_name(winner)} {verb}, {left}", _decimal(p), str(p)))
    first = max(len(row[0]) for row in rows)
    second = max(len(row[1]) for row in rows)
    expected = expected_survivors(encounter, variant)
    a, d = encounter.attackers, encounter.defenders
    return [
        f"{a} {_name(encounter.attacker, a)} arriving on {d} {_name(encounter.defender, d)}"
        f" ({variant.value} rules): {_how(encounter, variant)}",
        *(f"{o.ljust(first)}  {dec.rjust(second)}  {frac}" for o, dec, frac in rows),
        "expected survivors: "
        + ", ".join(f"{_name(kind)} {_exact(value)}" for kind, value in expected.items()),
    ]


def _exact(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.6g} ({value})"


def battle(args: argparse.Namespace) -> int:
    (attackers, attacker), (defenders, defender) = args.attackers, args.defenders
    try:
        encounter = Encounter.checked(attacker, attackers, defender, defenders)
    except ValueError as error:
        raise UsageError(str(error)) from None
    print("\n".join(battle_table(encounter, Variant(args.variant))))
    return 0


def vectors(args: argparse.Namespace) -> int:
    document = build_vectors(args.max_count, args.plies, args.seed)
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    write_file(args.output, text.encode("utf-8"))
    print(
        f"wrote {args.output}: {len(document['encounters'])} encounters,"
        f" {len(document['plies'])} plies",
        file=sys.stderr,
    )
    return 0


def _most_creatures(text: str) -> int:
    value = positive_int(text)
    if value > 30:
        raise argparse.ArgumentTypeError(f"{value} is above 30 (the file grows as its square)")
    return value


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    commands = add_actions(
        subparsers,
        "rules",
        help="exact battle distributions and test vectors of the rules",
        description="The engine's exact answers, to check a reimplementation of the rules.",
    )

    battler = commands.add_parser(
        "battle",
        help="the exact outcome distribution of one encounter",
        description=(
            "Print what ATTACKERS arriving on DEFENDERS leave on the cell: each outcome, its"
            " probability as a fraction and a decimal, and the expected survivors."
        ),
        epilog="examples: vvw rules battle 5V 3W;  vvw rules battle 3W 4H;"
        "  vvw rules battle 2V 3W --variant spec",
    )
    battler.add_argument("attackers", type=group, metavar="ATTACKERS", help="e.g. 5V or 3W")
    battler.add_argument("defenders", type=group, metavar="DEFENDERS", help="e.g. 4H or 3W")
    battler.add_argument(
        "--variant",
        choices=[v.value for v in Variant],
        default=Variant.SERVER.value,
        help="server (the course's server, default) or spec (the specification's text)",
    )
    battler.set_defaults(func=battle)

    writer = commands.add_parser(
        "vectors",
        help="write JSON test vectors for a bot in any language",
        description=(
            "Write the exact distribution of every encounter up to --max-count on each side,"
            " and plies with the rule each breaks first (or none, with their exact outcomes)."
            f" The fields are documented in {guide('testing-your-rules.md')}."
        ),
        epilog="example: vvw rules vectors -o vectors.json",
    )
    writer.add_argument(
        "-o", "--output", type=Path, default=None, help="file to write (default: stdout)"
    )
    writer.add_argument(
        "--max-count",
        type=_most_creatures,
        default=8,
        help="encounters of 1..N against 1..N (default 8, at most 30)",
    )
    writer.add_argument("--plies", type=positive_int, default=200, help="how many plies (200)")
    writer.add_argument("--seed", type=int, default=1, help="same seed, same file (1)")
    writer.set_defaults(func=vectors)
