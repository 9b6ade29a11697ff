"""Every desktop suite's scripts, by task id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from gui_agent.models.policies.desktop_oracle import calc, mail, office, osworld
from gui_agent.models.policies.desktop_oracle.script import Item

SCRIPTS: Mapping[str, Callable[[], list[Item]]] = MappingProxyType({**calc.SCRIPTS, **mail.SCRIPTS, **office.SCRIPTS, **osworld.SCRIPTS})
