"""The command line's error: bad input from the user, printed as one line, exit status 2.

Its own module because both sides use it: the dispatcher (``cli``) catches it, and the
command modules it dispatches to raise it, so neither imports the other for it.
"""

from __future__ import annotations


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


# The exit status of a journal the service cannot use: the unit does not restart on it
# (RestartPreventExitStatus, appliance/unit.py): starting again cannot mend a journal.
JOURNAL_EXIT = 3


class JournalUnusable(UsageError):
    """A journal that cannot be used as it is (not writable, not a journal, a game that
    does not read): one line with its fix, exit status 3."""

    exit_code = JOURNAL_EXIT
