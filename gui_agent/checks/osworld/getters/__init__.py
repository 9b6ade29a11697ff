"""OSWorld getters -> our sources: what a ``value`` check reads.

An OSWorld evaluator names its ``result`` (and sometimes ``expected``) by a getter type
(``vm_command_line``, ``active_tab_info``, ``vlc_config``...). Metrics that judge any
value (``exact_match``, ``is_in_list``, ...) read it through :func:`source_of`, which
turns the getter spec into a source of :mod:`gui_agent.checks.sources`. The getters live
by what they read, each module with its table.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from gui_agent.checks.osworld.getters import chrome, code, gimp, media, office, system
from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: OSWorld getter type -> its conversion.
GETTERS: MappingProxyType[str, Getter] = MappingProxyType({
    **system.GETTERS, **chrome.GETTERS, **media.GETTERS, **code.GETTERS, **gimp.GETTERS, **office.GETTERS,
})
#: Getter types known to have no equivalent, and why.
NO_EQUIVALENT: MappingProxyType[str, str] = MappingProxyType({
    **system.NO_EQUIVALENT, **chrome.NO_EQUIVALENT, **media.NO_EQUIVALENT, **code.NO_EQUIVALENT, **gimp.NO_EQUIVALENT,
    **office.NO_EQUIVALENT,
})

#: Getters a metric's conversion reads itself (a slide's audio or picture, judged inside the
#: presentation) -> that metric.
READ_BY_METRICS: MappingProxyType[str, str] = MappingProxyType({
    **office.READ_BY_METRICS, "accessibility_tree": "check_accessibility_tree",
})


def source_of(spec: Any, where: str, files: Files) -> SourceSpec:
    """The source for the getter ``spec`` (a ``result``/``expected`` mapping) at ``where``.

    Raises:
        OsworldUnsupported: the getter has no equivalent here.
        OsworldConfigError: the spec is not a getter mapping.
    """
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        raise OsworldConfigError(where, f"expected a getter mapping with 'type', got {kind_of(spec)}")
    convert = GETTERS.get(spec["type"])
    if convert is None:
        raise OsworldUnsupported(NO_EQUIVALENT.get(spec["type"], f"the getter {spec['type']!r} has no equivalent here"))
    return convert(spec, where, files)


__all__ = ["GETTERS", "NO_EQUIVALENT", "READ_BY_METRICS", "source_of"]
