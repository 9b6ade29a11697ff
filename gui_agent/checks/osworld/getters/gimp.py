"""OSWorld's GIMP getter: ``gimp_config_file``, a file of GIMP's profile in the home folder."""

from __future__ import annotations

from typing import Any

from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files
from gui_agent.errors import OsworldConfigError

#: GIMP 2.10's profile folder, relative to the home (as OSWorld's getter expands ``~``).
GIMP_PROFILE = ".config/GIMP/2.10"


def gimp_config_path(spec: Any, where: str) -> str:
    """The home path of the GIMP config file a ``gimp_config_file`` getter names (``file_name``)."""
    name = spec.get("file_name") if isinstance(spec, dict) else None
    if not isinstance(name, str) or not name.strip() or name.startswith("/") or ".." in name.split("/"):
        raise OsworldConfigError(f"{where}.file_name", "expected the name of a file in GIMP's profile (gimprc, sessionrc)")
    return f"{GIMP_PROFILE}/{name}"


def gimp_config_source(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    """``gimp_config_file`` as a value's source: the config file's text."""
    return {"file_text": {"path": gimp_config_path(spec, where)}}


#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {"gimp_config_file": gimp_config_source}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {}
