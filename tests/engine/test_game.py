"""The flow of a game (engine.game.Game): turns, skipped turns, the limits, the end and why."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    HUMANS,
    MAX_UPDATE_CELLS,
    VAMPIRES,
    WEREWOLVES,
    EndReason,
    Game,
    GameState,
    Limits,
    Move,
    OnTimeout,
    Rules,
    Termination,
    apply_ply,
    end_of_game,
)
from engine.movegen import random_ply

# 3 rows × 5 columns: vampires 3 at (0,0), werewolves 3 at (4,2), humans 2 at (2,1).
START = GameState.from_cells(
    3, 5, {(0, 0): (VAMPIRES, 3), (4, 2): (WEREWOLVES, 3), (2, 1): (HUMANS, 2)}
)
V_STEP = (Move(0, 0, 3, 1, 0),)
V_BACK = (Move(1, 0, 3, 0, 0),)
W_STEP = (Move(4, 2, 3, 3, 2),)
W_BACK = (Move(3, 2, 3, 4, 2),)


def new(start: GameState = START, **options) -> Game:
    options.setdefault("names", ("alice", "bob"))
    return Game(start, **options)


# -- turns ------------------------------------------------------------------------------------


def test_a_legal_ply_is_played_and_the_turn_passes() -> None:
    game = new()
    turn = game.reply(V_STEP, think=0.5, elapsed=0.5)
    assert turn is not None and turn.ply == V_STEP and turn.ply is not None
    assert (turn.species, turn.number, turn.battles) == (VAMPIRES, 0, ())
    assert turn.state is game.state
    assert game.state == apply_ply(START, V_STEP, random.Random(0)).state
    assert (game.to_move, game.result) == (WEREWOLVES, None)


def test_a_ply_into_the_humans_draws_its_battle_with_the_games_seed() -> None:
    # 3 vampires against 2 humans: a sure win, and no dice (3 >= 2).
    eat = (Move(0, 0, 3, 1, 1),)
    game = new(seed=5)
    game.reply(eat, 0.0, 0.0)
    game.reply(W_STEP, 0.0, 0.0)
    turn = game.reply((Move(1, 1, 3, 2, 1),), 0.0, 0.0)
    assert turn is not None
    assert turn.state.at(2, 1) == (VAMPIRES, 5)


@pytest.mark.parametrize("seed", range(5))
def test_the_seed_decides_the_battles_as_apply_ply_does(seed: int) -> None:
    # 2 vampires attack 2 werewolves: a random battle.
    duel = GameState.from_cells(1, 3, {(0, 0): (VAMPIRES, 2), (1, 0): (WEREWOLVES, 2)})
    game = new(duel, seed=seed)
    turn = game.reply((Move(0, 0, 2, 1, 0),), 0.0, 0.0)
    assert turn is not None
    expected = apply_ply(duel, (Move(0, 0, 2, 1, 0),), random.Random(seed))
    assert turn.state == expected.state
    assert turn.battles == expected.battles and len(turn.battles) == 1


# -- a missing or late reply: skip (the default) or forfeit ---------------------------------


def test_no_reply_skips_the_turn_by_default() -> None:
    game = new()
    game.reply(V_STEP, 0.1, 0.1)
    turn = game.no_reply(elapsed=2.1)
    assert turn is not None and turn.ply is None
    assert (turn.species, turn.number, game.state.ply) == (WEREWOLVES, 1, 2)
    assert game.state.cells == apply_ply(START, V_STEP, random.Random(0)).state.cells
    assert game.result is None and game.to_move == VAMPIRES


def test_a_late_reply_is_not_played_and_skips_the_turn_and_every_think_is_kept() -> None:
    game = new(limits=Limits(move_time=1.0))
    turn = game.reply(V_STEP, think=1.5, elapsed=1.5)
    assert turn is not None and turn.ply is None
    assert game.state.cells == START.cells
    game.reply(W_STEP, think=1.0, elapsed=2.5)  # exactly on time counts
    game.no_reply(elapsed=3.5)
    game.reply(W_BACK, think=0.2, elapsed=3.7)
    game.reply(V_STEP, think=0.3, elapsed=4.0)
    game.reply(W_STEP, 0.0, 4.0)
    assert game.result is None
    assert game.state.at(1, 0) == (VAMPIRES, 3)
    finished = game.abort("enough")
    assert (finished.vampires.skipped_turns, finished.werewolves.skipped_turns) == (2, 0)
    assert (finished.vampires.longest_think, finished.werewolves.longest_think) == (1.5, 1.0)
    assert (finished.vampires.thinks, finished.werewolves.thinks) == ((1.5, 0.3), (1.0, 0.2, 0.0))


def test_no_reply_forfeits_when_set() -> None:
    game = new(limits=Limits(move_time=2.0, on_timeout=OnTimeout.FORFEIT))
    game.reply(V_STEP, 0.1, 0.1)
    assert game.no_reply(elapsed=2.1) is None
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        VAMPIRES,
        Termination.TIME_FORFEIT,
        1,
    )
    assert result.detail == "bob: no MOV within 2 s"
    assert (result.vampires.skipped_turns, result.werewolves.skipped_turns) == (0, 1)


def test_a_late_reply_forfeits_when_set_and_says_how_late() -> None:
    game = new(limits=Limits(move_time=0.5, on_timeout=OnTimeout.FORFEIT))
    assert game.reply(V_STEP, think=0.75, elapsed=0.75) is None
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        WEREWOLVES,
        Termination.TIME_FORFEIT,
        0,
    )
    assert result.detail == "alice: no MOV within 0.5 s (replied after 0.750 s)"
    assert result.vampires.longest_think == 0.75


# -- the limits --------------------------------------------------------------------------------


def test_the_ply_limit_ends_the_game_with_the_winner_by_count() -> None:
    game = new(rules=Rules(max_plies=3))
    game.reply(V_STEP, 0, 0)
    game.reply(W_STEP, 0, 0)
    assert game.result is None
    game.reply(V_BACK, 0, 0)
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (None, Termination.PLY_LIMIT, 3)
    assert result.detail == "ply limit"
    assert result.summary() == "draw by ply limit after 3 plies"


def test_skipped_turns_count_toward_the_ply_limit() -> None:
    game = new(rules=Rules(max_plies=2))
    game.no_reply(0)
    game.no_reply(0)
    result = game.result
    assert result is not None
    assert (result.termination, result.plies) == (Termination.PLY_LIMIT, 2)
    assert (result.vampires.skipped_turns, result.werewolves.skipped_turns) == (1, 1)


def test_the_game_time_is_checked_after_the_werewolves_turn() -> None:
    # Vampires 4, werewolves 3: the larger species wins when the time is up.
    start = GameState.from_cells(3, 5, {(0, 0): (VAMPIRES, 4), (4, 2): (WEREWOLVES, 3)})
    game = new(start, limits=Limits(game_time=5.0))
    game.reply((Move(0, 0, 4, 1, 0),), 1.0, elapsed=6.0)
    assert game.result is None  # not after the vampires' turn
    game.no_reply(elapsed=8.0)  # a skipped turn is a turn
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        VAMPIRES,
        Termination.TIME_LIMIT,
        2,
    )
    assert result.detail == "5 s passed"


def test_the_game_time_is_not_up_before_it_is_reached() -> None:
    game = new(limits=Limits(game_time=5.0))
    game.reply(V_STEP, 1.0, 2.0)
    game.reply(W_STEP, 1.0, 4.999)
    assert game.result is None
    game.reply(V_BACK, 1.0, 5.5)
    game.reply(W_BACK, 1.0, 5.0)  # the caller's clock: reached now
    assert game.result is not None and game.result.termination is Termination.TIME_LIMIT


def rows_of_vampires(rows: int, cols: int) -> GameState:
    """Vampires 1 on every cell of the even rows, werewolves 3 in the last row's corner."""
    cells = {(x, y): (VAMPIRES, 1) for y in range(0, rows - 1, 2) for x in range(cols)}
    cells[(cols - 1, rows - 1)] = (WEREWOLVES, 3)
    return GameState.from_cells(rows, cols, cells)


def downward(state: GameState, moves: int) -> tuple[Move, ...]:
    """The first ``moves`` vampire groups of the even rows each step one row down (2 cells
    per move)."""
    groups = [(x, y) for x, y, _ in state.groups(VAMPIRES) if y % 2 == 0]
    return tuple(Move(x, y, 1, x, y + 1) for x, y in groups[:moves])


def test_a_ply_whose_update_would_list_too_many_cells_loses() -> None:
    start = rows_of_vampires(9, 32)  # 128 groups on rows 0, 2, 4, 6
    ply = downward(start, 128)  # 256 cells
    game = new(start)
    assert game.reply(ply, 0, 0) is None
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        WEREWOLVES,
        Termination.ILLEGAL_PLY,
        0,
    )
    assert result.detail == (
        "alice: the UPD after this ply would list 256 cells, and UPD counts them in one byte"
        f" (at most {MAX_UPDATE_CELLS}); a ply may touch fewer cells"
    )


def test_the_update_counts_the_other_sides_last_ply_too() -> None:
    start = rows_of_vampires(9, 32)
    wolf = (Move(31, 8, 3, 30, 8),)  # 2 cells no vampire ply touches
    skipped = new(start)
    skipped.reply(downward(start, 1), 0, 0)
    skipped.no_reply(0)
    assert skipped.reply(downward(skipped.state, 127), 0, 0) is not None  # 254 cells
    moved = new(start)
    moved.reply(downward(start, 1), 0, 0)
    moved.reply(wolf, 0, 0)
    assert moved.reply(downward(moved.state, 127), 0, 0) is None  # 254 + 2 cells
    assert moved.result is not None and "would list 256 cells" in moved.result.detail


# -- illegal plies and faults -----------------------------------------------------------------


def test_an_illegal_ply_loses_with_the_rule_and_the_move() -> None:
    game = new()
    assert game.reply((Move(0, 0, 4, 1, 0),), 0, 0) is None
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        WEREWOLVES,
        Termination.ILLEGAL_PLY,
        0,
    )
    assert result.detail.startswith("alice: rule 3 (")
    assert result.detail.endswith("[move (0,0)->(1,0) x4]")
    assert game.state is START  # nothing played


def test_an_empty_ply_loses_by_rule_1() -> None:
    game = new(labels=("alice (127.0.0.1:5)", "bob (127.0.0.1:6)"))
    game.reply(V_STEP, 0, 0)
    game.reply((), 0, 0)
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        VAMPIRES,
        Termination.ILLEGAL_PLY,
        1,
    )
    assert result.detail.startswith(
        "bob (127.0.0.1:6): rule 1 (a ply must contain at least one move)"
    )
    assert result.werewolves.name == "bob"


def test_a_fault_the_caller_saw_loses_for_that_player() -> None:
    game = new()
    result = game.lose(VAMPIRES, Termination.DISCONNECT, "the bot closed its connection")
    assert (result.winner, result.termination) == (WEREWOLVES, Termination.DISCONNECT)
    assert result.detail == "alice: the bot closed its connection"
    assert game.result is result


def test_an_aborted_game_has_no_winner() -> None:
    game = new(map_name="tiny", seed=42)
    game.reply(V_STEP, 0.25, 0.25)
    result = game.abort("the server was stopped")
    assert (result.winner, result.termination, result.plies) == (None, Termination.ABORTED, 1)
    assert (result.map_name, result.seed) == ("tiny", 42)
    assert result.summary() == "aborted after 1 ply: the server was stopped"


def test_a_finished_game_takes_no_more_turns() -> None:
    game = new()
    game.abort("stop")
    with pytest.raises(RuntimeError, match="the game is over"):
        game.reply(V_STEP, 0, 0)
    with pytest.raises(RuntimeError):
        game.no_reply(0)
    with pytest.raises(RuntimeError):
        game.lose(VAMPIRES, Termination.CRASH, "late")


# -- the end ------------------------------------------------------------------------------------


def test_elimination_ends_the_game_at_once() -> None:
    duel = GameState.from_cells(3, 3, {(0, 0): (VAMPIRES, 5), (1, 1): (WEREWOLVES, 1)})
    game = new(duel)
    turn = game.reply((Move(0, 0, 5, 1, 1),), 0, 0)
    assert turn is not None
    result = game.result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        VAMPIRES,
        Termination.ELIMINATION,
        1,
    )
    assert (result.vampires.creatures, result.werewolves.creatures) == (5, 0)
    assert result.detail == "elimination"


def test_a_start_that_is_already_over_is_a_finished_game() -> None:
    alone = GameState.from_cells(2, 2, {(0, 0): (VAMPIRES, 2), (1, 1): (HUMANS, 1)})
    result = new(alone).result
    assert result is not None
    assert (result.winner, result.termination, result.plies) == (
        VAMPIRES,
        Termination.ELIMINATION,
        0,
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), max_plies=st.integers(1, 60))
def test_a_game_of_legal_plies_is_the_engines_game(seed: int, max_plies: int) -> None:
    """Law: with every reply on time, the flow plays exactly apply_ply with its seed, and ends
    exactly when end_of_game says so."""
    rules = Rules(max_plies=max_plies)
    game = new(seed=seed, rules=rules)
    bots, dice = random.Random(seed + 1), random.Random(seed)
    state = START
    while game.result is None:
        ply = random_ply(game.state, bots)
        game.reply(ply, 0.0, 0.0)
        state = apply_ply(state, ply, dice, rules).state
        assert game.state == state
        assert (game.result is not None) == (end_of_game(state, rules) is not None)
    result = game.result
    assert result.plies == state.ply
    assert result.termination in (Termination.ELIMINATION, Termination.PLY_LIMIT)


def _played_out(seed: int, rules: Rules) -> tuple[object, Termination]:
    """The winner and termination of a game of random legal plies."""
    game = new(seed=seed, rules=rules)
    bots = random.Random(seed + 1)
    while game.result is None:
        game.reply(random_ply(game.state, bots), 0.0, 0.0)
    return game.result.winner, game.result.termination


def test_rewording_every_end_reason_scores_no_game_differently(monkeypatch) -> None:
    games = [(seed, Rules(max_plies=plies)) for seed in range(12) for plies in (4, 60)]
    scored = [_played_out(seed, rules) for seed, rules in games]
    assert {termination for _, termination in scored} == {
        Termination.ELIMINATION,
        Termination.PLY_LIMIT,
    }
    for reason in EndReason:
        monkeypatch.setattr(reason, "_value_", f"reworded {reason.name.lower()} (\x00)")
    assert [_played_out(seed, rules) for seed, rules in games] == scored
