"""Text from a bot made safe for a terminal: one line, no control, printable text kept."""

from hypothesis import given
from hypothesis import strategies as st

from protocol.printable import printable


@given(st.text())
def test_what_it_gives_is_printable_and_giving_it_again_changes_nothing(text):
    shown = printable(text)
    assert shown.isprintable()
    assert printable(shown) == shown


@given(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")
        )
    )
)
def test_printable_text_is_kept_as_it_is(text):
    assert printable(text) == text


def test_newlines_and_escape_codes_are_written_as_their_escapes():
    assert printable("evil\n\x1b[2Jbot") == "evil\\n\\x1b[2Jbot"
