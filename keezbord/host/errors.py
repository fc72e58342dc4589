"""The command line's error: bad input from the user, printed as one line, exit status 2.

Its own module because both sides use it: the dispatcher (``cli``) catches it, and the
command modules it dispatches to raise it, so neither imports the other for it.
"""

from __future__ import annotations


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""
