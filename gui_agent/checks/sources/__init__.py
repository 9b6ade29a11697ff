"""Every source a ``value`` check may read, from one table per module.

Adding a source is its model and reader in the module of what it reads (``system``: the
session, commands and files; ``chrome``: the browser's tabs and profile; ``media``: VLC;
``code``: VS Code; ``accessibility``: the apps' element tree) and a row in that module's ``SOURCES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

from gui_agent.checks.sources import accessibility, chrome, code, media, system
from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import SingleKey, single_key_union

#: Every source, module by module.
SOURCES: tuple[SourceType, ...] = (*system.SOURCES, *chrome.SOURCES, *media.SOURCES, *code.SOURCES, *accessibility.SOURCES)
_BY_MODEL: Mapping[type[SingleKey], SourceType] = MappingProxyType({s.model: s for s in SOURCES})
if TYPE_CHECKING:
    Source: TypeAlias = SingleKey
else:
    Source = single_key_union("source", tuple(s.model for s in SOURCES))


def read_source(source: SingleKey, probe: Any) -> Any:
    """The value ``source`` names, read through ``probe`` (see :class:`SourceType`)."""
    return _BY_MODEL[type(source)].read(source.args, probe)


__all__ = ["SOURCES", "Source", "SourceType", "read_source"]
