"""Why the ladder refuses a connection: the one list of reasons.

The server tells them (its :class:`~vvw.ladder.serving.Refused` events, the lines of
``vvw ladder serve``), sends a relay the reason in its refusal note
(:func:`vvw.ladder.notes.refusal_note`), and ``vvw ladder join`` prints it. The store
checks a team's token (:meth:`~vvw.ladder.store.LadderStore.authenticate`), and
:func:`~vvw.ladder.credentials.parse_credentials` says why an ``NME`` presents no
credentials, in the same terms.
"""

from enum import Enum


class Refusal(Enum):
    """Why the ladder refused a connection that sent an ``NME``, or did not read it. The
    value is the reason as the server and ``vvw ladder join`` say it. :attr:`BAD_NAME` and
    :attr:`BAD_TOKEN` say what is wrong with credentials; the server tells every ``NME``
    that presents none as :attr:`NOT_CREDENTIALS`."""

    SLOWED = "too many failed logins from its address lately: refused unread"
    NOT_CREDENTIALS = "its NME is not a team's credentials (bots join with `vvw ladder join`)"
    BAD_NAME = "credentials with a name no team can have"
    BAD_TOKEN = "credentials with a token of the wrong form"
    NO_SUCH_TEAM = "no such team"
    WRONG_TOKEN = "wrong token"
    TEAM_FULL = "the team has all its connections open already"

    @property
    def final(self) -> bool:
        """Whether trying again cannot help (a wrong token does not become right); a team
        whose connections are all open may try again later."""
        return self is not Refusal.TEAM_FULL

    @property
    def failed_login(self) -> bool:
        """Whether it counts as a failed login of its address
        (:class:`~vvw.ladder.limiter.FailureLimiter`): every refusal but a full team's
        (whose token was right) and one refused unread (counted already)."""
        return self not in (Refusal.TEAM_FULL, Refusal.SLOWED)
