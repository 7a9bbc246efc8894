"""Who a connection says it is: team names, tokens, and the two in a bot's ``NME``.

A team's token is random (:func:`new_token`, 192 bits from :mod:`secrets`) and only its hash
is stored (:func:`hash_token`, :func:`token_matches`). A token is hashed with SHA-256 and a
salt of the team's own rather than with a slow password hash: slow hashes protect passwords
a person chose, which can be guessed; nobody can guess 192 random bits however fast the
hash, while a slow one would cost the server tens of milliseconds of CPU per connection and
turn a flood of bad logins into a denial of service. The salt keeps two ladders' hashes of
one token apart. Hashes are compared in constant time.

On the wire a connection presents ``ladder:TEAM:TOKEN`` as its ``NME`` (at most 255 bytes,
the course protocol's limit): ``vvw ladder join`` rewrites the bot's own ``NME`` into it, so
a bot needs no change. The relay of ``vvw ladder join`` adds ``:relay``: it reads the note
the ladder then sends after ``BYE`` (the game's result, which the course protocol never
tells a bot), and passes no byte of it to the bot. :func:`format_credentials` and
:func:`parse_credentials` are the one place that knows this form.
"""

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

import attrs

from vvw.ladder.refusals import Refusal

NAME_LENGTH = 32
"""The longest team name, in characters."""
NAME_PATTERN = re.compile(r"[^\W_][\w.-]*")
"""A letter or digit (any script), then letters, digits, ``_``, ``.`` and ``-``."""
TOKEN_BYTES = 24
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{32}")
"""A token as :func:`new_token` writes it: 24 bytes, URL-safe base64."""
PREFIX = "ladder"
RELAY = "relay"
NME_BYTES = 255
HASH_SCHEME = "sha256"
TOKEN_VARIABLE = "VVW_LADDER_TOKEN"
"""Where ``vvw ladder join`` finds the team's token without ``--token-file``."""


class TeamNameError(ValueError):
    """A team name that cannot be used; ``str()`` says why in one line."""


class TokenError(ValueError):
    """No team's token where one was looked for; ``str()`` says why in one line."""


def check_team_name(name: str) -> str:
    """``name`` if a team may be called so; :class:`TeamNameError` saying why if not."""
    if not name:
        raise TeamNameError("a team name cannot be empty")
    if len(name) > NAME_LENGTH:
        raise TeamNameError(f"a team name has at most {NAME_LENGTH} characters, got {len(name)}")
    if NAME_PATTERN.fullmatch(name) is None:
        raise TeamNameError(
            f"bad team name {name!r}: it starts with a letter or digit and has only"
            " letters, digits, '_', '.' and '-'"
        )
    return name


def name_key(name: str) -> str:
    """What two names must not share: ``Alpha`` and ``alpha`` are one team."""
    return name.casefold()


def new_token() -> str:
    """A fresh random token (32 URL-safe characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def read_token(token_file: Path | None) -> str:
    """A team's token, as ``vvw ladder join`` finds it: in ``token_file``, else in the
    environment variable :data:`TOKEN_VARIABLE`, which is then removed (the bot's process
    never inherits it). :class:`TokenError` if there is none, or not one of the form of
    :func:`new_token`."""
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise TokenError(f"cannot read the token file {token_file}: {reason}") from None
        where = f"the token file {token_file}"
    else:
        token = os.environ.pop(TOKEN_VARIABLE, "").strip()
        where = f"${TOKEN_VARIABLE}"
        if not token:
            raise TokenError(
                f"no token: give --token-file FILE or set {TOKEN_VARIABLE} (a token never goes"
                " on a command line, where other users of the machine can read it)"
            )
    if TOKEN_PATTERN.fullmatch(token) is None:
        raise TokenError(
            f"{where} does not hold a ladder token (32 letters, digits, '-' and '_', as"
            " `vvw ladder team add` printed it)"
        )
    return token


def _digest(token: str, salt: bytes) -> bytes:
    return hashlib.sha256(salt + token.encode()).digest()


def hash_token(token: str) -> str:
    """What the store keeps of ``token``: ``sha256$SALT$DIGEST`` (hex), a fresh salt each
    time."""
    salt = secrets.token_bytes(16)
    return f"{HASH_SCHEME}${salt.hex()}${_digest(token, salt).hex()}"


def token_matches(token: str, stored: str) -> bool:
    """Whether ``token`` is the one ``stored`` (a :func:`hash_token`) was made from, in time
    that does not depend on how much of it matches."""
    scheme, _, rest = stored.partition("$")
    salt_hex, _, digest_hex = rest.partition("$")
    if scheme != HASH_SCHEME:
        return False
    try:
        salt, digest = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)
    except ValueError:
        return False
    return hmac.compare_digest(_digest(token, salt), digest)


class CredentialsError(ValueError):
    """An ``NME`` that is not a team's credentials: ``refusal`` says what is wrong with it
    (:attr:`~Refusal.NOT_CREDENTIALS`, :attr:`~Refusal.BAD_NAME`, :attr:`~Refusal.BAD_TOKEN`)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal


@attrs.frozen
class Credentials:
    """A team's name and token, as a connection presents them. The token never shows in a
    ``repr`` (nor so in a log line)."""

    team: str
    token: str = attrs.field(repr=False)
    relay: bool = False
    """Presented by ``vvw ladder join``'s relay, which reads the result note after ``BYE``."""


def format_credentials(credentials: Credentials) -> bytes:
    """The ``NME`` name that presents ``credentials``: ``ladder:TEAM:TOKEN`` in UTF-8."""
    check_team_name(credentials.team)
    if TOKEN_PATTERN.fullmatch(credentials.token) is None:
        raise CredentialsError(Refusal.BAD_TOKEN)
    relay = f":{RELAY}" if credentials.relay else ""
    data = f"{PREFIX}:{credentials.team}:{credentials.token}{relay}".encode()
    if len(data) > NME_BYTES:  # 32 characters of 4 bytes at most: never, but the limit is law
        raise CredentialsError(Refusal.BAD_NAME)
    return data


def parse_credentials(name: bytes) -> Credentials:
    """The credentials an ``NME``'s name presents; :class:`CredentialsError` naming the
    :class:`Refusal` if it presents none."""
    try:
        text = name.decode("utf-8")
    except UnicodeDecodeError:
        raise CredentialsError(Refusal.NOT_CREDENTIALS) from None
    fields = text.split(":")
    relay = len(fields) == 4 and fields[3] == RELAY
    if len(fields) != 3 + relay or fields[0] != PREFIX:
        raise CredentialsError(Refusal.NOT_CREDENTIALS)
    team, token = fields[1:3]
    try:
        check_team_name(team)
    except TeamNameError:
        raise CredentialsError(Refusal.BAD_NAME) from None
    if TOKEN_PATTERN.fullmatch(token) is None:
        raise CredentialsError(Refusal.BAD_TOKEN)
    return Credentials(team, token, relay)
