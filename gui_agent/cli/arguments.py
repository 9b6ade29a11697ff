"""Value types for command-line options that several commands share.

argparse calls these on the raw text; raising ``ArgumentTypeError`` makes it print the
option, the message and the usage, and exit 2 — the CLI's "bad input" status.
"""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """A whole number >= 1 (counts: workers, repeats, epochs, tokens...)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value
