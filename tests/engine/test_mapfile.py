"""Map files: the official maps as the rule book lists them, the exact format, clear errors."""

import encodings.aliases
import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapfile import MAX_CELLS, GameMap, MapFileError, dump_map, load_map, parse_map
from engine.mapgen import generate_map
from engine.testing.strategies import maps
from tests.helpers.maps import MAPS

# The table of rules.md: rows, columns, humans, werewolves, vampires.
OFFICIAL = {
    "thetrap.xml": (5, 10, {(2, 2, 4), (9, 0, 2), (9, 2, 1), (9, 4, 2)}, (4, 1, 4), (4, 3, 4)),
    "testmap.xml": (5, 6, {(2, 2, 1), (4, 4, 1)}, (2, 3, 3), (5, 4, 3)),
    "testmap-5x9.xml": (
        5,
        9,
        {(0, 1, 1), (2, 0, 1), (4, 2, 1), (8, 3, 1), (6, 4, 1)},
        (0, 0, 5),
        (8, 4, 5),
    ),
    "testmap2.xml": (
        15,
        29,
        {(28, 0, 2), (0, 14, 2), (14, 7, 20), (10, 3, 4), (18, 11, 4)},
        (0, 0, 10),
        (28, 14, 10),
    ),
    "all_in.xml": (3, 3, {(0, 0, 10), (2, 0, 6)}, (1, 1, 8), (0, 2, 12)),
}


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_the_official_maps_match_the_rule_book(name: str) -> None:
    game_map = load_map(MAPS / name)
    rows, cols, humans, werewolves, vampires = OFFICIAL[name]
    assert (game_map.rows, game_map.cols) == (rows, cols)
    assert set(game_map.humans) == humans and len(game_map.humans) == len(humans)
    assert (game_map.werewolves, game_map.vampires) == (werewolves, vampires)
    assert game_map.name == name.removesuffix(".xml")


# SHA-256 of the official maps as the course kit ships them.
OFFICIAL_SHA256 = {
    "all_in.xml": "103b8516c28b00b4d0bfbe76fc216d73fa5f1f0adab9d22497f6b5e4a40a94c3",
    "testmap-5x9.xml": "6611ebeda7fbadafbacc6dbb805d59cba19a4aec10d0a1558e52bb3cc478e41f",
    "testmap.xml": "fb5e99600756ca1149959db84a47e0a3797be4332f1cee8449411aabfc07b57b",
    "testmap2.xml": "e6d200ed046c62b42f71cfde13f11231bcdc4d7d256c9593938d0b05d55ede10",
    "thetrap.xml": "4a5bee60b38e3d8741f12d6ca1ac70a2d564a4420196bd11e71af8d90c09e7fe",
}


@pytest.mark.parametrize("name", sorted(OFFICIAL_SHA256))
def test_our_copies_of_the_official_maps_are_byte_identical(name: str) -> None:
    assert hashlib.sha256((MAPS / name).read_bytes()).hexdigest() == OFFICIAL_SHA256[name]


@pytest.mark.parametrize("path", sorted(MAPS.glob("*.xml")), ids=lambda p: p.name)
def test_every_map_we_ship_loads_and_round_trips(path: Path) -> None:
    game_map = load_map(path)
    assert parse_map(dump_map(game_map), str(path)) == game_map


def test_the_houses_keep_their_file_order() -> None:
    humans = load_map(MAPS / "testmap-5x9.xml").humans
    assert humans == ((0, 1, 1), (2, 0, 1), (4, 2, 1), (8, 3, 1), (6, 4, 1))


def test_the_initial_state_puts_every_group_on_its_cell() -> None:
    state = load_map(MAPS / "all_in.xml").initial_state()
    assert state.ply == 0
    assert [state.at(x, y) for x, y in [(0, 0), (2, 0), (1, 1), (0, 2), (1, 0)]] == [
        (HUMANS, 10),
        (HUMANS, 6),
        (WEREWOLVES, 8),
        (VAMPIRES, 12),
        (0, 0),
    ]


@pytest.mark.parametrize("name", ["thetrap.xml", "testmap.xml", "testmap2.xml", "all_in.xml"])
def test_dump_writes_the_course_kits_bytes(name: str) -> None:
    original = (MAPS / name).read_bytes()
    assert dump_map(load_map(MAPS / name)) == original


def test_dump_starts_with_a_bom_and_the_declaration_and_uses_crlf() -> None:
    data = dump_map(GameMap(1, 2, (), (0, 0, 1), (1, 0, 1)))
    assert data == (
        b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8" ?>\r\n<Map Rows="1" Columns="2">\r\n'
        b'  <Werewolves X="1" Y="0" Count="1"/>\r\n  <Vampires X="0" Y="0" Count="1"/>\r\n'
        b"</Map>\r\n"
    )


def test_a_file_without_bom_declaration_or_crlf_reads_too() -> None:
    text = (
        '<Map Columns="2" Rows="1"><Vampires Count="3" X="0" Y="0"/>\n'
        '<Werewolves X="1" Y="0" Count="2"/></Map>'
    )
    assert parse_map(text) == GameMap(1, 2, (), (0, 0, 3), (1, 0, 2))


seeds = st.integers()


@settings(max_examples=200, deadline=None)
@given(
    maps(max_side=255, max_houses=10)
    | st.builds(generate_map, st.integers(4, 30), st.integers(4, 30), st.integers(0, 6), seeds)
)
def test_read_dump_read_round_trips(game_map: GameMap) -> None:
    data = dump_map(game_map)
    again = parse_map(data)
    assert again == game_map
    assert dump_map(again) == data


def test_a_map_written_as_dump_map_gives_it_reads_back_the_same(tmp_path: Path) -> None:
    game_map = generate_map(12, 7, 4, seed=5)
    (tmp_path / "mine.xml").write_bytes(dump_map(game_map))
    assert load_map(tmp_path / "mine.xml") == game_map
    assert load_map(tmp_path / "mine.xml").name == "mine"


HEAD = '\ufeff<?xml version="1.0" encoding="utf-8" ?>\r\n<Map Rows="3" Columns="4">\r\n'
SPECIES = '  <Vampires X="0" Y="0" Count="4"/>\r\n  <Werewolves X="1" Y="0" Count="4"/>\r\n'


def with_line(line: str, head: str = HEAD) -> str:
    """A 3 × 4 map whose fifth line is ``line``."""
    return head + SPECIES + line + "\r\n</Map>\r\n"


BAD_FILES = {
    "malformed XML": (
        with_line('  <Humans X="2" Y="2" Count="1">'),
        6,
        None,
        "not well-formed XML: mismatched tag",
    ),
    "no Vampires": (
        HEAD + '  <Werewolves X="1" Y="0" Count="4"/>\r\n</Map>',
        None,
        None,
        "no <Vampires> element: a map needs exactly one",
    ),
    "no Werewolves": (
        HEAD + '  <Vampires X="1" Y="0" Count="4"/>\r\n</Map>',
        None,
        None,
        "no <Werewolves> element: a map needs exactly one",
    ),
    "second Vampires": (
        with_line('  <Vampires X="3" Y="2" Count="4"/>'),
        5,
        '<Vampires X="3" Y="2" Count="4"/>',
        "a map has exactly one <Vampires> element; this is a second",
    ),
    "second Werewolves": (
        with_line('  <Werewolves X="3" Y="2" Count="4"/>'),
        5,
        '<Werewolves X="3" Y="2" Count="4"/>',
        "a map has exactly one <Werewolves> element; this is a second",
    ),
    "Count 0": (
        with_line('  <Humans X="2" Y="2" Count="0"/>'),
        5,
        '<Humans X="2" Y="2" Count="0"/>',
        "Count must be at least 1 (an empty cell needs no element)",
    ),
    "Count 256": (
        with_line('  <Humans X="2" Y="2" Count="256"/>'),
        5,
        "<Humans>",
        "Count=256 is above 255",
    ),
    "negative value": (
        with_line('  <Humans X="-1" Y="2" Count="1"/>'),
        5,
        "<Humans>",
        "X='-1' is not a whole number 0..255",
    ),
    "column outside": (
        with_line('  <Humans X="4" Y="2" Count="1"/>'),
        5,
        '<Humans X="4" Y="2" Count="1"/>',
        "cell (4,2) is outside the 3 × 4 grid",
    ),
    "row outside": (
        with_line('  <Humans X="0" Y="3" Count="1"/>'),
        5,
        '<Humans X="0" Y="3" Count="1"/>',
        "cell (0,3) is outside the 3 × 4 grid",
    ),
    "two elements on one cell": (
        with_line('  <Humans X="1" Y="0" Count="1"/>'),
        5,
        '<Humans X="1" Y="0" Count="1"/>',
        "cell (1,0) already holds <Werewolves>",
    ),
    "unknown element": (
        with_line('  <Human X="2" Y="2" Count="1"/>'),
        5,
        "<Human>",
        "unknown element (expected <Humans>, <Vampires> or <Werewolves>; names are case-sensitive)",
    ),
    "element in lower case": (
        with_line('  <humans X="2" Y="2" Count="1"/>'),
        5,
        "<humans>",
        "unknown element (expected <Humans>, <Vampires> or <Werewolves>; names are case-sensitive)",
    ),
    "root in lower case": (
        with_line("", head=HEAD.replace("<Map", "<map")).replace("</Map>", "</map>"),
        2,
        "<map>",
        "the root element must be <Map>, not <map>",
    ),
    "unknown attribute": (
        with_line('  <Humans X="2" Y="2" Count="1" Owner="me"/>'),
        5,
        "<Humans>",
        "unknown attribute 'Owner' (expected X, Y, Count; names are case-sensitive)",
    ),
    "attribute in lower case": (
        with_line('  <Humans x="2" Y="2" Count="1"/>'),
        5,
        "<Humans>",
        "unknown attribute 'x' (expected X, Y, Count; names are case-sensitive)",
    ),
    "missing attribute": (
        with_line('  <Humans X="2" Count="1"/>'),
        5,
        "<Humans>",
        "missing attribute Y",
    ),
    "missing grid size": (
        with_line("", head=HEAD.replace(' Columns="4"', "")),
        2,
        "<Map>",
        "missing attribute Columns",
    ),
    "no rows": (
        with_line("", head=HEAD.replace('Rows="3"', 'Rows="0"')),
        2,
        "<Map>",
        "Rows must be at least 1",
    ),
    "256 columns": (
        with_line("", head=HEAD.replace('Columns="4"', 'Columns="256"')),
        2,
        "<Map>",
        "Columns=256 is above 255",
    ),
    "not a number": (
        with_line('  <Humans X="two" Y="2" Count="1"/>'),
        5,
        "<Humans>",
        "X='two' is not a whole number 0..255",
    ),
    "a number of 5,000 digits": (
        with_line(f'  <Humans X="{"9" * 5000}" Y="2" Count="1"/>'),
        5,
        "<Humans>",
        f"X={'9' * 40}… (4960 more characters): number too large (above 255)",
    ),
    "zeros before a small number": (
        with_line(f'  <Humans X="{"0" * 5000}7" Y="2" Count="1"/>'),
        5,
        '<Humans X="7" Y="2" Count="1"/>',
        "cell (7,2) is outside the 3 × 4 grid",
    ),
    "a long value that is no number": (
        with_line(f'  <Humans X="{"x" * 5000}" Y="2" Count="1"/>'),
        5,
        "<Humans>",
        f"X='{'x' * 40}… (4960 more characters)' is not a whole number 0..255",
    ),
    "a long unknown element": (
        with_line(f'  <{"H" * 5000} X="2" Y="2" Count="1"/>'),
        5,
        f"<{'H' * 40}… (4960 more characters)>",
        "unknown element (expected <Humans>, <Vampires> or <Werewolves>; names are case-sensitive)",
    ),
    "nested element": (
        with_line('  <Humans X="2" Y="2" Count="1"><Humans X="3" Y="2" Count="1"/></Humans>'),
        5,
        "<Humans>",
        "elements inside elements are not allowed",
    ),
    "empty file": ("", None, None, "the file is empty"),
    "only a BOM and blanks": ("\ufeff \r\n", None, None, "the file is empty"),
    "only the declaration": (
        '\ufeff<?xml version="1.0" encoding="utf-8" ?>\r\n',
        2,
        None,
        "not well-formed XML: no element found",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_gives_one_clear_error(case: str, tmp_path: Path) -> None:
    text, line, element, reason = BAD_FILES[case]
    path = tmp_path / "bad.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapFileError) as raised:
        load_map(path)
    error = raised.value
    expected = (str(path), line, element, reason)
    assert (error.file, error.line, error.element, error.reason) == expected
    where = ", ".join(str(part) for part in (path, line and f"line {line}", element) if part)
    assert str(error) == f"{where}: {reason}"
    assert "\n" not in str(error)


def test_invalid_utf8_is_malformed_xml() -> None:
    data = HEAD.encode() + b"  <!-- \xff -->\r\n" + SPECIES.encode() + b"</Map>"
    with pytest.raises(MapFileError, match=r"^x.xml, line 3: not well-formed XML: .*invalid token"):
        parse_map(data, "x.xml")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda tmp: tmp / "missing.xml", "cannot read the file: No such file or directory"),
        (lambda tmp: tmp, "cannot read the file: Is a directory"),
    ],
)
def test_an_unreadable_path_gives_one_clear_error(make, reason: str, tmp_path: Path) -> None:
    path = make(tmp_path)
    with pytest.raises(MapFileError) as raised:
        load_map(path)
    assert str(raised.value) == f"{path}: {reason}"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_arbitrary_bytes_give_a_map_or_a_map_file_error(data: bytes | str) -> None:
    try:
        parse_map(data)
    except MapFileError as error:
        assert "\n" not in str(error)


CODEC_NAMES = sorted(set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values()))
"""Every name Python's codecs know: multi-byte ones, ones expat reads, odd ones (``idna``)."""


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from([*CODEC_NAMES, "undefined", "punycode", "Shift_JIS", "UTF-16"]),
        st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=20),
    )
)
def test_any_declared_encoding_gives_a_map_or_a_map_file_error(encoding: str) -> None:
    data = f'<?xml version="1.0" encoding="{encoding}"?>\n<Map Rows="3" Columns="4">'
    try:
        parse_map(data + SPECIES + "</Map>", "x.xml")
    except MapFileError as error:
        assert str(error).startswith("x.xml")


def test_an_unknown_encoding_is_one_clear_error() -> None:
    data = b'<?xml version="1.0" encoding="latin-9x"?><Map Rows="3" Columns="4"/>'
    reason = "not readable XML: unknown encoding: latin-9x"
    with pytest.raises(MapFileError, match=rf"^x.xml: {reason}$"):
        parse_map(data, "x.xml")


@pytest.mark.parametrize(
    ("encoding", "why"),
    [
        ("Shift_JIS", "multi-byte encodings are not supported"),
        ("UTF-7", "multi-byte encodings are not supported"),
        ("undefined", "decoding with 'undefined' codec failed"),
    ],
)
def test_a_declared_encoding_expat_cannot_use_is_named_in_one_clear_error(
    encoding: str, why: str
) -> None:
    data = f'\ufeff<?xml version="1.0" encoding="{encoding}"?><Map Rows="3" Columns="4"/>'
    reason = f"not readable XML: the declared encoding '{encoding}' cannot be used ({why}"
    with pytest.raises(MapFileError, match=rf"^x.xml: {re.escape(reason)}"):
        parse_map(data, "x.xml")


def _houses(count: int) -> str:
    """A 20 × 20 map with ``count`` one-human houses and the two starts on the last row."""
    humans = "".join(f'<Humans X="{i % 20}" Y="{i // 20}" Count="1"/>' for i in range(count))
    starts = '<Vampires X="19" Y="19" Count="3"/><Werewolves X="18" Y="19" Count="3"/>'
    return f'<Map Rows="20" Columns="20">{humans}{starts}</Map>'


def test_a_map_holds_at_most_the_255_cells_map_can_list() -> None:
    assert len(parse_map(_houses(MAX_CELLS - 2)).humans) == 253
    too_many = r"^x.xml: 254 <Humans> elements: .* at most 253 houses$"
    with pytest.raises(MapFileError, match=too_many):
        parse_map(_houses(MAX_CELLS - 1), "x.xml")
