"""What the search bots share: a table of fixed size and its replacement scheme, the
collector left as it was found, bot options checked."""

import gc
import threading
import time
from pathlib import Path

import pytest

from agents.registry import BOTS, make_agent
from agents.search import (
    ENTRY_BYTES,
    EXACT,
    LOWER,
    UPPER,
    Entry,
    NodeCache,
    TranspositionTable,
    bound_of,
    collector_paused,
)
from engine import HUMANS, VAMPIRES, WEREWOLVES, GameState
from engine.mapfile import load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"
SEARCH_BOTS = ["alphabeta", "expectiminimax"]


def same_bucket(table: TranspositionTable, count: int, start: int = 1) -> list[int]:
    """``count`` keys that share one bucket of ``table``."""
    return [start + i * table.buckets for i in range(count)]


def test_the_table_holds_at_most_its_size_whatever_is_stored() -> None:
    table = TranspositionTable(megabytes=0.01)
    assert table.size * ENTRY_BYTES == table.nbytes <= 10_000
    for key in range(50 * table.size):
        table.store(key * 0x9E3779B97F4A7C15 % (1 << 64), key % 9, float(key), EXACT, key % 7)
    assert len(table) == table.size


def test_a_stored_entry_is_found_with_its_depth_value_bound_and_best_ply() -> None:
    table = TranspositionTable(megabytes=0.01)
    key = (1 << 64) - 5
    table.store(key, 4, -12.5, LOWER, 3)
    assert table.get(key) == Entry(4, -12.5, LOWER, 3)
    table.store(7, 2, 1.0, EXACT, None)
    assert table.get(7) == Entry(2, 1.0, EXACT, None)
    assert table.get(12345) is None
    table.clear()
    assert table.get(key) is None and len(table) == 0


def test_the_deeper_entry_stays_and_the_latest_takes_the_other_slot() -> None:
    table = TranspositionTable(megabytes=0.01)
    deep, shallow, latest = same_bucket(table, 3)
    table.store(deep, 6, 1.0, EXACT, 0)
    table.store(shallow, 2, 2.0, EXACT, 0)
    assert table.get(deep) is not None and table.get(shallow) is not None
    table.store(latest, 3, 3.0, EXACT, 0)  # not as deep: it replaces the latest
    assert table.get(deep) is not None
    assert table.get(shallow) is None
    assert table.get(latest) == Entry(3, 3.0, EXACT, 0)
    deeper = same_bucket(table, 4)[3]
    table.store(deeper, 7, 4.0, EXACT, 0)  # deeper: it takes the first slot
    assert table.get(deep) is None and table.get(deeper) is not None
    assert table.get(latest) is not None


def test_a_position_of_an_earlier_search_gives_way_even_if_deeper() -> None:
    table = TranspositionTable(megabytes=0.01)
    old, other, new = same_bucket(table, 3)
    table.store(old, 9, 1.0, EXACT, 0)
    table.store(other, 1, 2.0, EXACT, 0)
    table.new_search()
    table.store(new, 2, 3.0, EXACT, 0)
    assert table.get(old) is None
    assert table.get(new) is not None and table.get(other) is not None


def test_a_stored_value_answers_only_as_deep_and_within_its_bound() -> None:
    assert Entry(3, 5.0, EXACT, None).cutoff(3, 0.0, 1.0)
    assert not Entry(2, 5.0, EXACT, None).cutoff(3, 0.0, 1.0)
    assert Entry(3, 5.0, LOWER, None).cutoff(2, 0.0, 5.0)
    assert not Entry(3, 5.0, LOWER, None).cutoff(2, 0.0, 6.0)
    assert Entry(3, -1.0, UPPER, None).cutoff(2, -1.0, 6.0)
    assert not Entry(3, -1.0, UPPER, None).cutoff(2, -2.0, 6.0)
    assert [bound_of(v, 0.0, 1.0) for v in (0.0, 0.5, 1.0)] == [UPPER, EXACT, LOWER]


def test_the_node_cache_takes_no_more_than_its_cells_and_frees_them_after() -> None:
    cache: NodeCache[list[int]] = NodeCache(limit=100)
    assert cache.reserve(60)
    cache.put(1, [1])
    assert not cache.reserve(50)  # 110 cells: no room
    assert cache.reserve(40)
    cache.put(2, [2])
    assert (cache.get(1), cache.get(2), cache.get(3)) == ([1], [2], None)
    done = []
    cache.release(then=lambda: done.append(True))
    assert len(cache) == 0 and cache.reserve(100)
    cache.wait()
    assert done == [True]


def test_released_nodes_wait_for_the_reply_unless_a_search_needs_the_room() -> None:
    # Freed at once, they would take the interpreter's lock in turns with the thread
    # sending the reply, which then came tens of milliseconds late.
    cache: NodeCache[list[int]] = NodeCache(limit=100, pause=3600)
    assert cache.reserve(1)
    cache.put(1, [1])
    done = threading.Event()
    cache.release(then=done.set)
    assert not done.is_set()  # an hour to go
    waiting = threading.Thread(target=cache.wait)
    waiting.start()
    waiting.join(timeout=30)
    assert not waiting.is_alive() and done.is_set()


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_move_leaves_no_expanded_node_behind(bot: str) -> None:
    state = load_map(MAPS / "thetrap.xml").initial_state()
    agent = make_agent(bot, depth=3)
    agent.new_game(state.to_move, state)
    agent.choose_ply(state, time.monotonic() + 60)
    assert len(agent.expanded) == 0  # type: ignore[attr-defined]
    agent.expanded.wait()  # type: ignore[attr-defined]
    assert not [t for t in threading.enumerate() if t.name == "search-release"]


def turns_while(busy: threading.Thread) -> int:
    """How many times this thread ran (waking every millisecond) while ``busy`` worked."""
    turns = 0
    while busy.is_alive():
        turns += 1
        busy.join(timeout=0.001)
    return turns


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_search_in_a_thread_lets_the_other_threads_run(bot: str) -> None:
    # The client library thinks in a worker thread and sends a fallback from its own at
    # the deadline: a compiled search that never offered the interpreter's lock held it
    # to its end, and the fallback went late.
    state = load_map(MAPS / "thetrap.xml").initial_state()
    agent = make_agent(bot)
    agent.new_game(state.to_move, state)
    search = threading.Thread(target=lambda: agent.root_values(state, seconds=0.5))
    search.start()
    assert turns_while(search) >= 20


def test_a_released_cache_is_freed_while_the_other_threads_run() -> None:
    # Other threads run while the nodes are freed (the client's, sending a reply): a
    # compiled loop that never offered the interpreter's lock made them wait for it all.
    cache: NodeCache[list[int]] = NodeCache(limit=10**7, pause=0)
    for key in range(10**6):
        assert cache.reserve(1)
        cache.put(key, [key, key + 1])
    cache.release()
    freeing = next(t for t in threading.enumerate() if t.name == "search-release")
    assert turns_while(freeing) >= 5
    cache.wait()


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_the_table_size_is_an_option(bot: str) -> None:
    agent = make_agent(bot, table_mb=2)
    assert agent.table.nbytes <= 2_000_000  # type: ignore[attr-defined]
    assert make_agent(bot).table.nbytes > 2_000_000  # type: ignore[attr-defined]


@pytest.mark.parametrize("bot", SEARCH_BOTS)
@pytest.mark.parametrize("enabled", [True, False])
def test_a_move_leaves_the_collector_as_it_found_it(bot: str, enabled: bool) -> None:
    state = load_map(MAPS / "thetrap.xml").initial_state()
    agent = make_agent(bot, depth=2)
    agent.new_game(state.to_move, state)
    frozen = gc.get_freeze_count()
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        agent.choose_ply(state, time.monotonic() + 60)
        agent.expanded.wait()  # type: ignore[attr-defined]  # the nodes are freed after
        assert gc.isenabled() == enabled
        assert gc.get_freeze_count() == frozen
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("bot", SEARCH_BOTS)
def test_a_search_leaves_no_reference_cycles(bot: str) -> None:
    # The collector is paused during a search: a cycle made then stays in memory until the
    # search ends, and a collection walks it. (The compiled build made one per group and
    # node, from closures over one another, until they became a class.)
    state = GameState.from_cells(
        10, 10, {(1, 1): (VAMPIRES, 9), (8, 8): (WEREWOLVES, 9), (4, 5): (HUMANS, 3)}
    )
    agent = make_agent(bot, depth=3)
    agent.new_game(state.to_move, state)
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        agent.choose_ply(state, time.monotonic() + 60)
        agent.expanded.wait()  # type: ignore[attr-defined]
        assert gc.collect() == 0
    finally:
        (gc.enable if was else gc.disable)()


def test_the_collector_is_paused_inside_and_restored_after_an_error() -> None:
    was = gc.isenabled()
    gc.enable()
    try:
        with pytest.raises(KeyError), collector_paused():
            assert not gc.isenabled()
            raise KeyError
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_an_unknown_option_is_refused_with_the_valid_ones(bot: str) -> None:
    with pytest.raises(ValueError, match=r"widht.*\bseed\b"):
        make_agent(bot, widht=8)


def test_option_values_given_as_text_are_converted_or_refused() -> None:
    agent = make_agent("alphabeta", depth="3", risk="0.5")
    assert (agent.max_depth, agent.risk) == (3, 0.5)  # type: ignore[attr-defined]
    for value in ("4.5", "deep", 4.5):
        with pytest.raises(ValueError, match="option depth of bot 'alphabeta' must be int"):
            make_agent("alphabeta", depth=value)
    with pytest.raises(ValueError, match="option seed of bot 'greedy' must be int"):
        make_agent("greedy", seed="x")
