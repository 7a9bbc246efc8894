"""The one list of reasons the ladder refuses a connection, and what each implies."""

from vvw.ladder.notes import read_refusal, refusal_note
from vvw.ladder.refusals import Refusal


def test_only_a_full_team_may_try_again():
    assert [refusal for refusal in Refusal if not refusal.final] == [Refusal.TEAM_FULL]


def test_a_full_team_and_an_address_refused_unread_count_no_new_failed_login():
    assert {refusal for refusal in Refusal if not refusal.failed_login} == {
        Refusal.TEAM_FULL,
        Refusal.SLOWED,
    }


def test_each_reason_is_one_line_that_a_relay_reads_back_from_its_note():
    for refusal in Refusal:
        assert refusal.value and "\n" not in refusal.value
        assert read_refusal(refusal_note(refusal)) == (refusal.value, refusal.final)
