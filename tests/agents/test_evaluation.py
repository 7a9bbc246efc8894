"""The search bots' evaluation: material, houses each side reaches first, threats."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from agents import evaluation
from agents.evaluation import (
    DOOM_DISCOUNT,
    DOOM_SHARE,
    HUMAN_DISCOUNT,
    HUMAN_SHARE,
    HUNT_SHARE,
    LOSS,
    ROOT_TIE,
    THREAT_SHARE,
    WIN,
    attack_gain,
    evaluate,
    on_win_scale,
    root_bar,
)
from engine import GameState
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES

V, W = VAMPIRES, WEREWOLVES


def _state(cells: dict[tuple[int, int], tuple[int, int]], to_move=V, rows=5, cols=9) -> GameState:
    grid = {y * cols + x: (int(kind), count) for (x, y), (kind, count) in cells.items()}
    return GameState.trusted(rows, cols, None, 0 if to_move == V else 1, grid)


def test_a_group_on_its_way_along_a_tour_is_worth_more_than_one_hovering_between_houses():
    houses = {(0, 2): (HUMANS, 2), (8, 2): (HUMANS, 2), (4, 4): (WEREWOLVES, 1)}
    hovering = _state({**houses, (4, 2): (VAMPIRES, 3)}, to_move=W)
    committed = _state({**houses, (3, 2): (VAMPIRES, 3)}, to_move=W)
    assert evaluate(committed, V) > evaluate(hovering, V)


def test_a_house_is_worth_less_the_farther_it_is_and_nothing_once_out_of_reach():
    def value(x: int, humans: int) -> float:
        return evaluate(
            _state({(0, 0): (VAMPIRES, 3), (x, 0): (HUMANS, humans), (0, 4): (WEREWOLVES, 3)}), V
        )

    near, far = value(1, 2), value(4, 2)
    assert math.isclose(near - far, HUMAN_SHARE * 2 * (1 - HUMAN_DISCOUNT**3))
    assert value(4, 4) == 0.0  # nobody can convert 4 with 3


def test_the_nearer_side_gets_the_house_and_a_tie_goes_to_the_side_to_move():
    cells = {(0, 0): (VAMPIRES, 3), (4, 0): (WEREWOLVES, 3), (2, 0): (HUMANS, 2)}
    assert evaluate(_state(cells, to_move=V), V) > 0 > evaluate(_state(cells, to_move=W), V)
    cells[(1, 0)] = cells.pop((0, 0))
    assert evaluate(_state(cells, to_move=W), V) > 0


def test_a_tour_takes_the_house_worth_most_first_then_the_next_from_there():
    cells = {
        (0, 0): (VAMPIRES, 5),
        (1, 0): (HUMANS, 2),
        (4, 0): (HUMANS, 5),
        (8, 4): (WEREWOLVES, 1),
    }
    without_small = dict(cells)
    del without_small[(1, 0)]
    # the 5 (4 plies away) is worth more than the 2 (1 ply): then the 2, 3 plies back
    gain = evaluate(_state(cells), V) - evaluate(_state(without_small), V)
    assert math.isclose(gain, HUMAN_SHARE * 2 * HUMAN_DISCOUNT ** (4 + 3 - 1))


def test_an_enemy_group_that_grows_on_a_near_house_first_wins_the_race_to_a_bigger_one():
    # Our 8 is the only group able to convert the 8 (6 plies away). The werewolves' 6
    # converts the 3 on ply 2 and, now 9, reaches the 8 on ply 5: both houses are theirs.
    cells = {
        (0, 0): (VAMPIRES, 8),
        (6, 0): (HUMANS, 8),
        (9, 0): (HUMANS, 3),
        (11, 0): (WEREWOLVES, 6),
    }
    theirs = HUMAN_SHARE * (3 * HUMAN_DISCOUNT**1 + 8 * HUMAN_DISCOUNT**4)
    # Our 8 would also gain by a battle with their 6, eleven cells away; the 6 grows out of
    # its reach on the 3, so that threat is only a pull.
    threat = THREAT_SHARE / 11 * attack_gain(8, 6)
    assert math.isclose(evaluate(_state(cells, cols=12), V), 8 - 6 - theirs + threat)
    # Without the 3 to grow on, the 8 is ours, and the 6 can grow on nothing: doomed.
    del cells[(9, 0)]
    ours = HUMAN_SHARE * 8 * HUMAN_DISCOUNT**5
    doomed = DOOM_SHARE * DOOM_DISCOUNT**10 * attack_gain(8, 6)
    assert math.isclose(evaluate(_state(cells, cols=12), V), 8 - 6 + ours + doomed)


def test_a_house_whose_converter_an_enemy_group_would_kill_at_once_goes_to_that_group():
    # testmap-5x9: our 2 is one ply from the middle house, so is their 5. Converting, we
    # would be 3 next to 5, a certain kill, so the house is theirs, a ply from now.
    house, ours = [(4, 2, 1)], [(5, 3, 2)]
    race = evaluation._human_term
    assert race(house, ours, [(3, 2, 5)], True, 9) == -HUMAN_SHARE
    # Two plies off, their 5 comes too late when we move first...
    assert race(house, ours, [(2, 2, 5)], True, 9) == HUMAN_SHARE
    # ...but not when they do: they strike right after our first ply, then take the house.
    assert race(house, ours, [(2, 2, 5)], False, 9) == -HUMAN_SHARE * HUMAN_DISCOUNT
    # A 4 cannot kill our grown 3 for certain: the house stays ours.
    assert race(house, ours, [(3, 2, 4)], True, 9) == HUMAN_SHARE


def test_a_group_no_friend_can_reach_in_time_is_counted_as_prey():
    # A werewolf 6 hunts a vampire 3 three cells away. With a vampire 2 four cells from it
    # (they meet in 2 plies, before the strike; 5 ≥ 6/1.5) the 3 is safe; eight cells
    # away the friend comes too late and the 3 counts as doomed.
    def value(friend_x: int) -> float:
        cells = {
            (0, 2): (VAMPIRES, 3),
            (3, 2): (WEREWOLVES, 6),
            (friend_x, 0): (VAMPIRES, 2),
            (0, 4): (WEREWOLVES, 1),
        }
        return evaluate(_state(cells, cols=12), V)

    rescued, too_late = value(4), value(8)
    # No humans are left, so a threat's pull is HUNT_SHARE / distance.
    doomed_three = DOOM_SHARE * DOOM_DISCOUNT**2 * 3 - HUNT_SHARE * 3 / 3
    nearer_two = HUNT_SHARE * 2 / 2 - HUNT_SHARE * 2 / 5  # the friend itself, nearer
    assert math.isclose(rescued - too_late, doomed_three - nearer_two)
    assert rescued > too_late


def test_a_group_that_converts_a_house_out_of_a_hunters_reach_in_time_is_not_counted_as_prey():
    # A werewolf 8 three cells from a vampire 4, the vampires to move: the 4 has three
    # plies before the strike. A house of 2 one cell away makes it 6, which 8 cannot kill
    # for certain; a house of 1 (5) does not, nor a house of 2 four cells away (too late).
    def value(house: tuple[int, int], humans: int) -> float:
        state = _state({(1, 2): (WEREWOLVES, 8), (4, 2): (VAMPIRES, 4), house: (HUMANS, humans)})
        return evaluate(state, V)

    doomed = DOOM_SHARE * DOOM_DISCOUNT**2
    # Beside the house's own worth (one more human), the 4 is no longer counted as lost.
    saved = value((5, 2), 2) - value((5, 2), 1)
    assert math.isclose(saved, HUMAN_SHARE * 1 + (doomed - THREAT_SHARE / 3) * 4)
    # Too late: the house is worth its humans four plies away, and the 4 is lost.
    too_late = -4 + HUMAN_SHARE * 2 * HUMAN_DISCOUNT**3 - doomed * 4
    assert math.isclose(value((8, 2), 2), too_late)


def test_friends_that_merge_with_a_prey_group_in_time_save_it_together():
    # A werewolf 8 three cells from three vampire 2s in a column, each two cells from the
    # next: one friend alone makes 4 (8 kills it), the three together make 6 (it cannot).
    def value(hunter: int) -> float:
        column = {(5, y): (VAMPIRES, 2) for y in (0, 2, 4)}
        return evaluate(_state({**column, (2, 2): (WEREWOLVES, hunter)}, cols=12), V)

    # A 9 can kill the 6 as well: then each 2 counts as lost in part (no humans are left,
    # so a threat's pull is HUNT_SHARE / distance), and the 9 is one creature more.
    doomed_two = 2 * (DOOM_SHARE * DOOM_DISCOUNT**2 - HUNT_SHARE / 3)
    assert math.isclose(value(8) - value(9), 1 + 3 * doomed_two)


def test_once_no_humans_are_left_a_lead_of_two_is_most_of_a_win_whatever_the_armies():
    # Among 150 monsters, a lead of 2 is little while humans are left (the count can still
    # change by conversions); without humans only a battle can change it, and the bot that
    # leads need not accept one.
    for ours, theirs in ((76, 74), (16, 14), (201, 199)):
        armies = {(0, 0): (VAMPIRES, ours), (8, 4): (WEREWOLVES, theirs)}
        endgame = on_win_scale(2.0, _state(armies))
        assert 0.3 * WIN < endgame < WIN
        # From the other side's view, the same lead counts against it, as much.
        assert math.isclose(on_win_scale(-2.0, _state(armies, to_move=W)), -endgame)
    armies = {(0, 0): (VAMPIRES, 76), (8, 4): (WEREWOLVES, 74)}
    with_humans = on_win_scale(2.0, _state({**armies, (4, 2): (HUMANS, 1)}))
    assert 0 < with_humans < 0.05 * WIN


def test_once_no_humans_are_left_a_gamble_that_likely_leads_beats_a_level_standstill():
    # Level at 60 against 60 with no humans left: a battle won 90 % of the time for a lead
    # of 10 (lost, the bot is 30 behind) is worth more than staying level; at a lead of 10
    # already, the same gamble is worth less than keeping it.
    def leaf(ours: int, theirs: int) -> float:
        return on_win_scale(
            float(ours - theirs), _state({(0, 0): (VAMPIRES, ours), (8, 4): (WEREWOLVES, theirs)})
        )

    gamble = 0.9 * leaf(60, 50) + 0.1 * leaf(30, 60)
    assert gamble > leaf(60, 60)
    assert 0.9 * leaf(70, 50) + 0.1 * leaf(30, 60) < leaf(70, 60)


def test_houses_too_big_for_either_whole_army_count_as_no_houses():
    # testmap2's 20 humans once both sides are 16 or fewer: nobody converts them for sure,
    # so the lead of 2 decides the game at the ply limit as if no humans were left.
    armies = {(0, 0): (VAMPIRES, 13), (8, 0): (VAMPIRES, 3), (0, 4): (WEREWOLVES, 14)}
    no_humans = on_win_scale(2.0, _state(armies))
    assert on_win_scale(2.0, _state({**armies, (4, 2): (HUMANS, 17)})) == no_humans
    # Exact at the edge: 16 vampires in all can convert 16 (after merging), not 17.
    with_a_live_house = on_win_scale(2.0, _state({**armies, (4, 2): (HUMANS, 16)}))
    assert 0 < with_a_live_house < 0.5 * no_humans
    # One live house among dead ones is enough to keep the human phase going.
    both = {**armies, (4, 2): (HUMANS, 17), (6, 2): (HUMANS, 2)}
    assert on_win_scale(2.0, _state(both)) < 0.5 * no_humans


def test_dead_houses_make_hunting_pull_as_hard_as_no_houses():
    # A hunter 3 and 4 away from two prey groups that can merge out of its reach, with a
    # house of 30 nobody can convert.
    armies = {(0, 0): (VAMPIRES, 12), (3, 0): (WEREWOLVES, 4), (4, 1): (WEREWOLVES, 5)}
    dead = _state({**armies, (6, 4): (HUMANS, 30)})
    assert evaluate(dead, V) == evaluate(_state(armies), V)
    # A house of 12 the hunter can convert is worth its humans six plies away, and cuts
    # the pull to THREAT_SHARE.
    live = _state({**armies, (6, 4): (HUMANS, 12)})
    pulls = (HUNT_SHARE - THREAT_SHARE) * (4 / 3 + 5 / 4)
    house = HUMAN_SHARE * 12 * HUMAN_DISCOUNT**5
    assert math.isclose(evaluate(live, V) - evaluate(dead, V), house - pulls)


def test_a_root_ply_must_beat_the_best_by_the_tie_margin_unless_the_game_is_decided():
    # Ties keep the gain the shallower search saw sooner; a sooner win or a later loss
    # found within the horizon still counts, however small the difference.
    for value in (0.0, -256_198.9, 0.9 * WIN):
        assert root_bar(value) == value + ROOT_TIE
    for decided in (WIN + 3, WIN - 120, LOSS + 120):
        assert root_bar(decided) == decided


def _race_as_written(humans, mine, theirs, my_move: bool) -> float:
    """The race of the module docstring, written plainly: every racer aims at the house worth
    most to it (``h · HUMAN_DISCOUNT^d``, the bigger on a tie, then the first listed); the
    earliest arrival (the side to move's racers first on a tie) takes its house, unless an
    enemy group that kills it there for certain strikes right after; then it aims again."""
    movers, waiters = (mine, theirs) if my_move else (theirs, mine)
    sign = 1.0 if my_move else -1.0
    racers = [[x, y, n, sign, 0, 0, None, []] for x, y, n in movers]
    racers += [[x, y, n, -sign, 0, 0, None, []] for x, y, n in waiters]
    left = list(humans)

    def aim(racer) -> None:
        x, y, n, _, time, taken, _, barred = racer
        options = [
            (h * HUMAN_DISCOUNT ** max(abs(hx - x), abs(hy - y)), h, -i)
            for i, (hx, hy, h) in enumerate(left)
            if h <= n and (hx, hy, h) not in barred
        ]
        if taken >= evaluation.TOUR_LENGTH or not options:
            racer[6] = None
            return
        house = left[-max(options)[2]]
        racer[6] = (time + max(abs(house[0] - x), abs(house[1] - y)), house)

    def lost(racer, arrival, house) -> bool:
        # The enemy moves after the racer's arrival-th ply: its arrival-th if the racer's
        # side moves first, its (arrival + 1)-th otherwise; a group d away strikes on its d-th.
        enemies, strikes_by = (waiters, arrival) if racer[3] == sign else (movers, arrival + 1)
        hx, hy, h = house
        return any(
            2 * m >= 3 * (racer[2] + h) and max(abs(x - hx), abs(y - hy)) <= strikes_by
            for x, y, m in enemies
        )

    for racer in racers:
        aim(racer)
    score = 0.0
    while any(racer[6] for racer in racers):
        racer = min((r for r in racers if r[6]), key=lambda r: r[6][0])
        arrival, house = racer[6]
        if house in left:
            if lost(racer, arrival, house):
                racer[7].append(house)
            else:
                left.remove(house)
                hx, hy, h = house
                racer[:6] = [hx, hy, racer[2] + h, racer[3], arrival, racer[5] + 1]
                score += racer[3] * HUMAN_SHARE * h * HUMAN_DISCOUNT ** (arrival - 1)
        aim(racer)
    return score


@settings(max_examples=300)
@given(
    cells=st.lists(
        st.tuples(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES]), st.integers(1, 20)),
        min_size=1,
        max_size=30,
    ),
    side=st.sampled_from([3, 12, 40]),
    places=st.randoms(use_true_random=False),
    my_move=st.booleans(),
)
def test_the_race_for_houses_is_the_one_the_docstring_describes(
    cells, side, places, my_move
) -> None:
    # Exactly, to the last bit: the race keeps each board's houses in the order every cell
    # prefers them (evaluation._Houses), which must change no choice and no sum.
    groups = {V: [], W: [], HUMANS: []}
    chosen = places.sample(range(side * side), min(len(cells), side * side))
    for (kind, count), cell in zip(cells, chosen, strict=False):
        groups[kind].append((cell % side, cell // side, count))
    expected = _race_as_written(groups[HUMANS], groups[V], groups[W], my_move)
    got = evaluation._human_term(groups[HUMANS], groups[V], groups[W], my_move, side)
    assert got == expected
    # Again, with the houses' orders known from the first time.
    assert evaluation._human_term(groups[HUMANS], groups[V], groups[W], my_move, side) == got


@given(st.integers(1, 200), st.integers(1, 200))
def test_a_bigger_group_gains_by_a_random_battle_and_an_equal_one_breaks_even(n, p):
    # A random battle (2·n < 3·p): the bigger side expects to gain by starting it.
    if 2 * n >= 3 * p:
        return
    gain = attack_gain(n, p)
    if n == p:
        assert math.isclose(gain, 0.0, abs_tol=1e-9)
    elif n > p:
        assert gain > 0


def test_scattered_groups_a_bigger_enemy_comes_for_count_as_losing_unless_they_merge_in_time():
    # A werewolf 14 three cells from a vampire 11, no humans: it would gain by a battle.
    # With a vampire 5 two cells from the 11 they merge into 16 before it strikes, and the
    # 14 gains nothing on 16; eight cells away the 5 comes too late and the 11 is doomed.
    def value(friend_x: int) -> float:
        cells = {(0, 2): (VAMPIRES, 11), (3, 2): (WEREWOLVES, 14), (friend_x, 4): (VAMPIRES, 5)}
        return evaluate(_state(cells, cols=12), V)

    gain = attack_gain(14, 11)
    doomed_eleven = (DOOM_SHARE * DOOM_DISCOUNT**2 - HUNT_SHARE / 3) * gain
    # The 14 kills the 5 for certain (it merges in time either way): a pull, nearer or not.
    nearer_five = HUNT_SHARE * 5 / 2 - HUNT_SHARE * 5 / 5
    assert math.isclose(value(2) - value(8), doomed_eleven - nearer_five)
    assert value(2) > value(8)


@settings(max_examples=300)
@given(
    cells=st.lists(
        st.tuples(st.sampled_from([HUMANS, VAMPIRES, WEREWOLVES]), st.integers(1, 20)),
        min_size=2,
        max_size=20,
    ),
    side=st.sampled_from([4, 12, 30]),
    rng=st.randoms(use_true_random=False),
    ply=st.integers(0, 1),
)
def test_a_value_does_not_depend_on_the_order_the_cells_were_put_in(cells, side, rng, ply):
    # A search meets one position by several paths, each building its board in another
    # order; its caches (keyed by position) must value it the same whichever came first.
    cells = cells[: side * side]
    places = rng.sample(range(side * side), len(cells))
    grid = {pos: (int(kind), count) for (kind, count), pos in zip(cells, places, strict=True)}
    state = GameState.trusted(side, side, None, ply, dict(sorted(grid.items())))
    shuffled = list(grid.items())
    rng.shuffle(shuffled)
    other = GameState.trusted(side, side, None, ply, dict(shuffled))
    for species in (V, W):
        assert evaluation.scored(other, species) == evaluation.scored(state, species)
