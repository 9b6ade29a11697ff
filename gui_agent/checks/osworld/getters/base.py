"""What converting an OSWorld getter means: its spec (``{"type": ..., ...}``, the
``result`` or ``expected`` of an evaluator) becomes a source of ours
(:mod:`gui_agent.checks.sources`), written as a task file writes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.metric import Files

#: A source as a task file writes it (``{"command_output": {...}}``).
SourceSpec = dict[str, Any]
#: ``getter(spec, where, files)``: the source for the getter spec at ``where`` in the config;
#: raises OsworldUnsupported (no equivalent) or OsworldConfigError (a malformed spec).
Getter = Callable[[dict[str, Any], str, Files], SourceSpec]

__all__ = ["Getter", "SourceSpec"]
