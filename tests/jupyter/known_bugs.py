"""Checks that fail because of a known bug outside the kernel's protocol
layer (the interpreter), listed so that the suite stays green while the bug
is open and the reason is printed on every run. A listed check that passes
again is reported, so that the entry can be removed."""
import functools
import unittest


def known_bug(reason):
    """Marks a check that currently fails for reason. The failure is
    printed, not counted; once the check passes it says so."""

    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                fn(*args, **kwargs)
            except AssertionError as e:
                print("\n    KNOWN BUG (%s): %s" % (reason, str(e).splitlines()[0][:200]), end=" ")
                return
            print("\n    FIXED? known bug no longer shows (%s); remove the known_bug mark" % reason, end=" ")

        return run

    return wrap
