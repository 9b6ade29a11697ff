"""What a source declares: one kind of state a ``value`` check can read, and its reader.

OSWorld's evaluators split *getting* a value (its getters: a command's output, the active
tab's URL, a VLC setting) from *judging* it (its metrics: exact match, fuzzy match,
include/exclude). Our ``value`` check (:mod:`gui_agent.checks.values`) keeps that split:
``value: {of: SOURCE, ...}``, where SOURCE is a one-key mapping such as
``{command_output: {command: [...]}}``. Each source is a :class:`SourceType`: the one-key
model a task file's source is read into, beside the function reading it from the probe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gui_agent.checks.family import DESKTOP
from gui_agent.schema import SingleKey

#: ``read(args, probe)``: the value now in the environment (text, number, list, mapping).
Reader = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class SourceType:
    """One source as the registry knows it.

    Attributes:
        model: the one-key model a task file's source is read into; its ``name`` is the key.
        read: returns the value; raises when it cannot be read (the check then fails as
            "could not be evaluated"), or :class:`~gui_agent.errors.EnvError` when the
            environment itself is broken.
        environments: the environment kinds whose probe can answer it.
    """

    model: type[SingleKey]
    read: Reader
    environments: frozenset[str] = DESKTOP

    @property
    def name(self) -> str:
        return self.model.name


__all__ = ["Reader", "SourceType"]
