"""Team names, tokens and their hashes, and the credentials a bot's NME presents."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vvw.ladder.credentials import (
    NAME_LENGTH,
    NME_BYTES,
    Credentials,
    CredentialsError,
    TeamNameError,
    check_team_name,
    format_credentials,
    hash_token,
    name_key,
    new_token,
    parse_credentials,
    token_matches,
)
from vvw.ladder.refusals import Refusal

names = st.from_regex(r"[^\W_][\w.-]{0,31}", fullmatch=True)
tokens = st.builds(lambda _: new_token(), st.integers())


@pytest.mark.parametrize("name", ["alpha", "Team-3", "les_loups.v2", "Équipe", "狼", "7up"])
def test_letters_digits_and_a_few_signs_make_a_team_name(name):
    assert check_team_name(name) == name


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "cannot be empty"),
        ("x" * (NAME_LENGTH + 1), "at most 32 characters"),
        ("<script>", "bad team name '<script>'"),
        ("two words", "bad team name"),
        ("-flag", "starts with a letter or digit"),
        ("a:b", "bad team name"),
        ("tab\there", "bad team name"),
    ],
)
def test_a_bad_team_name_is_refused_saying_why(name, says):
    with pytest.raises(TeamNameError, match=says):
        check_team_name(name)


def test_names_differing_only_in_case_are_one_team():
    assert name_key("Alpha") == name_key("ALPHA") == name_key("alpha")
    assert name_key("Straße") == name_key("STRASSE")


def test_tokens_are_random_and_url_safe():
    drawn = {new_token() for _ in range(100)}
    assert len(drawn) == 100
    assert all(len(token) == 32 and token.isascii() for token in drawn)


@given(tokens)
def test_a_hash_matches_its_token_and_holds_no_trace_of_it(token):
    stored = hash_token(token)
    assert token_matches(token, stored)
    assert token not in stored
    assert token.encode().hex() not in stored


@given(tokens, tokens)
def test_a_hash_matches_no_other_token(token, other):
    if other != token:
        assert not token_matches(other, hash_token(token))


def test_each_hash_of_one_token_has_its_own_salt():
    token = new_token()
    assert hash_token(token) != hash_token(token)


@pytest.mark.parametrize("stored", ["", "md5$00$00", "sha256$zz$00", "sha256$00"])
def test_a_damaged_hash_matches_nothing(stored):
    assert not token_matches(new_token(), stored)


@given(names, tokens, st.booleans())
def test_credentials_go_through_an_nme_and_back(name, token, relay):
    credentials = Credentials(name, token, relay)
    data = format_credentials(credentials)
    assert len(data) <= NME_BYTES
    assert parse_credentials(data) == credentials


def test_the_longest_name_in_four_byte_characters_fits_in_an_nme():
    name = "𝔘" * NAME_LENGTH
    assert len(format_credentials(Credentials(name, new_token()))) <= NME_BYTES


def test_credentials_read_ladder_team_token():
    token = new_token()
    assert parse_credentials(f"ladder:alpha:{token}".encode()) == Credentials("alpha", token)


def test_the_relay_of_ladder_join_says_so_after_the_token():
    token = new_token()
    credentials = parse_credentials(f"ladder:alpha:{token}:relay".encode())
    assert credentials == Credentials("alpha", token, relay=True)


@pytest.mark.parametrize(
    ("nme", "refusal"),
    [
        (b"alphabeta", Refusal.NOT_CREDENTIALS),
        (b"", Refusal.NOT_CREDENTIALS),
        (b"\xff\xfe", Refusal.NOT_CREDENTIALS),
        (b"other:alpha:" + b"A" * 32, Refusal.NOT_CREDENTIALS),
        (b"ladder:alpha:" + b"A" * 32 + b":extra", Refusal.NOT_CREDENTIALS),
        (b"ladder:alpha:" + b"A" * 32 + b":relay:relay", Refusal.NOT_CREDENTIALS),
        (b"alpha:" + b"A" * 32 + b":relay", Refusal.NOT_CREDENTIALS),
        (b"ladder:<b>:" + b"A" * 32, Refusal.BAD_NAME),
        (b"ladder::" + b"A" * 32, Refusal.BAD_NAME),
        (b"ladder:alpha:short", Refusal.BAD_TOKEN),
        (b"ladder:alpha:" + b"A" * 31 + b"!", Refusal.BAD_TOKEN),
    ],
)
def test_an_nme_that_presents_no_credentials_is_refused_with_its_reason(nme, refusal):
    with pytest.raises(CredentialsError) as caught:
        parse_credentials(nme)
    assert caught.value.refusal is refusal


@given(st.binary(max_size=255))
def test_any_nme_is_either_credentials_or_a_refusal(nme):
    try:
        credentials = parse_credentials(nme)
    except CredentialsError as error:
        assert isinstance(error.refusal, Refusal)
    else:
        assert format_credentials(credentials) == nme


def test_a_token_never_shows_in_the_credentials_repr():
    token = new_token()
    credentials = Credentials("alpha", token)
    assert token not in repr(credentials)
    assert token not in str(credentials)
    assert "alpha" in repr(credentials)
