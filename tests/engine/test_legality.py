"""The seven checks of rules.md, each at its edge: accepted on one side, its `Rule` on the other."""

import pytest
from hypothesis import given, settings

from engine import (
    GameState,
    IllegalPly,
    MalformedPly,
    Move,
    Rule,
    as_ply,
    check_ply,
    find_violation,
    ply_outcomes,
)
from engine.testing.strategies import states_and_plies
from tests.helpers.boards import board

# Vampires to move (ply 0). Columns 0..4, rows 0..3.
BOARD = board(
    """
    V10 .   V56 .   H3
    .   .   .   .   .
    .   .   V200 .  .
    .   W4  .   .   .
    """
)


def assert_legal(state: GameState, *moves: Move) -> None:
    assert find_violation(state, moves) is None
    check_ply(state, moves)


def assert_breaks(state: GameState, rule: Rule, culprit: Move | None, *moves: Move) -> None:
    violation = find_violation(state, moves)
    assert violation is not None, f"{moves} should break {rule}"
    assert (violation.rule, violation.move) == (rule, culprit)
    with pytest.raises(IllegalPly) as raised:
        check_ply(state, moves)
    assert raised.value == violation


def test_rule_1_an_empty_ply_is_illegal() -> None:
    assert_breaks(BOARD, Rule.EMPTY_PLY, None)
    assert_legal(BOARD, Move(0, 0, 1, 1, 0))


def test_rule_2_a_move_of_zero_creatures_is_illegal() -> None:
    assert_breaks(BOARD, Rule.ZERO_COUNT, Move(0, 0, 0, 1, 0), Move(0, 0, 0, 1, 0))
    assert_breaks(BOARD, Rule.ZERO_COUNT, Move(0, 0, -1, 1, 0), Move(0, 0, -1, 1, 0))
    assert_legal(BOARD, Move(0, 0, 1, 1, 0))


@pytest.mark.parametrize(
    ("source", "what"),
    [((1, 0), "empty"), ((4, 0), "humans"), ((1, 3), "werewolves")],
)
def test_rule_3_the_source_must_hold_the_movers_species(source: tuple[int, int], what) -> None:
    x, y = source
    move = Move(x, y, 1, x, y + 1)
    assert_breaks(BOARD, Rule.NOT_OWN_CELL, move, move)


def test_rule_3_the_species_to_move_is_set_by_the_ply_number() -> None:
    werewolves_turn = BOARD.with_ply(1)
    assert_breaks(werewolves_turn, Rule.NOT_OWN_CELL, Move(0, 0, 1, 1, 0), Move(0, 0, 1, 1, 0))
    assert_legal(werewolves_turn, Move(1, 3, 4, 1, 2))


def test_rule_3_a_move_may_send_the_whole_group_but_not_one_more() -> None:
    assert_legal(BOARD, Move(0, 0, 10, 1, 0))
    assert_breaks(BOARD, Rule.TOO_FEW, Move(0, 0, 11, 1, 0), Move(0, 0, 11, 1, 0))


@pytest.mark.parametrize(
    "move",
    [
        Move(0, 0, 1, -1, 0),
        Move(0, 0, 1, 0, -1),
        Move(0, 0, 1, -1, -1),
        Move(2, 2, 1, 2, 4),
    ],
)
def test_rule_4_the_target_must_lie_inside_the_grid(move: Move) -> None:
    assert_breaks(BOARD, Rule.OFF_GRID, move, move)


@pytest.mark.parametrize("move", [Move(-1, 0, 1, 0, 0), Move(5, 0, 1, 4, 0), Move(0, 4, 1, 0, 3)])
def test_rule_3_a_source_outside_the_grid_holds_nothing(move: Move) -> None:
    assert_breaks(BOARD, Rule.NOT_OWN_CELL, move, move)
    assert "is outside the" in str(find_violation(BOARD, [move]))


def test_rule_4_the_last_row_and_column_are_inside() -> None:
    corner = board(". .\n. V3")
    assert_legal(corner, Move(1, 1, 1, 0, 0))
    assert_breaks(corner, Rule.OFF_GRID, Move(1, 1, 1, 2, 1), Move(1, 1, 1, 2, 1))
    assert_breaks(corner, Rule.OFF_GRID, Move(1, 1, 1, 1, 2), Move(1, 1, 1, 1, 2))


@pytest.mark.parametrize(("dx", "dy"), [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)])
def test_rule_4_every_one_of_the_eight_neighbours_is_a_target(dx: int, dy: int) -> None:
    move = Move(2, 2, 1, 2 + dx, 2 + dy)
    if (dx, dy) == (0, 0):
        assert_breaks(BOARD, Rule.NOT_ADJACENT, move, move)
    else:
        assert_legal(BOARD, move)


@pytest.mark.parametrize("target", [(4, 2), (0, 2), (2, 0), (4, 0), (0, 0), (2, 3)])
def test_rule_4_a_target_two_steps_away_is_illegal(target: tuple[int, int]) -> None:
    lone = board(
        """
        . . . . .
        . . . . .
        . . V9 . .
        . . . . .
        """
    )
    move = Move(2, 2, 1, *target)
    if target == (2, 3):
        assert_legal(lone, move)
    else:
        assert_breaks(lone, Rule.NOT_ADJACENT, move, move)


def test_rule_5_a_cell_cannot_be_both_a_source_and_a_target() -> None:
    pair = board("V5 V5 .\n. . .")
    into_a_source = Move(0, 0, 2, 1, 0)
    out_of_it = Move(1, 0, 1, 2, 0)
    assert_breaks(pair, Rule.SOURCE_IS_TARGET, into_a_source, into_a_source, out_of_it)
    assert_breaks(pair, Rule.SOURCE_IS_TARGET, into_a_source, out_of_it, into_a_source)
    assert_breaks(
        pair, Rule.SOURCE_IS_TARGET, Move(0, 0, 5, 1, 0), Move(0, 0, 5, 1, 0), Move(1, 0, 5, 0, 0)
    )
    # Joining a group that stays put is legal: it is a target, not a source.
    assert_legal(pair, into_a_source)
    assert_legal(pair, Move(0, 0, 2, 0, 1), Move(1, 0, 1, 1, 1))


def test_rule_6_moves_leaving_one_cell_may_add_up_to_what_it_holds() -> None:
    assert_legal(BOARD, Move(0, 0, 6, 1, 0), Move(0, 0, 4, 0, 1))
    first = Move(0, 0, 6, 1, 0)
    assert_breaks(BOARD, Rule.OVERCOMMITTED, first, first, Move(0, 0, 5, 0, 1))


def test_rule_6_two_identical_moves_add_up() -> None:
    assert_legal(BOARD, Move(0, 0, 5, 1, 1), Move(0, 0, 5, 1, 1))
    twice = Move(0, 0, 6, 1, 1)
    assert_breaks(BOARD, Rule.OVERCOMMITTED, twice, twice, twice)


def test_rule_7_at_most_255_creatures_arrive_on_one_cell() -> None:
    assert_legal(BOARD, Move(2, 2, 200, 1, 1), Move(2, 0, 55, 1, 1))
    last = Move(2, 0, 56, 1, 1)
    # The culprit is the first move into the overflowing cell.
    assert_breaks(BOARD, Rule.TARGET_OVERFLOW, Move(2, 2, 200, 1, 1), Move(2, 2, 200, 1, 1), last)
    assert_breaks(
        BOARD, Rule.TARGET_OVERFLOW, last, Move(0, 0, 1, 0, 1), last, Move(2, 2, 200, 1, 1)
    )


def test_rule_7_counts_arrivals_not_the_group_already_there() -> None:
    crowded = board("V200 V250 .")
    assert_legal(crowded, Move(0, 0, 200, 1, 0))


def test_the_first_broken_rule_is_reported_in_rule_book_order() -> None:
    # Rule 2 is checked before rule 3 within a move, moves in order, then rules 5, 6, 7.
    zero = Move(1, 0, 0, 1, 1)
    assert_breaks(BOARD, Rule.ZERO_COUNT, zero, zero, Move(0, 0, 11, 1, 0))
    too_many = Move(0, 0, 11, 1, 0)
    assert_breaks(BOARD, Rule.TOO_FEW, too_many, too_many, zero)
    over = Move(0, 0, 6, 0, 1)
    assert_breaks(BOARD, Rule.OVERCOMMITTED, over, over, over, Move(2, 2, 200, 1, 1))


def test_an_illegal_ply_names_its_rule_number_and_the_move() -> None:
    violation = find_violation(BOARD, (Move(0, 0, 11, 1, 0),))
    assert violation is not None
    assert str(violation) == (
        "rule 3 (the source cell holds fewer creatures than the move sends):"
        " (0,0) holds 10, move Move(x=0, y=0, count=11, tx=1, ty=0) sends 11"
    )
    assert [rule.number for rule in Rule] == [1, 2, 3, 3, 4, 4, 5, 6, 7]


@settings(max_examples=300, deadline=None)
@given(states_and_plies())
def test_random_plies_are_legal(state_and_ply) -> None:
    state, ply = state_and_ply
    assert ply
    check_ply(state, ply)


@pytest.mark.parametrize("sequence", [list, tuple])
def test_plain_five_tuples_are_read_as_moves(sequence) -> None:
    assert find_violation(BOARD, sequence([(0, 0, 1, 1, 0)])) is None
    violation = find_violation(BOARD, sequence([Move(0, 0, 1, 1, 0), (1, 0, 1, 2, 0)]))
    assert violation is not None and violation.move == Move(1, 0, 1, 2, 0)
    assert type(violation.move) is Move


@pytest.mark.parametrize("later", [Move(2, 0, 1.0, 3, 0), (2, 0, True, 3, 0), "2 0 1 3 0"])
def test_a_move_that_is_no_move_is_refused_even_after_a_move_that_breaks_a_rule(later) -> None:
    with pytest.raises(MalformedPly):
        find_violation(BOARD, (Move(0, 0, 0, 1, 0), later))
    with pytest.raises(MalformedPly):
        find_violation(BOARD, (Move(0, 0, 1, 0, 1), Move(1, 1, 1, 1, 2), later))


@pytest.mark.parametrize(
    ("state", "ply", "words"),
    [
        ("V10", (Move(0, 0, 1, 1, 0),), "state must be a GameState"),
        (BOARD, "0 0 1 1 0", "a ply is a sequence of moves"),
        (BOARD, None, "a ply is a sequence of moves"),
        (BOARD, [(0, 0, 1, 1)], "a move is five integers"),
        (BOARD, [(0, 0, 1.0, 1, 0)], "a move is five integers"),
        (BOARD, [Move(0, 0, "1", 1, 0)], "a move is five integers"),
    ],
)
def test_what_is_not_a_ply_is_refused(state, ply, words: str) -> None:
    with pytest.raises(TypeError, match=words):
        find_violation(state, ply)


def test_exact_distributions_refuse_an_illegal_ply() -> None:
    with pytest.raises(IllegalPly) as raised:
        ply_outcomes(BOARD, (Move(0, 0, 11, 1, 0),))
    assert raised.value.rule == Rule.TOO_FEW
    with pytest.raises(TypeError, match="rules must be a Rules"):
        ply_outcomes(BOARD, (Move(0, 0, 1, 1, 0),), "spec")


class Index:
    """An integer of another library (numpy's int64, say): it has ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize(
    "reply",
    [
        [[0, 0, 1, 1, 0]],
        ((0, 0, 1, 1, 0),),
        (Move(0, 0, 1, 1, 0),),
        [(Index(0), Index(0), Index(1), Index(1), Index(0))],
        (move for move in [(0, 0, 1, 1, 0)]),
    ],
    ids=["lists", "tuples", "moves", "other integers", "a generator"],
)
def test_a_reply_of_moves_of_five_integers_reads_as_a_ply_of_python_integers(reply) -> None:
    ply = as_ply(reply)
    assert ply == (Move(0, 0, 1, 1, 0),)
    assert all(type(move) is Move and all(type(v) is int for v in move) for move in ply)


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ([(0, 0, 1.0, 1, 0)], "a move is five integers (x, y, count, tx, ty), got (0, 0, 1.0"),
        ([(0, 0, True, 1, 0)], "a move is five integers"),
        ((Move(0, 0, 1, 1, 0), Move(1, 0, 1.0, 2, 0)), "got Move(x=1, y=0, count=1.0"),
        ((Move(0, 0, True, 1, 0),), "a move is five integers"),
        ([(0, 0, 1, 1)], "a move is five integers"),
        (["0 0 1 1 0"], "a move is five integers"),
        ("0 0 1 1 0", "a ply is a sequence of moves, got '0 0 1 1 0'"),
        (None, "a ply is a sequence of moves, got None"),
        ([list(range(100))], "…"),
    ],
    ids=[
        "a float",
        "a bool",
        "a float in a later Move",
        "a bool in a Move",
        "four numbers",
        "text as a move",
        "text",
        "None",
        "a long one",
    ],
)
def test_what_is_no_ply_is_malformed_never_truncated_or_guessed(reply, words: str) -> None:
    with pytest.raises(MalformedPly) as raised:
        as_ply(reply)
    assert words in str(raised.value) and len(str(raised.value)) < 120
