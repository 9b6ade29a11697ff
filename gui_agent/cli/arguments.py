"""Value types for command-line options that several commands share.

argparse calls these on the raw text; raising ``ArgumentTypeError`` makes it print the
option, the message and the usage, and exit 2 — the CLI's "bad input" status.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

from gui_agent.envs.observe_modes import OBSERVATIONS  # what ``--observe`` may add (``run`` and ``eval``)


def positive_int(text: str) -> int:
    """A whole number >= 1 (counts: workers, repeats, epochs, tokens...)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (budgets in seconds or dollars)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def seed_range(text: str) -> list[int]:
    """Seeds like ``0-9`` or ``1,5,7`` (or both: ``0-4,9``), in the order given.

    A range runs upwards and a seed is named once: ``5-2`` or ``1,1`` is a mistake to
    report, not an empty or doubled run.
    """
    seeds: list[int] = []
    for part in text.split(","):
        start, dash, end = part.strip().partition("-")
        try:
            first, last = int(start), int(end) if dash else int(start)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected seeds like 0-9 or 1,5,7, got {text!r}") from None
        if last < first:
            raise argparse.ArgumentTypeError(f"seed range {part.strip()!r} runs backwards; write it low-high, e.g. {last}-{first}")
        seeds.extend(range(first, last + 1))
    repeated = sorted(seed for seed, times in Counter(seeds).items() if times > 1)
    if repeated:
        raise argparse.ArgumentTypeError(f"seeds named more than once in {text!r}: {', '.join(map(str, repeated))}")
    return seeds




def observations(text: str) -> frozenset[str]:
    """Extra observations, comma-separated (``a11y_tree``): each one of :data:`OBSERVATIONS`."""
    kinds = frozenset(part.strip() for part in text.split(",") if part.strip())
    unknown = sorted(kinds - set(OBSERVATIONS))
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(f"expected one or more of {', '.join(OBSERVATIONS)}, got {text!r}")
    return kinds


#: The policies whose model may ask for safety checks to be acknowledged.
SAFETY_CHECKED_POLICIES = ("openai-cua:",)


def acknowledging_safety_checks(spec: str) -> str:
    """The policy spec with ``acknowledge_safety_checks=1`` (``--acknowledge-safety-checks``).

    Raises:
        ValueError: the policy has no safety checks to acknowledge.
    """
    if not spec.startswith(SAFETY_CHECKED_POLICIES):
        raise ValueError(f"--acknowledge-safety-checks applies to {', '.join(SAFETY_CHECKED_POLICIES)} policies, not {spec!r}")
    return f"{spec}{'&' if '?' in spec else '?'}acknowledge_safety_checks=1"
